/**
 * Odds on every surface a client reads (docs/protocol.md, "Odds"): WebSocket narrowed to a bookmaker and a
 * market, SSE `odds` events, `/v1/changes` with odds kinds, `/v1/fixtures/live?odds=true`, a webhook that
 * takes one market, and the client library's `client.odds`; and the key's odds feature gating each of them,
 * as it gates the passthrough's odds paths.
 */
import { TouchlineClient } from '@touchline/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { FixtureOdds, OddsChange } from '../../../src/wire-model/model.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { openSse, type SseStream } from '../fanout/harness.ts'
import { acknowledged, SECRET, startReceiver, writeKeys, type Receiver } from '../webhooks/harness.ts'
import { plannedMatch, providerMarkets, startRig, startUpstream, type Planned, type Rig, type Upstream } from './harness.ts'

const ODDS_KEY = 'odds-surfaces-key'
const PLAIN_KEY = 'no-odds-surfaces-key'
const redis = useRedis({ per: 'file' })
let up: Upstream
let rig: Rig
let match: Planned
let receiver: Receiver
let narrowed: WsTestClient
let sse: SseStream
let client: TouchlineClient
const clientEvents: Array<{ changes: OddsChange[], cursor: string }> = []
let start: string

const ws = async (key: string): Promise<WsTestClient> => await WsTestClient.connect(`${rig.gw.url.replace('http', 'ws')}/v1/live?api_token=${key}`)
const get = async (path: string): Promise<{ status: number, body: any }> => {
  const res = await fetch(`${rig.gw.url}${path}`)
  return { status: res.status, body: await res.json() }
}
/** Every frame of /v1/changes from `since` on, page after page (a filtered page may hold none while more are to come). */
async function changesSince (since: string, query: string): Promise<Frame[]> {
  const out: Frame[] = []
  for (let cursor = since; ;) {
    const page = await get(`/v1/changes?api_token=${ODDS_KEY}&since=${cursor}&${query}&limit=1000`)
    expect(page.status).toBe(200)
    out.push(...page.body.data as Frame[])
    if (page.body.more !== true) return out
    cursor = page.body.cursor
  }
}
const marketsIn = (changes: OddsChange[]): string[] =>
  [...new Set(changes.map((c) => c.kind === 'market_added' ? `${c.market.bookmaker_id}/${c.market.market_id}` : 'bookmaker_id' in c ? `${c.bookmaker_id}/${c.market_id}` : 'stale'))]

beforeAll(async () => {
  up = await startUpstream()
  match = plannedMatch(up)
  receiver = await startReceiver(() => 200, SECRET, false)
  const keysFile = writeKeys([
    { key: ODDS_KEY, name: 'odds', features: ['odds'], webhooks: [{ id: 'result', url: receiver.url, secret: SECRET, fixtures: [match.id], markets: [1] }] },
    { key: PLAIN_KEY, name: 'plain', features: [] }
  ])
  rig = await startRig(up, { redisUrl: redis.url, prefix: redis.prefix, env: { TOUCHLINE_KEYS_FILE: keysFile, TOUCHLINE_WEBHOOK_RETRY_BASE_MS: '20' } })
  await rig.runTo(match.at((match.line.start ?? 0) - 90))
  start = (await get(`/v1/changes?api_token=${ODDS_KEY}&limit=1`)).body.cursor
  narrowed = await ws(ODDS_KEY)
  await narrowed.request({ op: 'subscribe', ref: 'n', fixtures: [match.id], bookmakers: [2], markets: [1] })
  sse = await openSse(`${rig.gw.url}/v1/sse?api_token=${ODDS_KEY}&fixtures=${match.id}&odds=true`)
  client = new TouchlineClient({ url: rig.gw.url, key: ODDS_KEY, WebSocket: WebSocket as never })
  client.on('odds', (e) => { clientEvents.push({ changes: e.changes, cursor: e.cursor }) })
  client.subscribe({ fixtures: [match.id], odds: true })
  await client.connect()
  await rig.runTo(match.at((match.line.start ?? 0) + 25 * 60))
}, 120_000)

afterAll(async () => {
  client?.close()
  narrowed?.ws.close()
  sse?.close()
  await rig?.close()
  await up?.close()
  await receiver?.close()
})

describe('odds on every surface', () => {
  it('WebSocket: narrowed to a bookmaker and a market, in the frames and their images', () => {
    const frames = narrowed.frames.filter((f) => f.type === 'odds')
    expect(frames.length).toBeGreaterThan(5)
    expect(new Set(frames.flatMap((f) => marketsIn(f.changes as OddsChange[])))).toEqual(new Set(['2/1']))
    for (const f of frames) expect((f.odds as FixtureOdds).markets.map((m) => `${m.bookmaker_id}/${m.market_id}`)).toEqual(['2/1'])
  })

  it('SSE: `odds` events with the fixture\'s odds, every bookmaker and market', () => {
    const odds = sse.events.filter((e) => e.event === 'odds').map((e) => e.data as Frame)
    expect(odds.length).toBeGreaterThan(5)
    expect(odds.every((f) => f.fixture_id === match.id && typeof f.cursor === 'string')).toBe(true)
    expect(new Set(odds.flatMap((f) => marketsIn(f.changes as OddsChange[])))).toEqual(new Set(['2/1', '2/2', '2/14', '2/57', '2/80', '34/1', '34/2', '34/14', '34/57', '34/80']))
  })

  it('/v1/changes: odds frames among the changes with odds=true, only odds_changed with kinds=odds_changed', async () => {
    const all = await changesSince(start, `fixtures=${match.id}&odds=true`)
    expect(new Set(all.map((f) => f.type))).toEqual(new Set(['change', 'odds']))
    const plain = await changesSince(start, `fixtures=${match.id}`)
    expect(new Set(plain.map((f) => f.type))).toEqual(new Set(['change']))
    const frames = await changesSince(start, `fixtures=${match.id}&kinds=odds_changed`)
    expect(frames.length).toBeGreaterThan(5)
    expect(new Set(frames.flatMap((f) => (f.changes as OddsChange[]).map((c) => c.kind)))).toEqual(new Set(['odds_changed']))
  })

  it('/v1/changes?conflate_ms: one odds frame per fixture per interval of the records\' times, ending where the unconflated ones end', async () => {
    const all = await changesSince(start, `fixtures=${match.id}&odds=true`)
    const conflated = await changesSince(start, `fixtures=${match.id}&odds=true&conflate_ms=3000`)
    const odds = (frames: Frame[]): Frame[] => frames.filter((f) => f.type === 'odds')
    // Match changes are never conflated.
    expect(conflated.filter((f) => f.type === 'change')).toEqual(all.filter((f) => f.type === 'change'))
    expect(odds(conflated).length).toBeGreaterThan(3)
    expect(odds(conflated).length).toBeLessThan(odds(all).length / 2)
    // Each conflated frame is the last record of its interval: its cursor and its image.
    const byCursor = new Map(odds(all).map((f) => [f.cursor, f]))
    for (const f of odds(conflated)) expect(f.odds, f.cursor as string).toEqual(byCursor.get(f.cursor as string)?.odds)
    expect(odds(conflated).at(-1)?.odds).toEqual(odds(all).at(-1)?.odds)
    // At most one frame per 3 s of the records' times (an interval opens at the first record after the last one).
    const times = odds(all).map((f) => Date.parse(f.at as string))
    expect(odds(conflated).length).toBeLessThanOrEqual(Math.ceil(((times.at(-1) ?? 0) - (times[0] ?? 0)) / 3000) + 1)
  })

  it('refuses conflate_ms out of range alike on /v1/changes, SSE (400 naming it) and the WebSocket (invalid_message naming it)', async () => {
    for (const path of ['/v1/changes', '/v1/sse']) {
      for (const value of ['-1', '10001', '1.5', 'soon']) {
        const res = await get(`${path}?api_token=${ODDS_KEY}&odds=true&conflate_ms=${value}`)
        expect(res, `${path} conflate_ms=${value}`).toMatchObject({ status: 400, body: { code: 'invalid_request', message: expect.stringContaining('conflate_ms') } })
      }
    }
    const socket = await ws(ODDS_KEY)
    try {
      for (const value of [-1, 10_001, 1.5, 'soon']) {
        const answer = await socket.request({ op: 'subscribe', ref: `c${String(value)}`, fixtures: [match.id], odds: true, conflate_ms: value, snapshot: false })
        expect(answer, `conflate_ms ${String(value)}`).toMatchObject({ type: 'error', code: 'invalid_message', message: expect.stringContaining('conflate_ms') })
      }
      // Nothing was taken: the connection still follows nothing.
      expect(await socket.request({ op: 'unsubscribe', ref: 'u' })).toMatchObject({ type: 'unsubscribed', fixtures: [] })
    } finally {
      socket.ws.close()
    }
  })

  it('/v1/fixtures/live?odds=true: each fixture with its odds image', async () => {
    const live = await get(`/v1/fixtures/live?api_token=${ODDS_KEY}&fixtures=${match.id}&odds=true`)
    expect(live.status).toBe(200)
    expect(live.body.odds.map((o: FixtureOdds) => o.fixture_id)).toEqual([match.id])
    expect(live.body.odds[0].markets).toEqual(await providerMarkets(up, match.id))
  })

  it('webhooks: the endpoint that takes one market gets its changes only, signed', async () => {
    await waitFor('odds deliveries', () => acknowledged(receiver, 'result').some((f) => f.type === 'odds'), 10_000)
    const frames = acknowledged(receiver, 'result').filter((f) => f.type === 'odds')
    expect(new Set(frames.flatMap((f) => marketsIn(f.changes as OddsChange[])))).toEqual(new Set(['2/1', '34/1']))
    expect(receiver.requests.every((r) => r.signed)).toBe(true)
  })

  it('the client library: client.odds holds the provider\'s odds, and odds events came with their changes', async () => {
    await waitFor('the client\'s odds', async () => JSON.stringify(client.odds.get(match.id)?.markets) === JSON.stringify(await providerMarkets(up, match.id)), 5000)
    // The five markets of both bookmakers, and a next-goal market more per goal scored.
    expect(client.odds.get(match.id)?.markets.length).toBeGreaterThanOrEqual(10)
    expect(clientEvents.length).toBeGreaterThan(5)
    expect(clientEvents.every((e) => e.changes.length > 0 && e.cursor !== '')).toBe(true)
    expect(clientEvents.flatMap((e) => e.changes.map((c) => c.kind))).toContain('odds_changed')
  })
})

describe('a key without the odds feature', () => {
  it('is refused odds on every surface, as on the passthrough\'s odds paths, and keeps everything else', async () => {
    const sock = await ws(PLAIN_KEY)
    const refused = await sock.request({ op: 'subscribe', ref: 'o', fixtures: [match.id], odds: true })
    expect(refused).toMatchObject({ type: 'error', code: 'forbidden' })
    for (const ask of [{ kinds: ['market_suspended'] }, { bookmakers: [2] }, { markets: [1] }]) {
      expect(await sock.request({ op: 'subscribe', ref: 'k', fixtures: [match.id], ...ask })).toMatchObject({ type: 'error', code: 'forbidden' })
    }
    expect(await sock.request({ op: 'subscribe', ref: 'plain', fixtures: [match.id] })).toMatchObject({ type: 'subscribed', fixtures: [match.id] })
    sock.ws.close()
    expect((await get(`/v1/changes?api_token=${PLAIN_KEY}&odds=true`)).status).toBe(403)
    expect((await get(`/v1/changes?api_token=${PLAIN_KEY}&kinds=odds_changed`)).status).toBe(403)
    expect((await get(`/v1/fixtures/live?api_token=${PLAIN_KEY}&odds=true`)).status).toBe(403)
    const stream = await openSse(`${rig.gw.url}/v1/sse?api_token=${PLAIN_KEY}&odds=true`)
    expect(stream.status).toBe(403)
    stream.close()
    expect((await get(`/v3/football/odds/inplay/fixtures/${match.id}?api_token=${PLAIN_KEY}`)).status).toBe(403)
    expect((await get(`/v1/changes?api_token=${PLAIN_KEY}`)).status).toBe(200)
  })

  it('the client library: only the odds are refused (one error event), the fixtures flow, and no odds are asked again', async () => {
    for (const follow of [{ fixtures: [match.id] }, { leagues: '*' as const }]) {
      const sent: Array<Record<string, unknown>> = []
      class Watched extends WebSocket {
        override send (data: any, ...rest: any[]): void { sent.push(JSON.parse(String(data))); super.send(data, ...rest as []) }
      }
      const plain = new TouchlineClient({ url: rig.gw.url, key: PLAIN_KEY, WebSocket: Watched as never })
      const errors: Array<{ code: string }> = []
      plain.on('error', (e) => errors.push(e))
      plain.subscribe({ ...follow, odds: true })
      expect(await plain.connect()).toEqual({ state: 'live' })
      expect(plain.fixtures.get(match.id)?.id).toBe(match.id)
      expect(plain.odds.size).toBe(0)
      expect(errors.map((e) => e.code)).toEqual(['forbidden'])
      expect(plain.subscription.odds).toBeUndefined()
      const subscribes = sent.filter((f) => f.op === 'subscribe')
      expect(subscribes.map((f) => f.odds === true)).toEqual([true, false])
      // The next connection asks no odds either.
      const before = sent.length
      plain.reconnectNow()
      await waitFor('the resubscribe after reconnecting', () => sent.slice(before).some((f) => f.op === 'subscribe'), 5000)
      await waitFor('live again', () => plain.status.state === 'live', 5000)
      expect(sent.slice(before).filter((f) => f.op === 'subscribe').every((f) => f.odds === undefined)).toBe(true)
      expect(errors.length).toBe(1)
      plain.close()
    }
  })
})
