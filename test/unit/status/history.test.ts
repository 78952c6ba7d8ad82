import { describe, expect, it } from 'vitest'
import { createMetrics } from '../../../src/metrics.ts'
import type { Poller, PollerStatus } from '../../../src/poller/poller.ts'
import { burnRates, createStatusHistory, medianFromBuckets, type SpentAt } from '../../../src/status/history.ts'

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

describe('burnRates', () => {
  const HOUR = 3_600_000
  const RESET = 5_000_000
  const at = (t: number, spent: Record<string, [number, number]> | undefined): SpentAt =>
    ({ t, spent: spent === undefined ? undefined : new Map(Object.entries(spent).map(([e, [resetsAt, calls]]) => [e, { resetsAt, calls }])) })

  it('is the calls counted between the readings, per hour, per bucket', () => {
    const rates = burnRates([at(0, { Fixture: [RESET, 100], League: [RESET, 3] }), at(60_000, { Fixture: [RESET, 130], League: [RESET, 3] }), at(120_000, { Fixture: [RESET, 160], League: [RESET, 4] })])
    expect(rates.get('Fixture')).toEqual({ perHour: 1800, overMs: 120_000 })
    expect(rates.get('League')).toEqual({ perHour: 30, overMs: 120_000 })
  })

  it('counts a new window\'s calls from its start, and a reset estimate moved by a second as the same window', () => {
    // Moved by 1 s (a later response's estimate): the same window, 20 calls. Then a new window an hour on: its 5 calls.
    const rates = burnRates([at(0, { Fixture: [RESET, 100] }), at(60_000, { Fixture: [RESET + 1000, 120] }), at(120_000, { Fixture: [RESET + HOUR, 5] })])
    expect(rates.get('Fixture')).toEqual({ perHour: 750, overMs: 120_000 })
    // Past the reset the ledger shows nothing spent until the next window opens: no negative calls.
    expect(burnRates([at(0, { Fixture: [RESET, 100] }), at(60_000, { Fixture: [RESET, 0] })]).get('Fixture')).toEqual({ perHour: 0, overMs: 60_000 })
  })

  it('leaves out the time around a reading the ledger did not answer, and a bucket seen once has no rate', () => {
    const rates = burnRates([at(0, { Fixture: [RESET, 10] }), at(60_000, undefined), at(120_000, { Fixture: [RESET, 50], League: [RESET, 2] }), at(180_000, { Fixture: [RESET, 60], League: [RESET, 2] })])
    expect(rates.get('Fixture')).toEqual({ perHour: 600, overMs: 60_000 })
    // League first seen at 120 s: its 2 calls made since the reading before, which did not answer, are not counted.
    expect(rates.get('League')).toEqual({ perHour: 0, overMs: 60_000 })
    expect(burnRates([at(0, { Fixture: [RESET, 10] })]).size).toBe(0)
    expect(burnRates([]).size).toBe(0)
  })
})

describe('the history\'s burn rate', () => {
  it('reads the ledger at each sample and looks back 5 minutes', async () => {
    let now = 0
    let calls = 0
    const budget = async () => [{ entity: 'Fixture', resetsAt: 3_600_000, spent: { pollers: calls, passthrough: 0 } }]
    const history = createStatusHistory({ metrics: createMetrics({ defaults: false }), poller: () => undefined, budget, now: () => now })
    await history.sample()
    expect(history.burn().size, 'one reading').toBe(0)
    // 10 calls every 10 s for 5 minutes (3600 an hour), then 1 every 10 s for 5 minutes (360 an hour).
    for (let i = 0; i < 30; i++) { calls += 10; now += 10_000; await history.sample() }
    expect(history.burn().get('Fixture')).toEqual({ perHour: 3600, overMs: 300_000 })
    for (let i = 0; i < 30; i++) { calls += 1; now += 10_000; await history.sample() }
    expect(history.burn().get('Fixture')).toEqual({ perHour: 360, overMs: 300_000 })
  })
})
