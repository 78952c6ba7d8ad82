/** Leadership lease contract (docs/architecture.md, "Scale-out"), run against the memory and Redis implementations. */
import { describe, expect, it, onTestFinished } from 'vitest'
import { createLease, type Lease } from '../../../src/store/lease.ts'
import { openTestRedis } from '../../helpers/redis.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function leaseContract (name: string, open: () => Promise<Lease>): void {
  describe(`${name} lease`, () => {
    it('is held by one holder at a time; the holder can re-acquire and renew, others cannot', async () => {
      const lease = await open()
      expect(await lease.acquire('poller', 'a', 5000)).toBe(true)
      expect(await lease.acquire('poller', 'b', 5000)).toBe(false)
      expect(await lease.acquire('poller', 'a', 5000)).toBe(true)
      expect(await lease.renew('poller', 'a', 5000)).toBe(true)
      expect(await lease.renew('poller', 'b', 5000)).toBe(false)
      expect(await lease.holder('poller')).toBe('a')
      // Leases are independent by name.
      expect(await lease.acquire('other', 'b', 5000)).toBe(true)
    })

    it('ignores a release by someone else and frees the lease on the holder\'s release', async () => {
      const lease = await open()
      await lease.acquire('poller', 'a', 5000)
      expect(await lease.release('poller', 'b')).toBe(false)
      expect(await lease.holder('poller')).toBe('a')
      expect(await lease.release('poller', 'a')).toBe(true)
      expect(await lease.holder('poller')).toBeUndefined()
      expect(await lease.acquire('poller', 'b', 5000)).toBe(true)
    })

    it('expires without renewal, lets another take over, and refuses the old holder\'s renew', async () => {
      const lease = await open()
      // Margins are chosen so a slow machine only makes sleeps longer, which never flips an assertion.
      expect(await lease.acquire('poller', 'a', 300)).toBe(true)
      await sleep(100)
      expect(await lease.renew('poller', 'a', 5000)).toBe(true)
      await sleep(300)
      // Past the first ttl, but the renewal extended it.
      expect(await lease.acquire('poller', 'b', 5000)).toBe(false)
      expect(await lease.renew('poller', 'a', 50)).toBe(true)
      await sleep(150)
      expect(await lease.holder('poller')).toBeUndefined()
      expect(await lease.acquire('poller', 'b', 5000)).toBe(true)
      expect(await lease.renew('poller', 'a', 5000)).toBe(false)
      expect(await lease.release('poller', 'a')).toBe(false)
      expect(await lease.holder('poller')).toBe('b')
    })

    it('rejects a ttl that is not a positive integer of milliseconds', async () => {
      const lease = await open()
      await expect(lease.acquire('poller', 'a', 0)).rejects.toThrow(RangeError)
      await expect(lease.renew('poller', 'a', 1.5)).rejects.toThrow(RangeError)
    })
  })
}

leaseContract('memory', async () => createLease({ kind: 'memory' }))

leaseContract('redis', async () => {
  const redis = openTestRedis()
  onTestFinished(redis.close)
  return createLease({ kind: 'redis', redis: redis.redis, prefix: redis.prefix })
})

describe('memory lease clock', () => {
  it('expires by the injected clock, so pollers can be tested with fake time', async () => {
    let now = 1_000
    const lease = createLease({ kind: 'memory', now: () => now })
    await lease.acquire('poller', 'a', 10_000)
    now += 9_999
    expect(await lease.holder('poller')).toBe('a')
    now += 1
    expect(await lease.acquire('poller', 'b', 10_000)).toBe(true)
  })
})
