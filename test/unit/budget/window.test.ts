/** The ledger's rules as pure functions (src/budget/window.ts); both engines run or mirror them. */
import { describe, expect, it } from 'vitest'
import { checkClaim, checkCount, mergeObservation, reserveFrom, SAME_WINDOW_SLACK_MS, viewOf, type ReserveRule, type StoredBucket } from '../../../src/budget/window.ts'
import { WINDOW_MS } from '../../../packages/upstream-contract/src/hourly-window.ts'

const T0 = 1_700_000_000_000

const bucket = (over: Partial<StoredBucket> = {}): StoredBucket =>
  ({ remaining: 100, resetsAt: T0 + 1_800_000, updatedAt: T0, estimated: false, ...over })

describe('mergeObservation', () => {
  it('stores the first sighting with resetsAt = arrival + resets_in_seconds', () => {
    expect(mergeObservation(undefined, { remaining: 42, resetsInSeconds: 600, limit: 3000 }, T0))
      .toEqual({ remaining: 42, resetsAt: T0 + 600_000, limit: 3000, updatedAt: T0, estimated: false, low: 42, calls: 1, learned: 43 })
  })

  it('keeps the lowest remaining and the latest reset estimate within one window', () => {
    const stored = bucket()
    // A response that left the upstream earlier arrives later: it must not raise the count.
    const late = mergeObservation(stored, { remaining: 105, resetsInSeconds: 1799 }, T0 + 3000)
    expect(late).toMatchObject({ remaining: 100, resetsAt: T0 + 3000 + 1_799_000 })
    const lower = mergeObservation(stored, { remaining: 90, resetsInSeconds: 1790 }, T0 + 10_000)
    expect(lower).toMatchObject({ remaining: 90, resetsAt: T0 + 1_800_000, updatedAt: T0 + 10_000 })
  })

  it('replaces the bucket when the observation belongs to a later window', () => {
    const stored = bucket({ remaining: 3, limit: 3000 })
    const next = mergeObservation(stored, { remaining: 2999, resetsInSeconds: 3599 }, T0 + 1_800_001)
    expect(next).toEqual({ remaining: 2999, resetsAt: T0 + 1_800_001 + 3_599_000, limit: 3000, updatedAt: T0 + 1_800_001, estimated: false, low: 2999, calls: 1, learned: 3000 })
  })

  it('ignores a late response from an older window', () => {
    const stored = bucket({ resetsAt: T0 + WINDOW_MS })
    expect(mergeObservation(stored, { remaining: 7, resetsInSeconds: 1 }, T0 + 100)).toBeUndefined()
  })

  it('treats resetsAt values within the slack as one window', () => {
    const stored = bucket()
    const within = mergeObservation(stored, { remaining: 150, resetsInSeconds: (1_800_000 + SAME_WINDOW_SLACK_MS) / 1000 }, T0)
    expect(within?.remaining).toBe(100)
    const beyond = mergeObservation(stored, { remaining: 150, resetsInSeconds: (1_800_000 + SAME_WINDOW_SLACK_MS) / 1000 + 1 }, T0)
    expect(beyond?.remaining).toBe(150)
  })

  it('adopts the upstream reset time over a window that reserve estimated', () => {
    const stored = bucket({ remaining: 2990, resetsAt: T0 + WINDOW_MS, estimated: true, limit: 3000 })
    // Someone else opened the upstream window 10 minutes before our estimate: take its reset, keep the lowest count.
    const next = mergeObservation(stored, { remaining: 2995, resetsInSeconds: 3000 }, T0)
    expect(next).toEqual({ remaining: 2990, resetsAt: T0 + 3_000_000, limit: 3000, updatedAt: T0, estimated: false, low: 2995, calls: 1, learned: 2996 })
  })

  it('keeps a known limit when the response does not repeat it, and clamps negative numbers', () => {
    const next = mergeObservation(bucket({ limit: 3000 }), { remaining: -4, resetsInSeconds: 1800 }, T0)
    expect(next).toMatchObject({ remaining: 0, limit: 3000 })
    // Negative seconds (a clock quirk) mean "resets now".
    expect(mergeObservation(undefined, { remaining: 1, resetsInSeconds: -5 }, T0)?.resetsAt).toBe(T0)
  })
})

describe('viewOf', () => {
  it('extrapolates to the limit once the reset time has passed', () => {
    const stored = bucket({ remaining: 3, limit: 3000 })
    expect(viewOf('Fixture', stored, T0)).toEqual({
      entity: 'Fixture',
      remaining: 3,
      limit: 3000,
      limitSource: 'reported',
      resetsAt: stored.resetsAt,
      updatedAt: T0,
      expired: false,
      pollersNeed: 0,
      spent: { pollers: 0, passthrough: 0 }
    })
    expect(viewOf('Fixture', stored, stored.resetsAt)).toMatchObject({ remaining: 3000, expired: true })
  })

  it('takes the configured limit over the reported one, and the reported over the learned one', () => {
    expect(viewOf('Fixture', bucket({ limit: 3000, learned: 120 }), T0, 150)).toMatchObject({ limit: 150, limitSource: 'configured' })
    expect(viewOf('Fixture', bucket({ limit: 3000, learned: 120 }), T0)).toMatchObject({ limit: 3000, limitSource: 'reported' })
    expect(viewOf('Fixture', bucket({ learned: 120 }), T0)).toMatchObject({ limit: 120, limitSource: 'learned' })
  })

  it('keeps the last count past the reset when the limit is unknown', () => {
    const stored = bucket({ remaining: 3 })
    expect(viewOf('Fixture', stored, stored.resetsAt + 1)).toMatchObject({ remaining: 3, expired: true })
    expect(viewOf('Fixture', stored, T0)).not.toHaveProperty('limit')
  })

  it('shows the claims\' need until the reset and what each side spent; past the reset, a window opening now', () => {
    const claim = { perHour: 3600, reserve: 0.2, lumps: 2, until: T0 + 60_000 }
    const stored = bucket({ remaining: 4000, limit: 5000, spentPollers: 7, spentPassthrough: 3 })
    expect(viewOf('Fixture', stored, T0, undefined, [claim])).toMatchObject({ pollersNeed: 1802, spent: { pollers: 7, passthrough: 3 } })
    const past = viewOf('Fixture', stored, stored.resetsAt, undefined, [{ ...claim, until: stored.resetsAt + 1 }])
    expect(past).toMatchObject({ remaining: 5000, expired: true, pollersNeed: 3602, spent: { pollers: 0, passthrough: 0 } })
  })
})

describe('reserveFrom', () => {
  const pollers = (floor = 0): ReserveRule => ({ by: 'pollers', floor })
  const passthrough: ReserveRule = { by: 'passthrough', floor: 0 }

  it('takes n while the floor holds and refuses below it, counting what each side spent', () => {
    expect(reserveFrom(bucket({ remaining: 5 }), 2, pollers(3), T0)).toMatchObject({ kind: 'taken', next: { remaining: 3, spentPollers: 2 } })
    expect(reserveFrom(bucket({ remaining: 5 }), 3, pollers(3), T0)).toEqual({ kind: 'refused' })
    expect(reserveFrom(bucket({ remaining: 5, spentPassthrough: 4 }), 1, passthrough, T0)).toMatchObject({ kind: 'taken', next: { remaining: 4, spentPassthrough: 5 } })
  })

  it('leaves the claims in force their need, for the passthrough only', () => {
    const claim = { perHour: 3600, reserve: 0.2, lumps: 2, until: T0 + 60_000 }
    // Half an hour left of 5000/h: the claim needs 1802.
    const stored = bucket({ remaining: 1805, limit: 5000 })
    expect(reserveFrom(stored, 3, passthrough, T0, undefined, [claim])).toMatchObject({ kind: 'taken', next: { remaining: 1802 } })
    expect(reserveFrom(stored, 4, passthrough, T0, undefined, [claim])).toEqual({ kind: 'refused' })
    expect(reserveFrom(stored, 4, pollers(), T0, undefined, [claim])).toMatchObject({ kind: 'taken' })
    // A claim that lapsed keeps nothing.
    expect(reserveFrom(stored, 4, passthrough, T0 + 60_000, undefined, [claim])).toMatchObject({ kind: 'taken' })
  })

  it('allows without counting when nothing is known', () => {
    expect(reserveFrom(undefined, 1, pollers(), T0)).toEqual({ kind: 'uncounted' })
    expect(reserveFrom(bucket(), 1, pollers(), T0 + WINDOW_MS)).toEqual({ kind: 'uncounted' })
  })

  it('opens an estimated window of one hour when the old one ended and the limit is known', () => {
    const at = T0 + WINDOW_MS
    expect(reserveFrom(bucket({ remaining: 0, limit: 3000, spentPassthrough: 9 }), 1, pollers(), at))
      .toEqual({ kind: 'taken', next: { remaining: 2999, resetsAt: at + WINDOW_MS, limit: 3000, updatedAt: at, estimated: true, previousResetsAt: T0 + 1_800_000, calls: 0, spentPollers: 1 } })
  })

  it('judges the passthrough against the need of the window it opens, not of the one that ended', () => {
    const at = T0 + WINDOW_MS
    const claim = { perHour: 60, reserve: 0.2, lumps: 1, until: at + 1 }
    // 100 an hour: the claim needs 61 of the new window.
    expect(reserveFrom(bucket({ remaining: 0, limit: 100 }), 40, passthrough, at, undefined, [claim])).toEqual({ kind: 'refused' })
    expect(reserveFrom(bucket({ remaining: 0, limit: 100 }), 39, passthrough, at, undefined, [claim])).toMatchObject({ kind: 'taken', next: { remaining: 61, spentPassthrough: 39 } })
  })

  it('rejects counts that are not positive integers', () => {
    expect(() => checkCount(0)).toThrow(RangeError)
    expect(() => checkCount(1.5)).toThrow(RangeError)
    expect(checkCount(3)).toBe(3)
  })

  it('rejects claims that are not finite, non-negative figures with a reserve share', () => {
    const claim = { perHour: 3600, reserve: 0.2, lumps: 1, ttlMs: 60_000 }
    expect(checkClaim(claim)).toBe(claim)
    expect(() => checkClaim({ ...claim, perHour: Infinity })).toThrow(TypeError)
    expect(() => checkClaim({ ...claim, lumps: -1 })).toThrow(TypeError)
    expect(() => checkClaim({ ...claim, reserve: 1.5 })).toThrow(TypeError)
  })
})
