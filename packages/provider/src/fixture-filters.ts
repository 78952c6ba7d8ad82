/**
 * Fixture-list filters, as the real API takes them on fixtures and livescores (docs/upstream.md, "select,
 * filters and other options"): leagues, stages, season, states, venues, team search, today; and the odds
 * filters (markets, bookmakers) of the odds feeds and the fixtures' odds includes.
 */
import { filterIds, type ParsedFilter } from '@touchline/upstream-contract/query'
import type { Rec } from './records.ts'
import type { World } from './world.ts'

export function filterFixtures (world: World, fixtures: Rec[], filters: ReadonlyMap<string, ParsedFilter>, now: number): Rec[] {
  const ids = (name: string): Set<number> | undefined => filterIds(filters, name)
  let out = fixtures
  const byField = (name: string, field: string): void => {
    const set = ids(name)
    if (set !== undefined) out = out.filter((f) => set.has(Number(f[field])))
  }
  byField('fixtureleagues', 'league_id')
  byField('fixturestages', 'stage_id')
  byField('fixtureseason', 'season_id')
  byField('venues', 'venue_id')
  const states = ids('fixturestates')
  if (states !== undefined) out = out.filter((f) => states.has(world.stateOf(f, now)))
  const search = filters.get('participantsearch')?.values.join(',').toLowerCase()
  if (search !== undefined) {
    out = out.filter((f) => [f.home_team_id, f.away_team_id].some((id) => String(world.get('team', Number(id))?.name ?? '').toLowerCase().includes(search)))
  }
  if (filters.has('todaydate')) {
    const today = new Date(now).toISOString().slice(0, 10)
    out = out.filter((f) => new Date(world.kickoff(f, now) * 1000).toISOString().slice(0, 10) === today)
  }
  return out
}

/** Odds rows of the markets and bookmakers the `markets:`/`bookmakers:` filters name (all when unnamed). */
export function filterOdds (odds: readonly Rec[], filters: ReadonlyMap<string, ParsedFilter>): Rec[] {
  const markets = filterIds(filters, 'markets')
  const bookmakers = filterIds(filters, 'bookmakers')
  return odds.filter((o) => (markets === undefined || markets.has(Number(o.market_id))) && (bookmakers === undefined || bookmakers.has(Number(o.bookmaker_id))))
}
