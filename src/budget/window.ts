/**
 * The ledger's rules as pure functions. The memory ledger runs them directly; the Redis scripts
 * (scripts/record-2.lua, scripts/reserve-1.lua) mirror them line for line, and one contract suite checks
 * that both engines agree.
 *
 * The upstream window of an entity opens at its first request and resets one hour later (spec 8.2 rule 3,
 * upstream-facts §0.2); it is not sliding. A response only tells us `resets_in_seconds`, so the ledger
 * stores the absolute `resetsAt = arrival + resets_in_seconds` and tells windows apart by it: two
 * responses of one window give nearly the same `resetsAt`, two windows give values at least an hour apart.
 */
import type { BucketObservation, BucketView } from './types.ts'

/** The upstream's window length: one hour (spec 8.2 rule 3). */
export const WINDOW_MS = 60 * 60 * 1000

/**
 * How far apart two `resetsAt` estimates may be and still name the same window. One window's estimates
 * differ by the response latency (at most the 10 s client timeout, since arrival time stands in for the
 * upstream's clock), 1 s of rounding of `resets_in_seconds`, and clock skew between instances (NTP keeps
 * it well under a second). Windows are an hour apart. One minute sits safely between the two.
 */
export const SAME_WINDOW_SLACK_MS = 60_000

/** One bucket as either engine stores it. */
export interface StoredBucket {
  remaining: number
  resetsAt: number
  limit?: number
  updatedAt: number
  /**
   * True when `reserve` opened this window itself (the old one had ended and the limit was known), so
   * `resetsAt` is our guess (now + 1 h) rather than something the upstream said. The next response
   * replaces the guess, whatever it says.
   */
  estimated: boolean
  /** With `estimated`: when the window before it ended, to recognise that window's late responses. */
  previousResetsAt?: number
}

/** Checks an observation; the ledger stores integers only (the Lua side formats numbers with %.14g). */
export function checkObservation (obs: BucketObservation, atMs: number): void {
  const bad = !Number.isFinite(obs.remaining) || !Number.isFinite(obs.resetsInSeconds) || !Number.isFinite(atMs) ||
    (obs.limit !== undefined && !Number.isFinite(obs.limit))
  if (bad) throw new TypeError('budget observation must hold finite numbers')
}

/** `resetsAt` of an observation, whole ms. Negative seconds (clock quirks) count as "resets now". */
export function resetsAtOf (obs: BucketObservation, atMs: number): number {
  return Math.round(atMs + Math.max(0, obs.resetsInSeconds) * 1000)
}

/**
 * Merges an observation into the stored bucket. Returns the new bucket, or undefined when the observation
 * is stale (it belongs to an older window than the one stored) and changes nothing.
 */
export function mergeObservation (stored: StoredBucket | undefined, obs: BucketObservation, arrivedAt: number): StoredBucket | undefined {
  const atMs = Math.round(arrivedAt)
  const remaining = Math.max(0, Math.floor(obs.remaining))
  const resetsAt = resetsAtOf(obs, atMs)
  const limit = obs.limit === undefined ? stored?.limit : Math.floor(obs.limit)
  // A later window (or the first sighting): the upstream reset the counter, take what it says.
  if (stored === undefined || resetsAt > stored.resetsAt + SAME_WINDOW_SLACK_MS) {
    return withLimit({ remaining, resetsAt, updatedAt: atMs, estimated: false }, limit)
  }
  const lowest = Math.min(stored.remaining, remaining)
  if (stored.estimated) {
    // A late response of the window that ended before `reserve` opened this one: it must not rewind the
    // ledger, nor forget the reservations made since.
    if (stored.previousResetsAt !== undefined && resetsAt <= stored.previousResetsAt + SAME_WINDOW_SLACK_MS) return undefined
    // Our own guess of the window's end gives way to the upstream's figure (another client may have
    // opened the upstream window before us).
    return withLimit({ remaining: lowest, resetsAt, updatedAt: atMs, estimated: false }, limit)
  }
  // A response of the previous window that arrived late: it must not roll the ledger back.
  if (resetsAt < stored.resetsAt - SAME_WINDOW_SLACK_MS) return undefined
  // Same window: keep the lowest count (concurrent responses arrive in any order, and reservations made
  // since are already taken out) and the latest reset estimate (never assume the reset comes early).
  return withLimit({
    remaining: lowest,
    resetsAt: Math.max(stored.resetsAt, resetsAt),
    updatedAt: Math.max(stored.updatedAt, atMs),
    estimated: false
  }, limit)
}

function withLimit (bucket: StoredBucket, limit: number | undefined): StoredBucket {
  return limit === undefined ? bucket : { ...bucket, limit }
}

/** The caller-facing view at time `now`, with the counter extrapolated past a reset. */
export function viewOf (entity: string, stored: StoredBucket, now: number): BucketView {
  const expired = now >= stored.resetsAt
  const view: BucketView = {
    entity,
    remaining: expired && stored.limit !== undefined ? stored.limit : stored.remaining,
    resetsAt: stored.resetsAt,
    updatedAt: stored.updatedAt,
    expired
  }
  if (stored.limit !== undefined) view.limit = stored.limit
  return view
}

/** What `reserve` does to a bucket: taken (with the new bucket), refused, or allowed without counting. */
export type ReserveOutcome =
  | { kind: 'taken', next: StoredBucket }
  | { kind: 'refused' }
  | { kind: 'uncounted' }

export function reserveFrom (stored: StoredBucket | undefined, n: number, floor: number, nowMs: number): ReserveOutcome {
  const now = Math.round(nowMs)
  if (stored === undefined) return { kind: 'uncounted' }
  let bucket = stored
  if (now >= stored.resetsAt) {
    if (stored.limit === undefined) return { kind: 'uncounted' }
    // The window ended, so this call opens the next one upstream (spec 8.2 rule 3): full limit, ends in 1 h.
    bucket = { remaining: stored.limit, resetsAt: now + WINDOW_MS, limit: stored.limit, updatedAt: now, estimated: true, previousResetsAt: stored.resetsAt }
  }
  if (bucket.remaining - n < floor) return { kind: 'refused' }
  return { kind: 'taken', next: { ...bucket, remaining: bucket.remaining - n } }
}

/** Validates `reserve`'s count: a positive whole number of requests. */
export function checkCount (n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`reserve count must be a positive integer, got ${n}`)
  return n
}
