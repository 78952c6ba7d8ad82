/** Test helpers for the store suites: a Redis harness on a unique prefix, key cleanup, polling waits. */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { createKeys } from '../../../src/store/keys.ts'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { deleteMatching } from '../../helpers/redis.ts'

/** Deletes every key under `prefix`: our stand-in for FLUSHDB, which would hit others sharing this Redis. */
export async function deletePrefix (redis: Redis, prefix: string): Promise<void> {
  await deleteMatching(redis, createKeys(prefix).pattern)
}

/** Redis stores sharing one fresh prefix, each on its own connection, as separate processes would be. */
export function redisFixture (url: string, opts: { maxLength?: number, retainFinishedMs?: number } = {}) {
  const prefix = `tl-test-${randomUUID()}:`
  const conns: Redis[] = []
  const stores: LiveStore[] = []
  const admin = new Redis(url)
  conns.push(admin)
  return {
    prefix,
    admin,
    /** A new store instance on its own connection; a short tail block so flush tests run fast. */
    open (): LiveStore {
      const redis = new Redis(url)
      conns.push(redis)
      const store = createStore({ kind: 'redis', redis, prefix, tailBlockMs: 200, ...opts })
      stores.push(store)
      return store
    },
    wipe: async () => { await deletePrefix(admin, prefix) },
    async cleanup (): Promise<void> {
      await Promise.all(stores.map((s) => s.close()))
      await deletePrefix(admin, prefix)
      await Promise.all(conns.map((c) => c.quit()))
    }
  }
}
