/**
 * The detection latency over the last minutes (status/detection.ts): p50 and p95 of the changes observed
 * since the oldest reading kept, readings kept every 10 s for 5 minutes, so older observations leave the
 * window; from the first change on, since the histogram starts empty with the process.
 */
import { describe, expect, it } from 'vitest'
import { createMetrics } from '../../../src/metrics.ts'
import { createDetectionWindow } from '../../../src/status/detection.ts'

describe('the detection window', () => {
  it('gives p50 and p95 of the changes of the last 5 minutes, and how long it measured', async () => {
    const metrics = createMetrics({ defaults: false })
    let now = 1_000_000
    const window = createDetectionWindow({ metrics, now: () => now })
    expect(window.current(), 'before the first refresh').toBeNull()
    await window.refresh()
    expect(window.current()).toEqual({ p50: null, p95: null, changes: 0, windowMs: 0 })

    // Slow changes first (buckets 8-13 s), then one a second for 5 minutes of fast ones (0.5-1 s).
    for (let i = 0; i < 10; i++) metrics.detectionLatency.observe(10)
    now += 10_000
    await window.refresh()
    expect(window.current()).toEqual({ p50: 10.5, p95: 12.75, changes: 10, windowMs: 10_000 })
    for (let s = 0; s < 300; s += 10) {
      for (let i = 0; i < 10; i++) metrics.detectionLatency.observe(0.7)
      now += 10_000
      await window.refresh()
    }
    // The slow ones were observed more than 5 minutes ago: out of the window.
    expect(window.current()).toEqual({ p50: 0.75, p95: 0.975, changes: 300, windowMs: 300_000 })
  })

  it('keeps its last figures when the histogram cannot be read', async () => {
    const metrics = createMetrics({ defaults: false })
    metrics.detectionLatency.observe(0.4)
    const window = createDetectionWindow({ metrics })
    await window.refresh()
    const before = window.current()
    expect(before?.changes).toBe(1)
    const broken = { detectionLatency: { get: async () => { throw new Error('collect failed') } } } as unknown as Parameters<typeof createDetectionWindow>[0]['metrics']
    const failing = createDetectionWindow({ metrics: broken })
    await expect(failing.refresh()).resolves.toBeUndefined()
    expect(failing.current()).toBeNull()
  })
})
