/**
 * Webhook delivery through a real gateway to real HTTP receivers: a simulated match day
 * arrives complete, in log order and signed; a receiver that fails and times out still gets every change
 * exactly once per delivery; a receiver down past the log's reach gets a `resync`; an endpoint failing too
 * long is paused and resumes; a URL that reaches the gateway itself is refused.
 */
import { expect, it } from 'vitest'
import { webhookKeys } from '../../../src/store/redis-keys.ts'
import { runMatchDay } from '../../helpers/match-day.ts'
import { applier } from '../fanout/harness.ts'
import type { LeagueStandings } from '../../../src/wire-model/model.ts'
import { acknowledged, hookKey, SECRET, startHookGateway, startReceiver, wholeLog, writeKeys, type Received } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'
import { useRedis } from '../../helpers/redis.ts'

const shared = useRedis()

it('delivers every change of a simulated match day in log order, signed, to two endpoints with different filters', async () => {
  const receiver = await startReceiver()
  const keysFile = writeKeys([hookKey([
    { id: 'all', url: receiver.url, secret: SECRET },
    { id: 'goals', url: receiver.url, secret: SECRET, kinds: ['score_changed'] }
  ])])
  const p = shared.prefix
  const gw = await startHookGateway(keysFile, { TOUCHLINE_REDIS_URL: shared.url, TOUCHLINE_REDIS_PREFIX: p, TOUCHLINE_WEBHOOK_BATCH: '50', TOUCHLINE_WEBHOOK_TIMEOUT_MS: '10000' })
  await waitFor('both endpoints started', async () => (await gw.webhooks.list(gw.keys.all()[0]!)).every((v) => v.cursor !== null), 5000)
  const start = await gw.store.head()

  await runMatchDay(gw.store, { minutes: 10 })
  const head = await gw.store.head()
  const log = await wholeLog(gw.store, start)
  expect(log.length).toBeGreaterThan(200)
  await waitFor('every change acknowledged', async () => (await gw.webhooks.list(gw.keys.all()[0]!)).every((v) => v.cursor === head), 60_000)

  expect(receiver.requests.every((q) => q.signed)).toBe(true)
  expect(receiver.maxInFlight).toBeLessThanOrEqual(2) // one per endpoint
  expect(acknowledged(receiver, 'all').map((f) => f.cursor)).toEqual(log.map((r) => r.cursor))
  // The frames are the WebSocket's: the record itself with `type: change`.
  expect(acknowledged(receiver, 'all').map((f) => JSON.stringify({ ...f, type: undefined }))).toEqual(log.map((r) => JSON.stringify({ ...JSON.parse(r.json), type: undefined })))
  const goals = log.map((r) => JSON.parse(r.json) as { cursor: string, changes: Array<{ kind: string }> })
    .filter((r) => r.changes.some((c) => c.kind === 'score_changed'))
  expect(goals.length).toBeGreaterThan(0)
  const got = acknowledged(receiver, 'goals') as unknown as Array<{ cursor: string, changes: Array<{ kind: string }> }>
  expect(got.map((f) => f.cursor)).toEqual(goals.map((r) => r.cursor))
  expect(got.every((f) => f.changes.every((c) => c.kind === 'score_changed'))).toBe(true)
  // Batches of at most 50 changes, headers as docs/webhooks.md names them.
  expect(Math.max(...receiver.requests.map((q) => q.body.data?.length ?? 0))).toBeLessThanOrEqual(50)
  const h = receiver.requests[0]!.headers
  expect(h['content-type']).toBe('application/json')
  expect(h['x-touchline-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
  // A repeated delivery id is a retry (a slow answer on a loaded machine): always the same body.
  const bodies = new Map<string, Set<string>>()
  for (const q of receiver.requests) bodies.set(q.deliveryId, (bodies.get(q.deliveryId) ?? new Set()).add(q.raw))
  expect([...bodies.values()].every((b) => b.size === 1)).toBe(true)

  // The acknowledged cursor is in Redis, where a restarted or another instance finds it.
  expect(await shared.redis.hget(webhookKeys(p).endpoint('hooks', 'all'), 'cursor')).toBe(head)
}, 120_000)

it('a receiver failing 3 times then timing out once still gets every change in order; repeats are retries of one delivery id', async () => {
  const receiver = await startReceiver((n) => n < 3 ? 500 : n === 3 ? 'hang' : 200)
  const keysFile = writeKeys([hookKey([{ id: 'flaky', url: receiver.url, secret: SECRET }])])
  // A timeout far above a 500's answer time, even on a busy machine (at 300 ms, a 500 answered late once
  // counted as a second timeout), and the hang still ends in it.
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_TIMEOUT_MS: '2000', TOUCHLINE_WEBHOOK_BATCH: '7' })
  const key = gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  const start = await gw.store.head()
  const apply = applier(gw.store)
  for (let i = 0; i < 40; i++) await apply(100 + (i % 4), 271)
  const head = await gw.store.head()
  await waitFor('every change acknowledged', async () => (await gw.webhooks.list(key))[0]?.cursor === head, 20_000)

  const answers = receiver.requests.map((q) => q.answer)
  expect(answers.slice(0, 5)).toEqual([500, 500, 500, 'hang', 200])
  // The first five requests are one delivery: same id, same body, each signed again.
  expect(new Set(receiver.requests.slice(0, 5).map((q) => q.deliveryId)).size).toBe(1)
  expect(new Set(receiver.requests.slice(0, 5).map((q) => q.raw)).size).toBe(1)
  expect(receiver.requests.every((q) => q.signed)).toBe(true)
  // Every request's body is new except the retries: a delivery id never carries two bodies, and no change
  // is in two deliveries.
  const byId = new Map<string, Set<string>>()
  for (const q of receiver.requests) byId.set(q.deliveryId, (byId.get(q.deliveryId) ?? new Set()).add(q.raw))
  expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true)
  const log = await wholeLog(gw.store, start)
  expect(acknowledged(receiver).map((f) => f.cursor)).toEqual(log.map((r) => r.cursor))
  const distinct = [...byId.values()].flatMap((b) => (JSON.parse([...b][0]!) as { data: Array<{ cursor: string }> }).data.map((f) => f.cursor))
  expect(distinct).toEqual(log.map((r) => r.cursor))

  const view = (await gw.webhooks.list(key))[0]!
  expect(view).toMatchObject({ state: 'active', lag: 0, last_status: 200, last_error: null, failing_since: null })
  const metrics = await gw.metrics.webhookDeliveries.get()
  const count = (outcome: string): number => metrics.values.find((v) => v.labels.outcome === outcome)?.value ?? 0
  expect([count('http_error'), count('timeout'), count('acked')]).toEqual([3, 1, byId.size])
}, 60_000)

/** A league's table of one row, as the standings poller would store it. */
function leagueTable (league: number): LeagueStandings {
  const row = { team: { id: league, name: `Team ${league}`, short_code: null, image_path: null }, position: 1, points: 3, played: 1, won: 1, drawn: 0, lost: 0, goals_for: 1, goals_against: 0, goal_difference: 1, result: null }
  return { league_id: league, season_id: 1, tables: [{ stage_id: 1, group_id: null, rows: [row] }], updated_at: new Date().toISOString(), version: 0 }
}

it('a receiver down while the log rolls past its cursor gets a resync with the snapshot, then the changes after it', async () => {
  let down = true
  const receiver = await startReceiver(() => down ? 503 : 200)
  const keysFile = writeKeys([hookKey([
    { id: 'late', url: receiver.url, secret: SECRET, leagues: [271] },
    { id: 'tables', url: receiver.url, secret: SECRET, leagues: [271], standings: true }
  ])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_BATCH: '5' }, { storeMaxLength: 20 })
  const key = gw.keys.all()[0]!
  await waitFor('endpoints started', async () => (await gw.webhooks.list(key)).every((v) => v.cursor !== null), 5000)
  const apply = applier(gw.store)
  // The tables of two leagues: the endpoint that takes standings follows one of them.
  for (const league of [271, 501]) await gw.store.applyStandings({ standings: leagueTable(league), changes: [], expectedVersion: 0, at: new Date().toISOString() })
  await apply(1, 271)
  await waitFor('a failed attempt', () => receiver.requests.length > 0, 5000)
  for (let i = 0; i < 60; i++) await apply(1 + (i % 3), i % 2 === 0 ? 271 : 501)
  down = false
  const resyncOf = (id: string): Received | undefined => receiver.requests.find((q) => q.body.type === 'resync' && q.webhookId === id && q.answer === 200)
  await waitFor('a resync of each', () => resyncOf('late') !== undefined && resyncOf('tables') !== undefined, 10_000)
  const resync = resyncOf('late')!
  // The snapshot of the endpoint's filter: league 271 only.
  const live = await gw.store.liveFixtures({ leagues: [271] })
  expect(resync.body.fixtures?.map((f) => f.id)).toEqual(live.map((f) => f.id))
  expect(resync.signed).toBe(true)
  // The tables go with it where they are taken: those of the leagues followed, as the store holds them.
  expect(resync.body.standings).toBeUndefined()
  expect(resyncOf('tables')?.body.standings).toEqual(await gw.store.getStandings([271]))

  for (let i = 0; i < 6; i++) await apply(1, 271)
  const head = await gw.store.head()
  await waitFor('caught up', async () => (await gw.webhooks.list(key))[0]?.cursor === head, 10_000)
  const after = receiver.requests.slice(receiver.requests.indexOf(resync) + 1).filter((q) => q.webhookId === 'late')
  const frames = after.flatMap((q) => q.answer === 200 ? q.body.data ?? [] : [])
  const expected = (await wholeLog(gw.store, resync.body.cursor)).filter((r) => (JSON.parse(r.json) as { league_id: number }).league_id === 271)
  expect(frames.map((f) => f.cursor)).toEqual(expected.map((r) => r.cursor))
}, 30_000)

it('an endpoint failing longer than the pause time is paused, shown so, and resumes by POST /v1/webhooks/{id}/resume', async () => {
  let down = true
  const receiver = await startReceiver(() => down ? 500 : 200)
  const keysFile = writeKeys([hookKey([{ id: 'down', url: receiver.url, secret: SECRET }])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS: '1000' })
  const key = gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  const token = 'hook-client-key'
  const show = async (): Promise<{ state: string, last_status: number | null, lag: number | null }> =>
    ((await gw.app.inject({ url: `/v1/webhooks?api_token=${token}` })).json() as { data: Array<{ state: string, last_status: number | null, lag: number | null }> }).data[0]!
  await waitFor('paused', async () => (await show()).state === 'paused', 5000)
  const attempts = receiver.requests.length
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(receiver.requests.length).toBe(attempts) // paused: no attempt
  expect(await show()).toMatchObject({ state: 'paused', last_status: 500, lag: 1 })
  expect((await gw.app.inject({ url: '/v1/webhooks?api_token=wrong' })).statusCode).toBe(401)
  expect((await gw.app.inject({ method: 'POST', url: `/v1/webhooks/nope/resume?api_token=${token}` })).statusCode).toBe(404)

  down = false
  const res = await gw.app.inject({ method: 'POST', url: `/v1/webhooks/down/resume?api_token=${token}` })
  expect(res.statusCode).toBe(200)
  await waitFor('delivered', async () => (await show()).lag === 0, 5000)
  expect(await show()).toMatchObject({ state: 'active', last_status: 200 })
  const status = (await gw.app.inject({ url: '/v1/status' })).json() as { webhooks: { endpoints: number, by_state: Record<string, number> } }
  expect(status.webhooks).toMatchObject({ endpoints: 1, by_state: { active: 1, paused: 0 } })
  expect((await gw.app.inject({ url: '/metrics' })).body).toMatch(/touchline_webhook_deliveries_total\{endpoint="hooks\/down",outcome="acked"\} 1/)
}, 30_000)

it('refuses a URL that reaches the gateway itself (its public URL) and never posts there', async () => {
  const keysFile = writeKeys([hookKey([{ id: 'loop', url: 'http://gateway.example.test/v1/changes', secret: SECRET }])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_PUBLIC_URL: 'http://gateway.example.test' })
  const key = gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  await waitFor('refused', async () => (await gw.webhooks.list(key))[0]?.state === 'refused', 5000)
  const view = (await gw.webhooks.list(key))[0]!
  expect(view.last_error).toMatch(/refused: the URL is the gateway's public URL/)
  expect(view.lag).toBe(1)
  expect(JSON.stringify(view)).not.toContain(SECRET)
}, 30_000)
