import { describe, expect, it } from 'vitest'
import { createCallDeadline, hedgePlan } from '../../../src/poller/deadline.ts'

describe('call deadline', () => {
  it('is twice the floor before any call succeeded, then four times the slowest recent call, within floor and ceiling', () => {
    const d = createCallDeadline({ floorMs: 2500, ceilingMs: 10_000 })
    expect(d.current()).toBe(5000)
    d.succeeded(20)
    expect(d.current(), 'a fast upstream: the floor').toBe(2500)
    d.succeeded(1500)
    expect(d.current(), 'a slow call raises it').toBe(6000)
    d.succeeded(4000)
    expect(d.current(), 'never past the ceiling').toBe(10_000)
  })

  it('forgets calls older than its window, so one slow call does not keep it high', () => {
    const d = createCallDeadline({ floorMs: 100, window: 3 })
    d.succeeded(1000)
    for (let i = 0; i < 3; i++) d.succeeded(10)
    expect(d.current()).toBe(100)
  })

  it('sends a hedge at four times the slowest recent call, at least its floor, at most half the deadline', () => {
    const d = createCallDeadline({ floorMs: 2500, hedgeFloorMs: 500 })
    expect(d.hedgeAfter(), 'nothing known yet: half the deadline').toBe(2500)
    d.succeeded(20)
    expect(d.hedgeAfter()).toBe(500)
    d.succeeded(200)
    expect(d.hedgeAfter()).toBe(800)
    d.succeeded(2000)
    expect(d.hedgeAfter(), 'half the 8 s deadline').toBe(4000)
  })

  it('follows its fallback until a call of its own succeeded', () => {
    const reconcile = createCallDeadline({ floorMs: 2500 })
    reconcile.succeeded(1000)
    const latest = createCallDeadline({ floorMs: 2500, fallback: reconcile })
    expect(latest.current()).toBe(4000)
    expect(latest.hedgeAfter()).toBe(2000)
    latest.succeeded(20)
    expect(latest.current()).toBe(2500)
    expect(latest.hedgeAfter()).toBe(500)
  })

  it('spreads hedges over the call\'s deadline: one per interval while it leaves an interval to answer, at most the maximum', () => {
    // A fast upstream: a 2.5 s deadline, a hedge every 0.5 s: four hedges, the last with 0.5 s left.
    expect(hedgePlan(2500, 500, 4)).toEqual({ callMs: 2500, afterMs: 500, hedges: 4 })
    expect(hedgePlan(2500, 800, 4), 'two intervals fit before the deadline').toEqual({ callMs: 2500, afterMs: 800, hedges: 2 })
    expect(hedgePlan(2500, 500, 1), 'the upstream looks down: one hedge').toEqual({ callMs: 2500, afterMs: 500, hedges: 1 })
    // A slow upstream (the interval is half the deadline): the deadline stretches to three intervals, so
    // the call still has two hedges.
    expect(hedgePlan(2500, 1250, 4)).toEqual({ callMs: 3750, afterMs: 1250, hedges: 2 })
    expect(hedgePlan(10_000, 5000, 4)).toEqual({ callMs: 15_000, afterMs: 5000, hedges: 2 })
  })
})
