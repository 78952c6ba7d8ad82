/**
 * How long the poller waits before its next call, from what the budget ledger knows of the Fixture bucket.
 * Pure, so the arithmetic is tested on its own.
 *
 * The budget left for polling is the bucket's remaining minus the passthrough reserve (a share of the hourly
 * limit), spread evenly over the time until the window resets. The pause never drops below the floor and
 * never exceeds the `latest` window minus a safety margin: a longer pause would let changes slip out of the
 * 10 s window. Once only the reserve is left the poller slows to that ceiling rather than stopping.
 */
import type { BucketView } from '../budget/index.ts'

/**
 * The slowest the poller ever polls: the upstream's 10 s `latest` window minus 2 s for latency, so that two
 * successive polls always overlap. The passthrough leaves enough budget for this pace (passthrough/fetch.ts).
 */
export const SLOWEST_POLL_MS = 8000

export interface PacingOptions {
  /** Share of the hourly limit kept for the REST passthrough. @default 0.2 */
  reserve: number
  /** Shortest pause between two calls, ms. @default 1000 */
  floorMs: number
  /** Longest useful pause: the upstream `latest` window (10 s) minus a margin for latency. @default 8000 */
  ceilingMs: number
}

export type Pace =
  /** Poll again after `delayMs`. */
  | { kind: 'poll', delayMs: number }
  /**
   * Down to the passthrough's reserve: keep polling, but only at the ceiling. The passthrough in turn never
   * spends what polling at the ceiling needs until the reset (passthrough/fetch.ts), so this always lasts.
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

export function nextPace (bucket: BucketView | undefined, now: number, opts: PacingOptions): Pace {
  // Before the first response the ledger knows nothing; the first call tells it.
  if (bucket === undefined || bucket.expired) return { kind: 'poll', delayMs: opts.floorMs }
  const msLeft = Math.max(0, bucket.resetsAt - now)
  if (bucket.remaining <= 0) return { kind: 'exhausted', delayMs: Math.max(opts.floorMs, msLeft + 250) }
  const usable = bucket.remaining - reserveCount(bucket.limit, opts.reserve)
  if (usable <= 0) return { kind: 'slow', delayMs: Math.max(opts.ceilingMs, opts.floorMs) }
  const even = msLeft / usable
  return { kind: 'poll', delayMs: Math.round(Math.min(Math.max(even, opts.floorMs), Math.max(opts.ceilingMs, opts.floorMs))) }
}
