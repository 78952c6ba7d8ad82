/**
 * The whole gateway against a server that answers like the real API (test/helpers/real-upstream.ts):
 * legacy 2023 bodies without includes, a live shoot-out whose penalties period has null fields, a `latest`
 * that answers "No result(s)", a `rate_limit` with no total. Every live fixture must reach clients, the
 * odd fields must be counted once (not per poll), and the upstream token must show nowhere.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'undici'
import type { Gateway } from '../../../src/gateway.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { counterValue } from '../../helpers/pipeline.ts'
import { liveShootout, readShared, SHOOTOUT_FIXTURE_ID, startRealUpstream, type RealUpstream, pollingGatewayEnv } from '../../helpers/real-upstream.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { captureLogger } from '../passthrough/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const RANGERS_CELTIC = 18535605
const TOKEN = `real-${randomUUID()}`

describe('gateway against a real-like upstream', () => {
  let upstream: RealUpstream
  let gw: Gateway
  let lines: string[]
  /** Every response body and header the test received, to look for the token. */
  const received: string[] = []

  async function get (path: string): Promise<{ status: number, body: any }> {
    const res = await request(`${gw.url}${path}`)
    const text = await res.body.text()
    received.push(text, JSON.stringify(res.headers))
    return { status: res.statusCode, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text }
  }

  async function liveFixtures (): Promise<LiveFixture[]> {
    return (await get('/v1/fixtures/live?api_token=demo')).body.data as LiveFixture[]
  }

  beforeAll(async () => {
    // A large bucket so that pacing stays at the floor (the real plans' buckets are 2000 to 5000 an hour).
    upstream = await startRealUpstream({ token: TOKEN, remaining: 100_000 })
    const captured = captureLogger()
    lines = captured.lines
    gw = await startTestGateway({
      env: pollingGatewayEnv(upstream, TOKEN),
      log: captured.log
    })
    await waitFor('two reconciles and three latest polls', () => upstream.hits('/football/livescores').length >= 2 && upstream.hits('/football/livescores/latest').length >= 3, 15_000)
  })

  afterAll(async () => {
    await gw?.close()
    await upstream?.close()
  })

  it('serves every live fixture of livescores, the shoot-out included with its penalty score', async () => {
    const fixtures = await liveFixtures()
    const ids = fixtures.map((f) => f.id).sort()
    expect(ids).toEqual([RANGERS_CELTIC, SHOOTOUT_FIXTURE_ID].sort())

    const shootout = fixtures.find((f) => f.id === SHOOTOUT_FIXTURE_ID)
    const kicks = (liveShootout().events as Array<{ type_id: number }>).filter((e) => e.type_id === 23 || e.type_id === 22)
    expect(shootout).toMatchObject({
      state: { id: 9, code: 'INPLAY_PENALTIES', phase: 'live' },
      period: 'penalties',
      minute: null,
      home: { id: 591, name: 'Paris Saint Germain', score: 1 },
      away: { id: 19, name: 'Arsenal', score: 1 },
      scores: { current: { home: 1, away: 1 }, penalty_shootout: { home: 2, away: 2 } }
    })
    expect(shootout?.events.filter((e) => e.type.startsWith('PENALTY_SHOOTOUT'))).toHaveLength(kicks.length)
  })

  it('falls back for a 2023 body without includes: teams from the name, score from the legacy fields', async () => {
    const rangers = (await liveFixtures()).find((f) => f.id === RANGERS_CELTIC)
    expect(rangers).toMatchObject({
      league_id: 501,
      name: 'Rangers vs Celtic',
      state: { id: 2, phase: 'live' },
      home: { id: 0, name: 'Rangers', score: 0 },
      away: { id: 0, name: 'Celtic', score: 1 },
      events: [],
      minute: null
    })
  })

  it('sends the snapshot to a WebSocket subscriber', async () => {
    const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
    try {
      await ws.take('hello')
      expect(await ws.request({ op: 'subscribe', ref: '1', leagues: [501, 2] })).toMatchObject({ type: 'subscribed' })
      const snapshot = await ws.take('snapshot')
      received.push(JSON.stringify(ws.frames))
      expect(snapshot.fixtures.map((f: LiveFixture) => f.id).sort()).toEqual([RANGERS_CELTIC, SHOOTOUT_FIXTURE_ID].sort())
    } finally {
      ws.ws.close()
    }
  })

  it('does not count "No result(s)" from latest as a failure', async () => {
    expect(upstream.hits('/football/livescores/latest').length).toBeGreaterThanOrEqual(3)
    const status = gw.poller.status()
    expect(status.lastError).toBeNull()
    expect(status.consecutiveFailures).toBe(0)
    expect(await counterValue(gw.metrics, 'touchline_polls_total', { kind: 'latest', outcome: 'ok' })).toBeGreaterThanOrEqual(3)
    expect(await counterValue(gw.metrics, 'touchline_polls_total', { outcome: 'error' })).toBe(0)
    expect((await get('/readyz')).status).toBe(200)
  })

  it('counts each odd field once per fixture, not once per poll', async () => {
    const anomalies = async (): Promise<Record<string, number>> => ({
      participants: await counterValue(gw.metrics, 'touchline_upstream_anomalies_total', { path: 'participants' }),
      scores: await counterValue(gw.metrics, 'touchline_upstream_anomalies_total', { path: 'scores' }),
      all: await counterValue(gw.metrics, 'touchline_upstream_anomalies_total', {})
    })
    // From now on every `latest` poll brings both fixtures again, the odd one included.
    upstream.set('/football/livescores/latest', (_req, server) => ({ body: { ...readShared('real/livescores-latest-2023.json'), data: server.live } }))
    const before = await anomalies()
    const polled = upstream.hits('/football/livescores/latest').length
    await waitFor('five more latest polls', () => upstream.hits('/football/livescores/latest').length >= polled + 5, 10_000)
    expect(upstream.hits('/football/livescores').length).toBeGreaterThanOrEqual(2)
    // The same fixtures again: nothing more counted. (The 2023 fixtures of the days and of fixtures/latest
    // came without includes too: each of them counted once.)
    expect(await anomalies()).toEqual(before)
    const logged = lines.filter((l) => l.includes('upstream sent an unexpected value'))
    expect(logged.length).toBe(before.all)
    const once = logged.map((l) => { const a = (JSON.parse(l) as { anomaly: { fixtureId: number, path: string } }).anomaly; return `${a.fixtureId}|${a.path}` })
    expect(new Set(once).size).toBe(once.length)
    // Rangers–Celtic came without includes: its participants and scores fell back, once each.
    expect(once.filter((k) => k.startsWith(`${RANGERS_CELTIC}|`)).sort()).toEqual([`${RANGERS_CELTIC}|participants`, `${RANGERS_CELTIC}|scores`])
    const metrics = await get('/metrics')
    expect(metrics.body).toContain(`touchline_upstream_anomalies_total{path="participants"} ${before.participants}`)
  })

  it('sends the token only as api_token and never shows it in a response, header or log line', async () => {
    await get('/v1/status')
    await get('/v3/football/livescores?api_token=demo')
    expect(upstream.requests.length).toBeGreaterThan(0)
    for (const req of upstream.requests) {
      expect(req.query.get('api_token')).toBe(TOKEN)
      expect(JSON.stringify(req.headers)).not.toContain(TOKEN)
    }
    expect(received.length).toBeGreaterThan(0)
    expect(received.filter((text) => text.includes(TOKEN))).toEqual([])
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.filter((line) => line.includes(TOKEN))).toEqual([])
  })
})
