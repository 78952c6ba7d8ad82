/**
 * How long a poller waits before its next call, from what the budget ledger knows of its bucket, and what it
 * claims of that bucket (ledger.claim). Pure, so the arithmetic is tested on its own. How the bucket is shared
 * with the passthrough (the claim's need until the reset, the reserve it leaves) is budget/share.ts.
 *
 * The poller spreads what it may spend evenly until the reset: its claim's need (which the passthrough
 * leaves it), or everything above the passthrough reserve when the passthrough left more. It counts the
 * extra `fixtures/multi` calls its reconciles make and the kick-off list (with the reconciles it schedules),
 * and never spends more than is left, so it does not run into a 429.
 */
import type { BucketView, PollerClaim } from '../budget/index.ts'
import { CLAIM_TTL_MS, claimNeed, reserveCount } from '../budget/share.ts'
import { WINDOW_MS } from '@touchline/upstream-contract/hourly-window'

export interface PacingOptions {
  /** Share of the hourly limit kept for the REST passthrough. @default 0.2 */
  reserve: number
  /** Shortest pause between two calls, ms. @default 1000 */
  floorMs: number
  /** Longest useful pause: the upstream `latest` window (10 s) minus a margin for latency. @default SLOWEST_POLL_MS */
  ceilingMs: number
}

/** What the poller's reconciles cost on top of the `latest` polls they replace. */
export interface PollLoad {
  /** Upstream calls of one reconcile: `livescores` plus one `fixtures/multi` per 50 fixtures that left it. */
  reconcileCalls: number
  /** How often a reconcile comes while polls overlap, ms. */
  reconcileEveryMs: number
  /**
   * Calls per ms on top of the polls: the kick-off list, and the `fixtures/multi` batches of the reconciles
   * scheduled when fixtures enter the feed (kickoffs.ts). @default 0
   */
  otherCallsPerMs?: number
  /**
   * Calls the poller may need at once on top of its pace (a reconcile after a gap; the odds poller's whole
   * fetches), kept in its claim until the reset. @default reconcileCalls
   */
  lumps?: number
}

/** Calls per ms on top of the `latest` polls: the reconciles' extra batches and the other calls. */
function extraPerMs (load: PollLoad): number {
  return (load.reconcileCalls - 1) / load.reconcileEveryMs + (load.otherCallsPerMs ?? 0)
}

/**
 * What the poller claims of its bucket: its fastest pace (a `latest` per floor, plus the extra calls of its
 * load) an hour, its lumps, and the reserve it leaves the passthrough; in force for `ttlMs` (at least the pause
 * before its next claim plus CLAIM_TTL_MS). A poller without a floor claims an unbounded pace: its share of
 * the limit bounds it.
 */
export function claimOf (opts: PacingOptions, load: PollLoad, ttlMs: number = CLAIM_TTL_MS): PollerClaim {
  const perHour = opts.floorMs > 0 ? Math.min(Number.MAX_SAFE_INTEGER, Math.ceil((1 / opts.floorMs + extraPerMs(load)) * WINDOW_MS)) : Number.MAX_SAFE_INTEGER
  return { perHour, reserve: opts.reserve, lumps: load.lumps ?? load.reconcileCalls, ttlMs }
}

export type Pace =
  /**
   * Poll again after `delayMs` (at most the ceiling: successive `latest` polls overlap). `spare`: the budget
   * would pay for polls faster than the floor, so a call beside a poll costs the live feed nothing.
   */
  | { kind: 'poll', delayMs: number, spare?: boolean }
  /**
   * The budget cannot pay for overlapping polls until the reset (a small bucket, or the passthrough took
   * its reserve): poll less often than the window, each poll a reconcile, spending what is left evenly.
   */
  | { kind: 'slow', delayMs: number }
  /** Nothing left at all: wait for the window to reset, then reconcile. */
  | { kind: 'exhausted', delayMs: number }

export function nextPace (bucket: BucketView | undefined, now: number, opts: PacingOptions, load: PollLoad = { reconcileCalls: 1, reconcileEveryMs: Infinity }): Pace {
  // Before the first response the ledger knows nothing; the first call tells it.
  if (bucket === undefined || bucket.expired) return { kind: 'poll', delayMs: opts.floorMs }
  const msLeft = Math.max(1, bucket.resetsAt - now)
  if (bucket.remaining <= 0) return { kind: 'exhausted', delayMs: Math.max(opts.floorMs, msLeft + 250) }
  // What the passthrough must leave it (its claim's need), or all but the passthrough's reserve when more is left.
  const usable = bucket.remaining - reserveCount(bucket.limit, opts.reserve)
  const budget = Math.min(bucket.remaining, Math.max(claimNeed(claimOf(opts, load), bucket.limit, Math.min(msLeft, WINDOW_MS)), usable))
  const ceiling = Math.max(opts.ceilingMs, opts.floorMs)
  // `latest` polls per ms once the reconciles' extra calls are paid for.
  const rate = budget / msLeft - extraPerMs(load)
  const even = rate > 0 ? 1 / rate : Infinity
  if (even <= ceiling) return { kind: 'poll', delayMs: Math.round(Math.max(even, opts.floorMs)), ...(even < opts.floorMs ? { spare: true } : {}) }
  return { kind: 'slow', delayMs: Math.round(Math.max(ceiling, msLeft * load.reconcileCalls / budget)) }
}

/**
 * What is left of a pace counted from the start of the step that took `elapsedMs`: steps then start every
 * `delayMs`, not every `delayMs` plus their own time (which would spend less than the pace was computed to).
 * At least `minMs` after the step all the same, and never longer than the pace (a wall clock stepped back
 * during the step).
 */
export function pauseLeft (delayMs: number, elapsedMs: number, minMs: number): number {
  return Math.min(delayMs, Math.max(minMs, delayMs - elapsedMs))
}
