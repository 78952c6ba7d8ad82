/**
 * Paid features a request needs (without them the upstream answers 403, docs/upstream.md "Errors"): an endpoint that is a feature in itself (odds,
 * predictions, expected goals), or an include anywhere in the include tree (xGFixture, odds, predictions).
 */
import { ENDPOINT_FEATURES, type Endpoint } from './endpoints.ts'
import type { IncludeNode } from './query.ts'
import type { Feature } from './resources.ts'

function firstInTree (includes: readonly IncludeNode[], has: (f: Feature) => boolean): Feature | undefined {
  for (const node of includes) {
    if (node.feature !== undefined && !has(node.feature)) return node.feature
    const nested = firstInTree(node.children, has)
    if (nested !== undefined) return nested
  }
  return undefined
}

/** The first feature the request needs that the caller lacks, or undefined when it may proceed. */
export function missingFeature (endpoint: Endpoint, includes: readonly IncludeNode[], has: (f: Feature) => boolean): Feature | undefined {
  const own = ENDPOINT_FEATURES[endpoint.id]
  if (own !== undefined && !has(own)) return own
  return firstInTree(includes, has)
}
