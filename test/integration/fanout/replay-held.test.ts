/**
 * A resume from a recent cursor is answered from the records the hub holds, without reading the store: the
 * reconnect storm after an instance stops costs the store nothing, and a store that cannot answer at that
 * moment costs the clients nothing. Shown over real Redis reached through a TCP proxy that is then frozen:
 * a resume the hub can answer from memory is exact and recovered; one from a cursor older than what it
 * holds needs the store and gets `unavailable`, as before.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import { openTestRedis } from '../../helpers/redis.ts'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { applier, startPush } from './harness.ts'

async function setup (recentRecords: number) {
  const redis = openTestRedis()
  const proxy = await startTcpProxy(Number(new URL(redis.url).port || 6379), new URL(redis.url).hostname)
  // The hub's store goes through the proxy, with short command deadlines; the writer talks to Redis itself.
  const proxied = openTestRedis(`redis://127.0.0.1:${proxy.port}`, redis.prefix)
  onTestFinished(async () => { proxy.thaw(); await proxied.close(); await redis.close(); await proxy.close() })
  const viaProxy = createStore({ kind: 'redis', redis: proxied.connect({ commandTimeout: 500, maxRetriesPerRequest: 1 }), prefix: redis.prefix, tailBlockMs: 200 })
  const direct = createStore({ kind: 'redis', redis: redis.connect(), prefix: redis.prefix, tailBlockMs: 200 })
  onTestFinished(async () => { await viaProxy.close(); await direct.close() })
  const s = await startPush({ store: viaProxy, limits: { recentRecords } })
  const apply = applier(direct)
  const watcher = await WsTestClient.connect(s.wsUrl())
  await watcher.request({ op: 'subscribe', ref: 'w', leagues: [271], snapshot: false })
  const cursors: string[] = []
  for (let i = 0; i < 30; i++) cursors.push((await apply(1 + (i % 4), i % 5 === 0 ? 501 : 271)).cursor)
  const last = cursors.at(-1) as string
  // Every record has reached the hub before the link freezes.
  await watcher.take((f) => f.type === 'change' && f.cursor === last, 10_000)
  watcher.close()
  proxy.freeze()
  return { s, cursors, direct }
}

describe('replays from the records the hub holds', () => {
  it('a resume from a recent cursor is exact and recovered while the store cannot be reached', async () => {
    const { s, cursors, direct } = await setup(4096)
    const since = cursors[9] as string
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: 'r', leagues: [271], since, snapshot: false })
    const replay = await c.take('replay', 5000)
    const expected = (await direct.readSince(since, { leagues: [271], limit: 100 })).records
    expect(expected.length).toBeGreaterThan(10)
    expect(replay).toMatchObject({ ref: 'r', recovered: true, count: expected.length, cursor: cursors.at(-1) })
    await c.take((f) => f.type === 'change' && f.cursor === expected.at(-1)?.cursor, 5000)
    expect(c.changes()).toEqual(expected.map((r) => ({ type: 'change', ...r })))
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([])
    expect((await s.metrics.replaysFromMemory.get()).values[0]?.value).toBe(1)
    c.close()
  })

  it('a cursor older than what the hub holds is read from the store: unavailable while it cannot be reached', async () => {
    const { s, cursors } = await setup(5)
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: 'r', leagues: [271], since: cursors[9], snapshot: false })
    expect(await c.take('error', 10_000)).toMatchObject({ ref: 'r', code: 'unavailable' })
    expect(c.frames.filter((f) => f.type === 'replay')).toEqual([])
    expect((await s.metrics.replaysFromMemory.get()).values[0]?.value ?? 0).toBe(0)
    c.close()
  })
})
