import { expect, it } from 'vitest'
import { DEFAULT_LIMITS, RateLimiter, resolveLimits, takeToken } from '../../../src/fanout/limits.ts'

it('refills tokens at the configured rate up to the burst', () => {
  let now = 0
  const limiter = new RateLimiter(2, 3, () => now)
  expect([1, 2, 3, 4].map(() => limiter.take('ip'))).toEqual([true, true, true, false])
  expect(limiter.take('other')).toBe(true)
  now = 500 // one token back at 2 per second
  expect(limiter.take('ip')).toBe(true)
  expect(limiter.take('ip')).toBe(false)
})

it('forgets buckets that have refilled', () => {
  let now = 0
  const limiter = new RateLimiter(10, 2, () => now)
  limiter.take('a')
  limiter.take('b')
  limiter.take('b')
  now = 150 // a is full again, b has 1.5 of 2
  limiter.sweep()
  expect(limiter.size).toBe(1)
})

it('merges limits with the defaults and refuses nonsense', () => {
  expect(resolveLimits({ heartbeatMs: 10 })).toEqual({ ...DEFAULT_LIMITS, heartbeatMs: 10 })
  expect(() => resolveLimits({ maxSubscriptions: 0 })).toThrow(/maxSubscriptions/)
  expect(DEFAULT_LIMITS.maxPayloadBytes).toBeGreaterThan(DEFAULT_LIMITS.maxFrameBytes)
})

it('lets a connection send 20 operations at once, then 10 a second', () => {
  const { opsPerSecond, opsBurst } = DEFAULT_LIMITS
  expect([opsPerSecond, opsBurst]).toEqual([10, 20])
  const bucket = { tokens: opsBurst, at: 0 }
  const taken = Array.from({ length: 25 }, () => takeToken(bucket, 0, opsPerSecond, opsBurst))
  expect(taken.filter(Boolean)).toHaveLength(20)
  expect(takeToken(bucket, 99, opsPerSecond, opsBurst)).toBe(false)
  expect(takeToken(bucket, 100, opsPerSecond, opsBurst)).toBe(true)
  // Idle for a minute: back to the burst, not beyond it.
  expect(Array.from({ length: 25 }, () => takeToken(bucket, 60_100, opsPerSecond, opsBurst)).filter(Boolean)).toHaveLength(20)
})
