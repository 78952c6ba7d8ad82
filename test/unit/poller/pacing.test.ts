import { describe, expect, it } from 'vitest'
import type { BucketView } from '../../../src/budget/index.ts'
import { claimOf, nextPace, pauseLeft } from '../../../src/poller/pacing.ts'
import { CLAIM_TTL_MS, claimNeed, claimsNeed, pollerFloor, reserveCount, SLOWEST_POLL_MS } from '../../../src/budget/share.ts'

const NOW = 1_800_000_000_000
const opts = { reserve: 0.2, floorMs: 1000, ceilingMs: SLOWEST_POLL_MS }
const bucket = (remaining: number, msLeft: number, limit: number | undefined = 3000): BucketView =>
  ({ entity: 'Fixture', remaining, ...(limit !== undefined ? { limit } : {}), resetsAt: NOW + msLeft, updatedAt: NOW, expired: false, pollersNeed: 0, spent: { pollers: 0, passthrough: 0 } })

describe('poller pacing', () => {
  it('polls at the floor before the ledger knows the bucket', () => {
    expect(nextPace(undefined, NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000 })
    expect(nextPace({ ...bucket(10, 0), expired: true }, NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000 })
  })

  it('spreads what is left above the reserve evenly until the reset', () => {
    // 3000/h, 20 % kept: 2400 calls over the hour is one every 1.5 s.
    expect(nextPace(bucket(3000, 3_600_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 1500 })
    // 5000/h: 4000 usable, 0.9 s each, clamped to the 1 s floor: the budget has calls to spare beside the polls.
    expect(nextPace(bucket(5000, 3_600_000, 5000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 1000, spare: true })
  })

  it('spends all that is left, evenly, when it is less than its claim needs (the passthrough gets none of it)', () => {
    // 700 left of 3000 with the hour to go, against a need of 2400: one poll every 5.1 s, not the 8 s ceiling.
    expect(nextPace(bucket(700, 3_600_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 5143 })
    // 600 with 50 min to go (the passthrough took more than its share before the claims): one every 5 s.
    expect(nextPace(bucket(600, 3_000_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 5000 })
  })

  it('polls less often than the 10 s window only when what is left cannot pay for overlapping polls', () => {
    expect(nextPace(bucket(460, 3_600_000), NOW, opts)).toEqual({ kind: 'poll', delayMs: 7826 })
    expect(nextPace(bucket(440, 3_600_000), NOW, opts)).toEqual({ kind: 'slow', delayMs: 8182 })
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

  it('claims its fastest pace an hour, its reconcile as a lump, and the reserve it leaves the passthrough', () => {
    expect(claimOf(opts, { reconcileCalls: 1, reconcileEveryMs: Infinity })).toEqual({ perHour: 3600, reserve: 0.2, lumps: 1, ttlMs: CLAIM_TTL_MS })
    // A reconcile of three calls every 30 s: two extra calls 120 times an hour.
    expect(claimOf(opts, { reconcileCalls: 3, reconcileEveryMs: 30_000 })).toMatchObject({ perHour: 3840, lumps: 3 })
    // The odds poller's lumps: one whole fetch per fixture it follows.
    expect(claimOf(opts, { reconcileCalls: 1, reconcileEveryMs: Infinity, lumps: 12 }, 90_000)).toMatchObject({ lumps: 12, ttlMs: 90_000 })
    // Without a floor the pace is unbounded: the limit less the reserve bounds it.
    expect(claimOf({ ...opts, floorMs: 0 }, { reconcileCalls: 1, reconcileEveryMs: Infinity }).perHour).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('needs its pace times the time left plus its lumps, never more than the limit less the reserve', () => {
    const claim = { perHour: 3600, reserve: 0.2, lumps: 2 }
    // 5000/h, half an hour left: 1800 polls and the lumps, well below the 4000 it could claim.
    expect(claimNeed(claim, 5000, 1_800_000)).toBe(1802)
    // 3000/h, a full hour: capped at 2400, the passthrough keeps its 600.
    expect(claimNeed(claim, 3000, 3_600_000)).toBe(2400)
    // 120/h: the pollers slow down to their share (96 of the hour), the passthrough keeps 24.
    expect(claimNeed(claim, 120, 3_600_000)).toBe(96)
    expect(claimNeed(claim, 120, 1_800_000)).toBe(50)
    // No limit known: the pace alone; unbounded without a floor.
    expect(claimNeed(claim, undefined, 1_800_000)).toBe(1802)
    expect(claimNeed({ ...claim, perHour: Number.MAX_SAFE_INTEGER }, undefined, 1000)).toBeGreaterThan(1e9)
    expect(claimNeed(claim, 5000, 0)).toBe(2)
  })

  it('sums the claims in force, the time left at most a window', () => {
    const live = { perHour: 3600, reserve: 0.2, lumps: 2, until: NOW + 1 }
    const odds = { perHour: 1800, reserve: 0.2, lumps: 10, until: NOW + 60_000 }
    const lapsed = { ...live, until: NOW }
    expect(claimsNeed([live, odds, lapsed], 5000, NOW + 1_800_000, NOW)).toBe(1802 + 910)
    expect(claimsNeed([live], 5000, NOW + 2 * 3_600_000, NOW)).toBe(3602)
    expect(claimsNeed([live], 5000, NOW - 1, NOW)).toBe(2)
    expect(claimsNeed([], 5000, NOW + 1_800_000, NOW)).toBe(0)
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
