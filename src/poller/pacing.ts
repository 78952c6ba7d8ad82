/**
 * How long the poller waits before its next call, from what the budget ledger knows of the Fixture bucket.
 * Pure, so the arithmetic is tested on its own. How the bucket is shared with the passthrough (the
 * poller's need until the reset, the reserve it leaves) is budget/share.ts.
 *
 * The poller spreads what it may spend evenly until the reset: its need, or everything above the
 * passthrough reserve when the passthrough left more. It counts the extra `fixtures/multi` calls its
 * reconciles make and the kick-off list (with the reconciles it schedules), and never spends more than is
 * left, so it does not run into a 429.
 */
import type { BucketView } from '../budget/index.ts'
import { pollerNeed, reserveCount } from '../budget/share.ts'

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
}

export type Pace =
  /** Poll again after `delayMs` (at most the ceiling: successive `latest` polls overlap). */
  | { kind: 'poll', delayMs: number }
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
  const usable = bucket.remaining - reserveCount(bucket.limit, opts.reserve)
  const budget = Math.min(bucket.remaining, Math.max(pollerNeed(bucket, now, opts), usable))
  const ceiling = Math.max(opts.ceilingMs, opts.floorMs)
  // `latest` polls per ms once the reconciles' extra calls are paid for.
  const rate = budget / msLeft - (load.reconcileCalls - 1) / load.reconcileEveryMs - (load.otherCallsPerMs ?? 0)
  const even = rate > 0 ? 1 / rate : Infinity
  if (even <= ceiling) return { kind: 'poll', delayMs: Math.round(Math.max(even, opts.floorMs)) }
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
