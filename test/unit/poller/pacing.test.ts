import { describe, expect, it } from 'vitest'
import type { BucketView } from '../../../src/budget/index.ts'
import { nextPace, pauseLeft } from '../../../src/poller/pacing.ts'
import { pollerFloor, pollerNeed, reserveCount, SLOWEST_POLL_MS } from '../../../src/budget/share.ts'

const NOW = 1_800_000_000_000
const opts = { reserve: 0.2, floorMs: 1000, ceilingMs: SLOWEST_POLL_MS }
const bucket = (remaining: number, msLeft: number, limit: number | undefined = 3000): BucketView =>
  ({ entity: 'Fixture', remaining, ...(limit !== undefined ? { limit } : {}), resetsAt: NOW + msLeft, updatedAt: NOW, expired: false })

describe('poller pacing', () => {
  it('polls at the floor before the ledger knows the bucket', () => {
    expect(nextPace(undefined, NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000 })
    expect(nextPace({ ...bucket(10, 0), expired: true }, NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000 })
  })

  it('spreads what is left above the reserve evenly until the reset', () => {
    // 3000/h, 20 % kept: 2400 calls over the hour is one every 1.5 s.
    expect(nextPace(bucket(3000, 3_600_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 1500 })
    // 5000/h: 4000 usable, 0.9 s each, clamped to the 1 s floor.
    expect(nextPace(bucket(5000, 3_600_000, 5000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000 })
  })

  it('never waits longer than the slowest pace that still overlaps the 10 s window', () => {
    expect(nextPace(bucket(700, 3_600_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: SLOWEST_POLL_MS })
  })

  it('keeps polling at the ceiling once only the reserve is left, on what the passthrough leaves it', () => {
    // 600 left with 50 min to go: the passthrough keeps 375 (one poll per 8 s) for the poller.
    expect(nextPace(bucket(600, 3_000_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: SLOWEST_POLL_MS })
  })

  it('spreads a small bucket over the hour without overlapping polls, and never spends more than is left', () => {
    // 120/h: 96 for the poller, one every 37.5 s (each one a reconcile).
    expect(nextPace(bucket(120, 3_600_000, 120), NOW, opts)).toEqual({ kind: 'slow', delayMs: 37_500 })
    // A reconcile of three calls (livescores and two multi batches): three times slower.
    expect(nextPace(bucket(120, 3_600_000, 120), NOW, opts, { reconcileCalls: 3, reconcileEveryMs: 30_000 })).toEqual({ kind: 'slow', delayMs: 112_500 })
    // One call left with 50 min to go: one call in 50 min, not a 429 after 8 s.
    expect(nextPace(bucket(1, 3_000_000), NOW, opts)).toEqual({ kind: 'slow', delayMs: 3_000_000 })
  })

  it('pays for the extra multi calls of reconciles out of the overlapping pace', () => {
    // 2400 over the hour less 2 extra calls per 30 s reconcile (240): 2160 latest polls, one per 1.67 s.
    expect(nextPace(bucket(3000, 3_600_000), NOW, opts, { reconcileCalls: 3, reconcileEveryMs: 30_000 })).toEqual({ kind: 'poll', delayMs: 1667 })
  })

  it('waits for the reset when nothing is left', () => {
    expect(nextPace(bucket(0, 120_000), NOW, opts)).toEqual({ kind: 'exhausted', delayMs: 120_250 })
  })

  it('projects what the poller will spend until the reset: overlapping polls, capped by its share', () => {
    // 3000/h, a full hour left: 450 polls at one per 8 s, below its 2400 share.
    expect(pollerNeed(bucket(3000, 3_600_000), NOW, opts)).toBe(450)
    // 120/h: its share (96 of the hour, prorated to the time left) caps it.
    expect(pollerNeed(bucket(120, 3_600_000, 120), NOW, opts)).toBe(96)
    expect(pollerNeed(bucket(60, 1_800_000, 120), NOW, opts)).toBe(48)
    // No limit known: overlapping polls; nothing for an expired or unknown bucket.
    expect(pollerNeed(bucket(50, 80_000, undefined), NOW, opts)).toBe(10)
    expect(pollerNeed({ ...bucket(10, 0), expired: true }, NOW, opts)).toBe(0)
    expect(pollerNeed(undefined, NOW, opts)).toBe(0)
  })

  it('counts the pace from the start of the step: its own time comes out of the pause, down to the minimum', () => {
    expect(pauseLeft(1500, 300, 1000)).toBe(1200)
    expect(pauseLeft(1500, 1200, 1000)).toBe(1000)
    expect(pauseLeft(1500, 3000, 0)).toBe(0)
    // A wall clock stepped back during the step: never more than the pace.
    expect(pauseLeft(1500, -60_000, 1000)).toBe(1500)
  })

  it('keeps the passthrough reserve out of reach until only the reserve is left', () => {
    expect(reserveCount(3000, 0.2)).toBe(600)
    expect(reserveCount(undefined, 0.2)).toBe(0)
    expect(pollerFloor(bucket(2000, 1_000_000), 0.2)).toBe(600)
    expect(pollerFloor(bucket(600, 1_000_000), 0.2)).toBe(0)
    expect(pollerFloor(undefined, 0.2)).toBe(0)
  })
})
