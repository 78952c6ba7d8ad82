/**
 * How the hourly Fixture bucket is shared between the poller and the REST passthrough: the floor the
 * passthrough leaves the poller, and the share the poller leaves the passthrough. Pure, so the arithmetic
 * is tested on its own.
 *
 * The poller's share of an hour is the limit minus the passthrough reserve. What it will actually spend
 * until the reset (`pollerNeed`) is the smaller of that share, prorated to the time left, and the polls
 * at the slowest pace that still overlaps the 10 s `latest` window: with a big bucket the overlap bounds
 * it, with a small one (120/h) the share does, and the poller then polls less often than the window and
 * reconciles each time. The passthrough never spends below `pollerNeed`, so it is never locked out for the
 * hour while the poller needs less than what is left.
 */
import { WINDOW_MS } from '../contract/hourly-window.ts'
import { LATEST_WINDOW_MS } from '../contract/livescores.ts'
import type { BucketView } from './types.ts'

/**
 * The slowest the poller ever polls while the budget allows: the upstream's 10 s `latest` window minus
 * 2 s for latency, so that two successive polls always overlap.
 */
export const SLOWEST_POLL_MS = LATEST_WINDOW_MS - 2000
/** Share of the hourly limit kept for the REST passthrough (TOUCHLINE_POLL_RESERVE's default). */
export const DEFAULT_POLL_RESERVE = 0.2

/** What `pollerNeed` needs of the poller's pacing. */
export interface ShareOptions {
  /** Share of the hourly limit kept for the REST passthrough. */
  reserve: number
  /** The poller's slowest pause while polls overlap, ms (SLOWEST_POLL_MS). */
  ceilingMs: number
}

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
export function pollerNeed (bucket: BucketView | undefined, now: number, opts: ShareOptions): number {
  if (bucket === undefined || bucket.expired) return 0
  const msLeft = Math.max(0, bucket.resetsAt - now)
  const overlapping = Math.ceil(msLeft / opts.ceilingMs)
  if (bucket.limit === undefined) return overlapping
  const share = Math.ceil(bucket.limit * (1 - opts.reserve) * Math.min(1, msLeft / WINDOW_MS))
  return Math.min(overlapping, share)
}
