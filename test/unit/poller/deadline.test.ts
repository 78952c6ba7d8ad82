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
})
