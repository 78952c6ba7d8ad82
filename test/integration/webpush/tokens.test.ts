/**
 * The push subscription routes with a fan's signed token (docs/push.md "With a signed token", docs/tokens.md),
 * against gateways on both stores, over HTTP: a fan registers, finds and deletes their own devices only
 * (another fan's, or the key's own, answer 404 as none would); the key itself sees and manages all of them;
 * the key's `max_devices_per_fan` refuses a fan's sixth new device (429 `limit_exceeded`) but not one posted
 * again; a refused token gets 401; the token's leagues bound what a fan may follow, and what reaches the
 * fan's device.
 */
import { describe, expect, it } from 'vitest'
import { browserKeys, startPushService } from '../../helpers/push-service.ts'
import { matches } from '../../helpers/matches.ts'
import { responseErrors } from '../../helpers/protocol-docs.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { call, follow, startPushGateway, writeKeys, type Reply } from './harness.ts'
import { mintToken } from '../../helpers/tokens.ts'

const redis = useRedis()
const FCM = 'https://fcm.googleapis.com/fcm/send/'
const sub = (endpoint: string) => ({ endpoint, expirationTime: null, keys: browserKeys() })

const SECRET = 'the-sites-backend-secret-of-32-characters!'
/** A key that takes tokens (max_devices_per_fan left at its default, 5), and another one with the same secret. */
const SITE = { key: 'push-site-key', name: 'site', leagues: [501, 502], tokens: { secrets: [SECRET] } }
const OTHER = { key: 'push-other-key', name: 'other', leagues: [501, 502], tokens: { secrets: [SECRET] } }

async function token (sub: string, opts: { claims?: Record<string, unknown>, iss?: string, ttlS?: number, secret?: string } = {}): Promise<string> {
  return await mintToken({ sub, ...opts, iss: opts.iss ?? SITE.name, secret: opts.secret ?? SECRET })
}

const get = async (gw: { url: string }, credential: string, endpoint: string): Promise<Reply> =>
  await call(gw, 'GET', '/v1/push/subscriptions', { key: credential, query: { endpoint } })
const del = async (gw: { url: string }, credential: string, endpoint: string): Promise<Reply> =>
  await call(gw, 'DELETE', '/v1/push/subscriptions', { key: credential, query: { endpoint } })

describe.each(['memory', 'redis'] as const)('push subscriptions with a signed token (%s store)', (engine) => {
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    TOUCHLINE_KEYS_FILE: writeKeys([SITE, OTHER]),
    ...(engine === 'redis' ? { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix } : {}),
    ...extra
  })

  it('a fan registers, reads and deletes their own devices only; another fan gets 404; the key sees and manages all', async () => {
    const gw = await startPushGateway(env())
    const [alice, bob, aliceOfOther] = [await token('alice'), await token('bob'), await token('alice', { iss: OTHER.name })]
    const [mine, keys, nowhere] = [`${FCM}alice-phone`, `${FCM}key-device`, `${FCM}nobody`]

    const posted = await follow(gw, alice, sub(mine), { leagues: [501] })
    expect(posted.status).toBe(201)
    expect((await follow(gw, SITE.key, sub(keys), { teams: [7] })).status).toBe(201)
    const read = await get(gw, alice, mine)
    expect(read).toMatchObject({ status: 200, body: posted.body })
    expect(read.headers['cache-control']).toBe('no-store')
    // The token in the query (as a browser's page may send it) is the same fan.
    const byQuery = await call(gw, 'GET', '/v1/push/subscriptions', { query: { endpoint: mine, access_token: alice } })
    expect(byQuery).toMatchObject({ status: 200, body: posted.body })

    // Another fan of the key, the same `sub` on another key, and Alice on the key's own device: each answered
    // as for a device that does not exist, word for word.
    const none = await get(gw, alice, nowhere)
    const noneDeleted = await del(gw, alice, nowhere)
    expect(none).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect(noneDeleted).toMatchObject({ status: 404, body: { code: 'not_found' } })
    for (const [who, endpoint] of [[bob, mine], [aliceOfOther, mine], [alice, keys], [bob, keys]] as const) {
      expect((await get(gw, who, endpoint)).body).toEqual(none.body)
      expect((await del(gw, who, endpoint)).body).toEqual(noneDeleted.body)
    }
    // Nothing was deleted by them.
    expect((await get(gw, alice, mine)).status).toBe(200)
    expect(await gw.push?.manage.store.count()).toBe(2)

    // The key sees both; posting the fan's device again changes what it follows and leaves it the fan's.
    expect((await get(gw, SITE.key, mine)).body).toEqual(posted.body)
    expect((await get(gw, SITE.key, keys)).status).toBe(200)
    expect((await follow(gw, SITE.key, sub(mine), { leagues: [502] })).status).toBe(200)
    expect((await get(gw, alice, mine)).body).toMatchObject({ follow: { leagues: [502] }, created_at: posted.body.created_at })

    // Alice deletes hers; the key deletes its own, 204 either way as before.
    expect((await del(gw, alice, mine)).status).toBe(204)
    expect((await get(gw, alice, mine)).status).toBe(404)
    expect((await get(gw, SITE.key, mine)).status).toBe(404)
    expect((await del(gw, SITE.key, keys)).status).toBe(204)
    expect((await del(gw, SITE.key, keys)).status).toBe(204)
    expect(await gw.push?.manage.store.count()).toBe(0)

    // The key deletes a fan's device too.
    expect((await follow(gw, bob, sub(`${FCM}bob-laptop`), { teams: [9] })).status).toBe(201)
    expect((await del(gw, SITE.key, `${FCM}bob-laptop`)).status).toBe(204)
    expect((await get(gw, bob, `${FCM}bob-laptop`)).status).toBe(404)
  })

  it('refuses a fan\'s sixth new device (429 limit_exceeded naming max_devices_per_fan); posting one of the five again is an update', async () => {
    const gw = await startPushGateway(env())
    const [carol, dave] = [await token('carol'), await token('dave')]
    const device = (n: number): string => `${FCM}carol-${n}`
    for (let n = 1; n <= 5; n++) expect((await follow(gw, carol, sub(device(n)), { teams: [n] })).status, `device ${n}`).toBe(201)
    const sixth = await follow(gw, carol, sub(device(6)), { teams: [6] })
    expect(sixth).toMatchObject({ status: 429, body: { code: 'limit_exceeded' } })
    expect(sixth.body.message).toContain('max_devices_per_fan')
    expect(responseErrors('/v1/push/subscriptions', 429, sixth.body, 'post')).toEqual([])
    // One of hers posted again: replaced (200), as many times as she likes.
    for (const teams of [[30], [31]]) expect((await follow(gw, carol, sub(device(3)), { teams })).status).toBe(200)
    expect((await get(gw, carol, device(3))).body.follow.teams).toEqual([31])
    // Another fan, and the key itself, count their own.
    expect((await follow(gw, dave, sub(`${FCM}dave-1`), { teams: [1] })).status).toBe(201)
    expect((await follow(gw, SITE.key, sub(`${FCM}key-1`), { teams: [1] })).status).toBe(201)
    // Dave's device posted by Carol (the same browser, another fan signed in) would be new for her: refused too.
    expect((await follow(gw, carol, sub(`${FCM}dave-1`), { teams: [1] })).status).toBe(429)
    expect((await get(gw, dave, `${FCM}dave-1`)).status).toBe(200)
    // One deleted makes room for one.
    expect((await del(gw, carol, device(1))).status).toBe(204)
    expect((await follow(gw, carol, sub(`${FCM}dave-1`), { teams: [1] })).status).toBe(201)
    expect((await get(gw, dave, `${FCM}dave-1`)).status).toBe(404)
    expect((await follow(gw, carol, sub(device(6)), { teams: [6] })).status).toBe(429)
    expect(await gw.push?.manage.store.count()).toBe(6)
  })

  it('answers 401 to an expired token and to a bad signature, on every subscription route', async () => {
    const gw = await startPushGateway(env())
    const endpoint = `${FCM}erin`
    const erin = await token('erin')
    expect((await follow(gw, erin, sub(endpoint), { teams: [1] })).status).toBe(201)
    const cases = [
      [await token('erin', { ttlS: -60 }), 'token refused: expired'],
      [await token('erin', { secret: 'somebody-elses-secret-of-32-characters' }), 'token refused: invalid']
    ] as const
    for (const [t, message] of cases) {
      const answers = [await follow(gw, t, sub(endpoint), { teams: [2] }), await get(gw, t, endpoint), await del(gw, t, endpoint)]
      for (const [i, r] of answers.entries()) {
        expect(r, message).toMatchObject({ status: 401, body: { code: 'unauthorized' } })
        expect(r.body.message).toContain(message)
        expect(responseErrors('/v1/push/subscriptions', 401, r.body, (['post', 'get', 'delete'] as const)[i])).toEqual([])
      }
    }
    expect((await get(gw, erin, endpoint)).body.follow.teams).toEqual([1])
  })

  it('refuses a token claiming push: false on every route, and a follow beyond a token\'s fixtures claim', async () => {
    const gw = await startPushGateway(env())
    const endpoint = `${FCM}frank`
    const noPush = await token('frank', { claims: { push: false } })
    const answers = [await follow(gw, noPush, sub(endpoint), { teams: [1] }), await get(gw, noPush, endpoint), await del(gw, noPush, endpoint)]
    for (const r of answers) expect(r).toMatchObject({ status: 403, body: { code: 'forbidden', message: expect.stringContaining('push: false') } })
    const oneMatch = await token('frank', { claims: { fixtures: [4242] } })
    expect((await follow(gw, oneMatch, sub(endpoint), { teams: [1] })).body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('follows only fixtures 4242') })
    expect((await follow(gw, oneMatch, sub(endpoint), { fixtures: [4242] })).status).toBe(201)
  })

  it('refuses a follow outside the token\'s leagues (403), and sends the fan\'s device no alert of another league', async () => {
    const service = await startPushService()
    const gw = await startPushGateway(env())
    const m = matches(gw.store)
    const elsewhere = await m.start(8202, 502, 'Hibernian', 'Hearts')
    const narrowed = await token('frank', { claims: { leagues: [501] } })
    // League 502 is the key's, not the token's; so is a team that plays only there now.
    const refused = [
      await follow(gw, narrowed, sub(`${FCM}frank-1`), { leagues: [501, 502] }),
      await follow(gw, narrowed, sub(`${FCM}frank-2`), { teams: [elsewhere.fixture.home.id] })
    ]
    for (const r of refused) {
      expect(r).toMatchObject({ status: 403, body: { code: 'forbidden' } })
      expect(responseErrors('/v1/push/subscriptions', 403, r.body, 'post')).toEqual([])
    }
    expect(refused.map((r) => r.body.message)).toEqual([expect.stringContaining('leagues 502'), expect.stringContaining(`teams ${elsewhere.fixture.home.id}`)])
    // The key itself may follow league 502.
    expect((await follow(gw, SITE.key, sub(`${FCM}site-1`), { leagues: [502] })).status).toBe(201)

    // Fixtures not known yet are taken: the league of each is known when it is played. The fan's device gets the
    // alerts of the one in the token's league only; the key's device, following both, gets both.
    const [fans, keys] = [service.newDevice(), service.newDevice()]
    expect((await follow(gw, narrowed, fans.subscription, { fixtures: [8301, 8302] }, { kinds: ['goal'] })).status).toBe(201)
    expect((await follow(gw, SITE.key, keys.subscription, { fixtures: [8301, 8302] }, { kinds: ['goal'] })).status).toBe(201)
    const inside = await m.start(8301, 501, 'Celtic', 'Rangers')
    const outside = await m.start(8302, 502, 'Aberdeen', 'Dundee')
    await outside.goal('home', 'Miovski', 12)
    await inside.goal('away', 'Dessers', 14)
    const goals = (device: string): Array<number | undefined> => service.messages.filter((x) => x.device === device).map((x) => x.payload?.fixture_id)
    await waitFor('the goals at the key\'s device, and the fan\'s goal', () => goals(keys.id).length >= 2 && goals(fans.id).length >= 1, 15_000)
    // A goal of league 502 would reach the fan's device within the sender's next reads.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(goals(keys.id).sort()).toEqual([8301, 8302])
    expect(goals(fans.id)).toEqual([8301])
  })
})
