/**
 * A token over an open WebSocket (docs/tokens.md, "The auth frame"): sent as the first frame of
 * `/v1/live?auth=frame` (so a browser keeps it out of the address), and sent again before it expires to keep
 * the connection. What a hostile or careless client would do is refused with the protocol's words: another
 * frame first, a bad signature, `alg: none`, an expired token (4401: a new one helps), another fan's token as
 * a refresh, no `auth` at all within the wait. A connection that refreshes outlives its first token; one that
 * does not is closed 4401 once the key's grace is over. The frames validate against docs/asyncapi.json.
 */
import { Writable } from 'node:stream'
import { UnsecuredJWT } from 'jose'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { matches, type Matches } from '../../helpers/matches.ts'
import { serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { waitFor } from '../../helpers/wait.ts'
import { mintToken } from '../../helpers/tokens.ts'

const SECRET = 'the-sites-backend-secret-of-32-characters!'
const GRACE_S = 1
const KEYS = [
  { key: 'site-key-never-in-the-page', name: 'site', leagues: [8, 271, 501], allowed_origins: ['https://fans.example'], tokens: { secrets: [SECRET], expiry_grace_s: GRACE_S } }
]

type Frame = Record<string, unknown>

async function token (claims: Record<string, unknown> = {}, opts: { sub?: string, ttlS?: number, expired?: boolean } = {}): Promise<string> {
  return await mintToken({ iss: 'site', secret: SECRET, sub: opts.sub ?? 'fan-1', claims, ...opts })
}

/** A socket, its frames as they come, and its close (code and reason) once it closed. */
interface Peer {
  ws: WebSocket
  frames: Frame[]
  closed: Promise<{ code: number, reason: string }>
  next: (type: string, from?: number) => Promise<Frame>
  send: (frame: Frame) => void
  opened: Promise<void>
}

function peer (url: string, headers: Record<string, string> = {}): Peer {
  const ws = new WebSocket(url, { headers })
  const frames: Frame[] = []
  ws.on('error', () => {})
  ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Frame))
  const closed = new Promise<{ code: number, reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })))
  const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()))
  return {
    ws,
    frames,
    closed,
    next: async (type, from = 0) => await waitFor(() => `a ${type} frame; got ${JSON.stringify(frames)}`, () => frames.slice(from).find((f) => f.type === type), 10_000),
    send: (frame) => { opened.then(() => ws.send(JSON.stringify(frame)), () => {}) },
    opened
  }
}

describe('signed tokens in the auth frame', () => {
  let gw: Gateway
  let games: Matches
  const logged: string[] = []
  const issued: string[] = []
  const mint = async (...args: Parameters<typeof token>): Promise<string> => {
    const t = await token(...args)
    issued.push(t)
    return t
  }
  const live = (): string => `${gw.url.replace('http', 'ws')}/v1/live?auth=frame`

  beforeAll(async () => {
    const log = pino({ level: 'debug' }, new Writable({ write (chunk, _enc, done) { logged.push(String(chunk)); done() } }))
    gw = await startTestGateway({
      env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3' },
      keys: KEYS,
      log,
      overrides: { poll: false, hubLimits: { authTimeoutMs: 1500 } }
    })
    games = matches(gw.store)
  }, 30_000)
  afterAll(async () => {
    await gw?.close()
    expect(logged.length).toBeGreaterThan(0)
    for (const t of issued) for (const line of logged) expect(line).not.toContain(t.split('.')[2])
  })

  it('admits the fan on a first-frame auth: authorized, hello, then the subscribe sent behind it, all as the protocol documents', async () => {
    const match = await games.start(7001, 8, 'Arsenal', 'Chelsea')
    const p = peer(live(), { origin: 'https://fans.example' })
    const t = await mint({ leagues: [8] })
    // Pipelined: the subscribe does not wait for the answer to auth.
    p.send({ op: 'auth', ref: 'a1', token: t })
    p.send({ op: 'subscribe', ref: 's1', leagues: [8] })
    const snapshot = await p.next('snapshot')
    expect(p.frames.map((f) => f.type).slice(0, 3)).toEqual(['authorized', 'hello', 'subscribed'])
    expect(p.frames[0]).toMatchObject({ ref: 'a1', fan: 'fan-1' })
    expect(Date.parse(String(p.frames[0]?.expires_at))).toBeGreaterThan(Date.now() + 500_000)
    expect((snapshot.fixtures as Frame[]).map((f) => f.id)).toContain(7001)
    await match.goal('home', 'Saka', 12)
    expect(await p.next('change')).toMatchObject({ fixture_id: 7001 })
    // The token's narrowing holds: a league of the key the token does not claim is refused.
    p.send({ op: 'subscribe', ref: 's2', leagues: [271] })
    expect(await p.next('error')).toMatchObject({ ref: 's2', code: 'forbidden' })
    expect(p.frames.flatMap((f) => serverFrameErrors(f))).toEqual([])
    p.ws.close()
  })

  it('keeps a missing key a 401 before the upgrade when auth=frame is not asked for', async () => {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/live`)
    ws.on('error', () => {})
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)))
    expect(status).toBe(401)
  })

  it.each([
    ['a subscribe first', 4403, async (): Promise<Frame> => ({ op: 'subscribe', leagues: [8] }), /sends \{"op":"auth"/],
    ['a bad signature', 4403, async (): Promise<Frame> => ({ op: 'auth', token: (await mint()).replace(/.{4}$/, 'AAAA') }), /^invalid: /],
    ['alg none', 4403, async (): Promise<Frame> => ({ op: 'auth', token: new UnsecuredJWT({ sub: 'fan-1' }).setIssuer('site').setExpirationTime('10m').encode() }), /^invalid: /],
    ['an expired token', 4401, async (): Promise<Frame> => ({ op: 'auth', token: await mint({}, { expired: true }) }), /^expired: /],
    ['a token wider than its key', 4403, async (): Promise<Frame> => ({ op: 'auth', token: await mint({ leagues: [8, 9] }) }), /^wider_than_key: /],
    ['a frame that is not JSON', 4403, async (): Promise<string> => 'eyJ not json', /first frame must be auth/]
  ])('refuses %s with unauthorized and closes %i', async (_name, code, frame, message) => {
    const p = peer(live())
    const f = await frame()
    await p.opened
    p.ws.send(typeof f === 'string' ? f : JSON.stringify(f))
    expect((await p.closed).code).toBe(code)
    const error = p.frames.find((x) => x.type === 'error')
    expect(error).toMatchObject({ code: 'unauthorized' })
    expect(String(error?.message)).toMatch(message)
    expect(p.frames.some((x) => x.type === 'hello')).toBe(false)
  })

  it('closes a socket that sends no auth within the wait, and one from an origin the key does not allow', async () => {
    const silent = peer(live())
    expect((await silent.closed).code).toBe(4403)
    expect(silent.frames).toEqual([expect.objectContaining({ type: 'error', code: 'unauthorized', message: 'no auth frame within 1.5 s' })])

    const elsewhere = peer(live(), { origin: 'https://evil.example' })
    elsewhere.send({ op: 'auth', ref: 'a', token: await mint() })
    expect((await elsewhere.closed).code).toBe(4403)
    expect(elsewhere.frames).toEqual([expect.objectContaining({ type: 'error', ref: 'a', code: 'forbidden' })])
  })

  it('keeps a connection whose token is refreshed past its first expiry, and closes one that is not with 4401 after the grace', async () => {
    const match = await games.start(7002, 8, 'Everton', 'Fulham')
    const first = await mint({}, { sub: 'fan-r', ttlS: 3 })
    const kept = peer(live())
    kept.send({ op: 'auth', token: first })
    kept.send({ op: 'subscribe', ref: 's', fixtures: [7002] })
    const lapsed = peer(live())
    lapsed.send({ op: 'auth', token: await mint({}, { sub: 'fan-l', ttlS: 3 }) })
    lapsed.send({ op: 'subscribe', ref: 's', fixtures: [7002] })
    await kept.next('snapshot')
    await lapsed.next('snapshot')
    const firstExpiry = Date.parse(String(kept.frames[0]?.expires_at))

    // Refused refreshes leave the connection as it was: another fan's token, a bad one.
    kept.send({ op: 'auth', ref: 'other', token: await mint({}, { sub: 'fan-x' }) })
    expect(await kept.next('error')).toMatchObject({ ref: 'other', code: 'forbidden' })
    const n = kept.frames.length
    kept.send({ op: 'auth', ref: 'bad', token: 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA' })
    expect(await kept.next('error', n)).toMatchObject({ ref: 'bad', code: 'unauthorized' })

    kept.send({ op: 'auth', ref: 'r', token: await mint({}, { sub: 'fan-r', ttlS: 600 }) })
    const refreshed = await kept.next('authorized', 1)
    expect(refreshed).toMatchObject({ ref: 'r', fan: 'fan-r' })
    expect(Date.parse(String(refreshed.expires_at))).toBeGreaterThan(firstExpiry + 500_000)

    // The unrefreshed one goes once its token and the grace are over; the refreshed one still gets changes.
    expect(await lapsed.closed).toEqual({ code: 4401, reason: 'token expired' })
    expect(Date.now()).toBeGreaterThanOrEqual(firstExpiry + GRACE_S * 1000)
    const before = kept.frames.length
    await match.goal('away', 'Iwobi', 30)
    expect(await kept.next('change', before)).toMatchObject({ fixture_id: 7002 })
    expect(kept.ws.readyState).toBe(WebSocket.OPEN)
    kept.ws.close()
  })

  it('applies a refreshed token\'s narrower leagues at once, and refuses a refresh on a connection opened with the key', async () => {
    const p = peer(live())
    p.send({ op: 'auth', token: await mint({ leagues: [8, 271] }, { sub: 'fan-n' }) })
    p.send({ op: 'subscribe', ref: 's', leagues: [8, 271] })
    await p.next('subscribed')
    p.send({ op: 'auth', ref: 'r', token: await mint({ leagues: [8] }, { sub: 'fan-n' }) })
    expect(await p.next('error')).toMatchObject({ code: 'forbidden', leagues: [271] })
    expect(await p.next('authorized', 1)).toMatchObject({ ref: 'r' })
    p.ws.close()

    const withKey = peer(`${gw.url.replace('http', 'ws')}/v1/live?api_token=site-key-never-in-the-page`)
    await withKey.next('hello')
    withKey.send({ op: 'auth', ref: 'k', token: await mint() })
    expect(await withKey.next('error')).toMatchObject({ ref: 'k', code: 'forbidden' })
    withKey.ws.close()
  })

  it('shares one operation rate among a fan\'s connections, where two key connections have one each', async () => {
    const burst = 20
    const fan = [peer(live()), peer(live())]
    for (const p of fan) p.send({ op: 'auth', token: await mint({}, { sub: 'fan-busy' }) })
    for (const p of fan) await p.next('hello')
    for (const p of fan) for (let i = 0; i < 15; i++) p.send({ op: 'ping', ref: i })
    const answers = async (peers: Peer[]): Promise<Frame[]> => await waitFor(() => 'an answer to every ping', () => {
      const all = peers.flatMap((p) => p.frames.filter((f) => f.type === 'pong' || f.type === 'error'))
      return all.length === 30 ? all : undefined
    })
    const fanAnswers = await answers(fan)
    // The fan's bucket holds a burst of 20 (and refills 10 a second): about 20 pongs of 30, not 30.
    const pongs = fanAnswers.filter((f) => f.type === 'pong').length
    expect(pongs).toBeGreaterThanOrEqual(burst)
    expect(pongs).toBeLessThan(30)
    expect(fanAnswers.find((f) => f.type === 'error')).toMatchObject({ code: 'limit_exceeded', message: expect.stringContaining('for this fan') })

    const keyed = [0, 1].map(() => peer(`${gw.url.replace('http', 'ws')}/v1/live?api_token=site-key-never-in-the-page`))
    for (const p of keyed) await p.next('hello')
    for (const p of keyed) for (let i = 0; i < 15; i++) p.send({ op: 'ping', ref: i })
    expect((await answers(keyed)).every((f) => f.type === 'pong')).toBe(true)
    for (const p of [...fan, ...keyed]) p.ws.close()
  })

  it('holds a token to its fixtures, teams and kinds claims, on the WebSocket and the HTTP feeds', async () => {
    await games.start(7101, 8, 'Bristol', 'Cardiff')
    const p = peer(live())
    p.send({ op: 'auth', token: await mint({ fixtures: [7101], kinds: ['score_changed', 'state_changed'] }, { sub: 'fan-claims' }) })
    await p.next('hello')
    const answer = async (frame: Frame): Promise<Frame> => {
      const from = p.frames.length
      p.send(frame)
      return await waitFor(() => `an answer to ${String(frame.ref)}`, () => p.frames.slice(from).find((f) => f.ref === frame.ref))
    }
    expect(await answer({ op: 'subscribe', ref: 'league', leagues: [8], kinds: ['score_changed'] })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('follows only fixtures 7101') })
    expect(await answer({ op: 'subscribe', ref: 'other', fixtures: [7102], kinds: ['score_changed'] })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('not fixture 7102') })
    expect(await answer({ op: 'subscribe', ref: 'every-kind', fixtures: [7101] })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('takes only the kinds') })
    expect(await answer({ op: 'subscribe', ref: 'events', fixtures: [7101], kinds: ['event_added'] })).toMatchObject({ code: 'forbidden', message: expect.stringContaining('not event_added') })
    expect(await answer({ op: 'subscribe', ref: 'ok', fixtures: [7101], kinds: ['score_changed'] })).toMatchObject({ type: 'subscribed', fixtures: [7101] })
    p.ws.close()

    const t = await mint({ teams: [53] }, { sub: 'fan-team' })
    const get = async (query: string): Promise<{ status: number, body: { message?: string } }> => {
      const res = await fetch(`${gw.url}${query}`, { headers: { authorization: `Bearer ${t}` } })
      return { status: res.status, body: await res.json() as { message?: string } }
    }
    expect(await get('/v1/changes')).toMatchObject({ status: 403, body: { message: expect.stringContaining('follows only teams 53') } })
    expect(await get('/v1/fixtures/live?leagues=8')).toMatchObject({ status: 403 })
    expect((await get('/v1/changes?teams=53')).status).toBe(200)
  })

  it('counts token checks by key and outcome on /metrics, never by fan', async () => {
    const text = await (await fetch(`${gw.url}/metrics`)).text()
    const count = (labels: string): number => Number(new RegExp(`^touchline_token_checks_total\\{${labels}\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
    expect(count('key="site",outcome="accepted"')).toBeGreaterThan(5)
    expect(count('key="site",outcome="wider_than_key"')).toBeGreaterThanOrEqual(1)
    expect(count('key="site",outcome="expired"')).toBeGreaterThanOrEqual(1)
    // alg none: jose never reaches the key's secrets, but the token named a known key.
    expect(count('key="site",outcome="invalid"')).toBeGreaterThanOrEqual(1)
    expect(text).not.toMatch(/touchline_token_checks_total\{[^}]*fan-/)
  })
})
