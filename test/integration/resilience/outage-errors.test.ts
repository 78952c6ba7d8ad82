/**
 * Telling a Redis outage from a bug (src/store/unavailable.ts), with errors from a real ioredis client: an
 * outage becomes 503 / `unavailable`, a bug stays a 500 / `internal`.
 */
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { guarded, isRedisOutage, StoreUnavailableError } from '../../../src/store/unavailable.ts'
import { useRedis } from '../../helpers/redis.ts'
import { freePort } from '../../helpers/redis-server.ts'

const shared = useRedis()
const keyOf = (): string => `${shared.prefix}string`

async function rejection (p: Promise<unknown>): Promise<unknown> {
  return await p.then(() => { throw new Error('expected a rejection') }, (err: unknown) => err)
}

describe('isRedisOutage', () => {
  it('is false for an answer that says the call was wrong (a bug)', async () => {
    const { redis } = shared
    const key = keyOf()
    await redis.set(key, 'x')
    const err = await rejection(redis.hget(key, 'f'))
    expect(String(err)).toContain('WRONGTYPE')
    expect(isRedisOutage(err)).toBe(false)
    expect(await rejection(guarded(redis.hget(key, 'f')))).not.toBeInstanceOf(StoreUnavailableError)
  })

  it('is true for the answers Redis gives while it cannot serve (LOADING, BUSY...)', async () => {
    const err = await rejection(shared.redis.eval("return redis.error_reply('LOADING Redis is loading the dataset in memory')", 0))
    expect(isRedisOutage(err)).toBe(true)
  })

  it('is true when no answer comes: refused connection, command timeout', async () => {
    const nobody = new Redis({ port: await freePort(), lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null })
    nobody.on('error', () => {})
    const refused = await rejection(nobody.get('x'))
    expect(isRedisOutage(refused)).toBe(true)
    expect(await rejection(guarded(nobody.get('x')))).toBeInstanceOf(StoreUnavailableError)
    nobody.disconnect()

    const slow = shared.connect({ commandTimeout: 50 })
    // A blocking pop that waits longer than the command timeout: blocks this client only, never the shared server.
    const timedOut = await rejection(slow.blpop(`${keyOf()}:empty`, 1))
    expect(isRedisOutage(timedOut)).toBe(true)
  })

  it('is false for programming errors', () => {
    expect(isRedisOutage(new TypeError('x is undefined'))).toBe(false)
    expect(isRedisOutage('not an error')).toBe(false)
  })
})
