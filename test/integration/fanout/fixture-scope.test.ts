/**
 * A key limited to some leagues asking for a fixture of another league, by id (docs/protocol.md, "Filters"):
 * refused with `forbidden` listing it in `fixtures`, over the WebSocket, SSE, /v1/changes and
 * /v1/fixtures/live, as a league or a team outside its scope is; a fixture the gateway does not know is
 * accepted (like a team not live), and its changes still never reach a key that may not see its league.
 * Real sockets and HTTP, over both store engines; every frame and response checked against the protocol
 * documents.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { httpGet as rawGet, type HttpResponse } from '../../helpers/http.ts'
import { responseErrors, serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { redisStores } from '../store/helpers.ts'
import { AT, fixture, openSse, startPush, type PushServer } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const received: Array<() => string[]> = []
afterEach(() => { expect(received.splice(0).flatMap((complaints) => complaints())).toEqual([]) })

async function httpGet (url: string): Promise<HttpResponse> {
  const res = await rawGet(url)
  received.push(() => responseErrors(new URL(url).pathname, res.status, res.body))
  return res
}

async function connect (s: PushServer, token: string): Promise<WsTestClient> {
  const c = await WsTestClient.connect(s.wsUrl(token))
  received.push(() => c.frames.flatMap(serverFrameErrors))
  await c.take('hello')
  return c
}

function storeOf (engine: 'memory' | 'redis'): LiveStore | undefined {
  if (engine === 'memory') return undefined
  const env = redisStores()
  onTestFinished(env.close)
  return env.open()
}

/**
 * The scoped key (`scoped-key`: league 271 only) against: fixture 1 live in 271, fixture 5 live in 501,
 * fixture 6 of 501 that ended and left the live index (still stored, so its league is known), and 9, which
 * the gateway has never seen.
 */
async function matchday (s: PushServer): Promise<void> {
  await s.apply(1, 271)
  await s.apply(5, 501)
  const ended = await s.store.apply({ fixture: fixture(6, 501), changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: false, at: AT })
  expect(ended.ok).toBe(true)
}

describe.each(['memory', 'redis'] as const)('a fixture outside a scoped key\'s leagues (%s store)', (engine) => {
  it('WebSocket: refused with forbidden listing the known fixtures of other leagues; nothing of the subscribe is kept', async () => {
    const s = await startPush({ store: storeOf(engine) })
    await matchday(s)
    const c = await connect(s, 'scoped-key')
    expect(await c.request({ op: 'subscribe', ref: 'a', fixtures: [1, 5, 6, 9] }))
      .toMatchObject({ type: 'error', ref: 'a', code: 'forbidden', fixtures: [5, 6] })
    // A refused subscribe links nothing: the connection follows nothing yet.
    expect(s.hub.stats().subscriptions).toBe(0)
    expect(await c.request({ op: 'subscribe', ref: 'b', leagues: [271], fixtures: [5] }))
      .toMatchObject({ type: 'error', ref: 'b', code: 'forbidden', fixtures: [5] })
    expect(s.hub.stats().subscriptions).toBe(0)
    // An unscoped key follows the same fixture.
    const all = await connect(s, 'all-key')
    expect(await all.request({ op: 'subscribe', ref: 'x', fixtures: [5] })).toMatchObject({ type: 'subscribed', fixtures: [5] })
    expect((await all.take('snapshot')).fixtures.map((f: LiveFixture) => f.id)).toEqual([5])
    c.close()
    all.close()
  })

  it('WebSocket: a fixture the gateway does not know is accepted, and its changes never come when it turns out to be of another league', async () => {
    const s = await startPush({ store: storeOf(engine) })
    await matchday(s)
    const c = await connect(s, 'scoped-key')
    expect(await c.request({ op: 'subscribe', ref: 'a', fixtures: [1, 9] })).toMatchObject({ type: 'subscribed', fixtures: [1, 9] })
    expect((await c.take('snapshot')).fixtures.map((f: LiveFixture) => f.id)).toEqual([1])
    // Fixture 9 appears in league 501: filtered out per change. Fixture 1's change marks the end.
    await s.apply(9, 501)
    await s.apply(9, 501)
    const mine = await s.apply(1, 271)
    await waitFor('the change of fixture 1', () => c.changes().some((f) => f.cursor === mine.cursor), 5000)
    expect(c.changes().map((f) => f.fixture_id)).toEqual([1])
    // Known now, and of another league: a new subscribe to it is refused.
    expect(await c.request({ op: 'subscribe', ref: 'b', fixtures: [9] })).toMatchObject({ type: 'error', code: 'forbidden', fixtures: [9] })
    c.close()
  })

  it('SSE, /v1/changes and /v1/fixtures/live: 403 forbidden naming the fixture; an unknown one is served, without another league\'s changes', async () => {
    const s = await startPush({ store: storeOf(engine) })
    await matchday(s)
    for (const path of ['/v1/sse', '/v1/changes', '/v1/fixtures/live']) {
      for (const ids of ['5', '1,6']) {
        const res = await httpGet(`${s.base}${path}?api_token=scoped-key&fixtures=${ids}`)
        expect({ status: res.status, code: res.body.code }, `${path} fixtures=${ids}`).toEqual({ status: 403, code: 'forbidden' })
        expect(res.body.message, path).toMatch(/fixtures outside this key's scope: (5|6)$/)
      }
    }
    await s.apply(9, 501)
    const live = await httpGet(`${s.base}/v1/fixtures/live?api_token=scoped-key&fixtures=1,9`)
    // Fixture 9 is known now (league 501): refused too. Before it was stored, it would have been served.
    expect(live.status).toBe(403)
    expect((await httpGet(`${s.base}/v1/fixtures/live?api_token=scoped-key&fixtures=1,10`)).body.data.map((f: LiveFixture) => f.id)).toEqual([1])
    const changes = await httpGet(`${s.base}/v1/changes?api_token=scoped-key&fixtures=1,10`)
    expect(changes.status).toBe(200)
    expect(changes.body.data.map((f: { fixture_id: number }) => f.fixture_id)).toEqual([1])
    const sse = await openSse(`${s.base}/v1/sse?api_token=scoped-key&fixtures=1,10`)
    expect(sse.status).toBe(200)
    await waitFor('the SSE snapshot', () => sse.events.length >= 1, 5000)
    received.push(() => sse.events.flatMap((e) => serverFrameErrors(e.data)))
    await s.apply(10, 501)
    const mine = await s.apply(1, 271)
    await waitFor('the change of fixture 1', () => sse.events.some((e) => e.id === mine.cursor), 5000)
    expect(sse.events.filter((e) => e.event === 'change').map((e) => e.data.fixture_id)).toEqual([1])
    sse.close()
  })
})
