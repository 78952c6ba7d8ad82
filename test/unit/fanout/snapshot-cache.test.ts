import { describe, expect, it } from 'vitest'
import { cacheKey, SnapshotCache } from '../../../src/fanout/snapshot-cache.ts'
import type { ClientKey } from '../../../src/client-keys.ts'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { fixture } from '../../integration/store/fixture.ts'

const key = (leagues: ClientKey['leagues'] = '*'): ClientKey =>
  ({ key: 'k', name: 'k', leagues, hourly_quota: 1, max_connections: 1, allowed_origins: '*', features: [] })

const AT = '2026-11-21T20:15:03.120Z'

/** A memory store with fixtures 1 (league 271) and 2 (league 501), counting its snapshot reads. */
async function counted (fail = false) {
  const store = createStore({ kind: 'memory' })
  for (const [id, league] of [[1, 271], [2, 501]] as const) {
    await store.apply({ fixture: fixture(id, league), changes: [], expectedVersion: 0, live: true, at: AT })
  }
  const reads = { count: 0 }
  const wrapped: LiveStore = {
    ...store,
    liveFixtures: async (filter) => {
      reads.count++
      if (fail) throw new Error('store down')
      return await store.liveFixtures(filter)
    }
  }
  return { store: wrapped, reads }
}

const ids = (buf: Buffer): number[] => (JSON.parse(buf.toString()) as Array<{ id: number }>).map((f) => f.id)

describe('SnapshotCache', () => {
  it('reads once for concurrent and later askers of one filter while the routed head stays', async () => {
    const { store, reads } = await counted()
    const cache = new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1e6 })
    const snaps = await Promise.all(Array.from({ length: 50 }, () => cache.get({ leagues: [271] }, key(), 'e:2')))
    expect(reads.count).toBe(1)
    expect(new Set(snaps).size).toBe(1)
    expect(ids(snaps[0]?.fixtures as Buffer)).toEqual([1])
    expect(snaps[0]?.cursor).toBe(await store.head())
    await cache.get({ leagues: [271], fixtures: [] }, key(), 'e:2')
    expect(reads.count).toBe(1)
    await cache.get(undefined, key(), 'e:2')
    expect(reads.count).toBe(2)
  })

  it('reads again once the hub routes another change, or the entry is older than the ttl', async () => {
    const { store, reads } = await counted()
    let now = 50_000
    const cache = new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1e6, now: () => now })
    await cache.get(undefined, key(), 'e:2')
    await cache.get(undefined, key(), 'e:3')
    expect(reads.count).toBe(2)
    // As old as the ttl: still reused. Older: read again.
    now += 1000
    await cache.get(undefined, key(), 'e:3')
    expect(reads.count).toBe(2)
    now += 1
    await cache.get(undefined, key(), 'e:3')
    expect(reads.count).toBe(3)
  })

  it('keeps key scopes apart: a scoped key never gets fixtures of other leagues', async () => {
    const { store } = await counted()
    const cache = new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1e6 })
    expect(ids((await cache.get({ fixtures: [1, 2] }, key(), 'e:2')).fixtures)).toEqual([1, 2])
    expect(ids((await cache.get({ fixtures: [1, 2] }, key([271]), 'e:2')).fixtures)).toEqual([1])
  })

  it('does not keep a failed read', async () => {
    const { store, reads } = await counted(true)
    const cache = new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1e6 })
    await expect(cache.get(undefined, key(), 'e:2')).rejects.toThrow('store down')
    await expect(cache.get(undefined, key(), 'e:2')).rejects.toThrow('store down')
    expect(reads.count).toBe(2)
    expect(cache.size).toBe(0)
  })

  it('drops the oldest entries past its byte cap', async () => {
    const { store, reads } = await counted()
    // Room for one snapshot of one fixture (plus its key), not two.
    const one = (await new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1e6 }).get({ fixtures: [1] }, key(), 'e:2')).fixtures.length
    const cache = new SnapshotCache({ store, ttlMs: 1000, maxBytes: 1.5 * (one + 20) })
    await cache.get({ fixtures: [1] }, key(), 'e:2')
    await cache.get({ fixtures: [2] }, key(), 'e:2')
    expect(cache.size).toBe(1)
    reads.count = 0
    await cache.get({ fixtures: [2] }, key(), 'e:2')
    expect(reads.count).toBe(0)
    await cache.get({ fixtures: [1] }, key(), 'e:2')
    expect(reads.count).toBe(1)
  })
})

it('gives filters with the same answer the same cache key', () => {
  expect(cacheKey({ leagues: [501, 271, 271] }, key())).toBe(cacheKey({ leagues: [271, 501], fixtures: [] }, key()))
  expect(cacheKey(undefined, key())).not.toBe(cacheKey({ leagues: [], fixtures: [] }, key()))
  expect(cacheKey(undefined, key())).not.toBe(cacheKey(undefined, key([271])))
  expect(cacheKey({ leagues: [1] }, key())).not.toBe(cacheKey({ fixtures: [1] }, key()))
})
