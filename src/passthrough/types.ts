/** What the passthrough knows about one request once it is authenticated, routed, validated and counted. */
import type { Endpoint } from '../contract/endpoints.ts'
import type { ParsedQuery } from '../contract/query.ts'
import type { ClientKey } from '../client-keys.ts'
import type { QuotaState } from './quota.ts'
import type { PassRequest } from './request.ts'

export interface RequestContext {
  req: PassRequest
  key: ClientKey
  /** Quota id of the key (digest.ts#keyIdOf), never the key itself. */
  keyId: string
  endpoint: Endpoint
  params: Record<string, string>
  query: ParsedQuery
  /** The client's parameters as strings; the scope may narrow `filters` before the upstream request is built. */
  raw: Record<string, string | undefined>
  /** The key's quota for the endpoint's entity, after counting this request. */
  quota: QuotaState
  /** The gateway's clock when the request was counted. */
  now: number
  /**
   * Set when the request names a path, include, filter or select field the catalogue does not know and is
   * forwarded after a syntax check (route.ts); `base` is the catalogue endpoint it is closest to.
   */
  forwarded?: { base?: Endpoint }
  /** Set once a call was sent upstream for this request: it then keeps its count whatever the answer. */
  sentUpstream: boolean
  /** Counted locally while the shared store is down: answer only without an upstream call (fallback.ts). */
  offline?: boolean
}
