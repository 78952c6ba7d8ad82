import { describe, expect, it } from 'vitest'
import { matchEndpoint, parseQuery } from '../../../src/contract/query.ts'
import type { ClientKey } from '../../../src/keys.ts'
import type { CachedEntry } from '../../../src/passthrough/entry.ts'
import { narrowFilters, scopeEntry, scopeLookup } from '../../../src/passthrough/scope.ts'

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

describe('scopeEntry', () => {
  it('passes entries whose leagues are all in scope without touching them', () => {
    const e = entry([{ id: 1, league_id: 271 }], [271])
    const r = route('/football/fixtures/date/2026-01-01')
    expect(scopeEntry(key([271]), r.endpoint, e)).toEqual({ ok: true, parts: e.parts })
    expect(scopeEntry(key('*'), r.endpoint, entry([{ league_id: 8 }], [8]))).toMatchObject({ ok: true })
  })

  it('filters lists and fixes the page count', () => {
    const r = route('/football/leagues')
    const scoped = scopeEntry(key([271]), r.endpoint, entry([{ id: 271 }, { id: 8 }, { id: 501 }], [271, 8, 501]))
    expect(scoped.ok).toBe(true)
    if (!scoped.ok) return
    expect(JSON.parse(scoped.parts.data ?? '')).toEqual([{ id: 271 }])
    expect(scoped.parts.pagination?.count).toBe(1)
  })

  it('refuses a single record of another league', () => {
    const r = route('/football/seasons/1')
    expect(scopeEntry(key([271]), r.endpoint, entry({ id: 1, league_id: 8 }, [8]))).toEqual({ ok: false, league: 8 })
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
