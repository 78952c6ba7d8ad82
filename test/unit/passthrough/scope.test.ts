import { describe, expect, it } from 'vitest'
import { matchEndpoint, parseQuery } from '../../../packages/upstream-contract/src/query.ts'
import type { ClientKey } from '../../../src/client-keys.ts'
import type { CachedEntry } from '../../../src/passthrough/entry.ts'
import { createLeagueIndex } from '../../../src/passthrough/league-index.ts'
import { leagueRefs, narrowFilters, scopeEntry, scopeLookup } from '../../../src/passthrough/scope.ts'

const key = (leagues: ClientKey['leagues']): ClientKey => ({ key: 'k', name: 'k', leagues, hourly_quota: 10, max_connections: 1, allowed_origins: '*', features: [] })

function route (path: string, filters?: string) {
  const match = matchEndpoint(path)
  if (match === undefined) throw new Error(path)
  const parsed = parseQuery(match.endpoint, filters === undefined ? {} : { filters })
  if (!parsed.ok) throw new Error(parsed.error.body.message)
  return { ...match, query: parsed.query }
}

const entry = (data: unknown, leagues: number[] | null): CachedEntry => ({
  status: 200,
  entity: 'Fixture',
  parts: { data: JSON.stringify(data), pagination: { count: 3, per_page: 25, current_page: 1, next_page: null, has_more: false } },
  leagues,
  storedAt: 0,
  expiresAt: 1
})

describe('narrowFilters', () => {
  it('sets fixtureLeagues to the key\'s leagues on fixture lists, or to the part of the client\'s within them', () => {
    const r = route('/football/fixtures/date/2026-01-01')
    expect(narrowFilters(r.endpoint, r.query, undefined, [271, 501])).toBe('fixtureLeagues:271,501')
    const f = route('/football/fixtures/date/2026-01-01', 'fixtureStates:5;fixtureLeagues:8,271')
    expect(narrowFilters(f.endpoint, f.query, 'fixtureStates:5;fixtureLeagues:8,271', [271, 501])).toBe('fixtureStates:5;fixtureLeagues:271')
    const none = route('/football/fixtures/date/2026-01-01', 'fixtureLeagues:8')
    expect(narrowFilters(none.endpoint, none.query, 'fixtureLeagues:8', [271]), 'nothing in scope: left for the post-filter').toBe('fixtureLeagues:8')
  })

  it('leaves endpoints without the filter, and single records, alone', () => {
    const teams = route('/football/teams')
    expect(narrowFilters(teams.endpoint, teams.query, undefined, [271])).toBeUndefined()
    const one = route('/football/fixtures/1')
    expect(narrowFilters(one.endpoint, one.query, undefined, [271])).toBeUndefined()
  })
})

/** A resolver over a fresh index whose lookups record what they were asked and learn `upstream`'s answers. */
function resolver (upstream: { fixtures?: Record<number, number>, seasons?: Record<number, number> } = {}) {
  const index = createLeagueIndex()
  const asked: Array<{ fixtures: number[], seasons: number[] }> = []
  return {
    asked,
    index,
    lookup: async (need: { fixtures: number[], seasons: number[] }) => {
      asked.push(need)
      for (const id of need.fixtures) if (upstream.fixtures?.[id] !== undefined) index.learnFixture(id, upstream.fixtures[id])
      for (const id of need.seasons) if (upstream.seasons?.[id] !== undefined) index.learnSeason(id, upstream.seasons[id])
    }
  }
}

const dataOf = (s: Awaited<ReturnType<typeof scopeEntry>>): any => s.ok ? JSON.parse(s.parts.data ?? 'null') : s

describe('scopeEntry', () => {
  it('passes every entry untouched for a key with every league, with no lookup', async () => {
    const r = resolver()
    const e = entry([{ id: 1, fixture_id: 9 }], null)
    expect(await scopeEntry(key('*'), { mode: 'list', kind: 'xg' }, e, r)).toEqual({ ok: true, parts: e.parts })
    expect(r.asked).toEqual([])
  })

  it('filters lists and fixes the page count', async () => {
    const r = route('/football/leagues')
    const scoped = await scopeEntry(key([271]), r.endpoint, entry([{ id: 271 }, { id: 8 }, { id: 501 }], [271, 8, 501]), resolver())
    expect(dataOf(scoped)).toEqual([{ id: 271 }])
    expect(scoped.ok && scoped.parts.pagination?.count).toBe(1)
  })

  it('refuses a single record of another league, and one whose league is unknown', async () => {
    const r = route('/football/seasons/1')
    expect(await scopeEntry(key([271]), r.endpoint, entry({ id: 1, league_id: 8 }, [8]), resolver())).toEqual({ ok: false, league: 8 })
    const odds = route('/football/stages/1')
    expect(await scopeEntry(key([271]), odds.endpoint, entry({ id: 1, name: 'x' }, null), resolver())).toEqual({ ok: false, league: null })
  })

  it('judges rows carrying only a fixture_id by their fixture\'s league, looked up once for the unknown ids', async () => {
    const r = resolver({ fixtures: { 10: 271, 11: 501 } })
    const rows = [{ id: 1, fixture_id: 10 }, { id: 2, fixture_id: 11 }, { id: 3, fixture_id: 12 }, { id: 4, fixture_id: 10 }]
    const scoped = await scopeEntry(key([271]), { mode: 'list', kind: 'xg' }, entry(rows, null), r)
    expect(dataOf(scoped).map((x: any) => x.id), 'fixture 12 is of no known league: withheld').toEqual([1, 4])
    expect(r.asked).toEqual([{ fixtures: [10, 11, 12], seasons: [] }])
  })

  it('learns fixture and season leagues from the body itself, before any lookup', async () => {
    const r = resolver()
    const body = [
      { id: 7, fixture_id: 20 },
      { id: 8, season_id: 30 },
      { id: 20, league_id: 271, season_id: 30, state_id: 5, starting_at_timestamp: 1 }
    ]
    const scoped = await scopeEntry(key([271]), { mode: 'list', kind: undefined }, entry(body, null), r)
    expect(dataOf(scoped).map((x: any) => x.id)).toEqual([7, 8, 20])
    expect(r.asked).toEqual([])
  })

  it('judges rows with only a season_id (player statistics) by the season\'s league', async () => {
    const r = resolver({ seasons: { 30: 271, 31: 501 } })
    const player = { id: 1, name: 'p', statistics: [{ id: 1, season_id: 30 }, { id: 2, season_id: 31 }] }
    const scoped = await scopeEntry(key([271]), { mode: 'single', kind: 'player' }, entry(player, null), r)
    expect(dataOf(scoped).statistics).toEqual([{ id: 1, season_id: 30 }])
  })

  it('scopes includes at any depth, by the relation behind each key, even when a field list dropped league_id', async () => {
    const r = resolver({ fixtures: { 41: 501 } })
    const team = {
      id: 1,
      latest: [{ id: 40, league_id: 271, events: [{ id: 1, fixture_id: 40 }] }, { id: 41, name: 'no league_id' }],
      seasons: [{ id: 30, league_id: 501 }],
      venue: { id: 3, name: 'v' }
    }
    const scoped = await scopeEntry(key([271]), { mode: 'single', kind: 'team' }, entry(team, null), r)
    expect(dataOf(scoped)).toEqual({ id: 1, latest: [{ id: 40, league_id: 271, events: [{ id: 1, fixture_id: 40 }] }], seasons: [], venue: { id: 3, name: 'v' } })
    const fixture = { id: 40, league_id: 271, league: { id: 271 }, odds: [{ id: 1, fixture_id: 40 }] }
    expect(dataOf(await scopeEntry(key([271]), { mode: 'single', kind: 'fixture' }, entry(fixture, [271]), r))).toEqual(fixture)
    const elsewhere = { id: 9, name: 'c', leagues: [{ id: 271 }, { id: 501 }] }
    expect(dataOf(await scopeEntry(key([271]), { mode: 'single', kind: undefined }, entry(elsewhere, null), r)).leagues).toEqual([{ id: 271 }])
  })

  it('serves an entry whose records are all placed in scope without parsing it, and learns what it shows', async () => {
    const fixtures = [{ id: 40, league_id: 271, season_id: 30, events: [{ id: 1, fixture_id: 40 }] }]
    const e = { ...entry(fixtures, [271]), refs: leagueRefs('fixture', fixtures) }
    expect(e.refs).toEqual({ leagues: [271], fixtures: [], seasons: [], unplaced: false, shows: { fixtures: [[40, 271]], seasons: [[30, 271]] } })
    const r = resolver()
    const scoped = await scopeEntry(key([271]), { mode: 'list', kind: 'fixture' }, e, r)
    expect(scoped.ok && scoped.parts, 'the stored parts themselves: no parse, no re-serialization').toBe(e.parts)
    expect(r.index.fixture(40)).toBe(271)
    const xg = [{ id: 1, fixture_id: 40 }, { id: 2, fixture_id: 41 }]
    const rows = { ...entry(xg, null), refs: leagueRefs('xg', xg) }
    expect(rows.refs.fixtures).toEqual([40, 41])
    expect(dataOf(await scopeEntry(key([271]), { mode: 'list', kind: 'xg' }, rows, r)), 'fixture 41 unknown: the slow path withholds it').toEqual([xg[0]])
  })

  it('scopes a path outside the catalogue by shape alone (commentaries, news, a fixture list without league_id)', async () => {
    const r = resolver({ fixtures: { 10: 271, 11: 501 } })
    const commentaries = [{ id: 1, fixture_id: 10, comment: 'a' }, { id: 2, fixture_id: 11, comment: 'b' }]
    expect(dataOf(await scopeEntry(key([271]), { mode: 'list', kind: undefined }, entry(commentaries, null), r))).toEqual([commentaries[0]])
    const news = [{ id: 1, league_id: 501, fixture_id: 10 }, { id: 2, league_id: 271, fixture_id: 11 }]
    expect(dataOf(await scopeEntry(key([271]), { mode: 'list', kind: undefined }, entry(news, null), r)), 'a row\'s own league_id decides').toEqual([news[1]])
    const fixtures = [{ id: 10, name: 'a', state_id: 5, starting_at_timestamp: 1 }, { id: 11, name: 'b', state_id: 5, starting_at_timestamp: 1 }]
    expect(dataOf(await scopeEntry(key([271]), { mode: 'list', kind: undefined }, entry(fixtures, null), r)).map((f: any) => f.id)).toEqual([10])
  })

  it('leaves records bound to no league alone (teams, types, nested value objects)', async () => {
    const rows = [{ id: 1, name: 't', type: { id: 2 } }, { id: 2, data: { value: 1.2 } }]
    expect(dataOf(await scopeEntry(key([271]), { mode: 'list', kind: 'team' }, entry(rows, null), resolver()))).toEqual(rows)
  })
})

describe('scopeLookup', () => {
  it('names the record that decides access to season-, round- and fixture-scoped endpoints', () => {
    expect(scopeLookup({ seasonId: '7' })).toEqual({ path: '/football/seasons/7', entity: 'Season', kind: 'season' })
    expect(scopeLookup({ roundId: '3' })?.path).toBe('/football/rounds/3')
    expect(scopeLookup({ fixtureId: '9' })?.path).toBe('/football/fixtures/9')
    expect(scopeLookup({ stageId: '5' })).toEqual({ path: '/football/stages/5', entity: 'Stage', kind: 'stage' })
    expect(scopeLookup({ teamId: '1' })).toBeUndefined()
  })
})
