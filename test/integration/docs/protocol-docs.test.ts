/**
 * The protocol documents stay true: a gateway (buildApp, the hub, the poller on the embedded provider's
 * matchday) serves `/docs/asyncapi.json` and `/docs/openapi.json`, and every frame and HTTP response
 * recorded here over real sockets, the good and the refused, validates against them.
 */
import type { AddressInfo } from 'node:net'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../../src/app.ts'
import { asyncApiDocument } from '../../../src/wire-model/asyncapi.ts'
import { openApiDocument } from '../../../src/wire-model/openapi.ts'
import { createHub } from '../../../src/fanout/hub.ts'
import { createKeyRing, type ClientKey } from '../../../src/client-keys.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { StoreUnavailableError } from '../../../src/store/unavailable.ts'
import { httpGet } from '../../helpers/http.ts'
import { startPipeline, type Pipeline } from '../../helpers/pipeline.ts'
import { clientFrameErrors, documentErrors, responseErrors, serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { clientKey, openSse } from '../fanout/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

let pipeline: Pipeline | undefined
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await pipeline?.close()
  pipeline = undefined
})

/** The store as the gateway sees it, made unreachable on demand (as a Redis outage looks to its readers). */
function switchable (store: LiveStore): { store: LiveStore, down: (yes: boolean) => void } {
  let isDown = false
  const guard = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    if (isDown) throw new StoreUnavailableError(new Error('connection refused'))
    return await fn(...args)
  }
  return {
    store: { ...store, head: guard(store.head), liveFixtures: guard(store.liveFixtures), readSince: guard(store.readSince), getFixtures: guard(store.getFixtures) },
    down: (yes) => { isDown = yes }
  }
}

/** A change frame in `delta` format: the fixture's version and changes, no fixture. */
const isDelta = (frame: Frame): boolean => frame.type === 'change' && frame.fixture === undefined && typeof frame.version === 'number'

/** Every client frame sent and server frame received, with what the documents say about them. */
class Recorder {
  readonly sent: Frame[] = []
  readonly clients: WsTestClient[] = []
  readonly responses: Array<{ path: string, status: number, body: unknown }> = []

  async connect (url: string): Promise<WsTestClient> {
    const c = await WsTestClient.connect(url)
    const send = c.send.bind(c)
    c.send = (frame) => { if (typeof frame !== 'string') this.sent.push(frame); send(frame) }
    this.clients.push(c)
    await c.take('hello')
    return c
  }

  async get (base: string, pathAndQuery: string): Promise<{ status: number, body: any }> {
    const res = await httpGet(`${base}${pathAndQuery}`)
    this.responses.push({ path: pathAndQuery.split('?')[0] as string, status: res.status, body: res.body })
    return res
  }

  complaints (): string[] {
    return [
      ...this.sent.flatMap(clientFrameErrors),
      ...this.clients.flatMap((c) => c.frames.flatMap(serverFrameErrors)),
      ...this.responses.flatMap((r) => responseErrors(r.path, r.status, r.body))
    ]
  }
}

describe('protocol documents', () => {
  it('are served by the gateway, and the traffic of a matchday validates against them', async () => {
    pipeline = await startPipeline('memory', '', { provider: { simSpeed: 600, liveTarget: 8, hourlyLimits: { Enterprise: 100_000 } } })
    const p = pipeline
    const gate = switchable(p.store)
    const log = pino({ level: 'silent' })
    const hub = createHub({ store: gate.store, metrics: p.metrics, log, limits: { connectionBurstPerIp: 1000, connectionsPerSecondPerIp: 1000 } })
    await hub.start()
    // `none` covers a league with no fixtures: every live team plays outside it.
    const keys: ClientKey[] = [clientKey('all'), clientKey('none', { leagues: [1] }), clientKey('narrow')]
    const ring = createKeyRing(keys)
    const app = await buildApp({ log, store: gate.store, ledger: p.ledger, upstream: p.upstream, keys: ring, metrics: p.metrics, poller: () => p.poller, hub })
    await app.listen({ port: 0, host: '127.0.0.1' })
    closers.push(async () => { await app.close() })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const ws = (token: string): string => `${base.replace('http', 'ws')}/v1/live?api_token=${token}`
    const rec = new Recorder()

    const asyncApi = await httpGet(`${base}/docs/asyncapi.json`)
    expect(asyncApi.status).toBe(200)
    expect(asyncApi.body).toEqual(JSON.parse(JSON.stringify(asyncApiDocument())))
    expect(asyncApi.body.asyncapi).toBe('3.0.0')
    const openApi = await httpGet(`${base}/docs/openapi.json`)
    expect(openApi.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
    expect(openApi.body.openapi).toBe('3.1.0')

    p.poller.start()
    const everything = await rec.connect(ws('all-key'))
    everything.send({ op: 'subscribe', ref: 'all', leagues: '*' })
    const goals = await rec.connect(ws('all-key'))
    goals.send({ op: 'subscribe', ref: 'g', leagues: '*', kinds: ['score_changed', 'state_changed', 'event_added'], snapshot: false })
    const compact = await rec.connect(ws('all-key'))
    compact.send({ op: 'subscribe', ref: 'd', leagues: '*', format: 'delta' })
    await rec.get(base, '/v1/status')
    await rec.get(base, '/healthz')
    await rec.get(base, '/readyz')

    // Wait for a live matchday: fixtures in the store, and changes flowing.
    await waitFor('20 changes', () => everything.changes().length >= 20, 20_000)
    await waitFor('a delta frame', () => compact.changes().some(isDelta), 20_000)
    const live: LiveFixture[] = (await rec.get(base, '/v1/fixtures/live?api_token=all-key')).body.data
    expect(live.length).toBeGreaterThan(0)
    expect(live.some((f) => f.clock != null)).toBe(true)
    const first = live[0] as LiveFixture
    await rec.get(base, `/v1/fixtures/live?api_token=all-key&teams=${first.home.id}`)
    await rec.get(base, '/v1/fixtures/live?api_token=all-key&leagues=*&kinds=clock')
    const page = await rec.get(base, '/v1/changes?api_token=all-key&limit=50')
    expect(page.body.data.length).toBeGreaterThan(0)
    await rec.get(base, `/v1/changes?api_token=all-key&teams=${first.home.id},${first.away.id}&kinds=score_changed,clock&since=${page.body.cursor as string}`)
    await rec.get(base, '/v1/changes?api_token=all-key&since=zz:1')
    expect((await rec.get(base, '/v1/changes?api_token=all-key&limit=200&format=delta')).body.data.some(isDelta)).toBe(true)
    expect((await rec.get(base, '/v1/changes?api_token=all-key&format=delta&kinds=clock')).status).toBe(400)
    await rec.get(base, '/v1/changes?api_token=all-key&limit=0')
    await rec.get(base, '/v1/changes?api_token=nope')
    await rec.get(base, `/v1/changes?api_token=none-key&leagues=${first.league_id}`)
    await rec.get(base, `/v1/fixtures/live?api_token=none-key&teams=${first.home.id}`)

    // Refusals and replies on the WebSocket.
    const refused = await rec.connect(ws('none-key'))
    expect(await refused.request({ op: 'subscribe', ref: 'l', leagues: [first.league_id] })).toMatchObject({ code: 'forbidden', leagues: [first.league_id] })
    // A team is refused only while it plays (one not live is accepted): take one whose match has the most
    // time left, read now, since `first` may have ended on a slow machine (a match lasts 10 s at 600x).
    const playing: LiveFixture[] = (await rec.get(base, '/v1/fixtures/live?api_token=all-key')).body.data
    const team = [...playing].filter((f) => f.state.phase === 'live').sort((x, y) => (x.minute ?? 0) - (y.minute ?? 0))[0]?.home.id
    expect(team).toBeDefined()
    expect(await refused.request({ op: 'subscribe', ref: 't', teams: [team] })).toMatchObject({ code: 'forbidden', teams: [team] })
    refused.send('{"op":')
    await refused.take((f) => f.type === 'error' && f.code === 'invalid_message')
    // Frames sent as text are refused ones, not recorded as documented client frames.
    refused.send(JSON.stringify({ op: 'dance', ref: 'd' }))
    expect(await refused.take((f) => f.ref === 'd')).toMatchObject({ code: 'unknown_op' })
    expect(await refused.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    expect(await refused.request({ op: 'subscribe', ref: 'f', fixtures: Array.from({ length: 101 }, (_, i) => i + 1), snapshot: false })).toMatchObject({ code: 'limit_exceeded' })
    expect(await goals.request({ op: 'unsubscribe', ref: 'u', kinds: ['event_added'] })).toMatchObject({ type: 'unsubscribed', leagues: '*' })
    expect(await compact.request({ op: 'subscribe', ref: 'k', fixtures: [first.id], kinds: ['clock'], snapshot: false })).toMatchObject({ code: 'invalid_message' })

    // Replays: from a known cursor, and from a lost one (recovered:false and a snapshot).
    const since = everything.changes()[0]?.cursor as string
    const back = await rec.connect(ws('all-key'))
    back.send({ op: 'subscribe', ref: 'r', leagues: [first.league_id], teams: [first.home.id], since, snapshot: false })
    expect(await back.take('replay')).toMatchObject({ recovered: true })
    back.send({ op: 'subscribe', ref: 'x', fixtures: [first.id], since: 'zz:1' })
    expect(await back.take((f) => f.type === 'replay' && f.ref === 'x')).toMatchObject({ recovered: false })
    await back.take((f) => f.type === 'snapshot' && f.ref === 'x')

    // A keys reload that narrows a key: `forbidden` lists the fixtures it lost.
    const narrow = await rec.connect(ws('narrow-key'))
    await narrow.request({ op: 'subscribe', ref: 'n', fixtures: [first.id], snapshot: false })
    await hub.applyKeys((old) => old.name === 'narrow' ? { ...old, leagues: [1] } : old)
    expect(await narrow.take('error')).toMatchObject({ code: 'forbidden', fixtures: [first.id] })

    // The SSE stream's events carry the same frames.
    const sse = await openSse(`${base}/v1/sse?api_token=all-key&leagues=*&kinds=clock,score_changed`)
    closers.push(async () => { sse.close() })
    await waitFor('an SSE change', () => sse.events.some((e) => e.event === 'change'), 20_000)
    const sseDelta = await openSse(`${base}/v1/sse?api_token=all-key&leagues=*&format=delta`)
    closers.push(async () => { sseDelta.close() })
    await waitFor('an SSE delta', () => sseDelta.events.some((e) => e.event === 'change' && isDelta(e.data)), 20_000)

    // The store unreachable: `unavailable` over WebSocket, 503 over HTTP, and a status that says so.
    gate.down(true)
    const outage = await rec.connect(ws('all-key'))
    outage.send({ op: 'subscribe', ref: 'o', fixtures: [first.id] })
    expect(await outage.take('error')).toMatchObject({ ref: 'o', code: 'unavailable' })
    expect((await rec.get(base, '/v1/changes?api_token=all-key')).status).toBe(503)
    expect((await rec.get(base, '/readyz')).status).toBe(503)
    expect((await rec.get(base, '/v1/status')).body.store).toEqual({ engine: 'memory', status: 'down', log_length: null, log_max_length: null })
    gate.down(false)
    await p.poller.stop()

    const types = new Set(rec.clients.flatMap((c) => c.frames.map((f) => f.type)))
    expect([...types].sort()).toEqual(['change', 'error', 'hello', 'pong', 'replay', 'snapshot', 'subscribed', 'unsubscribed'])
    const kindsSeen = new Set(everything.changes().flatMap((f) => f.changes.map((c: { kind: string }) => c.kind)))
    expect(kindsSeen.size).toBeGreaterThan(2)
    expect(rec.complaints()).toEqual([])
    expect([...sse.events, ...sseDelta.events].flatMap((e) => serverFrameErrors(e.data))).toEqual([])
  }, 60_000)

  it('resolve every $ref and compile every schema', () => {
    expect(documentErrors()).toEqual([])
    expect(Object.keys((asyncApiDocument() as { channels: { live: { messages: object } } }).channels.live.messages).length).toBe(15)
  })

  it('catch an undocumented field, a wrong type and an unknown frame', () => {
    expect(serverFrameErrors({ type: 'pong', ref: '1', extra: true })).not.toEqual([])
    expect(serverFrameErrors({ type: 'hello', protocol: 1, cursor: 'a:1', heartbeat_ms: '25000' })).not.toEqual([])
    expect(serverFrameErrors({ type: 'goal' })).not.toEqual([])
    expect(clientFrameErrors({ op: 'subscribe', leagues: 'all' })).not.toEqual([])
    expect(responseErrors('/v1/fixtures/live', 200, { data: [{ id: 1 }] })).not.toEqual([])
    expect(responseErrors('/v1/nothing', 200, {})).not.toEqual([])
    expect(serverFrameErrors({ type: 'pong', ref: '1' })).toEqual([])
  })

  it('document every field of a delta frame, an added event\'s index included', () => {
    const event = { id: 5, type_id: 14, type: 'GOAL', minute: 57, side: 'home', team_id: 10, player: { id: 1, name: 'A' }, result: '1-0', sort_order: 1 }
    const frame = (change: Record<string, unknown>): Record<string, unknown> =>
      ({ type: 'change', cursor: 'e:9', fixture_id: 1, league_id: 271, version: 4, at: '2026-11-26T06:00:00.000Z', changes: [change] })
    expect(serverFrameErrors(frame({ kind: 'event_added', event, index: 3 }))).toEqual([])
    expect(serverFrameErrors(frame({ kind: 'event_added', event }))).toEqual([])
    expect(serverFrameErrors(frame({ kind: 'event_added', event, index: -1 }))).not.toEqual([])
    expect(serverFrameErrors(frame({ kind: 'event_added', event, position: 3 }))).not.toEqual([])
  })
})
