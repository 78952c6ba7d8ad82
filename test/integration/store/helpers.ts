/** Redis stores for the store, push and client suites, on one unique prefix of the shared Redis. */
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { openTestRedis, type TestRedis } from '../../helpers/redis.ts'

export interface RedisStores extends TestRedis {
  /** A new store instance on its own connection, as another process would have; closed by `close`. */
  open: () => LiveStore
}

/**
 * Redis stores sharing one fresh prefix, each on its own connection. A short tail block so flush tests
 * run fast. `close` closes the stores, deletes the prefix's keys and closes the connections.
 */
export function redisStores (url?: string, opts: { maxLength?: number, retainFinishedMs?: number } = {}): RedisStores {
  const redis = openTestRedis(url)
  const stores: LiveStore[] = []
  return {
    url: redis.url,
    prefix: redis.prefix,
    get redis () { return redis.redis },
    connect: redis.connect,
    wipe: redis.wipe,
    open () {
      const store = createStore({ kind: 'redis', redis: redis.connect(), prefix: redis.prefix, tailBlockMs: 200, ...opts })
      stores.push(store)
      return store
    },
    async close () {
      await Promise.all(stores.splice(0).map(async (s) => { await s.close() }))
      await redis.close()
    }
  }
}
