/**
 * Resuming with `since` (docs/protocol.md, "Resume"): every change after the cursor exactly once, in order, while changes keep
 * flowing; lost cursors and replays over the cap answer recovered:false with a fresh snapshot. Run against
 * both store engines, since the Redis tail lags the log and that lag is what the replay floor is for, and
 * each twice: replays answered from the records the hub holds (the default), and read from the store (a hub
 * that holds a single record).
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { StoreUnavailableError } from '../../../src/store/unavailable.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { redisStores } from '../store/helpers.ts'
import type { HubLimits } from '../../../src/fanout/limits.ts'
import { AT, applier, startPush as startPushWith, startPush, type PushServer } from './harness.ts'
import { fixture } from '../store/fixture.ts'

const engines: Array<[string, () => LiveStore]> = [
  ['memory', () => createStore({ kind: 'memory' })],
  // Reads that take a while, so live changes arrive while a replay is being read (the pending buffer's job).
  ['memory with slow reads', () => slowReads(createStore({ kind: 'memory' }))],
  // The hub hears of each change 30 ms after it is in the log, as a Redis tail may: exercises the floors.
  ['memory with a lagging tail', () => laggingTail(createStore({ kind: 'memory' }))],
  ['redis', () => {
    const env = redisStores()
    onTestFinished(env.close)
    return env.open()
  }]
]

function slowReads (store: LiveStore): LiveStore {
  const pause = async () => await new Promise((resolve) => setTimeout(resolve, 5))
  return {
    ...store,
    readSince: async (cursor, opts) => { await pause(); return await store.readSince(cursor, opts) },
    liveFixtures: async (filter) => { await pause(); return await store.liveFixtures(filter) }
  }
}

function laggingTail (store: LiveStore): LiveStore {
  return {
    ...store,
    subscribe: async (onRecord, onError) => await store.subscribe((record, json) => {
      setTimeout(() => onRecord(record, json), 30)
    }, onError)
  }
}

const offset = (cursor: string): number => Number(cursor.split(':')[1])
const epochOf = (cursor: string): string => cursor.split(':')[0] as string

/**
 * A store whose snapshot reads fail as an outage while `down.on`, the rest working (its tail included), as
 * just after a failover: changes go on being routed while the reads for a subscribe or a reset fail.
 */
function flaky (store: LiveStore, on = false): { store: LiveStore, down: { on: boolean } } {
  const down = { on }
  return {
    down,
    store: {
      ...store,
      liveFixtures: async (filter) => {
        if (down.on) throw new StoreUnavailableError(new Error('connection lost'))
        return await store.liveFixtures(filter)
      }
    }
  }
}

const variants = engines.flatMap(([name, open]): Array<[string, () => LiveStore, Partial<HubLimits>]> => [
  [`${name} store, replays from the hub's records`, open, {}],
  [`${name} store, replays read from the store`, open, { recentRecords: 1 }]
])

describe.each(variants)('resume on the %s', (name, openStore, limits) => {
  const startPush = async (opts: { store: LiveStore }): Promise<PushServer> => await startPushWith({ ...opts, limits })

  it('yields every change after the cursor exactly once, in order, while changes keep flowing', async () => {
    const s = await startPush({ store: openStore() })
    const watcher = await WsTestClient.connect(s.wsUrl())
    await watcher.request({ op: 'subscribe', ref: 'w', leagues: [271], snapshot: false })
    const applied: string[] = []
    const push = async (i: number) => {
      // League 271 for most, 501 now and then: the resumer must not see those.
      const rec = await s.apply(1 + (i % 5), i % 7 === 0 ? 501 : 271)
      if (rec.league_id === 271) applied.push(rec.cursor)
    }
    for (let i = 0; i < 40; i++) await push(i)
    const mid = applied[19] as string

    const resumers: Array<Promise<WsTestClient>> = []
    const flowing = (async () => {
      for (let i = 40; i < 400; i++) {
        await push(i)
        // Three clients resume from the same cursor at different moments of the flow.
        if (i === 45 || i === 150 || i === 300) resumers.push(resume(s.wsUrl(), mid))
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    await flowing
    const last = applied.at(-1) as string
    const clients = await Promise.all(resumers)
    const expected = applied.filter((c) => offset(c) > offset(mid))
    for (const c of [...clients]) {
      await c.take((f) => f.type === 'change' && f.cursor === last, 10_000)
      const replay = c.frames.find((f) => f.type === 'replay') as Frame
      expect(replay).toMatchObject({ ref: 'r', recovered: true })
      expect(c.changes().map((f) => f.cursor)).toEqual(expected)
      c.close()
    }
    await watcher.take((f) => f.type === 'change' && f.cursor === last, 10_000)
    expect(watcher.changes().map((f) => f.cursor)).toEqual(applied)
    watcher.close()
    // Where the three replays came from: the hub's records, unless it holds too few, or its tail lags behind
    // the cursor (then the store is read, as any cursor ahead of the hub's head is).
    const fromMemory = (await s.metrics.replaysFromMemory.get()).values[0]?.value ?? 0
    if (limits.recentRecords === 1) expect(fromMemory).toBe(0)
    else if (!name.includes('lagging')) expect(fromMemory).toBe(3)
  })

  it('answers a cursor from another epoch with recovered:false, then a fresh snapshot', async () => {
    const s = await startPush({ store: openStore() })
    await s.apply(1, 271)
    await s.apply(2, 501)
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: '1', leagues: [271], since: 'deadbeefdeadbeef:1', snapshot: false })
    const snap = await c.take('snapshot')
    expect(c.frames.map((f) => f.type)).toEqual(['hello', 'subscribed', 'replay', 'snapshot'])
    expect(c.frames[2]).toEqual({ type: 'replay', ref: '1', recovered: false, count: 0 })
    expect(snap.fixtures.map((f: { id: number }) => f.id)).toEqual([1])
    expect(snap.cursor).toBe(await s.store.head())
    expect(await s.metrics.registry.metrics()).toMatch(/touchline_replays_total\{recovered="false"\} 1/)
    c.close()
  })

  it('replays up to 1000 changes and answers recovered:false past the cap', async () => {
    const s = await startPush({ store: openStore() })
    const start = await s.store.head()
    for (let i = 0; i < 1000; i++) await s.apply(1 + (i % 3), 271)
    // The hub's tail has every change (the count is of what the log holds when the subscribe comes; a hub
    // behind it replays what it holds and sends the rest live).
    const thousandth = await s.store.head()
    await vi.waitFor(() => { expect(s.hub.head()).toBe(thousandth) }, 5000)
    const full = await WsTestClient.connect(s.wsUrl())
    full.send({ op: 'subscribe', ref: '1', leagues: [271], since: start, snapshot: false })
    expect(await full.take('replay')).toMatchObject({ recovered: true, count: 1000 })
    const head = await s.store.head()
    await full.take((f) => f.type === 'change' && f.cursor === head)
    expect(full.changes()).toHaveLength(1000)
    full.close()

    const past = (await s.apply(1, 271)).cursor
    // The hub's tail has the 1001st change too (the cap counts what the log holds when the subscribe comes).
    await vi.waitFor(() => { expect(s.hub.head()).toBe(past) }, 5000)
    const over = await WsTestClient.connect(s.wsUrl())
    over.send({ op: 'subscribe', ref: '2', leagues: [271], since: start, snapshot: false })
    expect(await over.take('replay')).toMatchObject({ recovered: false, count: 0 })
    expect((await over.take('snapshot')).fixtures).toHaveLength(3)
    expect(over.changes()).toEqual([])
    over.close()
  })

  it('replays the JSON the store returned, without serializing a record again', async () => {
    const s = await startPush({ store: openStore() })
    const from = await s.store.head()
    for (let i = 0; i < 30; i++) await s.apply(1 + (i % 3), i % 5 === 0 ? 501 : 271)
    const head = await s.store.head()
    const stringify = vi.spyOn(JSON, 'stringify')
    onTestFinished(() => { stringify.mockRestore() })
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: '1', leagues: [271], since: from, snapshot: false })
    expect(await c.take('replay')).toMatchObject({ recovered: true, count: 24 })
    // The last change applied (i = 29) is in league 271, so the head is the last one replayed.
    await c.take((f) => f.type === 'change' && f.cursor === head)
    const records = stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'cursor' in value && 'fixture' in value)
    expect(records).toEqual([])
    const log = await s.store.readSince(from, { leagues: [271], limit: 100 })
    expect(c.changes()).toEqual(log.records.map((r) => ({ type: 'change', ...r })))
    c.close()
  })

  it('sends subscribed, snapshot, replay and the replayed changes in that order', async () => {
    const s = await startPush({ store: openStore() })
    const from = (await s.apply(1, 271)).cursor
    await s.apply(2, 271)
    await s.apply(3, 501)
    await s.apply(1, 271)
    const head = await s.store.head()
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: '1', leagues: [271], since: from })
    await c.take((f) => f.type === 'change' && f.cursor === head)
    expect(c.frames.map((f) => f.type)).toEqual(['hello', 'subscribed', 'snapshot', 'replay', 'change', 'change'])
    expect(c.frames[3]).toMatchObject({ recovered: true, count: 2 })
    expect(c.changes().map((f) => f.fixture_id)).toEqual([2, 1])
    c.close()
  })
})

async function resume (url: string, since: string): Promise<WsTestClient> {
  const c = await WsTestClient.connect(url)
  c.send({ op: 'subscribe', ref: 'r', leagues: [271], since, snapshot: false })
  return c
}

it('skips a lagging live copy of a change the snapshot already shows', async () => {
  const s = await startPush({ store: laggingTail(createStore({ kind: 'memory' })) })
  await s.apply(1, 271)
  const c = await WsTestClient.connect(s.wsUrl())
  c.send({ op: 'subscribe', ref: '1', leagues: [271] })
  expect((await c.take('snapshot')).fixtures).toMatchObject([{ id: 1, version: 1 }])
  const next = await s.apply(1, 271)
  expect(await c.take('change')).toMatchObject({ cursor: next.cursor, fixture: { version: 2 } })
  expect(c.changes()).toHaveLength(1)
  c.close()
})

it('answers operations sent during a replay after it, in order', async () => {
  const s = await startPush({ store: slowReads(createStore({ kind: 'memory' })) })
  const from = (await s.apply(1, 271)).cursor
  await s.apply(1, 271)
  const c = await WsTestClient.connect(s.wsUrl())
  c.send({ op: 'subscribe', ref: '1', leagues: [271], since: from, snapshot: false })
  c.send({ op: 'ping', ref: '2' })
  c.send({ op: 'unsubscribe', ref: '3' })
  await c.take('unsubscribed')
  expect(c.frames.map((f) => f.type)).toEqual(['hello', 'subscribed', 'replay', 'change', 'pong', 'unsubscribed'])
  expect(c.frames.at(-1)).toEqual({ type: 'unsubscribed', ref: '3', leagues: [], fixtures: [], teams: [] })
  c.close()
})

it('answers a failed store read with internal and keeps the subscription live', async () => {
  const store = createStore({ kind: 'memory' })
  const s = await startPush({ store: { ...store, liveFixtures: async () => { throw new Error('store down') } } })
  const c = await WsTestClient.connect(s.wsUrl())
  c.send({ op: 'subscribe', ref: '1', leagues: [271] })
  expect(await c.take('error')).toMatchObject({ ref: '1', code: 'internal' })
  const rec = await s.apply(1, 271)
  expect((await c.take('change')).cursor).toBe(rec.cursor)
  c.close()
})

it('after `unavailable`, holds the live changes until the store answers, then sends replay recovered:false, a snapshot and the changes after it', async () => {
  const { store, down } = flaky(createStore({ kind: 'memory' }), true)
  const s = await startPush({ store })
  await s.apply(1, 271)
  const c = await WsTestClient.connect(s.wsUrl())
  c.send({ op: 'subscribe', ref: '1', leagues: [271] })
  expect(await c.take('error')).toMatchObject({ ref: '1', code: 'unavailable' })
  const during = [await s.apply(1, 271), await s.apply(2, 271)]
  // Long enough for the hub to have routed them (it would have sent them at once).
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(c.changes()).toEqual([])
  down.on = false
  const snap = await c.take('snapshot', 5000)
  expect(snap.cursor).toBe(during[1]?.cursor)
  const after = await s.apply(2, 271)
  await c.take((f) => f.type === 'change' && f.cursor === after.cursor)
  expect(c.frames.map((f) => f.type)).toEqual(['hello', 'subscribed', 'error', 'replay', 'snapshot', 'change'])
  expect(c.frames[3]).toMatchObject({ type: 'replay', recovered: false })
  c.close()
})

it('a lost log whose snapshot cannot be read yet: no change of the new log before its snapshot', async () => {
  // As after a failover to a replica that lacked writes: the tail finds the new epoch and routes its
  // records while the reads for the reset still fail.
  const env = redisStores()
  onTestFinished(env.close)
  const { store, down } = flaky(env.open())
  const writer = env.open()
  const s = await startPush({ store })
  let apply = applier(writer)
  await apply(1, 271)
  const c = await WsTestClient.connect(s.wsUrl())
  await c.request({ op: 'subscribe', ref: '1', leagues: [271] })
  const old = await apply(1, 271)
  await c.take((f) => f.type === 'change' && f.cursor === old.cursor)
  down.on = true
  await env.wipe()
  apply = applier(writer)
  const first = await apply(2, 271)
  await c.take('error', 10_000)
  const during = [first, await apply(2, 271)]
  await new Promise((resolve) => setTimeout(resolve, 300))
  down.on = false
  const snap = await c.take((f) => f.type === 'snapshot' && epochOf(f.cursor) === epochOf(first.cursor), 10_000)
  const after = await apply(2, 271)
  await c.take((f) => f.type === 'change' && f.cursor === after.cursor, 10_000)
  const newEpoch = epochOf(first.cursor)
  const firstNew = c.frames.findIndex((f) => f.type === 'change' && epochOf(f.cursor) === newEpoch)
  expect(firstNew).toBeGreaterThan(c.frames.indexOf(snap))
  expect(c.frames.filter((f) => f.type === 'change' && epochOf(f.cursor) === newEpoch).map((f) => f.cursor)).toEqual([after.cursor])
  expect(snap.fixtures.find((f: { id: number }) => f.id === 2)).toMatchObject({ version: during.length })
  c.close()
})

it('a shutdown while a lost log\'s reset waits for the store names no cursor of the new log in its 1001 reason', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const { store, down } = flaky(env.open())
  const writer = env.open()
  const s = await startPush({ store })
  let apply = applier(writer)
  await apply(1, 271)
  const c = await WsTestClient.connect(s.wsUrl())
  await c.request({ op: 'subscribe', ref: '1', leagues: [271] })
  const old = await apply(1, 271)
  await c.take((f) => f.type === 'change' && f.cursor === old.cursor)
  down.on = true
  await env.wipe()
  apply = applier(writer)
  const first = await apply(2, 271)
  await c.take('error', 10_000)
  await vi.waitFor(() => { expect(epochOf(s.hub.head())).toBe(epochOf(first.cursor)) }, 5000)
  // The client holds the lost log's state: a cursor of the new log would be answered as recovered elsewhere,
  // and it would never get the snapshot. An empty reason: it resumes from the last cursor it received.
  const closing = s.app.close()
  const closed = await c.closed
  await closing
  expect(closed.code).toBe(1001)
  expect(closed.reason).toBe('')
  expect(c.frames.some((f) => f.type === 'snapshot' && epochOf(f.cursor) === epochOf(first.cursor))).toBe(false)
})

describe('a connection waiting for its reset after `unavailable`', () => {
  it('drops what it held of a log lost meanwhile: nothing of the old log after the new snapshot, nothing twice', async () => {
    const env = redisStores()
    onTestFinished(env.close)
    const { store, down } = flaky(env.open())
    const writer = env.open()
    const s = await startPush({ store })
    let apply = applier(writer)
    await apply(1, 271)
    const c = await WsTestClient.connect(s.wsUrl())
    await c.request({ op: 'subscribe', ref: '1', leagues: [271] })
    down.on = true
    c.send({ op: 'subscribe', ref: '2', leagues: [501] })
    await c.take('error', 10_000)
    // Held: changes of the log about to be lost.
    const old = [await apply(1, 271), await apply(1, 271)]
    await new Promise((resolve) => setTimeout(resolve, 200))
    await env.wipe()
    apply = applier(writer)
    const first = await apply(2, 271)
    down.on = false
    const snap = await c.take((f) => f.type === 'snapshot' && epochOf(f.cursor) === epochOf(first.cursor), 10_000)
    const after = await apply(2, 271)
    await c.take((f) => f.type === 'change' && f.cursor === after.cursor, 10_000)
    const afterSnap = c.frames.slice(c.frames.indexOf(snap) + 1).filter((f) => f.type === 'change')
    expect(afterSnap.filter((f) => epochOf(f.cursor) === epochOf(old[0]?.cursor ?? ''))).toEqual([])
    expect(afterSnap.map((f) => f.cursor)).toEqual([after.cursor])
    expect(offset(after.cursor)).toBeGreaterThan(offset(snap.cursor))
    c.close()
  })

  it('a match that ended while it waited: its final change follows the reset\'s snapshot, which no longer holds it', async () => {
    const { store, down } = flaky(createStore({ kind: 'memory' }))
    const s = await startPush({ store })
    await s.apply(1, 271)
    await s.apply(2, 271)
    const c = await WsTestClient.connect(s.wsUrl())
    await c.request({ op: 'subscribe', ref: '1', leagues: [271] })
    down.on = true
    c.send({ op: 'subscribe', ref: '2', leagues: [501] })
    await c.take('error')
    const ended = await store.apply({
      fixture: fixture(1, 271, { state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' } }),
      // As the poller stores a final state: it leaves the live set with it.
      changes: [{ kind: 'state_changed', state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' }, previous: { id: 2, code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' } }, { kind: 'fixture_removed' }],
      expectedVersion: 1,
      live: false,
      at: AT
    } as Parameters<LiveStore['apply']>[0])
    if (!ended.ok) throw new Error('the final state was not applied')
    down.on = false
    const reset = await c.take((f) => f.type === 'snapshot' && f.ref === undefined, 5000)
    expect(reset.fixtures.map((f: { id: number }) => f.id)).toEqual([2])
    const final = await c.take((f) => f.type === 'change' && f.cursor === ended.record.cursor, 5000)
    expect(c.frames.indexOf(final)).toBeGreaterThan(c.frames.indexOf(reset))
    expect(final.fixture).toMatchObject({ id: 1, state: { phase: 'finished' } })
    c.close()
  })

  it('a subscribe that succeeds before the reset sends nothing held: the reset\'s snapshot comes first', async () => {
    const { store, down } = flaky(createStore({ kind: 'memory' }))
    const s = await startPush({ store })
    await s.apply(1, 271)
    const c = await WsTestClient.connect(s.wsUrl())
    await c.request({ op: 'subscribe', ref: '1', leagues: [271] })
    down.on = true
    c.send({ op: 'subscribe', ref: '2', leagues: [501] })
    await c.take('error')
    const held = await s.apply(1, 271)
    down.on = false
    // The store answers again; the client subscribes before the hub's next probe resets it.
    await c.request({ op: 'subscribe', ref: '3', leagues: [502] })
    const later = await s.apply(1, 271)
    const reset = await c.take((f) => f.type === 'snapshot' && f.ref === undefined, 5000)
    const last = await s.apply(1, 271)
    await c.take((f) => f.type === 'change' && f.cursor === last.cursor)
    const errorAt = c.frames.findIndex((f) => f.type === 'error')
    const resetAt = c.frames.indexOf(reset)
    expect(c.frames.slice(errorAt, resetAt).filter((f) => f.type === 'change')).toEqual([])
    expect(reset.cursor).toBe(later.cursor)
    expect(reset.fixtures.find((f: { id: number }) => f.id === 1)).toMatchObject({ version: 3 })
    expect(c.frames.slice(resetAt + 1).filter((f) => f.type === 'change').map((f) => f.cursor)).toEqual([last.cursor])
    expect(held.cursor).not.toBe(later.cursor)
    c.close()
  })
})
