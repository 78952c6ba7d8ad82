/**
 * League scope and origins of client keys: a key scoped to league 271 gets the upstream's 403 for anything of
 * league 501 asked for by id (directly or through its season or fixture), lists leave other leagues out,
 * and refusals cost the key nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'

const KEYS = [
  { key: 'tl-all-key', name: 'all' },
  { key: 'tl-271-key', name: 'danish', leagues: [271] },
  { key: 'tl-web-key', name: 'web', allowed_origins: ['https://widgets.example'] }
]

let t: TestGateway
let calls: RequestCounter
/** League 501's current season and one of its fixtures, discovered with the unscoped key. */
let other: { seasonId: number, fixtureId: number, date: string }

const url = (path: string, key: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`
const expect403 = (res: { status: number, body: any }, league: number): void => {
  expect(res.status).toBe(403)
  expect(res.body).toEqual({ error: 'Forbidden', message: expect.any(String), resource: `league ${league}`, plan_required: expect.any(String) })
}

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false } })
  calls = countRequests(t.providerServer)
  const league = await get(url('/football/leagues/501?include=currentSeason', 'tl-all-key'))
  const seasonId = league.body.data.currentseason.id as number
  const fixtures = await get(url(`/football/fixtures/seasons/${seasonId}?per_page=5`, 'tl-all-key'))
  const fixture = fixtures.body.data[0]
  other = { seasonId, fixtureId: fixture.id, date: (fixture.starting_at as string).slice(0, 10) }
})
afterAll(async () => {
  calls.stop()
  await t.close()
})
afterEach(() => { expectNoLeaks() })

describe('league scope', () => {
  it('refuses a league outside the key by id with the upstream\'s 403 body, before any upstream call', async () => {
    const before = calls.count()
    expect403(await get(url('/football/leagues/501', 'tl-271-key')), 501)
    expect(calls.count()).toBe(before)
    const own = await get(url('/football/leagues/271', 'tl-271-key'))
    expect(own.status).toBe(200)
    expect(own.body.data.id).toBe(271)
  })

  it('refuses seasons, fixtures and season-scoped lists of another league', async () => {
    expect403(await get(url(`/football/seasons/${other.seasonId}`, 'tl-271-key')), 501)
    expect403(await get(url(`/football/fixtures/${other.fixtureId}`, 'tl-271-key')), 501)
    expect403(await get(url(`/football/fixtures/seasons/${other.seasonId}`, 'tl-271-key')), 501)
    expect403(await get(url(`/football/teams/seasons/${other.seasonId}`, 'tl-271-key')), 501)
    expect403(await get(url(`/football/standings/seasons/${other.seasonId}`, 'tl-271-key')), 501)
    expect((await get(url(`/football/fixtures/${other.fixtureId}`, 'tl-all-key'))).status).toBe(200)
  })

  it('leaves other leagues out of lists (200, not an error)', async () => {
    const leagues = await get(url('/football/leagues?per_page=50', 'tl-271-key'))
    expect(leagues.status).toBe(200)
    expect(leagues.body.data.map((l: any) => l.id)).toEqual([271])
    expect(leagues.body.pagination.count).toBe(1)
    const mine = await get(url('/my/leagues', 'tl-271-key'))
    expect(mine.body.data.map((l: any) => l.id)).toEqual([271])

    const all = await get(url(`/football/fixtures/date/${other.date}?per_page=50`, 'tl-all-key'))
    const scoped = await get(url(`/football/fixtures/date/${other.date}?per_page=50`, 'tl-271-key'))
    expect(all.body.data.some((f: any) => f.league_id === 501)).toBe(true)
    expect(scoped.status).toBe(200)
    for (const f of scoped.body.data ?? []) expect(f.league_id).toBe(271)
    expect(scoped.body.pagination.count).toBe((scoped.body.data ?? []).length)
    // next_page keeps the client's own query, not the narrowed one sent upstream.
    if (scoped.body.pagination.next_page !== null) expect(scoped.body.pagination.next_page).not.toContain('fixtureLeagues')

    const asked = await get(url(`/football/fixtures/date/${other.date}?per_page=50&filters=fixtureLeagues:501`, 'tl-271-key'))
    expect(asked.status).toBe(200)
    expect(asked.body.data ?? []).toEqual([])
  })

  it('charges nothing for a refusal made before any call, and a call for one made after it', async () => {
    const a = await get(url('/football/leagues/271', 'tl-271-key'))
    expect403(await get(url('/football/leagues/501', 'tl-271-key')), 501)
    const b = await get(url('/football/leagues/271', 'tl-271-key'))
    expect(b.body.rate_limit.remaining, 'refused by the path: free').toBe(a.body.rate_limit.remaining - 1)
    const usage = async (): Promise<number> => ((await get(url('/my/usage', 'tl-271-key'))).body.data as any[]).find((r) => r.entity === 'Season')?.requests_made ?? 0
    const seasonsBefore = await usage()
    const seasons = await get(url('/football/leagues/501?include=seasons', 'tl-all-key'))
    const seasonId = (seasons.body.data.seasons as any[]).map((x) => x.id as number).find((id) => id !== other.seasonId) as number
    expect(seasonId, 'a second season of league 501, not asked for yet').toBeDefined()
    expect403(await get(url(`/football/seasons/${seasonId}`, 'tl-271-key')), 501)
    expect(await usage(), 'refused once fetched: the upstream call is the key\'s').toBe(seasonsBefore + 1)
    expect403(await get(url(`/football/seasons/${seasonId}`, 'tl-271-key')), 501)
    expect(await usage(), 'refused again from the cache: free').toBe(seasonsBefore + 1)
  })
})

describe('origins', () => {
  it('lets a browser read answers from an allowed origin only', async () => {
    const ok = await get(url('/core/continents', 'tl-web-key'), { origin: 'https://widgets.example' })
    expect(ok.status).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe('https://widgets.example')
    expect(ok.headers['access-control-expose-headers']).toContain('x-ratelimit-remaining')
    const denied = await get(url('/core/continents', 'tl-web-key'), { origin: 'https://elsewhere.example' })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ error: 'Forbidden', resource: 'origin https://elsewhere.example' })
    expect((await get(url('/core/continents', 'tl-web-key'))).status, 'no Origin: not a browser').toBe(200)
  })
})
