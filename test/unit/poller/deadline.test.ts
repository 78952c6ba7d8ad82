import { describe, expect, it } from 'vitest'
import { createCallDeadline } from '../../../src/poller/deadline.ts'

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
})
