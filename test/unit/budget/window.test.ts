/** The ledger's rules as pure functions (src/budget/window.ts); both engines run or mirror them. */
import { describe, expect, it } from 'vitest'
import { checkCount, mergeObservation, reserveFrom, SAME_WINDOW_SLACK_MS, viewOf, type StoredBucket } from '../../../src/budget/window.ts'
import { WINDOW_MS } from '../../../src/contract/hourly-window.ts'

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
    expect(viewOf('Fixture', stored, T0)).toEqual({ entity: 'Fixture', remaining: 3, limit: 3000, limitSource: 'reported', resetsAt: stored.resetsAt, updatedAt: T0, expired: false })
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
})

describe('reserveFrom', () => {
  it('takes n while the floor holds and refuses below it', () => {
    expect(reserveFrom(bucket({ remaining: 5 }), 2, 3, T0)).toMatchObject({ kind: 'taken', next: { remaining: 3 } })
    expect(reserveFrom(bucket({ remaining: 5 }), 3, 3, T0)).toEqual({ kind: 'refused' })
  })

  it('allows without counting when nothing is known', () => {
    expect(reserveFrom(undefined, 1, 0, T0)).toEqual({ kind: 'uncounted' })
    expect(reserveFrom(bucket(), 1, 0, T0 + WINDOW_MS)).toEqual({ kind: 'uncounted' })
  })

  it('opens an estimated window of one hour when the old one ended and the limit is known', () => {
    const at = T0 + WINDOW_MS
    expect(reserveFrom(bucket({ remaining: 0, limit: 3000 }), 1, 0, at))
      .toEqual({ kind: 'taken', next: { remaining: 2999, resetsAt: at + WINDOW_MS, limit: 3000, updatedAt: at, estimated: true, previousResetsAt: T0 + 1_800_000, calls: 0 } })
  })

  it('rejects counts that are not positive integers', () => {
    expect(() => checkCount(0)).toThrow(RangeError)
    expect(() => checkCount(1.5)).toThrow(RangeError)
    expect(checkCount(3)).toBe(3)
  })
})
