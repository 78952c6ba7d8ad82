/**
 * The scope of a key limited to league 271 against every shape that hides a league behind a fixture or
 * season id, with the embedded provider: xG rows (only `fixture_id`), odds and predictions, fixture
 * includes, a team's `latest` fixtures with a field list that drops `league_id`, and the account
 * endpoints. Every answer is compared with what the unscoped key sees, whose leagues are looked up
 * independently (fixtures/multi with the unscoped key).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'

const KEYS = [
  { key: 'tl-all-key', name: 'all' },
  { key: 'tl-271-key', name: 'danish', leagues: [271], hourly_quota: 500 }
]

let t: TestGateway
let calls: RequestCounter
const url = (path: string, key: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

/** Leagues of fixtures, as the unscoped key reads them. */
async function leaguesOf (ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  for (let i = 0; i < ids.length; i += 50) {
    const res = await get(url(`/football/fixtures/multi/${ids.slice(i, i + 50).join(',')}`, 'tl-all-key'))
    for (const f of res.body.data ?? []) out.set(f.id, f.league_id)
  }
  return out
}

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, provider: { liveTarget: 30 } } })
  calls = countRequests(t.providerServer)
})
afterAll(async () => {
  calls.stop()
  await t.close()
})
afterEach(() => { expectNoLeaks() })

describe('rows that carry only a fixture_id', () => {
  it('gives a scoped key no xG row of another league (/football/expected/fixtures)', async () => {
    const scoped = await get(url('/football/expected/fixtures?per_page=50', 'tl-271-key'))
    expect(scoped.status).toBe(200)
    const all = await get(url('/football/expected/fixtures?per_page=50', 'tl-all-key'))
    const rows = all.body.data as any[]
    const leagues = await leaguesOf([...new Set(rows.map((r) => r.fixture_id as number))])
    expect(new Set(leagues.values()).size, 'the page mixes leagues').toBeGreaterThan(1)
    const mine = rows.filter((r) => leagues.get(r.fixture_id) === 271)
    for (const r of scoped.body.data) expect(leagues.get(r.fixture_id), `xG row ${r.id}`).toBe(271)
    expect(scoped.body.data.map((r: any) => r.id)).toEqual(mine.map((r) => r.id))
    expect(scoped.body.pagination?.count ?? scoped.body.data.length).toBe(mine.length)
  })

  it('refuses odds and predictions of another league\'s fixture, and serves its own', async () => {
    const live = await get(url('/football/livescores/inplay', 'tl-all-key'))
    const other = (live.body.data as any[]).find((f) => f.league_id !== 271)
    expect(other, 'a live fixture of another league').toBeDefined()
    for (const path of [`/football/odds/pre-match/fixtures/${other.id}`, `/football/predictions/probabilities/fixtures/${other.id}`]) {
      const res = await get(url(path, 'tl-271-key'))
      expect(res.status, path).toBe(403)
      expect(res.body.resource).toBe(`league ${other.league_id}`)
    }
    const own = await get(url('/football/fixtures/date/2026-11-21?per_page=1', 'tl-271-key'))
    const fixture = (own.body.data as any[] | undefined)?.[0] ?? (await get(url('/football/leagues/271?include=latest', 'tl-271-key'))).body.data.latest[0]
    const odds = await get(url(`/football/odds/pre-match/fixtures/${fixture.id}`, 'tl-271-key'))
    expect(odds.status).toBe(200)
    expect(odds.body.data.length).toBeGreaterThan(0)
    for (const o of odds.body.data) expect(o.fixture_id).toBe(fixture.id)
  })

  it('scopes a fixture\'s xG, odds and predictions includes with the fixture', async () => {
    const live = await get(url('/football/livescores/inplay', 'tl-all-key'))
    const other = (live.body.data as any[]).find((f) => f.league_id !== 271)
    const res = await get(url(`/football/fixtures/${other.id}?include=xGFixture;odds;predictions`, 'tl-271-key'))
    expect(res.status).toBe(403)
    const list = await get(url(`/football/fixtures/multi/${(live.body.data as any[]).map((f) => f.id).join(',')}?include=xGFixture;odds`, 'tl-271-key'))
    expect(list.status).toBe(200)
    for (const f of list.body.data ?? []) {
      expect(f.league_id).toBe(271)
      for (const row of [...f.xgfixture, ...f.odds]) expect(row.fixture_id).toBe(f.id)
    }
  })
})

describe('includes that reach other leagues', () => {
  it('leaves another league\'s fixtures out of a team\'s latest and seasons, with or without a field list', async () => {
    const league = await get(url('/football/leagues/501?include=currentSeason', 'tl-all-key'))
    const teams = await get(url(`/football/teams/seasons/${league.body.data.currentseason.id}?per_page=1`, 'tl-all-key'))
    const team = teams.body.data[0].id as number
    const all = await get(url(`/football/teams/${team}?include=latest:name`, 'tl-all-key'))
    expect(all.body.data.latest.length, 'the team has recent fixtures').toBeGreaterThan(0)
    const leagues = await leaguesOf(all.body.data.latest.map((f: any) => f.id))
    expect([...leagues.values()].some((l) => l !== 271), 'the team played outside league 271').toBe(true)
    const scoped = await get(url(`/football/teams/${team}?include=latest:name;seasons`, 'tl-271-key'))
    expect(scoped.status, 'teams carry no league: the team itself is shown').toBe(200)
    expect(scoped.body.data.latest.map((f: any) => f.id)).toEqual(all.body.data.latest.filter((f: any) => leagues.get(f.id) === 271).map((f: any) => f.id))
    for (const s of scoped.body.data.seasons) expect(s.league_id).toBe(271)
  })
})

describe('/my/*', () => {
  it('describes the key, not the gateway\'s upstream account, without an upstream call', async () => {
    const before = calls.count('/my')
    const res = await get(url('/my/resources', 'tl-271-key'))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: 1, resource: 'leagues', count: 1, ids: [271] },
      { id: 2, resource: 'features', features: ['odds', 'predictions', 'xg'] },
      { id: 3, resource: 'hourly_limit', limit: 500 }
    ])
    expect(res.body.rate_limit).toMatchObject({ remaining: 499, requested_entity: 'Resource' })
    expect(res.headers['x-ratelimit-limit']).toBe('500')
    expect(res.body.subscription, 'the gateway\'s plans are not the key\'s').toBeUndefined()
    const usage = await get(url('/my/usage', 'tl-271-key'))
    expect((usage.body.data as any[]).find((r) => r.entity === 'Resource')?.requests_made).toBe(2)
    expect((await get(url('/my/enrichments', 'tl-271-key'))).status, 'never forwarded').toBe(404)
    expect(calls.count('/my'), 'no /my call reached the upstream').toBe(before)
  })
})
