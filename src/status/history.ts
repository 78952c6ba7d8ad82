/**
 * The status page's recent history: every 10 s, one sample of the numbers an operator watches (poll
 * interval, detection latency, messages per second, passthrough cache hit ratio), kept for one hour in a
 * ring buffer. Rates and the latency median are computed from the difference between two readings of the
 * Prometheus counters and histogram, so each sample describes its own 10 s, not the life of the process.
 *
 * The budget's burn rate is read the same way: the calls the ledger counted in each bucket (spent by the
 * pollers and the passthrough), at every sample, over the last BURN_WINDOW_MS. The ledger is the
 * deployment's (over Redis every instance's calls are in it), so every process reports the same rate.
 *
 * Domain code: reads the Metrics object, the ledger and the poller's status, never fastify.
 */
import type { BucketView } from '../budget/index.ts'
import { SAME_WINDOW_SLACK_MS } from '../budget/window.ts'
import type { Metrics } from '../metrics.ts'
import { bucketsOf, quantileFromBuckets, type Buckets } from './histogram.ts'

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

/** What the history reads of the budget ledger (BudgetLedger.all): each bucket's window and its calls spent. */
export type SpentReading = () => Promise<ReadonlyArray<Pick<BucketView, 'entity' | 'resetsAt' | 'spent'>>>

/** The calls per hour a bucket is spent at now. */
export interface BurnRate {
  perHour: number
  /** The stretch of time measured, ms: BURN_WINDOW_MS once the history is that old. */
  overMs: number
}

/** How far back the burn rate looks. */
export const BURN_WINDOW_MS = 5 * 60_000

export interface StatusHistoryOptions {
  metrics: Metrics
  poller: () => PollInterval | undefined
  /** The ledger's buckets, for the burn rate; without it there is none. */
  budget?: SpentReading
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
  /** Each bucket's burn rate over the last BURN_WINDOW_MS, by entity; a bucket not read twice yet has none. */
  burn: () => Map<string, BurnRate>
  readonly intervalMs: number
}

/** The calls of each bucket at one reading: its window (by when it resets) and the calls spent in it. */
export interface SpentAt {
  t: number
  /** By entity; undefined when the ledger could not be read. */
  spent: ReadonlyMap<string, { resetsAt: number, calls: number }> | undefined
}

/** Cumulative readings of the counters and histogram the samples are computed from. */
interface Reading extends SpentAt {
  messages: number
  cacheServed: number
  cacheTotal: number
  /** Histogram buckets: upper bound (Infinity last) to cumulative count. */
  buckets: Buckets
}

/** Outcomes of touchline_cache_requests_total that cost no upstream call of their own. */
const SERVED_LOCALLY = new Set(['hit', 'live', 'coalesced'])

export function createStatusHistory (opts: StatusHistoryOptions): StatusHistory {
  const intervalMs = opts.intervalMs ?? 10_000
  const capacity = opts.capacity ?? 360
  const now = opts.now ?? Date.now
  const ring: StatusSample[] = []
  let previous: Reading | undefined
  /** The readings of the last BURN_WINDOW_MS, and the one before them: the burn rate's. */
  const recent: SpentAt[] = []
  let timer: NodeJS.Timeout | undefined

  async function read (): Promise<Reading> {
    const { metrics } = opts
    const [messages, cache, latency, buckets] = await Promise.all([
      metrics.messagesSent.get(), metrics.cacheRequests.get(), metrics.detectionLatency.get(),
      // A ledger that cannot be read (the store down) leaves a gap in the burn rate, not in the samples.
      opts.budget?.().catch(() => undefined)
    ])
    let cacheServed = 0
    let cacheTotal = 0
    for (const v of cache.values) {
      cacheTotal += v.value
      if (SERVED_LOCALLY.has(String(v.labels.outcome))) cacheServed += v.value
    }
    const spent = buckets === undefined ? undefined : new Map(buckets.map((b) => [b.entity, { resetsAt: b.resetsAt, calls: b.spent.pollers + b.spent.passthrough }]))
    return { t: now(), messages: messages.values.reduce((sum, v) => sum + v.value, 0), cacheServed, cacheTotal, buckets: bucketsOf(latency), spent }
  }

  async function sample (): Promise<StatusSample | undefined> {
    const reading = await read()
    const before = previous
    previous = reading
    recent.push({ t: reading.t, spent: reading.spent })
    while (recent.length > 2 && (recent[1] as SpentAt).t <= reading.t - BURN_WINDOW_MS) recent.shift()
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
    latest: () => ring[ring.length - 1],
    burn: () => burnRates(recent)
  }
}

const round = (n: number): number => Math.round(n * 1000) / 1000

/** The median of the observations made between two readings of a cumulative histogram (histogram.ts). */
export function medianFromBuckets (before: Buckets, after: Buckets): number | null {
  return quantileFromBuckets(before, after, 0.5)
}

/**
 * Each bucket's calls per hour over a series of readings (oldest first): the calls counted between each two
 * readings over the time between them. A bucket whose window reset in between counts the calls of its new
 * window (those of the old one after the earlier reading are lost: a few at most); a reset estimate that
 * moved by less than SAME_WINDOW_SLACK_MS is the same window. Readings where the ledger could not be read
 * are left out with the time around them. A bucket not read in two readings one after the other has no rate.
 */
export function burnRates (readings: readonly SpentAt[]): Map<string, BurnRate> {
  const totals = new Map<string, { calls: number, ms: number }>()
  for (let i = 1; i < readings.length; i++) {
    const [a, b] = [readings[i - 1] as SpentAt, readings[i] as SpentAt]
    if (a.spent === undefined || b.spent === undefined || b.t <= a.t) continue
    for (const [entity, now] of b.spent) {
      const then = a.spent.get(entity)
      // One window's reset estimate may move by a second or so between responses (budget/window.ts).
      const sameWindow = then !== undefined && Math.abs(now.resetsAt - then.resetsAt) <= SAME_WINDOW_SLACK_MS && now.calls >= then.calls
      const calls = sameWindow ? now.calls - (then?.calls ?? 0) : now.calls
      const total = totals.get(entity) ?? { calls: 0, ms: 0 }
      totals.set(entity, { calls: total.calls + calls, ms: total.ms + (b.t - a.t) })
    }
  }
  return new Map([...totals].map(([entity, t]) => [entity, { perHour: Math.round(t.calls / t.ms * 3_600_000), overMs: t.ms }]))
}
