/**
 * How long the poller waits before its next call, from what the budget ledger knows of the Fixture bucket.
 * Pure, so the arithmetic is tested on its own.
 *
 * The budget left for polling is the bucket's remaining minus the passthrough reserve (a share of the hourly
 * limit), spread evenly over the time until the window resets. The pause never drops below the floor and
 * never exceeds the `latest` window minus a safety margin: a longer pause would let changes slip out of the
 * 10 s window, so past that point the poller reconciles instead (see poller.ts).
 */
import type { BucketView } from '../budget/index.ts'

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
  /** Nothing left above the reserve: wait for the window to reset, then reconcile. */
  | { kind: 'exhausted', delayMs: number }

/** Requests of a bucket the poller must leave to the passthrough. */
export function reserveCount (limit: number | undefined, reserve: number): number {
  return limit === undefined ? 0 : Math.ceil(limit * reserve)
}

export function nextPace (bucket: BucketView | undefined, now: number, opts: PacingOptions): Pace {
  // Before the first response the ledger knows nothing; the first call tells it.
  if (bucket === undefined || bucket.expired) return { kind: 'poll', delayMs: opts.floorMs }
  const msLeft = Math.max(0, bucket.resetsAt - now)
  const usable = bucket.remaining - reserveCount(bucket.limit, opts.reserve)
  if (usable <= 0) return { kind: 'exhausted', delayMs: Math.max(opts.floorMs, msLeft + 250) }
  const even = msLeft / usable
  return { kind: 'poll', delayMs: Math.round(Math.min(Math.max(even, opts.floorMs), Math.max(opts.ceilingMs, opts.floorMs))) }
}
