/** Redis-only behaviour the contract cannot express: connection loss under a tail, key layout on the wire. */
import { expect, it, onTestFinished } from 'vitest'
import { fixtureIdOf, type LogRecord } from '../../../src/store/types.ts'
import { ingestFixture, LeaseLostError } from '../../../src/poller/ingest.ts'
import { redisKeys } from '../../../src/store/redis-keys.ts'
import { createLease, createStore } from '../../../src/store/index.ts'
import { fixture } from './fixture.ts'
import { redisStores } from './helpers.ts'
import { waitFor } from '../../helpers/wait.ts'

const AT = '2026-11-21T20:15:03.120Z'

it('resumes a tail without loss or duplicates after its connection is killed', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  // A connection name that duplicate() inherits, so we kill our tail's connection and nobody else's.
  const name = `tl-test-tail-${env.prefix.slice(8, 16)}`
  const tailConn = env.connect({ connectionName: name })
  const tailStore = createStore({ kind: 'redis', redis: tailConn, prefix: env.prefix, tailBlockMs: 200 })
  onTestFinished(() => tailStore.close())
  const writer = env.open()

  const received: LogRecord[] = []
  await tailStore.subscribe((r) => received.push(r))
  const apply = (id: number) => writer.apply({ fixture: fixture(id, 271), changes: [], expectedVersion: 0, live: true, at: AT })
  for (let id = 1; id <= 3; id++) await apply(id)
  await waitFor('received.length === 3', () => received.length === 3)

  const clients = (await env.redis.client('LIST')) as string
  const victims = clients.split('\n').filter((line) => line.includes(`name=${name} `) && line.includes('cmd=xread'))
  expect(victims).toHaveLength(1)
  const id = /\bid=(\d+)/.exec(victims[0] as string)?.[1] as string
  await env.redis.client('KILL', 'ID', id)
  for (let fx = 4; fx <= 6; fx++) await apply(fx)
  await waitFor('received.length >= 6', () => received.length >= 6)
  // A moment more for a duplicate to arrive, had the resumed tail read from too far back.
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(received.map((r) => fixtureIdOf(r))).toEqual([1, 2, 3, 4, 5, 6])
})

it('writes only the keys built by redis-keys.ts and announces each cursor on the changes channel', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const keys = redisKeys(env.prefix)
  const sub = env.connect()
  const announced: string[] = []
  sub.on('message', (_channel: string, cursor: string) => announced.push(cursor))
  await sub.subscribe(keys.changesChannel)

  const store = env.open()
  const result = await store.apply({ fixture: fixture(1, 271), changes: [], expectedVersion: 0, live: true, at: AT })
  await waitFor('announced.length === 1', () => announced.length === 1)
  expect(result.ok && announced[0]).toBe(result.ok && result.record.cursor)

  const found = await env.redis.keys(keys.pattern)
  expect(found.sort()).toEqual([keys.fixtures, keys.live, keys.liveLeague(271), keys.log, keys.meta, keys.schedule, keys.versions].sort())
  expect(await env.redis.xlen(keys.log)).toBe(1)
})

it('applies a fenced write only while the writer holds the lease: nothing is written for another holder or none', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const store = env.open()
  const lease = createLease({ kind: 'redis', redis: env.redis, prefix: env.prefix })
  const fence = { lease: 'poller', holder: 'A' }
  const write = async (expectedVersion: number) => await store.apply({ fixture: fixture(7, 271), changes: [{ kind: 'fixture_added' }], expectedVersion, live: true, at: AT, fence })

  // Nobody holds the lease (Redis lost it, or it expired): refused.
  expect(await write(0)).toEqual({ ok: false, fenced: true })
  expect(await lease.acquire('poller', 'A', 10_000)).toBe(true)
  const applied = await write(0)
  expect(applied.ok).toBe(true)
  const head = await store.head()
  // Another instance took over: A's write is refused, and the log and the fixture stay as they were.
  await lease.release('poller', 'A')
  expect(await lease.acquire('poller', 'B', 10_000)).toBe(true)
  expect(await write(1)).toEqual({ ok: false, fenced: true })
  expect(await store.head()).toBe(head)
  expect((await store.getFixture(7))?.version).toBe(1)
  // Without a fence (a single instance, no leadership) the same write goes through.
  expect((await store.apply({ fixture: fixture(7, 271), changes: [{ kind: 'fixture_updated', fields: {} }], expectedVersion: 1, live: true, at: AT })).ok).toBe(true)
})

it('a poll whose fenced write is refused fails (LeaseLostError) rather than passing for done', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const store = env.open()
  const upstream = { id: 7, league_id: 271, season_id: 1, stage_id: 1, state_id: 5, name: 'A vs B', participants: [], scores: [], events: [] }
  // Nobody holds the lease (Redis came back without its data): the final state of a fixture is not stored,
  // and the caller must know, so that the fixture stays pending until the lease is held again.
  await expect(ingestFixture(store, upstream, AT, { live: false, removed: true, fence: { lease: 'poller', holder: 'A' } })).rejects.toBeInstanceOf(LeaseLostError)
  expect(await store.getFixture(7)).toBeUndefined()
  const lease = createLease({ kind: 'redis', redis: env.redis, prefix: env.prefix })
  expect(await lease.acquire('poller', 'A', 10_000)).toBe(true)
  expect((await ingestFixture(store, upstream, AT, { live: false, removed: true, fence: { lease: 'poller', holder: 'A' } }))?.record.fixture.state.phase).toBe('finished')
})

/**
 * A failover to a replica that lacked the last acknowledged writes, as the store sees it: the log comes back
 * with the same epoch and a lower offset (here the records are deleted and the offset set back, as on such a
 * replica). The next append must begin a new epoch rather than hand out the lost records' cursors again, and
 * a tail that read the lost records is reset to it.
 */
it('a log that comes back shorter under the same epoch (a failover that lost acknowledged writes) begins a new epoch', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const keys = redisKeys(env.prefix)
  const writer = env.open()
  const tailStore = createStore({ kind: 'redis', redis: env.connect(), prefix: env.prefix, tailBlockMs: 200 })
  onTestFinished(() => tailStore.close())
  const resets: string[] = []
  const received: string[] = []
  await tailStore.subscribe((r) => received.push(r.cursor), undefined, (epoch) => resets.push(epoch))
  const apply = async (id: number, version = 0): Promise<string> => {
    const r = await writer.apply({ fixture: fixture(id, 271, { version: version + 1 }), changes: [], expectedVersion: version, live: true, at: AT })
    if (!r.ok) throw new Error('not applied')
    return r.record.cursor
  }
  for (let id = 1; id <= 5; id++) await apply(id)
  await waitFor('the tail at 5', () => received.length === 5)
  const epoch = (received[0] as string).split(':')[0] as string

  // The promoted replica had only the first 3 records (and versions).
  await env.redis.xtrim(keys.log, 'MAXLEN', 3)
  await env.redis.xdel(keys.log, '4-0', '5-0')
  await env.redis.hset(keys.meta, 'offset', 3)
  await env.redis.hdel(keys.versions, '4', '5')

  const next = await apply(6)
  expect(next.split(':')[0], 'the next append is of a new epoch').not.toBe(epoch)
  expect(next.split(':')[1]).toBe('1')
  await waitFor('the tail reset to the new epoch, then its first record', () => resets.length === 1 && received.at(-1) === next, 5000)
  expect(resets[0]).toBe(next.split(':')[0])
  // A reader of the lost log's cursor is told it is lost.
  expect((await writer.readSince(`${epoch}:5`, { limit: 10 })).recovered).toBe(false)
})

it('a process that only read the log detects the shorter log too, at its next look (head), without any append', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const keys = redisKeys(env.prefix)
  const writer = env.open()
  for (let id = 1; id <= 4; id++) await writer.apply({ fixture: fixture(id, 271), changes: [], expectedVersion: 0, live: true, at: AT })
  const reader = env.open()
  const page = await reader.readSince(undefined, { limit: 10 })
  const epoch = page.cursor.split(':')[0]
  expect(page.cursor).toBe(`${epoch}:4`)
  await env.redis.hset(keys.meta, 'offset', 2)
  const head = await reader.head()
  expect(head.split(':')[0]).not.toBe(epoch)
  expect(head.split(':')[1]).toBe('0')
})
