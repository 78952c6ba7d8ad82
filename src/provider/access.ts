/** Plan checks (spec part 5 rule 4, part 7 row 403): leagues outside the plan, and paid includes or endpoints. */
import type { IncludeNode } from '../contract/query.ts'
import type { Feature } from '../contract/resources.ts'
import { forbidden, type ErrorReply } from './errors.ts'
import type { Plan } from './plans.ts'

/** What a caller must buy to use a feature, as `plan_required` says it. */
const REQUIRED: Readonly<Record<Feature, { resource: string, plan: string }>> = {
  xg: { resource: 'xGFixture', plan: 'Pro' },
  odds: { resource: 'odds', plan: 'Odds package' },
  predictions: { resource: 'predictions', plan: 'Predictions add-on' }
}

function firstMissing (plan: Plan, includes: readonly IncludeNode[]): Feature | undefined {
  for (const node of includes) {
    if (node.feature !== undefined && !plan.features.has(node.feature)) return node.feature
    const nested = firstMissing(plan, node.children)
    if (nested !== undefined) return nested
  }
  return undefined
}

export function featureError (plan: Plan, endpointFeature: Feature | undefined, includes: readonly IncludeNode[]): ErrorReply | undefined {
  const missing = endpointFeature !== undefined && !plan.features.has(endpointFeature) ? endpointFeature : firstMissing(plan, includes)
  if (missing === undefined) return undefined
  const { resource, plan: required } = REQUIRED[missing]
  return forbidden(resource, required)
}

export function leagueVisible (plan: Plan, leagueId: number): boolean {
  return plan.leagues === '*' || plan.leagues.includes(leagueId)
}

export function leagueForbidden (leagueId: number): ErrorReply {
  return forbidden(`league ${leagueId}`, 'Starter', `League ${leagueId} is not included in your subscription. Upgrade to a plan that covers it.`)
}
