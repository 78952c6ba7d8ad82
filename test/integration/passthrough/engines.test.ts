/**
 * The passthrough's two storage contracts (quota store, response cache), run against both engines: memory
 * and a real Redis on a unique prefix.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryCache, createRedisCache, type ResponseCache } from '../../../src/passthrough/cache.ts'
import type { CachedEntry } from '../../../src/passthrough/entry.ts'
import { createMemoryQuota, createRedisQuota, type QuotaStore } from '../../../src/passthrough/quota.ts'
import { WINDOW_MS } from '../../../packages/upstream-contract/src/hourly-window.ts'
import { useRedis } from '../../helpers/redis.ts'

const T0 = Date.UTC(2026, 10, 21, 20, 0, 0)

const shared = useRedis()

const engines: Array<[string, () => { quota: QuotaStore, cache: ResponseCache }]> = [
  ['memory', () => ({ quota: createMemoryQuota(), cache: createMemoryCache() })],
  ['redis', () => ({ quota: createRedisQuota({ redis: shared.redis, prefix: shared.prefix }), cache: createRedisCache({ redis: shared.redis, prefix: shared.prefix }) })]
]

function entry (data: unknown, storedAt: number, ttlMs: number): CachedEntry {
  return {
    status: 200,
    entity: 'Team',
    parts: { data: JSON.stringify(data), pagination: { count: 1, per_page: 25, current_page: 1, next_page: null, has_more: false }, subscription: [{ plans: [] }], timezone: 'UTC' },
    leagues: null,
    storedAt,
    expiresAt: storedAt + ttlMs
  }
}

for (const [name, make] of engines) {
  describe(`quota store (${name})`, () => {
    it('opens the window at the first request, counts to the limit, then refuses until the hour has passed', async () => {
      const { quota } = make()
      const first = await quota.take('k1', 'Team', 3, T0)
      expect(first).toEqual({ allowed: true, state: { entity: 'Team', limit: 3, used: 1, remaining: 2, resetsInSeconds: 3600, windowStart: T0 } })
      await quota.take('k1', 'Team', 3, T0 + 1000)
      expect((await quota.take('k1', 'Team', 3, T0 + 2000)).state.remaining).toBe(0)
      const refused = await quota.take('k1', 'Team', 3, T0 + 20 * 60_000)
      expect(refused.allowed).toBe(false)
      expect(refused.state.resetsInSeconds, 'fixed window: counts down from the first request').toBe(2400)
      expect((await quota.take('k1', 'Player', 3, T0)).allowed, 'entities have separate windows').toBe(true)
      expect((await quota.take('k2', 'Team', 3, T0)).allowed, 'keys have separate windows').toBe(true)
      const next = await quota.take('k1', 'Team', 3, T0 + WINDOW_MS)
      expect(next).toMatchObject({ allowed: true, state: { used: 1, windowStart: T0 + WINDOW_MS } })
    })

    it('refunds within the same window only', async () => {
      const { quota } = make()
      const a = await quota.take('k', 'Venue', 5, T0)
      await quota.take('k', 'Venue', 5, T0)
      await quota.refund('k', 'Venue', a.state.windowStart)
      expect((await quota.take('k', 'Venue', 5, T0)).state.used).toBe(2)
      const later = await quota.take('k', 'Venue', 5, T0 + WINDOW_MS)
      await quota.refund('k', 'Venue', a.state.windowStart)
      expect(later.state.used).toBe(1)
      expect((await quota.take('k', 'Venue', 5, T0 + WINDOW_MS)).state.used, 'a stale refund changed nothing').toBe(2)
    })

    it('lists the open windows of a key for /my/usage', async () => {
      const { quota } = make()
      await quota.take('k', 'Team', 10, T0)
      await quota.take('k', 'Team', 10, T0)
      await quota.take('k', 'Fixture', 10, T0 + 30 * 60_000)
      expect(await quota.usage('k', 10, T0 + 40 * 60_000)).toEqual([
        { entity: 'Fixture', limit: 10, used: 1, remaining: 9, resetsInSeconds: 3000, windowStart: T0 + 30 * 60_000 },
        { entity: 'Team', limit: 10, used: 2, remaining: 8, resetsInSeconds: 1200, windowStart: T0 }
      ])
      expect((await quota.usage('k', 10, T0 + 61 * 60_000)).map((s) => s.entity), 'closed windows are left out').toEqual(['Fixture'])
      expect(await quota.usage('nobody', 10, T0)).toEqual([])
    })
  })

  describe(`response cache (${name})`, () => {
    it('returns an entry until it expires on the caller\'s clock', async () => {
      const { cache } = make()
      const e = entry([{ id: 1, name: 'Brøndby' }], T0, 15_000)
      await cache.set('/football/teams?per_page=1', e, T0)
      expect(await cache.get('/football/teams?per_page=1', T0 + 14_999)).toEqual(e)
      expect(await cache.get('/football/teams?per_page=1', T0 + 15_000)).toBeUndefined()
      expect(await cache.get('/football/teams?per_page=2', T0)).toBeUndefined()
    })

    it('keeps error bodies and an absent data as they were', async () => {
      const { cache } = make()
      const notFound: CachedEntry = { status: 404, entity: 'Team', body: '{"error":"Not Found"}', leagues: null, storedAt: T0, expiresAt: T0 + 30_000 }
      await cache.set('404', notFound, T0)
      expect(await cache.get('404', T0)).toEqual(notFound)
      const empty: CachedEntry = { status: 200, entity: 'Fixture', parts: { extra: { message: 'No result(s) found' }, timezone: 'UTC' }, leagues: [], storedAt: T0, expiresAt: T0 + 3000 }
      await cache.set('empty', empty, T0)
      expect(await cache.get('empty', T0)).toEqual(empty)
    })
  })
}

describe('memory cache bounds', () => {
  it('evicts the least recently used entries past its byte and entry bounds', async () => {
    const cache = createMemoryCache({ maxEntries: 2 })
    await cache.set('a', entry([1], T0, 60_000), T0)
    await cache.set('b', entry([2], T0, 60_000), T0)
    await cache.get('a', T0)
    await cache.set('c', entry([3], T0, 60_000), T0)
    expect(await cache.get('b', T0), 'b was the least recently used').toBeUndefined()
    expect(await cache.get('a', T0)).toBeDefined()
    expect(await cache.get('c', T0)).toBeDefined()

    const small = createMemoryCache({ maxBytes: 2000 })
    await small.set('x', entry('x'.repeat(900), T0, 60_000), T0)
    await small.set('y', entry('y'.repeat(900), T0, 60_000), T0)
    expect(await small.get('x', T0), 'over 2000 bytes: the oldest went').toBeUndefined()
    await small.set('z', entry('z'.repeat(5000), T0, 60_000), T0)
    expect(await small.get('z', T0), 'an entry above the whole bound is not stored').toBeUndefined()
    expect(await small.get('y', T0)).toBeDefined()
  })
})
