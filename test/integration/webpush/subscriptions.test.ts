/**
 * `/v1/push/key` and `/v1/push/subscriptions` (docs/push.md) against gateways on both stores: what a
 * browser posts is validated (a P-256 `p256dh`, a 16-byte `auth`, an https endpoint on a public address),
 * bounded by the key's scope and its cap, kept under its endpoint, and found, replaced and deleted by it.
 */
import { describe, expect, it } from 'vitest'
import { browserKeys } from '../../helpers/push-service.ts'
import { responseErrors } from '../../helpers/protocol-docs.ts'
import { matches } from '../../helpers/matches.ts'
import { useRedis } from '../../helpers/redis.ts'
import { ALL_KEY, SCOPED_KEY, VAPID, call, follow, startPushGateway, type Reply } from './harness.ts'

const redis = useRedis()
const FCM = 'https://fcm.googleapis.com/fcm/send/'
const sub = (endpoint: string, keys = browserKeys()) => ({ endpoint, expirationTime: null, keys })

describe.each(['memory', 'redis'] as const)('push subscriptions (%s store)', (engine) => {
  const env = (extra: Record<string, string> = {}): Record<string, string> =>
    engine === 'redis' ? { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix, ...extra } : extra

  it('posts, replaces, reads and deletes a subscription by its endpoint', async () => {
    const gw = await startPushGateway(env())
    const endpoint = `${FCM}device-one`
    const first = await follow(gw, ALL_KEY.key, sub(endpoint), { teams: [85, 85, 12] })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ endpoint, follow: { teams: [12, 85], fixtures: [], leagues: [] }, kinds: ['goal', 'red_card', 'kick_off', 'half_time', 'full_time'], muted: [] })
    const again = await follow(gw, ALL_KEY.key, sub(endpoint), { leagues: [501] }, { kinds: ['goal'], muted: [7] })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ endpoint, follow: { teams: [], fixtures: [], leagues: [501] }, kinds: ['goal'], muted: [7], created_at: first.body.created_at })
    const read = await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })
    expect(read).toMatchObject({ status: 200, body: again.body })
    expect(read.headers['cache-control']).toBe('no-store')
    // Another key does not see it, nor delete it.
    expect((await call(gw, 'GET', '/v1/push/subscriptions', { key: SCOPED_KEY.key, query: { endpoint } })).status).toBe(404)
    expect((await call(gw, 'DELETE', '/v1/push/subscriptions', { key: SCOPED_KEY.key, query: { endpoint } })).status).toBe(204)
    expect((await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).status).toBe(200)
    expect((await call(gw, 'DELETE', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).status).toBe(204)
    const gone = await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })
    expect(gone).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(await gw.push?.manage.store.count()).toBe(0)
  })

  it('serves the VAPID public key without a client key', async () => {
    const gw = await startPushGateway(env())
    expect(await call(gw, 'GET', '/v1/push/key')).toMatchObject({ status: 200, body: { public_key: VAPID.publicKey } })
  })

  it('refuses what a browser could not have sent, naming the field', async () => {
    const gw = await startPushGateway(env())
    const keys = browserKeys()
    const offCurve = Buffer.from(keys.p256dh, 'base64url')
    offCurve[64] = (offCurve[64] as number) ^ 1
    const cases: Array<[unknown, string]> = [
      [{ endpoint: `${FCM}a`, keys: { ...keys, p256dh: offCurve.toString('base64url') } }, 'subscription.keys.p256dh'],
      [{ endpoint: `${FCM}a`, keys: { ...keys, p256dh: Buffer.alloc(33, 2).toString('base64url') } }, 'subscription.keys.p256dh'],
      [{ endpoint: `${FCM}a`, keys: { ...keys, auth: Buffer.alloc(15, 1).toString('base64url') } }, 'subscription.keys.auth'],
      [{ endpoint: 'http://fcm.googleapis.com/fcm/send/a', keys }, 'subscription.endpoint'],
      [{ endpoint: 'https://10.1.2.3/push/a', keys }, 'subscription.endpoint'],
      [{ endpoint: 'https://[fd00::1]/push/a', keys }, 'subscription.endpoint'],
      [{ endpoint: 'https://user:pw@fcm.googleapis.com/a', keys }, 'subscription.endpoint'],
      [{ endpoint: 'not a url', keys }, 'subscription.endpoint'],
      [{ endpoint: `${FCM}a` }, 'subscription.keys']
    ]
    for (const [subscription, field] of cases) {
      const r = await follow(gw, ALL_KEY.key, subscription, { teams: [1] })
      expect({ status: r.status, code: r.body?.code, field: String(r.body?.message).split(':')[0] }).toEqual({ status: 400, code: 'invalid_request', field })
    }
    const nothing = await follow(gw, ALL_KEY.key, sub(`${FCM}b`), {})
    expect(nothing).toMatchObject({ status: 400, body: { code: 'invalid_request' } })
    expect(nothing.body.message).toMatch(/^follow:/)
    const kind = await follow(gw, ALL_KEY.key, sub(`${FCM}b`), { teams: [1] }, { kinds: ['corner'] })
    expect(kind.body.message).toMatch(/^kinds\.0:/)
    expect((await call(gw, 'POST', '/v1/push/subscriptions', { body: { subscription: sub(`${FCM}c`), follow: { teams: [1] } } })).status).toBe(401)
    expect((await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key })).status).toBe(400)
    expect(await gw.push?.manage.store.count()).toBe(0)
  })

  it('refuses leagues, teams and fixtures outside the key\'s scope (403), as a WebSocket subscribe does', async () => {
    const gw = await startPushGateway(env())
    const m = matches(gw.store)
    const outside = await m.start(7001, 999, 'Elsewhere', 'Faraway')
    const inside = await m.start(7002, 501, 'Celtic', 'Rangers')
    const refused = [
      await follow(gw, SCOPED_KEY.key, sub(`${FCM}s1`), { leagues: [501, 999] }),
      await follow(gw, SCOPED_KEY.key, sub(`${FCM}s2`), { teams: [outside.fixture.home.id] }),
      await follow(gw, SCOPED_KEY.key, sub(`${FCM}s3`), { fixtures: [outside.id] })
    ]
    for (const r of refused) expect(r).toMatchObject({ status: 403, body: { code: 'forbidden' } })
    expect(refused.map((r) => r.body.message)).toEqual([
      expect.stringContaining('leagues 999'), expect.stringContaining(`teams ${outside.fixture.home.id}`), expect.stringContaining(`fixtures ${outside.id}`)
    ])
    expect(await gw.push?.manage.store.count()).toBe(0)
    // What is inside is taken: its league, its teams, its fixtures, and a team not playing now.
    const ok = await follow(gw, SCOPED_KEY.key, sub(`${FCM}s4`), { leagues: [501], teams: [inside.fixture.away.id, 424242], fixtures: [inside.id] })
    expect(ok.status).toBe(201)
    // The same league for a key without limits.
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}s5`), { leagues: [999] })).status).toBe(201)
  })

  it('bounds the subscriptions of one key (429 limit_exceeded), replacing one still allowed', async () => {
    const gw = await startPushGateway(env({ TOUCHLINE_PUSH_MAX_PER_KEY: '2' }))
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}1`), { teams: [1] })).status).toBe(201)
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}2`), { teams: [1] })).status).toBe(201)
    const third = await follow(gw, ALL_KEY.key, sub(`${FCM}3`), { teams: [1] })
    expect(third).toMatchObject({ status: 429, body: { code: 'limit_exceeded' } })
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}2`), { teams: [2] })).status).toBe(200)
    // Another key counts its own.
    expect((await follow(gw, SCOPED_KEY.key, sub(`${FCM}3`), { leagues: [501] })).status).toBe(201)
    expect((await call(gw, 'DELETE', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint: `${FCM}1` } })).status).toBe(204)
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}4`), { teams: [1] })).status).toBe(201)
  })
})

describe('push without VAPID keys', () => {
  it('answers 404 not_found on every push route, so the page hides its bells', async () => {
    const gw = await startPushGateway({ TOUCHLINE_VAPID_PUBLIC_KEY: '', TOUCHLINE_VAPID_PRIVATE_KEY: '', TOUCHLINE_VAPID_SUBJECT: '' })
    expect(gw.push).toBeUndefined()
    expect(await call(gw, 'GET', '/v1/push/key')).toMatchObject({ status: 404, body: { error: 'Not Found', code: 'not_found' } })
    expect((await follow(gw, ALL_KEY.key, sub(`${FCM}x`), { teams: [1] })).status).toBe(404)
  })
})

describe('push routes as /docs/openapi.json describes them', () => {
  it('every answer fits the documented schema of its status', async () => {
    const gw = await startPushGateway({ TOUCHLINE_PUSH_MAX_PER_KEY: '1' })
    const endpoint = `${FCM}documented`
    const answers: Array<[string, 'get' | 'post' | 'delete', Reply]> = [
      ['/v1/push/key', 'get', await call(gw, 'GET', '/v1/push/key')],
      ['/v1/push/subscriptions', 'post', await follow(gw, ALL_KEY.key, sub(endpoint), { teams: [1] })],
      ['/v1/push/subscriptions', 'post', await follow(gw, ALL_KEY.key, sub(endpoint), { teams: [2] })],
      ['/v1/push/subscriptions', 'post', await follow(gw, ALL_KEY.key, sub(`${FCM}second`), { teams: [2] })],
      ['/v1/push/subscriptions', 'post', await follow(gw, ALL_KEY.key, { endpoint: 'http://x.org/' }, { teams: [2] })],
      ['/v1/push/subscriptions', 'post', await follow(gw, SCOPED_KEY.key, sub(`${FCM}third`), { leagues: [7] })],
      ['/v1/push/subscriptions', 'get', await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })],
      ['/v1/push/subscriptions', 'get', await call(gw, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint: `${FCM}none` } })],
      ['/v1/push/subscriptions', 'get', await call(gw, 'GET', '/v1/push/subscriptions', { query: { endpoint } })]
    ]
    expect(answers.map(([, , r]) => r.status)).toEqual([200, 201, 200, 429, 400, 403, 200, 404, 401])
    expect(answers.flatMap(([path, method, r]) => responseErrors(path, r.status, r.body, method))).toEqual([])
    expect((await call(gw, 'DELETE', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).status).toBe(204)
  })
})

describe('push subscriptions shared over Redis', () => {
  it('a subscription posted to one instance is read, replaced and deleted on another', async () => {
    const env = { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix }
    const [a, b] = [await startPushGateway(env), await startPushGateway(env)]
    const endpoint = `${FCM}shared`
    expect((await follow(a, ALL_KEY.key, sub(endpoint), { teams: [5] })).status).toBe(201)
    expect((await call(b, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).body.follow.teams).toEqual([5])
    expect((await follow(b, ALL_KEY.key, sub(endpoint), { teams: [6] })).status).toBe(200)
    expect((await call(a, 'DELETE', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).status).toBe(204)
    expect((await call(b, 'GET', '/v1/push/subscriptions', { key: ALL_KEY.key, query: { endpoint } })).status).toBe(404)
  })
})
