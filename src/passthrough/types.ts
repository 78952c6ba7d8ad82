/**
 * The passthrough's shared types: what it is built from (PassthroughDeps, PassthroughOptions), what every
 * part of it shares (PassthroughContext), and what it knows about one request (RequestContext).
 */
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import type { Endpoint } from '@touchline/upstream-contract/endpoints'
import type { ParsedQuery } from '@touchline/upstream-contract/query'
import type { ClientKey, KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import type { UpstreamClient } from '../upstream/index.ts'
import type { SingleFlight } from '../util/singleflight.ts'
import type { ResponseCache } from './cache.ts'
import type { Fetched, FetchDeps } from './fetch.ts'
import type { LeagueIndex } from './league-index.ts'
import type { LiveSource } from './mirror.ts'
import type { QuotaState, QuotaStore } from './quota.ts'
import type { PassRequest } from './request.ts'
import type { TtlPolicy } from './ttl.ts'

export interface PassthroughDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  keys: KeyRing
  cache: ResponseCache
  quota: QuotaStore
  log: Logger
  metrics?: Metrics
  /** Answers livescores from the poller's last payloads while they are fresh (live.ts). */
  live?: LiveSource
  /** Values that must never leave (the upstream token): scrubbed from every upstream body. */
  secrets?: readonly string[]
  /**
   * The upstream's origin (`https://api.example.com`): removed from every upstream body, so that no link
   * the gateway relays names the upstream host (pagination links are rebuilt on the gateway, links.ts).
   */
  upstreamOrigin?: string
  /** Fixture and season leagues for the scope (league-index.ts); a fresh one when unset. */
  leagueIndex?: LeagueIndex
}

export interface PassthroughOptions {
  /** The gateway's clock: quota windows, cache expiry, live freshness. Tests move it. @default Date.now */
  now?: () => number
  /** The budget ledger's clock. @default Date.now */
  ledgerNow?: () => number
  ttl?: Partial<TtlPolicy>
  /** Deadline of one upstream call; unset keeps the upstream client's (10 s). */
  upstreamTimeoutMs?: number
}

/** What every part of one passthrough shares: its deps and options, resolved once. */
export interface PassthroughContext {
  deps: PassthroughDeps
  log: Logger
  /** The gateway's clock (PassthroughOptions.now). */
  now: () => number
  ttl: TtlPolicy
  fetchDeps: FetchDeps
  /** Identical requests in flight share one load (sources.ts). */
  flights: SingleFlight<{ fetched: Fetched, hit: boolean }>
  leagueIndex: LeagueIndex
}

/** What the passthrough knows about one request once it is authenticated, routed, validated and counted. */

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
