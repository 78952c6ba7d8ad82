import { describe, expect, it } from 'vitest'
import { createMetrics } from '../../../src/metrics.ts'
import type { Poller, PollerStatus } from '../../../src/poller/poller.ts'
import { createStatusHistory, medianFromBuckets } from '../../../src/status/history.ts'

describe('medianFromBuckets', () => {
  const before: Array<[number, number]> = [[0.5, 10], [1, 20], [2, 30], [Infinity, 30]]

  it('interpolates the median of the observations between two readings inside its bucket', () => {
    // Since `before`: 4 in (0, 0.5], 4 in (0.5, 1], 0 above: the median (rank 4 of 8) closes the first bucket.
    expect(medianFromBuckets(before, [[0.5, 14], [1, 28], [2, 38], [Infinity, 38]])).toBe(0.5)
    // 2 in (0.5, 1], 2 in (1, 2]: rank 2 ends at 1.
    expect(medianFromBuckets(before, [[0.5, 10], [1, 22], [2, 34], [Infinity, 34]])).toBe(1)
    // 4 in (1, 2]: rank 2 is halfway through.
    expect(medianFromBuckets(before, [[0.5, 10], [1, 20], [2, 34], [Infinity, 34]])).toBe(1.5)
  })

  it('is null when nothing was observed, and the last finite bound for observations above it', () => {
    expect(medianFromBuckets(before, before)).toBeNull()
    expect(medianFromBuckets(before, [[0.5, 10], [1, 20], [2, 30], [Infinity, 33]])).toBe(2)
  })
})

describe('status history', () => {
  const pollerAt = (intervalMs: number): Poller => ({ status: () => ({ intervalMs } as PollerStatus) } as unknown as Poller)

  it('samples rates, median latency and cache ratio over each interval, into a bounded ring', async () => {
    const metrics = createMetrics({ defaults: false })
    let now = 1_000_000
    const history = createStatusHistory({ metrics, poller: () => pollerAt(1500), capacity: 3, now: () => now })
    expect(await history.sample()).toBeUndefined() // the first reading is the baseline

    metrics.messagesSent.inc({ transport: 'ws', type: 'change' }, 40)
    metrics.messagesSent.inc({ transport: 'sse', type: 'change' }, 10)
    metrics.cacheRequests.inc({ outcome: 'hit' }, 6)
    metrics.cacheRequests.inc({ outcome: 'coalesced' }, 1)
    metrics.cacheRequests.inc({ outcome: 'miss' }, 3)
    for (const s of [0.3, 0.4, 0.7, 0.9]) metrics.detectionLatency.observe(s)
    now += 10_000
    expect(await history.sample()).toEqual({ t: now, poll_interval_s: 1.5, detection_p50_s: 0.5, messages_per_s: 5, cache_hit_ratio: 0.7 })

    now += 10_000
    expect(await history.sample()).toMatchObject({ messages_per_s: 0, detection_p50_s: null, cache_hit_ratio: null })
    for (let i = 0; i < 3; i++) { now += 10_000; await history.sample() }
    expect(history.samples()).toHaveLength(3)
    expect(history.latest()?.t).toBe(now)
  })

  it('reports no poll interval on an instance without a poller', async () => {
    const history = createStatusHistory({ metrics: createMetrics({ defaults: false }), poller: () => undefined })
    await history.sample()
    expect((await history.sample())?.poll_interval_s).toBeNull()
  })
})
