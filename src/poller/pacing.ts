/**
 * How long the poller waits before its next call, from what the budget ledger knows of the Fixture bucket,
 * and how much of the bucket the poller will spend until the reset (the floor the passthrough leaves it).
 * Pure, so the arithmetic is tested on its own.
 *
 * The poller's share of an hour is the limit minus the passthrough reserve. What it will actually spend
 * until the reset (`pollerNeed`) is the smaller of that share, prorated to the time left, and the polls
 * at the slowest pace that still overlaps the 10 s `latest` window: with a big bucket the overlap bounds
 * it, with a small one (120/h) the share does, and the poller then polls less often than the window and
 * reconciles each time. The passthrough never spends below `pollerNeed`, so it is never locked out for the
 * hour while the poller needs less than what is left.
 *
 * The poller spreads what it may spend evenly until the reset: its need, or everything above the
 * passthrough reserve when the passthrough left more. It counts the extra `fixtures/multi` calls its
 * reconciles make and the kick-off list (with the reconciles it schedules), and never spends more than is
 * left, so it does not run into a 429.
 */
import { WINDOW_MS, type BucketView } from '../budget/index.ts'

/**
 * The slowest the poller ever polls while the budget allows: the upstream's 10 s `latest` window minus
 * 2 s for latency, so that two successive polls always overlap.
 */
export const SLOWEST_POLL_MS = 8000
/** Share of the hourly limit kept for the REST passthrough (TOUCHLINE_POLL_RESERVE's default). */
export const DEFAULT_POLL_RESERVE = 0.2

export interface PacingOptions {
  /** Share of the hourly limit kept for the REST passthrough. @default 0.2 */
  reserve: number
  /** Shortest pause between two calls, ms. @default 1000 */
  floorMs: number
  /** Longest useful pause: the upstream `latest` window (10 s) minus a margin for latency. @default 8000 */
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

/** Requests of a bucket the poller must leave to the passthrough. */
export function reserveCount (limit: number | undefined, reserve: number): number {
  return limit === undefined ? 0 : Math.ceil(limit * reserve)
}

/** The floor the poller passes to `ledger.reserve`: the passthrough's share, unless already down to it. */
export function pollerFloor (bucket: BucketView | undefined, reserve: number): number {
  if (bucket === undefined || bucket.expired) return 0
  const keep = reserveCount(bucket.limit, reserve)
  return bucket.remaining > keep ? keep : 0
}

/**
 * Calls the poller will make from the bucket until it resets: polls at the slowest overlapping pace,
 * capped by its share of the limit prorated to the time left. 0 for an expired or unknown bucket.
 */
export function pollerNeed (bucket: BucketView | undefined, now: number, opts: Pick<PacingOptions, 'reserve' | 'ceilingMs'>): number {
  if (bucket === undefined || bucket.expired) return 0
  const msLeft = Math.max(0, bucket.resetsAt - now)
  const overlapping = Math.ceil(msLeft / opts.ceilingMs)
  if (bucket.limit === undefined) return overlapping
  const share = Math.ceil(bucket.limit * (1 - opts.reserve) * Math.min(1, msLeft / WINDOW_MS))
  return Math.min(overlapping, share)
}

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
