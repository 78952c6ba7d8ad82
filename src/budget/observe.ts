/**
 * Reads what one upstream response says about its entity's bucket, for the ledger.
 *
 * Sources, in order (the upstream's documentation says to rely on the body object, and the headers match
 * it; docs/upstream.md, "Rate limits"):
 * - the body's `rate_limit` {remaining, resets_in_seconds, requested_entity, total?}: on every success and
 *   on the embedded provider's 429;
 * - `x-ratelimit-remaining` when the body has none (the real API's 429 is a bare `{message}`); a 429
 *   without either means 0 left;
 * - the limit: `rate_limit.total`, else `x-ratelimit-limit`. A header limit below the remaining count is
 *   dropped: one client library reports the real API's headers as a global counter distinct from the
 *   entity buckets, and a wrong limit would make the ledger extrapolate to the wrong number after a reset.
 * - the reset: `resets_in_seconds`, else on a 429 the retry delay, else what the ledger already knows of
 *   the window. With none of these the response is not recorded: a reset time is never invented.
 * - the calls it stands for: one for a 2xx, none otherwise (the upstream does not count a refused call; 4xx
 *   per one client's docs, unverified), so the ledger can learn the limit from `remaining` alone.
 */
import type { BudgetLedger } from './types.ts'

/** A bucket as one response reports it. */
export interface RateLimitSnapshot {
  entity: string
  remaining: number
  resetsInSeconds: number
  /** Hourly limit, when the response gave it. */
  limit?: number
  /** 0 when the upstream did not count the call (not a 2xx); absent for a counted one (BucketObservation). */
  calls?: 0
}

export interface ResponseReport {
  status: number
  /** Parsed JSON body, undefined when the body is not JSON. */
  json: unknown
  headers: Record<string, string | string[] | undefined>
  /** Entity of the request's endpoint, used when the body does not name one. */
  entityHint?: string
  /** Parsed `retry-after` header, seconds. */
  retryAfterSeconds?: number
  nowMs: number
  /** Consulted for the window's end when the response gives none. */
  ledger?: BudgetLedger
}

export async function observeResponse (r: ResponseReport): Promise<RateLimitSnapshot | undefined> {
  const body = isObject(r.json) ? r.json : {}
  const rl = isObject(body.rate_limit) ? body.rate_limit : {}
  const entity = typeof rl.requested_entity === 'string' && rl.requested_entity !== '' ? rl.requested_entity : r.entityHint
  if (entity === undefined) return undefined

  const remaining = num(rl.remaining) ?? intHeader(r.headers['x-ratelimit-remaining']) ?? (r.status === 429 ? 0 : undefined)
  if (remaining === undefined) return undefined

  let resetsInSeconds = num(rl.resets_in_seconds)
  if (resetsInSeconds === undefined && r.status === 429) resetsInSeconds = num(body.retry_after) ?? r.retryAfterSeconds
  if (resetsInSeconds === undefined && r.ledger !== undefined) {
    const known = await r.ledger.get(entity)
    if (known !== undefined && !known.expired) resetsInSeconds = Math.ceil((known.resetsAt - r.nowMs) / 1000)
  }
  if (resetsInSeconds === undefined) return undefined

  const limit = num(rl.total) ?? intHeader(r.headers['x-ratelimit-limit'])
  const snapshot: RateLimitSnapshot = { entity, remaining, resetsInSeconds }
  if (r.status < 200 || r.status > 299) snapshot.calls = 0
  // A limit of 0 (a fault, or a 429 saying "none left of none") is no plan's limit: it would refuse every window after.
  if (limit !== undefined && limit > 0 && limit >= remaining) snapshot.limit = limit
  return snapshot
}

function isObject (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function num (value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

function intHeader (value: string | string[] | undefined): number | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return first !== undefined && /^\s*\d+\s*$/.test(first) ? Number(first) : undefined
}
