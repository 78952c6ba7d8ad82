/**
 * One upstream call for the passthrough: reserve the shared budget first, call once (no retries: the client
 * is waiting and may retry itself), and turn whatever comes back into a cache entry or a failure the
 * service can answer with. Nothing here throws.
 *
 * Budget (budget/share.ts): the passthrough spends the ledger the pollers pace themselves by, and never what
 * their claims need until the window resets, in any bucket (Fixture, InplayOdd...): the ledger judges that in
 * the same atomic step as the count, so no mix of paths and no other instance gets past it.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import type { Kind } from '@touchline/upstream-contract/resources'
import { parseRetryAfter, UpstreamError, UpstreamErrorCode, type UpstreamClient } from '../upstream/index.ts'
import { requestedEntity, type ChargedEntities } from './charged.ts'
import { leaguesOf, partsOf, type CachedEntry } from './entry.ts'
import type { UpstreamRequest } from './request.ts'
import { leagueRefs } from './scope.ts'

export type Fetched =
  /** An answer worth relaying: 200, or an upstream 4xx that is the client's business (400, 403, 404, 422). */
  | { kind: 'entry', entry: CachedEntry, cacheable: boolean }
  /**
   * No budget: the ledger refused (`sent: false`, nothing went upstream), or the upstream answered 429.
   * Seconds until the upstream window resets.
   */
  | { kind: 'budget', retryAfter: number, sent: boolean }
  /** The upstream failed: 502 (5xx, bad payload, rejected our token), 503 (unreachable), 504 (timed out). */
  | { kind: 'failure', status: 502 | 503 | 504, errorId: string }

export interface FetchDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  log: Logger
  /** Removes the upstream token from upstream text before it is stored or relayed. */
  scrub: (text: string) => string
  /** The ledger's clock (its `resetsAt` values are on it). @default Date.now */
  ledgerNow?: () => number
  /** Deadline of one passthrough call; unset leaves the upstream client's own (10 s). */
  timeoutMs?: number
  /** The buckets the upstream's answers named (charged.ts): where a call is reserved. */
  charged?: ChargedEntities
}

export interface FetchInput {
  request: UpstreamRequest
  entity: string
  kind: Kind
  now: number
  ttlMs: number
  notFoundTtlMs: number
  /** Set for a request the catalogue does not fully know (route.ts): every relayed 4xx is cached this long. */
  rejectionTtlMs?: number
  /** The kind of request (charged.ts `chargeKeyOf`): its budget is reserved where the upstream charged it. */
  chargeKey?: string
}

const PASSED_THROUGH = new Set([400, 403, 404, 422])

/**
 * Any `api_token=`/`token=` value in a JSON error body. Unlike the logger's redactUrl it stops at a quote or
 * backslash, so that a token at the end of a string does not take the rest of the body with it.
 */
const TOKEN_IN_JSON = /([?&](?:api_token|token)=)[^&#\s"\\]*/gi

/** Per ledger, the window (its reset time) of each entity whose budget refusal was logged at warn. */
const refusalsLogged = new WeakMap<BudgetLedger, Map<string, number | undefined>>()

function firstRefusal (ledger: BudgetLedger, entity: string, resetsAt: number | undefined): boolean {
  let logged = refusalsLogged.get(ledger)
  if (logged === undefined) refusalsLogged.set(ledger, logged = new Map())
  if (logged.has(entity) && logged.get(entity) === resetsAt) return false
  logged.set(entity, resetsAt)
  return true
}

export async function fetchUpstream (deps: FetchDeps, input: FetchInput): Promise<Fetched> {
  const ledgerNow = deps.ledgerNow ?? Date.now
  const { request } = input
  // The bucket the upstream charges (the catalogue's guess until an answer named one): the pollers' claims hold there.
  const entity = input.chargeKey === undefined || deps.charged === undefined ? input.entity : deps.charged.of(input.chargeKey, input.entity)
  const log = deps.log
  try {
    if (!await deps.ledger.reserve(entity, 1, { by: 'passthrough' })) {
      const bucket = await deps.ledger.get(entity)
      const retryAfter = Math.max(1, Math.ceil(((bucket?.resetsAt ?? ledgerNow()) - ledgerNow()) / 1000))
      // Once per entity and window: refusals cost a client nothing (the key's quota is given back), so a
      // line each would let it write warn lines as fast as it can ask.
      const level = firstRefusal(deps.ledger, entity, bucket?.resetsAt) ? 'warn' : 'debug'
      log[level]({ entity, remaining: bucket?.remaining, pollersNeed: bucket?.pollersNeed, retryAfter }, 'passthrough refused: what is left of the upstream budget is the pollers\' need')
      return { kind: 'budget', retryAfter, sent: false }
    }
  } catch (err) {
    // A ledger we cannot read must not stop traffic: the upstream still enforces its own limit.
    log.warn({ err, entity }, 'budget ledger unavailable; calling upstream unreserved')
  }

  let res
  try {
    const signal = deps.timeoutMs === undefined ? undefined : AbortSignal.timeout(deps.timeoutMs)
    res = await deps.upstream.getRaw(request.path, request.query, {}, signal === undefined ? {} : { signal })
  } catch (err) {
    const code = err instanceof UpstreamError ? err.code : undefined
    const status = code === UpstreamErrorCode.Timeout || code === UpstreamErrorCode.Aborted ? 504 : 503
    const errorId = randomUUID()
    log.warn({ err, entity, errorId, status }, 'passthrough upstream call failed')
    return { kind: 'failure', status, errorId }
  }

  const text = deps.scrub(res.body.toString('utf8'))
  if (res.status === 200) return entryOf(deps, input, text)
  // An error may echo the request URL; any `api_token=` in it goes too. Not applied to data, where a
  // `?token=` can be part of a legitimate (signed) image URL.
  if (res.status === 429) return { kind: 'budget', retryAfter: await retryAfterOf(res.headers['retry-after'], text, async () => await resetOf(deps.ledger, entity, ledgerNow())), sent: true }
  if (PASSED_THROUGH.has(res.status)) {
    const ttlMs = input.rejectionTtlMs ?? (res.status === 404 ? Math.min(input.ttlMs, input.notFoundTtlMs) : 0)
    const entry: CachedEntry = {
      status: res.status,
      entity,
      body: text.replace(TOKEN_IN_JSON, '$1[redacted]'),
      leagues: null,
      storedAt: input.now,
      expiresAt: input.now + ttlMs
    }
    return { kind: 'entry', entry, cacheable: ttlMs > 0 }
  }
  const status = res.status === 503 ? 503 : res.status === 504 ? 504 : 502
  const errorId = randomUUID()
  // 401 means the upstream refused the gateway's own token: an operator problem, never the client's key.
  const level = res.status === 401 ? 'error' : 'warn'
  log[level]({ entity, upstreamStatus: res.status, errorId, status }, 'passthrough upstream answered with an error')
  return { kind: 'failure', status, errorId }
}

function entryOf (deps: FetchDeps, input: FetchInput, text: string): Fetched {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const named = requestedEntity(json)
  if (named !== undefined && input.chargeKey !== undefined) deps.charged?.learn(input.chargeKey, named)
  const split = partsOf(json)
  if (split === undefined) {
    const errorId = randomUUID()
    deps.log.warn({ entity: input.entity, errorId }, 'passthrough upstream sent a 200 that is not an envelope')
    return { kind: 'failure', status: 502, errorId }
  }
  const entry: CachedEntry = {
    status: 200,
    entity: input.entity,
    parts: split.parts,
    leagues: leaguesOf(input.kind, split.data),
    refs: leagueRefs(input.kind, split.data),
    storedAt: input.now,
    expiresAt: input.now + input.ttlMs
  }
  return { kind: 'entry', entry, cacheable: true }
}

/**
 * Seconds from a 429: the `Retry-After` header (seconds or an HTTP date), else the body's `retry_after`, else
 * the reset of the window the ledger knows (the real API's 429 is a bare `{"message":"Too Many Attempts."}`),
 * else a minute.
 */
async function retryAfterOf (header: string | string[] | undefined, text: string, reset: () => Promise<number | undefined>): Promise<number> {
  const fromHeader = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now())
  if (fromHeader !== undefined) return Math.max(1, fromHeader)
  try {
    const body = JSON.parse(text) as { retry_after?: unknown }
    if (typeof body.retry_after === 'number' && body.retry_after > 0) return Math.ceil(body.retry_after)
  } catch {}
  return await reset() ?? 60
}

/** Seconds until the ledger's window for `entity` resets, when it knows one still ahead. */
async function resetOf (ledger: BudgetLedger, entity: string, nowMs: number): Promise<number | undefined> {
  try {
    const bucket = await ledger.get(entity)
    return bucket !== undefined && bucket.resetsAt > nowMs ? Math.ceil((bucket.resetsAt - nowMs) / 1000) : undefined
  } catch {
    return undefined
  }
}
