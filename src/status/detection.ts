/**
 * The change-detection latency the status page shows (p50 and p95 over the last minutes), measured where it
 * is observed: the poller records each timed change's latency in touchline_detection_latency_seconds
 * (poller/tracking.ts), on the process that polls. That process keeps readings of the histogram's buckets
 * every `everyMs` for `windowMs`, and the quantiles are those of the observations made between the oldest
 * retained reading and now (histogram.ts), estimated from the buckets as Prometheus' histogram_quantile does.
 * The poller view (poller-view.ts) publishes them with the poller's state, so every process shows them.
 *
 * Domain code: reads the Metrics object, never fastify.
 */
import type { Metrics } from '../metrics.ts'
import { bucketsOf, observedBetween, quantileFromBuckets, type Buckets } from './histogram.ts'

/** The latency of the changes detected over the window. */
export interface DetectionLatency {
  /** Median, seconds; null when no change was detected in the window. */
  p50: number | null
  /** 95th percentile, seconds; null when no change was detected in the window. */
  p95: number | null
  /** Changes whose latency was measured in the window. */
  changes: number
  /** The stretch of time measured, ms: `windowMs` once the process has read that long. */
  windowMs: number
}

export interface DetectionWindowOptions {
  metrics: Pick<Metrics, 'detectionLatency'>
  /** How far back the quantiles look. @default 300_000 (5 minutes) */
  windowMs?: number
  /** How often a reading is kept. @default 10_000 */
  everyMs?: number
  /** @default Date.now */
  now?: () => number
}

export interface DetectionWindow {
  /** Reads the histogram now (keeping the reading when one is due); never rejects. */
  refresh: () => Promise<void>
  /** The quantiles as of the last refresh; null before the first. */
  current: () => DetectionLatency | null
}

interface Reading { t: number, buckets: Buckets }

export function createDetectionWindow (opts: DetectionWindowOptions): DetectionWindow {
  const windowMs = opts.windowMs ?? 300_000
  const everyMs = opts.everyMs ?? 10_000
  const now = opts.now ?? Date.now
  // The histogram starts empty with the process: the first reading is that, so a latency shows from the first change.
  const kept: Reading[] = [{ t: now(), buckets: [] }]
  let latest: DetectionLatency | null = null

  return {
    async refresh () {
      const reading: Reading | undefined = await opts.metrics.detectionLatency.get()
        .then((r) => ({ t: now(), buckets: bucketsOf(r) }), () => undefined)
      if (reading === undefined) return
      if (reading.t - (kept[kept.length - 1] as Reading).t >= everyMs) kept.push(reading)
      // The oldest reading kept is the newest at or before the window's start.
      while (kept.length > 1 && (kept[1] as Reading).t <= reading.t - windowMs) kept.shift()
      const base = kept[0] as Reading
      latest = {
        p50: quantileFromBuckets(base.buckets, reading.buckets, 0.5),
        p95: quantileFromBuckets(base.buckets, reading.buckets, 0.95),
        changes: observedBetween(base.buckets, reading.buckets),
        windowMs: reading.t - base.t
      }
    },
    current: () => latest
  }
}
