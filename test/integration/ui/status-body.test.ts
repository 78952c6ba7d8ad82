/**
 * What `GET /v1/status` adds for the status page, without a browser: fixtures in play counted as the
 * scoreboard's Live tab counts them (and the live set by phase), the store (engine, up or down, its log's
 * length), the odds poller beside the poller with its budget entity and last poll, the detection latency's
 * p50 and p95, each bucket's burn rate against its limit, and Web Push deliveries as sent, retrying and
 * failed; every answer valid against the OpenAPI document; no secret in it.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { statusRoutes, type StatusBody } from '../../../src/http/status.ts'
import { createMetrics } from '../../../src/metrics.ts'
import type { OddsPollerStatus } from '../../../src/poller/odds.ts'
import type { PollerStatus } from '../../../src/poller/poller.ts'
import type { Push } from '../../../src/webpush/index.ts'
import { createDetectionWindow } from '../../../src/status/detection.ts'
import { localPollerView } from '../../../src/status/poller-view.ts'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { StoreUnavailableError } from '../../../src/store/unavailable.ts'
import { matches } from '../../helpers/matches.ts'
import { responseErrors } from '../../helpers/protocol-docs.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, startPushGateway, VAPID } from '../webpush/harness.ts'

const apps: FastifyInstance[] = []
afterEach(async () => { for (const app of apps.splice(0)) await app.close() })

const POLLER: PollerStatus = { running: true, intervalMs: 1500, lastPollAt: Date.parse('2026-12-01T20:00:00Z'), lastReconcileAt: null, lastError: null, consecutiveFailures: 0, tracked: 4, pendingFinal: 0 }
const ODDS: OddsPollerStatus = { running: true, enabled: true, tracked: 2, lastError: null, lastPollAt: Date.parse('2026-12-01T20:00:01Z') }

/** A status body, checked against the OpenAPI document. */
async function status (app: FastifyInstance): Promise<StatusBody> {
  const res = await app.inject('/v1/status')
  expect(res.statusCode).toBe(200)
  expect(responseErrors('/v1/status', 200, res.json())).toEqual([])
  return res.json<StatusBody>()
}

describe('GET /v1/status, what the status page adds', () => {
  it('counts the fixtures in play as the Live tab does, beside the whole live set by phase, and says what the store is', async () => {
    const store = createStore({ kind: 'memory', maxLength: 50 })
    const m = matches(store)
    await m.start(1, 501, 'Celtic', 'Rangers', 20)
    await (await m.start(2, 501, 'Hearts', 'Hibernian', 45)).state('HT')
    await (await m.start(3, 501, 'Aberdeen', 'Dundee', 60)).state('SUSPENDED')
    await (await m.start(4, 501, 'Motherwell', 'St Mirren')).state('NS')
    const ended = await m.start(5, 501, 'Kilmarnock', 'Ross County', 80)
    await ended.state('FT')
    const app = Fastify()
    await app.register(statusRoutes({ ledger: createMemoryLedger(), metrics: createMetrics({ defaults: false }), poller: () => undefined, store }))
    apps.push(app)
    const body = await status(app)
    // Fixture 4 (kick-off to come) is in the live set, not in play; fixture 5 left the live set at full time.
    const inPlay = (await store.liveFixtures()).filter((f) => ['live', 'break', 'suspended', 'unknown'].includes(f.state.phase))
    expect(body.live_fixtures).toBe(inPlay.length)
    expect(body.live_fixtures).toBe(3)
    expect(body.live_set).toEqual({ total: 4, by_phase: { break: 1, live: 1, scheduled: 1, suspended: 1 } })
    // The log's records: 5 fixtures added, 4 states changed; its head is the cursor.
    expect(body.store).toEqual({ engine: 'memory', status: 'up', log_length: 9, log_max_length: 50 })
    expect(body.cursor).toBe(await store.head())
  })

  it('says the store is down, and none of its counts, while it cannot be read', async () => {
    const memory = createStore({ kind: 'memory' })
    const down = async (): Promise<never> => { throw new StoreUnavailableError(new Error('connection refused')) }
    const store: LiveStore = { ...memory, head: down, summary: down }
    const app = Fastify()
    await app.register(statusRoutes({ ledger: createMemoryLedger(), metrics: createMetrics({ defaults: false }), poller: () => undefined, store }))
    apps.push(app)
    expect(await status(app)).toMatchObject({ store: { engine: 'memory', status: 'down', log_length: null, log_max_length: null }, cursor: null, live_fixtures: null, live_set: null })
  })

  it('shows the odds poller beside the poller with their budget entities, and the detection latency published with them', async () => {
    const metrics = createMetrics({ defaults: false })
    const detection = createDetectionWindow({ metrics })
    const view = localPollerView(() => ({ status: () => POLLER }), () => ({ status: () => ODDS }), detection)
    for (const s of [0.3, 0.6, 0.9, 1.2, 7]) metrics.detectionLatency.observe(s)
    await view.refresh()
    const app = Fastify()
    await app.register(statusRoutes({ ledger: createMemoryLedger(), metrics, poller: () => undefined, pollerView: view, store: createStore({ kind: 'memory' }) }))
    apps.push(app)
    const body = await status(app)
    expect(body.poller).toMatchObject({ entity: 'Fixture', running: true, last_poll_at: '2026-12-01T20:00:00.000Z' })
    expect(body.odds_poller).toEqual({ entity: 'InplayOdd', running: true, enabled: true, tracked: 2, last_poll_at: '2026-12-01T20:00:01.000Z', last_error: null })
    // 5 changes: the median (rank 2.5) 3/4 through (0.5, 1], which holds 2; the 95th (rank 4.75) in (5, 8].
    expect(body.detection_latency).toEqual({ p50_s: 0.875, p95_s: 7.25, changes: 5, window_s: expect.any(Number) })
  })

  it('gives each bucket\'s burn rate against its hourly limit, from the ledger sampled over time', async () => {
    const ledger = createMemoryLedger()
    await ledger.record('Fixture', { remaining: 3000, resetsInSeconds: 3600, limit: 3000 })
    await ledger.record('League', { remaining: 100, resetsInSeconds: 3600 })
    const app = Fastify()
    await app.register(statusRoutes({ ledger, metrics: createMetrics({ defaults: false }), poller: () => undefined, store: createStore({ kind: 'memory' }), sampleIntervalMs: 50 }))
    apps.push(app)
    expect((await status(app)).budget.map((b) => b.burn), 'one reading: no rate yet').toEqual([null, null])
    for (let i = 0; i < 20; i++) await ledger.reserve('Fixture', 1, { by: 'pollers' })
    const body = await waitFor('a burn rate with the calls', async () => {
      const b = await status(app)
      return (b.budget[0]?.burn?.per_hour ?? 0) > 0 ? b : undefined
    })
    const [fixture, league] = body.budget as [StatusBody['budget'][number], StatusBody['budget'][number]]
    const burn = fixture.burn as NonNullable<typeof fixture.burn>
    expect(burn.over_s).toBeLessThanOrEqual(1)
    expect(burn.of_limit).toBe(Math.round(burn.per_hour / 3000 * 1000) / 1000)
    // No call reserved in the League bucket (its limit learned from its one response).
    expect(league.burn).toMatchObject({ per_hour: 0, of_limit: 0 })
  })

  it('says Web Push deliveries as sent, retrying and failed', async () => {
    const metrics = createMetrics({ defaults: false })
    metrics.pushSent.inc({ outcome: 'sent' }, 5)
    metrics.pushSent.inc({ outcome: 'retry' }, 4)
    metrics.pushSent.inc({ outcome: 'rejected' }, 1)
    metrics.pushSent.inc({ outcome: 'exhausted' }, 2)
    metrics.pushSent.inc({ outcome: 'gone' }, 1)
    const push = { summary: async () => ({ subscriptions: 9, queued: 3, in_flight: 0, shards: 2, sending_here: 2 }) } as unknown as Push
    const app = Fastify()
    await app.register(statusRoutes({ ledger: createMemoryLedger(), metrics, poller: () => undefined, store: createStore({ kind: 'memory' }), push }))
    apps.push(app)
    expect((await status(app)).push).toMatchObject({ queued: 3, deliveries: { sent: 5, retrying: 3, failed: 3, gone: 1, capped: 0 } })
  })

  it('holds no secret: neither the VAPID keys nor the upstream token', async () => {
    const token = 'upstream-secret-token-1234'
    const gw = await startPushGateway({ TOUCHLINE_UPSTREAM_TOKEN: token })
    await matches(gw.store).start(8801, 501, 'Celtic', 'Rangers')
    await follow(gw, ALL_KEY.key, { endpoint: 'https://push.example/device', expirationTime: null, keys: { p256dh: VAPID.publicKey, auth: 'c2VjcmV0LWF1dGgtMTY' } }, { fixtures: [8801] })
    const text = await (await fetch(`${gw.url}/v1/status`)).text()
    expect(JSON.parse(text).push).not.toBeNull()
    for (const secret of [VAPID.privateKey, VAPID.publicKey, token, ALL_KEY.key, 'push.example']) expect(text).not.toContain(secret)
  })
})
