/**
 * The client library with signed tokens (docs/client.md, "Tokens"): `getToken` instead of a key. The token
 * travels in the first frame, never in the socket's address; it is renewed over the open connection before
 * it expires, so the connection outlives many tokens with no reconnect and no change lost; when renewal is
 * impossible (the app's backend down) the gateway closes with 4401 and the client, once its backend answers
 * again, reconnects with a new token and resumes from its cursor: every goal once, in order. A token the
 * gateway refuses for good stops the client with the gateway's words; one refused as expired is asked for
 * again.
 */
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { TouchlineClient, type ClientStatus, type GoalEvent } from '@touchline/client'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { matches, type Matches } from '../../helpers/matches.ts'
import { waitFor } from '../../helpers/wait.ts'
import { mintToken } from '../../helpers/tokens.ts'

const SECRET = 'the-apps-backend-secret-of-32-characters!!'
const KEYS = [{ key: 'app-key-kept-on-the-server', name: 'app', leagues: [8, 271], tokens: { secrets: [SECRET], expiry_grace_s: 1 } }]

async function token (opts: { sub?: string, ttlS: number, secret?: string, expired?: boolean }): Promise<string> {
  return await mintToken({ iss: 'app', sub: opts.sub ?? 'fan-1', ...opts, secret: opts.secret ?? SECRET })
}

/** The `ws` WebSocket, keeping the address of every socket the client opens. */
function recordingSockets (): { WebSocket: new (url: string) => WebSocket, urls: string[] } {
  const urls: string[] = []
  class Recording extends WebSocket {
    constructor (url: string) {
      super(url)
      urls.push(url)
    }
  }
  return { WebSocket: Recording, urls }
}

describe('TouchlineClient with getToken', () => {
  let gw: Gateway
  let games: Matches

  beforeAll(async () => {
    gw = await startTestGateway({ env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3' }, keys: KEYS, overrides: { poll: false } })
    games = matches(gw.store)
  }, 30_000)
  afterAll(async () => { await gw?.close() })

  it('renews a 3 s token over the open connection, twice, with no reconnect and every goal once', async () => {
    const match = await games.start(8101, 8, 'Leeds', 'Burnley')
    const issued: string[] = []
    const sockets = recordingSockets()
    const client = new TouchlineClient({
      url: gw.url,
      WebSocket: sockets.WebSocket as never,
      getToken: async () => {
        const t = await token({ ttlS: 3 })
        issued.push(t)
        return t
      }
    })
    const goals: GoalEvent[] = []
    const states: ClientStatus[] = []
    client.on('goal', (g) => goals.push(g))
    client.on('status', (s) => states.push(s))
    client.subscribe({ fixtures: [8101] })
    expect((await client.connect()).state).toBe('live')
    await match.goal('home', 'Bamford', 5)
    // Twice renewed, and past the first token's expiry and grace.
    await waitFor(() => `three tokens asked for (${issued.length})`, () => issued.length >= 3, 15_000)
    const firstExpiry = (decodeJwt(issued[0] ?? '').exp ?? 0) * 1000
    await waitFor(() => 'the first token\'s expiry and grace over', () => Date.now() > firstExpiry + 1500, 10_000, 100)
    await match.goal('away', 'Brownhill', 50)
    await waitFor(() => `two goals (${goals.length})`, () => goals.length === 2, 10_000)
    expect(goals.map((g) => g.event?.player?.name)).toEqual(['Bamford', 'Brownhill'])
    expect(sockets.urls).toHaveLength(1)
    // The token is never in an address: the socket's, or the HTTP questions' (none were asked).
    expect(sockets.urls[0]).toMatch(/\/v1\/live\?auth=frame$/)
    expect(states.map((s) => s.state)).toEqual(['connecting', 'live'])
    client.close()
  }, 30_000)

  it('reconnects after a 4401 once its backend gives tokens again, and resumes with every goal in between', async () => {
    const match = await games.start(8102, 8, 'Luton', 'Watford')
    let backendUp = true
    let calls = 0
    const client = new TouchlineClient({
      url: gw.url,
      backoff: { baseMs: 100, capMs: 400 },
      getToken: async () => {
        calls++
        if (!backendUp) throw new Error('token backend down')
        return await token({ ttlS: 2 })
      }
    })
    const goals: GoalEvent[] = []
    const errors: string[] = []
    client.on('goal', (g) => goals.push(g))
    client.on('error', (e) => errors.push(e.code))
    client.subscribe({ fixtures: [8102] })
    expect((await client.connect()).state).toBe('live')
    backendUp = false
    await match.goal('home', 'Adebayo', 10)
    // The renewal fails, the token runs out: 4401, and the client waits for a token.
    await waitFor(() => `the client reconnecting (${client.status.state})`, () => client.status.state === 'reconnecting', 10_000)
    await match.goal('home', 'Morris', 20)
    await match.goal('away', 'Sarr', 30)
    const callsWhileDown = calls
    await waitFor(() => 'another getToken call while the backend is down', () => calls > callsWhileDown + 1, 10_000)
    backendUp = true
    await waitFor(() => `live again (${client.status.state})`, () => client.status.state === 'live', 10_000)
    await match.goal('away', 'Pedro', 40)
    await waitFor(() => `four goals (${goals.length})`, () => goals.length === 4, 10_000)
    expect(goals.map((g) => g.event?.player?.name)).toEqual(['Adebayo', 'Morris', 'Sarr', 'Pedro'])
    expect(errors).toContain('token_unavailable')
    expect(client.fixtures.get(8102)?.scores.current).toMatchObject({ home: 2, away: 2 })
    client.close()
  }, 40_000)

  it('stops on a token refused for good, with the gateway\'s words, and asks again for one refused as expired', async () => {
    const bad = new TouchlineClient({ url: gw.url, getToken: async () => await token({ ttlS: 60, secret: 'another-secret-of-at-least-32-characters' }) })
    bad.subscribe({ leagues: [8] })
    const refused = await bad.connect()
    expect(refused).toMatchObject({ state: 'refused', reason: 'unauthorized' })
    expect(refused.state === 'refused' ? refused.message : '').toMatch(/refused the token: invalid: /)

    let calls = 0
    const stale = new TouchlineClient({ url: gw.url, backoff: { baseMs: 50, capMs: 100 }, getToken: async () => ++calls === 1 ? await token({ ttlS: 60, expired: true }) : await token({ ttlS: 60 }) })
    stale.subscribe({ leagues: [8] })
    expect((await stale.connect()).state).toBe('live')
    expect(calls).toBe(2)
    stale.close()
  })

  it('refuses options that give both a key and getToken, or a getToken that is not a function', () => {
    expect(() => new TouchlineClient({ url: gw.url, key: 'x', getToken: () => 't' } as never)).toThrow(/key or getToken, not both/)
    expect(() => new TouchlineClient({ url: gw.url, getToken: 'a token' as never })).toThrow(/getToken must be a function/)
  })
})
