/**
 * The status page's recent history: every 10 s, one sample of the numbers an operator watches (poll
 * interval, detection latency, messages per second, passthrough cache hit ratio), kept for one hour in a
 * ring buffer. Rates and the latency median are computed from the difference between two readings of the
 * Prometheus counters and histogram, so each sample describes its own 10 s, not the life of the process.
 *
 * Domain code: reads the Metrics object and the poller's status, never fastify.
 */
import type { Metrics } from '../metrics.ts'

/** What the history reads of the poller (poller.ts Poller): its current pause between two polls. */
interface PollInterval {
  status: () => { intervalMs: number }
}

export interface StatusSample {
  /** End of the sampled interval, epoch ms. */
  t: number
  /** The poller's pause between two polls, seconds; null when no poller runs on this instance. */
  poll_interval_s: number | null
  /** Median detection latency of the changes detected in the interval, seconds; null when there were none. */
  detection_p50_s: number | null
  /** Messages sent to clients per second (every transport and frame type). */
  messages_per_s: number
  /**
   * Share of the interval's passthrough requests answered without an upstream call of their own (cache
   * hit, live state, or coalesced with an identical request in flight); null when there were none.
   */
  cache_hit_ratio: number | null
}

export interface StatusHistoryOptions {
  metrics: Metrics
  poller: () => PollInterval | undefined
  /** @default 10_000 */
  intervalMs?: number
  /** Samples kept: one hour at the default interval. @default 360 */
  capacity?: number
  /** @default Date.now */
  now?: () => number
}

export interface StatusHistory {
  /** Takes a first reading and samples every interval until stopped. Idempotent. */
  start: () => void
  stop: () => void
  /** Takes one sample now (the timer calls this; tests call it directly). */
  sample: () => Promise<StatusSample | undefined>
  /** The retained samples, oldest first. */
  samples: () => StatusSample[]
  /** The latest sample, if any. */
  latest: () => StatusSample | undefined
  readonly intervalMs: number
}

/** Cumulative readings of the counters and histogram the samples are computed from. */
interface Reading {
  t: number
  messages: number
  cacheServed: number
  cacheTotal: number
  /** Histogram buckets: upper bound (Infinity last) to cumulative count. */
  buckets: Array<[number, number]>
}

/** Outcomes of touchline_cache_requests_total that cost no upstream call of their own. */
const SERVED_LOCALLY = new Set(['hit', 'live', 'coalesced'])

export function createStatusHistory (opts: StatusHistoryOptions): StatusHistory {
  const intervalMs = opts.intervalMs ?? 10_000
  const capacity = opts.capacity ?? 360
  const now = opts.now ?? Date.now
  const ring: StatusSample[] = []
  let previous: Reading | undefined
  let timer: NodeJS.Timeout | undefined

  async function read (): Promise<Reading> {
    const { metrics } = opts
    const [messages, cache, latency] = await Promise.all([metrics.messagesSent.get(), metrics.cacheRequests.get(), metrics.detectionLatency.get()])
    let cacheServed = 0
    let cacheTotal = 0
    for (const v of cache.values) {
      cacheTotal += v.value
      if (SERVED_LOCALLY.has(String(v.labels.outcome))) cacheServed += v.value
    }
    const buckets: Array<[number, number]> = latency.values
      .filter((v) => v.metricName?.endsWith('_bucket') === true)
      .map((v) => [v.labels.le === '+Inf' ? Infinity : Number(v.labels.le), v.value] as [number, number])
      .sort((a, b) => a[0] - b[0])
    return { t: now(), messages: messages.values.reduce((sum, v) => sum + v.value, 0), cacheServed, cacheTotal, buckets }
  }

  async function sample (): Promise<StatusSample | undefined> {
    const reading = await read()
    const before = previous
    previous = reading
    if (before === undefined) return undefined
    const seconds = Math.max((reading.t - before.t) / 1000, 0.001)
    const cacheTotal = reading.cacheTotal - before.cacheTotal
    const poller = opts.poller()
    const s: StatusSample = {
      t: reading.t,
      poll_interval_s: poller === undefined ? null : poller.status().intervalMs / 1000,
      detection_p50_s: medianFromBuckets(before.buckets, reading.buckets),
      messages_per_s: round((reading.messages - before.messages) / seconds),
      cache_hit_ratio: cacheTotal > 0 ? round((reading.cacheServed - before.cacheServed) / cacheTotal) : null
    }
    ring.push(s)
    if (ring.length > capacity) ring.splice(0, ring.length - capacity)
    return s
  }

  const tick = (): void => { sample().catch(() => { /* a failed reading leaves a gap in the chart, nothing more */ }) }

  return {
    intervalMs,
    start () {
      if (timer !== undefined) return
      tick()
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    stop () {
      clearInterval(timer)
      timer = undefined
    },
    sample,
    samples: () => ring.slice(),
    latest: () => ring[ring.length - 1]
  }
}

const round = (n: number): number => Math.round(n * 1000) / 1000

/**
 * The median of the observations made between two readings of a cumulative histogram, interpolated
 * linearly inside its bucket (as Prometheus' histogram_quantile does). Observations above the last finite
 * bound are reported as that bound. Null when nothing was observed in between.
 */
export function medianFromBuckets (before: ReadonlyArray<[number, number]>, after: ReadonlyArray<[number, number]>): number | null {
  const prior = new Map(before)
  const delta = after.map(([le, count]) => [le, count - (prior.get(le) ?? 0)] as const)
  const total = delta[delta.length - 1]?.[1] ?? 0
  if (total <= 0) return null
  const rank = total / 2
  let lowerBound = 0
  let lowerCount = 0
  for (const [le, count] of delta) {
    if (count >= rank) {
      if (le === Infinity) return lowerBound
      const inBucket = count - lowerCount
      const share = inBucket > 0 ? (rank - lowerCount) / inBucket : 1
      return round(lowerBound + (le - lowerBound) * share)
    }
    lowerBound = le
    lowerCount = count
  }
  return lowerBound
}
