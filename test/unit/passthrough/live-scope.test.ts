/**
 * Livescores answered from the live mirror (the poller's last payloads) are scoped as an upstream answer
 * is: a fixture whose `league_id` is null or absent is withheld from a key scoped to some leagues, as
 * scope.ts withholds a record it cannot place. Driven through createPassthrough with a scripted upstream.
 */
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createKeyRing } from '../../../src/client-keys.ts'
import { createMemoryCache, createMemoryQuota, createPassthrough } from '../../../src/passthrough/index.ts'
import type { LiveSource } from '../../../src/passthrough/mirror.ts'
import type { RawResponse, UpstreamClient } from '../../../src/upstream/index.ts'

type Json = Record<string, any>

const SCOPED = 'scoped-key'
const ALL = 'all-key'

function passthrough (answer: (path: string, query: Json) => RawResponse, live?: LiveSource) {
  const calls: string[] = []
  const upstream = {
    getRaw: async (path: string, query: Json) => { calls.push(path); return answer(path, query) },
    get: async () => { throw new Error('not used') },
    paginate: async function * () {},
    close: async () => {}
  } as unknown as UpstreamClient
  const pt = createPassthrough({
    upstream,
    ledger: createMemoryLedger(),
    keys: createKeyRing([
      { key: SCOPED, name: 'scoped', leagues: [271], hourly_quota: 100, max_connections: 1, allowed_origins: '*', features: [] },
      { key: ALL, name: 'all', leagues: '*', hourly_quota: 100, max_connections: 1, allowed_origins: '*', features: [] }
    ]),
    cache: createMemoryCache(),
    quota: createMemoryQuota(),
    log: pino({ level: 'silent' }),
    ...(live !== undefined ? { live } : {})
  })
  return { pt, calls }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): RawResponse =>
  ({ status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) })
const request = (path: string, key: string, query: Json = {}) => ({ path, query: { api_token: key, ...query }, baseUrl: 'http://gw.test' })

const fixture = (id: number, league: unknown): Json => ({
  id,
  sport_id: 1,
  league_id: league,
  season_id: 1,
  stage_id: 1,
  round_id: null,
  state_id: 2,
  venue_id: null,
  name: 'A vs B',
  starting_at: '2026-05-31 19:00:00',
  result_info: null,
  leg: '1/1',
  details: null,
  length: 90,
  placeholder: false,
  has_odds: false,
  has_premium_odds: false,
  starting_at_timestamp: 1780254000
})

describe('passthrough: league scope of livescores answered from the live mirror', () => {
  it('withholds from a key scoped to league 271 a live fixture whose league_id is null or absent', async () => {
    const noLeague = fixture(3, null)
    const absent = fixture(4, 0)
    delete absent.league_id
    const live: LiveSource = {
      fixtures: () => ({ fixtures: [fixture(1, 271), fixture(2, 501), noLeague, absent] })
    }
    // The upstream would say nothing about fixtures 3 and 4 (a lookup by id finds nothing).
    const { pt } = passthrough(() => json(200, { message: 'No result(s) found', timezone: 'UTC' }), live)
    const res = await pt.handle(request('/football/livescores', SCOPED))
    expect(res.status).toBe(200)
    const ids = (JSON.parse(res.body).data as Json[]).map((f) => f.id)
    // Fixture 2 (league 501) is withheld; 3 and 4, whose league is unknown, must be too (fail closed, as
    // scope.ts does for every upstream-fetched answer).
    expect(ids).toEqual([1])
  })

  it('the same fixtures fetched upstream (no live mirror) are withheld alike', async () => {
    const noLeague = fixture(3, null)
    const { pt } = passthrough((path) => path.startsWith('/football/fixtures/multi')
      ? json(200, { message: 'No result(s) found', timezone: 'UTC' })
      : json(200, { data: [fixture(1, 271), fixture(2, 501), noLeague], timezone: 'UTC' }))
    const res = await pt.handle(request('/football/livescores', SCOPED))
    expect(res.status).toBe(200)
    expect((JSON.parse(res.body).data as Json[]).map((f) => f.id)).toEqual([1])
  })
})
