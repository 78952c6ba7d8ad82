/**
 * The client's reconnection pauses (backoffDelay): exponential, capped before the jitter, so the cap bounds
 * every pause and jitter still spreads clients that reached the cap together.
 */
import { describe, expect, it } from 'vitest'
import { backoffDelay } from '@touchline/core'

const at = (value: number) => () => value

describe('backoffDelay', () => {
  it('doubles from the base until the cap', () => {
    const top = { baseMs: 100, capMs: 1000, random: at(1) }
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, top))).toEqual([100, 200, 400, 800, 1000, 1000])
  })

  it('caps first, then jitters: equal jitter stays within [cap/2, cap] once capped, never above the cap', () => {
    const opts = { baseMs: 100, capMs: 1000 }
    expect(backoffDelay(20, { ...opts, random: at(0) })).toBe(500)
    expect(backoffDelay(20, { ...opts, random: at(0.999999) })).toBe(1000)
    // Jitter first, then cap, would give the cap itself for most draws at attempt 20: these differ.
    expect(backoffDelay(20, { ...opts, random: at(0.2) })).toBe(600)
    expect(backoffDelay(20, { ...opts, random: at(0.6) })).toBe(800)
  })

  it('full jitter draws between 0 and the capped value', () => {
    const opts = { baseMs: 100, capMs: 1000, jitter: 'full' as const }
    expect(backoffDelay(3, { ...opts, random: at(0) })).toBe(0)
    expect(backoffDelay(3, { ...opts, random: at(0.5) })).toBe(200)
    expect(backoffDelay(30, { ...opts, random: at(0.5) })).toBe(500)
  })

  it('spreads real random draws and never exceeds the cap, even for huge attempt numbers', () => {
    const delays = Array.from({ length: 200 }, (_, i) => backoffDelay(6 + i, { baseMs: 500, capMs: 15_000 }))
    expect(Math.max(...delays)).toBeLessThanOrEqual(15_000)
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(7_500)
    expect(new Set(delays).size).toBeGreaterThan(50)
    expect(backoffDelay(5000, { baseMs: 500, capMs: 15_000, random: at(1) })).toBe(15_000)
  })

  it('uses 500 ms and 15 s by default', () => {
    expect(backoffDelay(1, { random: at(1) })).toBe(500)
    expect(backoffDelay(100, { random: at(1) })).toBe(15_000)
  })
})
