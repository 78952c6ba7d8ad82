import { describe, expect, it } from 'vitest'
import type { BucketView } from '../../../src/budget/index.ts'
import { nextPace, pollerFloor, reserveCount, SLOWEST_POLL_MS } from '../../../src/poller/pacing.ts'

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

  it('slows to the ceiling, rather than stopping, once only the reserve is left', () => {
    expect(nextPace(bucket(600, 3_000_000), NOW, opts)).toEqual({ kind: 'slow', delayMs: SLOWEST_POLL_MS })
    expect(nextPace(bucket(1, 3_000_000), NOW, opts)).toEqual({ kind: 'slow', delayMs: SLOWEST_POLL_MS })
  })

  it('waits for the reset when nothing is left', () => {
    expect(nextPace(bucket(0, 120_000), NOW, opts)).toEqual({ kind: 'exhausted', delayMs: 120_250 })
  })

  it('keeps the passthrough reserve out of reach until only the reserve is left', () => {
    expect(reserveCount(3000, 0.2)).toBe(600)
    expect(reserveCount(undefined, 0.2)).toBe(0)
    expect(pollerFloor(bucket(2000, 1_000_000), 0.2)).toBe(600)
    expect(pollerFloor(bucket(600, 1_000_000), 0.2)).toBe(0)
    expect(pollerFloor(undefined, 0.2)).toBe(0)
  })
})
