/**
 * Alerts from the log to the test push service (test/helpers/push-service.ts), on both stores: a scripted
 * match (goals, a red card, a goal VAR takes back, half and full time) reaches each follower exactly once,
 * with the livescore text, the Topic, TTL and Urgency of its kind, a VAPID JWT for the push service's
 * origin and a payload that decrypts; 410 deletes the subscription; a 429's Retry-After is waited out.
 */
import { describe, expect, it } from 'vitest'
import { startPushService, type PushMessage } from '../../helpers/push-service.ts'
import { matches } from '../../helpers/matches.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, VAPID, follow, startPushGateway } from './harness.ts'
import { responseErrors, schemaErrors } from '../../helpers/protocol-docs.ts'

const redis = useRedis()
const byDevice = (messages: PushMessage[], device: string): PushMessage[] => messages.filter((m) => m.device === device)
const view = (m: PushMessage) => ({ kind: m.payload?.kind, title: m.payload?.title, body: m.payload?.body, topic: m.topic, ttl: m.ttl, urgency: m.urgency })

describe.each(['memory', 'redis'] as const)('push alerts (%s store)', (engine) => {
  const env = (): Record<string, string> => engine === 'redis' ? { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix } : {}

  it('sends each follower every alert of a match once, with its text, Topic, TTL and Urgency', async () => {
    const service = await startPushService()
    const gw = await startPushGateway(env())
    const m = matches(gw.store)
    const match = await m.start(8001, 501, 'Celtic', 'Rangers')
    await match.state('NS')
    const [team, league, muted, other] = [service.newDevice(), service.newDevice(), service.newDevice(), service.newDevice()]
    expect((await follow(gw, ALL_KEY.key, team.subscription, { teams: [match.fixture.home.id] })).status).toBe(201)
    expect((await follow(gw, ALL_KEY.key, league.subscription, { leagues: [501] }, { kinds: ['goal'] })).status).toBe(201)
    expect((await follow(gw, ALL_KEY.key, muted.subscription, { fixtures: [8001] }, { muted: [8001] })).status).toBe(201)
    expect((await follow(gw, ALL_KEY.key, other.subscription, { fixtures: [9999] })).status).toBe(201)

    await match.state('INPLAY_1ST_HALF')
    await match.goal('home', 'Furuhashi', 23)
    await match.card('away', 'Goldson', 38, 'REDCARD')
    await match.state('HT')
    await match.state('INPLAY_2ND_HALF')
    await match.goal('away', 'Tavernier', 67, 'PENALTY')
    await match.cancelGoal('Tavernier')
    await match.state('FT')

    const F = 'f8001'
    const expected = [
      { kind: 'kick_off', title: 'Kick-off: Celtic 0-0 Rangers', body: 'Celtic vs Rangers', topic: `${F}-ko`, ttl: 300, urgency: 'normal' },
      { kind: 'goal', title: 'GOAL! Celtic 1-0 Rangers', body: '23\' Furuhashi', topic: `${F}-goal`, ttl: 300, urgency: 'high' },
      { kind: 'red_card', title: 'Red card: Celtic 1-0 Rangers', body: '38\' Goldson (Rangers)', topic: `${F}-card`, ttl: 300, urgency: 'high' },
      { kind: 'half_time', title: 'Half time: Celtic 1-0 Rangers', body: 'Furuhashi 23\'', topic: `${F}-ht`, ttl: 600, urgency: 'normal' },
      { kind: 'goal', title: 'GOAL! Celtic 1-1 Rangers', body: '67\' Tavernier (pen)', topic: `${F}-goal`, ttl: 300, urgency: 'high' },
      { kind: 'goal_disallowed', title: 'Goal disallowed: Celtic 1-0 Rangers', body: '67\' Tavernier\'s goal ruled out', topic: `${F}-goal`, ttl: 300, urgency: 'high' },
      { kind: 'full_time', title: 'Full time: Celtic 1-0 Rangers', body: 'Furuhashi 23\'', topic: `${F}-ft`, ttl: 3600, urgency: 'normal' }
    ]
    await waitFor('every alert of the match', () => byDevice(service.messages, team.id).length >= expected.length && byDevice(service.messages, league.id).length >= 3, 15_000)
    // Late duplicates would arrive within the senders' next idle reads.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(byDevice(service.messages, team.id).map(view)).toEqual(expected)
    expect(byDevice(service.messages, league.id).map(view)).toEqual(expected.filter((e) => e.kind === 'goal' || e.kind === 'goal_disallowed'))
    expect(byDevice(service.messages, muted.id)).toEqual([])
    expect(byDevice(service.messages, other.id)).toEqual([])
    for (const msg of service.messages) {
      expect(msg.vapidProblem).toBeUndefined()
      expect(msg.vapidKey).toBe(VAPID.publicKey)
      expect(msg.jwt?.aud).toBe(service.url)
      expect(msg.decryptProblem).toBeUndefined()
      expect(msg.payload).toMatchObject({ fixture_id: 8001, url: '/?fixture=8001', tag: msg.topic })
      expect(Date.parse(msg.payload?.sent_at ?? '')).toBeGreaterThan(Date.now() - 60_000)
      expect(msg.bodyBytes).toBeLessThan(3072 + 200)
    }
    const ids = byDevice(service.messages, team.id).map((x) => x.payload?.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(service.messages.flatMap((msg) => schemaErrors('PushPayload', msg.payload))).toEqual([])
    const status = await (await fetch(`${gw.url}/v1/status`)).json() as { push: Record<string, unknown> }
    expect(responseErrors('/v1/status', 200, status)).toEqual([])
    expect(status.push).toMatchObject({ subscriptions: 4, queued: 0, shards: 8, sending_here: 8, sent: { sent: expected.length + 3 } })
    const metrics = await (await fetch(`${gw.url}/metrics`)).text()
    expect(metrics).toContain(`touchline_push_sent_total{outcome="sent"} ${expected.length + 3}`)
    expect(metrics).toMatch(/touchline_push_subscriptions 4/)
  })

  it('deletes a subscription the push service answers 410 for, and sends it nothing more', async () => {
    const service = await startPushService((_n, msg) => msg.device === gone.id ? 410 : 201)
    const gone = service.newDevice()
    const kept = service.newDevice()
    const gw = await startPushGateway(env())
    const match = await matches(gw.store).start(8002, 501, 'Hearts', 'Hibernian')
    await follow(gw, ALL_KEY.key, gone.subscription, { fixtures: [8002] })
    await follow(gw, ALL_KEY.key, kept.subscription, { fixtures: [8002] })
    await match.goal('home', 'Shankland', 10)
    await waitFor('the 410 subscription deleted', async () => await gw.push?.manage.store.get(gone.endpoint) === undefined, 10_000)
    await match.goal('home', 'Shankland', 20)
    await waitFor('both goals to the kept device', () => byDevice(service.messages, kept.id).length === 2, 10_000)
    expect(byDevice(service.messages, gone.id)).toHaveLength(1)
    expect(await gw.push?.manage.store.get(kept.endpoint)).toBeDefined()
    expect(await (await fetch(`${gw.url}/metrics`)).text()).toContain('touchline_push_sent_total{outcome="gone"} 1')
  })

  it('waits out a 429\'s Retry-After before sending the alert again, once', async () => {
    const answers: Array<{ at: number, status: number }> = []
    const service = await startPushService((n) => {
      const status = n === 0 ? 429 : 201
      answers.push({ at: Date.now(), status })
      return status === 429 ? { status, headers: { 'retry-after': '2' } } : status
    })
    const device = service.newDevice()
    const gw = await startPushGateway(env())
    const match = await matches(gw.store).start(8003, 501, 'Aberdeen', 'Dundee')
    await follow(gw, ALL_KEY.key, device.subscription, { fixtures: [8003] })
    await match.goal('away', 'Cameron', 5)
    await waitFor('the alert delivered after its 429', () => service.delivered().length === 1, 15_000)
    expect(service.messages.map((x) => x.payload?.id)).toEqual([service.messages[0]?.payload?.id, service.messages[0]?.payload?.id])
    expect((answers[1]?.at ?? 0) - (answers[0]?.at ?? 0)).toBeGreaterThanOrEqual(2000)
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(service.messages).toHaveLength(2)
  })
})
