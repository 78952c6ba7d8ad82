/**
 * The ledger's rules as pure functions. The memory ledger runs them directly; the Redis scripts
 * (scripts/record-2.lua, scripts/reserve-1.lua) mirror them line for line, and one contract suite checks
 * that both engines agree.
 *
 * The upstream window of an entity opens at its first request and resets one hour later (docs/upstream.md,
 * "Rate limits"); it is not sliding. A response only tells us `resets_in_seconds`, so the ledger
 * stores the absolute `resetsAt = arrival + resets_in_seconds` and tells windows apart by it: two
 * responses of one window give nearly the same `resetsAt`, two windows give values at least an hour apart.
 */
import { WINDOW_MS } from '@touchline/upstream-contract/hourly-window'
import { claimsNeed, type StoredClaim } from './share.ts'
import type { BucketObservation, BucketView, LimitSource, PollerClaim, Spender } from './types.ts'

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
  /** Lowest `remaining` the upstream itself reported in this window (our reservations not taken out). */
  low?: number
  /** Calls the upstream counted in this window, by the responses recorded (a 429 counts none). */
  calls?: number
  /**
   * The limit learned from the responses: the highest `low + calls` seen in any window. A lower bound:
   * a response reordered in flight or calls from another client of the same token only make it smaller,
   * never larger, and once the gateway has seen a window from its start it is the plan's limit.
   */
  learned?: number
  /** Calls reserved in this window by the pollers and by the passthrough: forgotten when a new window opens. */
  spentPollers?: number
  spentPassthrough?: number
}

/** The bucket's limit and where it comes from: the operator's setting, the upstream's report, or learned. */
function limitOf (stored: StoredBucket, configured?: number): { limit: number, source: LimitSource } | undefined {
  if (configured !== undefined) return { limit: configured, source: 'configured' }
  if (stored.limit !== undefined) return { limit: stored.limit, source: 'reported' }
  if (stored.learned !== undefined && stored.learned > 0) return { limit: stored.learned, source: 'learned' }
  return undefined
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
  const calls = obs.calls ?? 1
  // A later window (or the first sighting): the upstream reset the counter, take what it says.
  if (stored === undefined || resetsAt > stored.resetsAt + SAME_WINDOW_SLACK_MS) {
    return counted({ remaining, resetsAt, updatedAt: atMs, estimated: false }, limit, remaining, calls, stored?.learned)
  }
  const lowest = Math.min(stored.remaining, remaining)
  const low = Math.min(stored.low ?? remaining, remaining)
  const inWindow = (stored.calls ?? 0) + calls
  if (stored.estimated) {
    // A late response of the window that ended before `reserve` opened this one: it must not rewind the
    // ledger, nor forget the reservations made since.
    if (stored.previousResetsAt !== undefined && resetsAt <= stored.previousResetsAt + SAME_WINDOW_SLACK_MS) return undefined
    // Our own guess of the window's end gives way to the upstream's figure (another client may have
    // opened the upstream window before us).
    return counted({ remaining: lowest, resetsAt, updatedAt: atMs, estimated: false, ...spentOf(stored) }, limit, low, inWindow, stored.learned)
  }
  // A response of the previous window that arrived late: it must not roll the ledger back.
  if (resetsAt < stored.resetsAt - SAME_WINDOW_SLACK_MS) return undefined
  // Same window: keep the lowest count (concurrent responses arrive in any order, and reservations made
  // since are already taken out) and the latest reset estimate (never assume the reset comes early).
  return counted({
    remaining: lowest,
    resetsAt: Math.max(stored.resetsAt, resetsAt),
    updatedAt: Math.max(stored.updatedAt, atMs),
    estimated: false,
    ...spentOf(stored)
  }, limit, low, inWindow, stored.learned)
}

/** The spent tallies of a bucket, to carry into the next state of the same window. */
function spentOf (stored: StoredBucket): Pick<StoredBucket, 'spentPollers' | 'spentPassthrough'> {
  const out: Pick<StoredBucket, 'spentPollers' | 'spentPassthrough'> = {}
  if (stored.spentPollers !== undefined) out.spentPollers = stored.spentPollers
  if (stored.spentPassthrough !== undefined) out.spentPassthrough = stored.spentPassthrough
  return out
}

/** Adds the reported limit and this window's tally (lowest reported, calls counted, learned limit). */
function counted (bucket: StoredBucket, limit: number | undefined, low: number, calls: number, learned: number | undefined): StoredBucket {
  const next: StoredBucket = { ...bucket, low, calls, learned: Math.max(learned ?? 0, low + calls) }
  if (limit !== undefined) next.limit = limit
  return next
}

/**
 * The caller-facing view at time `now`, with the counter extrapolated past a reset, and the split: what the
 * claims keep until the reset (past it, of a window opening now) and what each side spent in this window.
 */
export function viewOf (entity: string, stored: StoredBucket, now: number, configured?: number, claims: Iterable<StoredClaim> = []): BucketView {
  const expired = now >= stored.resetsAt
  const known = limitOf(stored, configured)
  const view: BucketView = {
    entity,
    remaining: expired && known !== undefined ? known.limit : stored.remaining,
    resetsAt: stored.resetsAt,
    updatedAt: stored.updatedAt,
    expired,
    pollersNeed: claimsNeed(claims, known?.limit, expired ? now + WINDOW_MS : stored.resetsAt, now),
    spent: expired ? { pollers: 0, passthrough: 0 } : { pollers: stored.spentPollers ?? 0, passthrough: stored.spentPassthrough ?? 0 }
  }
  if (known !== undefined) {
    view.limit = known.limit
    view.limitSource = known.source
  }
  return view
}

/** What `reserve` does to a bucket: taken (with the new bucket), refused, or allowed without counting. */
export type ReserveOutcome =
  | { kind: 'taken', next: StoredBucket }
  | { kind: 'refused' }
  | { kind: 'uncounted' }

/** One reservation as `reserveFrom` judges it: who spends it, and what must stay after it. */
export interface ReserveRule {
  by: Spender
  floor: number
}

export function reserveFrom (stored: StoredBucket | undefined, n: number, rule: ReserveRule, nowMs: number, configured?: number, claims: Iterable<StoredClaim> = []): ReserveOutcome {
  const now = Math.round(nowMs)
  if (stored === undefined) return { kind: 'uncounted' }
  let bucket = stored
  if (now >= stored.resetsAt) {
    const known = limitOf(stored, configured)
    // A learned limit may be below the real one (learned mid-window): opening a window on it would cap the
    // count there for the hour. The first response of the new window fills the ledger in instead.
    if (known === undefined || known.source === 'learned') return { kind: 'uncounted' }
    // The window ended, so this call opens the next one upstream: full limit, ends in 1 h.
    // Nothing reported or spent in it yet: the tally starts over, the learned limit stays.
    bucket = { remaining: known.limit, resetsAt: now + WINDOW_MS, updatedAt: now, estimated: true, previousResetsAt: stored.resetsAt, calls: 0 }
    if (stored.limit !== undefined) bucket.limit = stored.limit
    if (stored.learned !== undefined) bucket.learned = stored.learned
  }
  // The passthrough leaves the pollers what their claims need until the reset (of the window just opened, too).
  const floor = rule.by === 'passthrough' ? Math.max(rule.floor, claimsNeed(claims, limitOf(bucket, configured)?.limit, bucket.resetsAt, now)) : rule.floor
  if (bucket.remaining - n < floor) return { kind: 'refused' }
  const next = { ...bucket, remaining: bucket.remaining - n }
  if (rule.by === 'passthrough') next.spentPassthrough = (bucket.spentPassthrough ?? 0) + n
  else next.spentPollers = (bucket.spentPollers ?? 0) + n
  return { kind: 'taken', next }
}

/**
 * Checks a claim: finite, non-negative figures, and a reserve share between 0 and 1. The Lua side reads the
 * stored claim back as JSON, so every figure must survive it unchanged.
 */
export function checkClaim (claim: PollerClaim): PollerClaim {
  const { perHour, reserve, lumps, ttlMs } = claim
  const ok = [perHour, lumps, ttlMs].every((x) => Number.isFinite(x) && x >= 0) && Number.isFinite(reserve) && reserve >= 0 && reserve <= 1
  if (!ok) throw new TypeError('budget claim must hold finite, non-negative numbers and a reserve between 0 and 1')
  return claim
}

/** Validates `reserve`'s count: a positive whole number of requests. */
export function checkCount (n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`reserve count must be a positive integer, got ${n}`)
  return n
}
