/**
 * The real Redis the integration tests share (the global setup checked it answers and hands its URL over
 * as `inject('redisUrl')`). Every test writes under a key prefix of its own, `tl-test-<uuid>:`, and deletes
 * exactly those keys afterwards: other tests, other test runs and other tools use the same server at once,
 * so never FLUSHALL/FLUSHDB or KEYS here. A test that must flush, restart or freeze Redis uses a private
 * server instead (redis-server.ts).
 */
import { randomUUID } from 'node:crypto'
import { Redis, type RedisOptions } from 'ioredis'
import { afterAll, beforeAll, beforeEach, inject, onTestFinished } from 'vitest'

/**
 * Deletes every key matching `pattern` (a test's unique prefix). SCAN, not KEYS or FLUSHALL: other tests
 * and tools share this Redis, and KEYS blocks it.
 */
export async function deleteMatching (redis: Redis, pattern: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
    if (found.length > 0) await redis.unlink(...found)
    cursor = next
  } while (cursor !== '0')
}

/** A fresh key prefix nobody else uses. */
export const freshPrefix = (): string => `tl-test-${randomUUID()}:`

/** One unique prefix on the shared Redis, with the connections opened for it. */
export interface TestRedis {
  /** The shared Redis's URL, for a gateway (TOUCHLINE_REDIS_URL) or a child process. */
  readonly url: string
  /** Every key this test writes starts with it (TOUCHLINE_REDIS_PREFIX, a store's or ledger's `prefix`). */
  readonly prefix: string
  /** A connection for the test's own reads and writes (opened at first use). */
  readonly redis: Redis
  /** Another connection, as another instance or process holds its own; closed by `close`. */
  connect: (options?: RedisOptions) => Redis
  /** Deletes every key under the prefix now: the stand-in for FLUSHDB, which would hit others. */
  wipe: () => Promise<void>
  /** Deletes every key under the prefix and closes every connection opened here. */
  close: () => Promise<void>
}

/** A prefix on the shared Redis for code that manages its own lifetime (a harness's close calls `close`). */
export function openTestRedis (url: string = inject('redisUrl'), prefix: string = freshPrefix()): TestRedis {
  const conns: Redis[] = []
  let own: Redis | undefined
  const connect = (options: RedisOptions = {}): Redis => {
    const conn = new Redis(url, options)
    conns.push(conn)
    return conn
  }
  const admin = (): Redis => (own ??= connect())
  return {
    url,
    prefix,
    get redis () { return admin() },
    connect,
    wipe: async () => { await deleteMatching(admin(), `${prefix}*`) },
    async close () {
      await deleteMatching(admin(), `${prefix}*`)
      // quit() waits for replies still due (a blocked XREAD's included); a closed connection just goes.
      await Promise.all(conns.splice(0).map(async (c) => { if (c.status === 'end') return; await c.quit().catch(() => { c.disconnect() }) }))
      own = undefined
    }
  }
}

/**
 * The shared Redis for every test of the calling file (or `describe`): a fresh prefix per test whose keys
 * are deleted, and connections closed, once the test and its other cleanups are over. With `per: 'file'`,
 * one prefix for all the tests (for a `beforeAll` that starts gateways on it), cleaned after the last. Read
 * the fields inside hooks and tests, not at the top level: the prefix of a test exists while it runs. Tests
 * that run concurrently take an `openTestRedis()` each instead.
 */
export function useRedis (opts: { per?: 'test' | 'file' } = {}): TestRedis {
  let current: TestRedis | undefined
  const now = (): TestRedis => {
    if (current === undefined) throw new Error('useRedis: read outside a test or hook of the file that called it')
    return current
  }
  if (opts.per === 'file') {
    beforeAll(() => { current = openTestRedis() })
    afterAll(async () => { await current?.close(); current = undefined })
  } else {
    beforeEach(() => {
      const mine = current = openTestRedis()
      // Registered first, so it runs last: after the test's afterEach hooks and its own onTestFinished
      // cleanups (a gateway still running would write again behind the deletion).
      onTestFinished(async () => { await mine.close(); if (current === mine) current = undefined })
    })
  }
  return {
    get url () { return now().url },
    get prefix () { return now().prefix },
    get redis () { return now().redis },
    connect: (options) => now().connect(options),
    wipe: async () => { await now().wipe() },
    close: async () => { await now().close() }
  }
}
