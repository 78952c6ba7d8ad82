/**
 * The Redis store's tail across a lost log (the store side): after FLUSHALL or a restart
 * without persistence, the tail reports the new epoch (`onReset`) before any record of it, then delivers the
 * new log from its first record, and survives the connection loss of a restart.
 */
import { Redis } from 'ioredis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LogRecord } from '../../../src/store/types.ts'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { applier } from '../fanout/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

let server: PrivateRedis
let redis: Redis
let store: LiveStore
const events: string[] = []
let stop: () => Promise<void>

beforeEach(async () => {
  server = await startPrivateRedis()
  redis = server.connect({ commandTimeout: 2000 })
  store = createStore({ kind: 'redis', redis, tailBlockMs: 300 })
  events.length = 0
  stop = await store.subscribe((r: LogRecord) => events.push(`record ${r.cursor}`), () => {}, (epoch) => events.push(`reset ${epoch}`))
})

afterEach(async () => {
  await stop()
  await store.close()
  await server.close()
})

async function expectResetThenNewLog (oldEpoch: string): Promise<void> {
  const apply = applier(store)
  await waitFor('the reset', () => events.some((e) => e.startsWith('reset')), 5000)
  await apply(2, 271)
  await waitFor('the first record of the new log', () => events.filter((e) => e.startsWith('record')).length >= 2, 5000)
  const reset = events.findIndex((e) => e.startsWith('reset'))
  const newEpoch = (events[reset] as string).slice('reset '.length)
  expect(newEpoch).not.toBe(oldEpoch)
  expect(newEpoch).toBe(await store.epoch())
  // Before the reset: the old log; after it: the new log from offset 1, nothing else.
  expect(events.slice(0, reset).every((e) => e.includes(oldEpoch))).toBe(true)
  expect(events.slice(reset + 1)).toEqual([`record ${newEpoch}:1`])
}

describe('the Redis tail across a lost log', () => {
  it('FLUSHALL: reports the new epoch, then the new log from its start', async () => {
    const first = await applier(store)(1, 271)
    await waitFor('the first record', () => events.length === 1, 5000)
    await server.flush()
    await expectResetThenNewLog(first.cursor.split(':')[0] as string)
  })

  it('restart without persistence: the tail survives the lost connection and reports the new epoch', async () => {
    const first = await applier(store)(1, 271)
    await waitFor('the first record', () => events.length === 1, 5000)
    await server.stop()
    await server.start()
    await expectResetThenNewLog(first.cursor.split(':')[0] as string)
  })

  it('restart: the new epoch is reported as soon as the tail is connected again, not after an idle read', async () => {
    // A tail whose idle check would come only after 20 s: the reset must come from the reconnection.
    const slow = createStore({ kind: 'redis', redis, tailBlockMs: 20_000 })
    const seen: string[] = []
    const stopSlow = await slow.subscribe(() => {}, () => {}, (epoch) => seen.push(epoch))
    try {
      const oldEpoch = await slow.epoch()
      await server.stop()
      await server.start()
      await waitFor('the reset of the slow tail', () => seen.length > 0, 8000)
      expect(seen).toEqual([await slow.epoch()])
      expect(seen[0]).not.toBe(oldEpoch)
    } finally {
      await stopSlow()
    }
  })
})
