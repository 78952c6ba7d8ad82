/**
 * Shared live snapshots (the hot path of docs/protocol.md): a reconnect storm and a burst of `GET /v1/fixtures/live` cost
 * one store read per distinct filter, a routed change is in the next snapshot, and key scopes never mix.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { httpGet } from '../../helpers/http.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { redisStores } from '../store/helpers.ts'
import { openSse, startPush } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

/** Counts live-snapshot reads; each takes a few ms, so concurrent askers really overlap. */
function counting (store: LiveStore): { store: LiveStore, reads: () => number } {
  let reads = 0
  return {
    store: {
      ...store,
      liveFixtures: async (filter) => {
        reads++
        await new Promise((resolve) => setTimeout(resolve, 5))
        return await store.liveFixtures(filter)
      }
    },
    reads: () => reads
  }
}

const engines: Array<[string, () => LiveStore]> = [
  ['memory', () => createStore({ kind: 'memory' })],
  ['redis', () => {
    const env = redisStores()
    onTestFinished(env.close)
    return env.open()
  }]
]

const ids = (fixtures: Array<{ id: number }>): number[] => fixtures.map((f) => f.id)

describe.each(engines)('snapshots on the %s store', (_name, openStore) => {
  it('serves a reconnect storm with one store read per distinct filter', async () => {
    const { store, reads } = counting(openStore())
    const s = await startPush({ store })
    await s.apply(1, 271)
    await s.apply(2, 501)
    // On Redis the hub's tail may still be catching up; a change routed mid-storm would rightly cost a read.
    await waitFor('the hub at the second change', () => s.hub.head().endsWith(':2'))
    const clients = await Promise.all(Array.from({ length: 60 }, async () => await WsTestClient.connect(s.wsUrl())))
    clients.forEach((c, i) => c.send({ op: 'subscribe', ref: 'r', leagues: [i % 2 === 0 ? 271 : 501] }))
    const snaps = await Promise.all(clients.map(async (c) => await c.take('snapshot')))
    const head = await s.store.head()
    snaps.forEach((snap, i) => {
      expect(snap).toMatchObject({ type: 'snapshot', ref: 'r', cursor: head })
      expect(ids(snap.fixtures)).toEqual([i % 2 === 0 ? 1 : 2])
    })
    expect(reads()).toBe(2)
    for (const c of clients) c.close()
  })

  it('answers a burst of GET /v1/fixtures/live with one store read, and shows a routed change next time', async () => {
    const { store, reads } = counting(openStore())
    const s = await startPush({ store })
    await s.apply(1, 271)
    await s.apply(2, 501)
    await waitFor('the hub at the second change', () => s.hub.head().endsWith(':2'))
    const url = `${s.base}/v1/fixtures/live?api_token=all-key`
    const bodies = await Promise.all(Array.from({ length: 20 }, async () => await httpGet(url)))
    for (const res of bodies) {
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(ids(res.body.data)).toEqual([1, 2])
    }
    expect(reads()).toBe(1)

    const next = await s.apply(1, 271)
    await waitFor('s.hub.head() === next.cursor', () => s.hub.head() === next.cursor)
    expect((await httpGet(url)).body.data[0]).toMatchObject({ id: 1, version: 2 })
    expect(reads()).toBe(2)
    // Same filter and scope, other transports: the same entry. SSE without a filter follows everything.
    const sse = await openSse(`${s.base}/v1/sse?api_token=all-key`)
    await waitFor('sse.events.length === 1', () => sse.events.length === 1)
    expect(sse.events[0]).toMatchObject({ event: 'snapshot', id: next.cursor, data: { cursor: next.cursor, fixtures: [{ id: 1, version: 2 }, { id: 2 }] } })
    expect(reads()).toBe(2)
    expect(ids((await httpGet(`${url}&leagues=271,501`)).body.data)).toEqual([1, 2])
    const c = await WsTestClient.connect(s.wsUrl())
    c.send({ op: 'subscribe', ref: 'y', leagues: [501, 271] })
    const snap = await c.take('snapshot')
    expect(snap).toEqual({ type: 'snapshot', ref: 'y', cursor: next.cursor, fixtures: (await httpGet(url)).body.data })
    expect(reads()).toBe(3)
    sse.close()
    c.close()
  })
})

it('never shows a scoped key what was cached for an all-leagues key', async () => {
  const s = await startPush()
  await s.apply(1, 271)
  await s.apply(5, 501)
  const all = await WsTestClient.connect(s.wsUrl())
  const scoped = await WsTestClient.connect(s.wsUrl('scoped-key'))
  // The same filter (every league) for both keys: one cached snapshot per scope.
  all.send({ op: 'subscribe', ref: '1', leagues: '*' })
  expect(ids((await all.take('snapshot')).fixtures)).toEqual([1, 5])
  scoped.send({ op: 'subscribe', ref: '1', leagues: '*' })
  expect(ids((await scoped.take('snapshot')).fixtures)).toEqual([1])
  expect(ids((await httpGet(`${s.base}/v1/fixtures/live?api_token=all-key&leagues=*`)).body.data)).toEqual([1, 5])
  expect(ids((await httpGet(`${s.base}/v1/fixtures/live?api_token=scoped-key&leagues=*`)).body.data)).toEqual([1])
  all.close()
  scoped.close()
})
