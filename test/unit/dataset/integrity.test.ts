import { describe, expect, it } from 'vitest'
import { SELECT_ALIASES, SELECTABLE, type Kind } from '../../../packages/upstream-contract/src/resources.ts'
import { fixtureBase, generateDataset } from '../../../packages/provider/src/dataset/generate.ts'
import type { Dataset } from '../../../packages/provider/src/dataset/types.ts'

const d = generateDataset({ seed: 1, anchor: Date.UTC(2026, 10, 21) / 1000 })

const KINDS = ['continents', 'countries', 'regions', 'cities', 'leagues', 'seasons', 'stages', 'rounds', 'groups', 'teams',
  'players', 'coaches', 'referees', 'venues', 'fixtures', 'standings', 'types'] as const

/** Lists the ids in `ids` that `map` does not know. */
function missing (map: ReadonlyMap<number, unknown>, ids: Iterable<number | null>): number[] {
  return [...ids].filter((id): id is number => id !== null && !map.has(id))
}

describe('dataset integrity', () => {
  it('sorts every kind by unique ascending ids', () => {
    for (const kind of KINDS) {
      const ids = (d[kind] as Array<{ id: number }>).map((r) => r.id)
      expect(ids, kind).toEqual([...new Set(ids)].sort((a, b) => a - b))
      expect(ids.length, kind).toBeGreaterThan(0)
    }
  })

  it('resolves the foreign keys of the geography and the competitions', () => {
    const b = d.byId
    expect(missing(b.country, d.regions.map((r) => r.country_id))).toEqual([])
    expect(missing(b.region, d.cities.map((c) => c.region_id))).toEqual([])
    expect(missing(b.country, d.leagues.map((l) => l.country_id))).toEqual([])
    expect(missing(b.league, d.seasons.map((s) => s.league_id))).toEqual([])
    expect(missing(b.season, d.stages.map((s) => s.season_id))).toEqual([])
    expect(missing(b.stage, [...d.rounds, ...d.groups].map((r) => r.stage_id))).toEqual([])
    for (const r of [...d.stages, ...d.rounds, ...d.groups]) {
      expect(b.season.get(r.season_id)?.league_id).toBe(r.league_id)
    }
    for (const r of [...d.rounds, ...d.groups]) expect(b.stage.get(r.stage_id)?.season_id).toBe(r.season_id)
  })

  it('resolves the foreign keys of fixtures', () => {
    const b = d.byId
    for (const f of d.fixtures) {
      const stage = b.stage.get(f.stage_id)
      expect(stage?.season_id).toBe(f.season_id)
      expect(b.season.get(f.season_id)?.league_id).toBe(f.league_id)
      if (f.round_id !== null) expect(b.round.get(f.round_id)?.stage_id).toBe(f.stage_id)
      if (f.group_id !== null) expect(b.group.get(f.group_id)?.stage_id).toBe(f.stage_id)
    }
    expect(missing(b.team, d.fixtures.flatMap((f) => [f.home_team_id, f.away_team_id]))).toEqual([])
    expect(missing(b.venue, d.fixtures.map((f) => f.venue_id))).toEqual([])
    expect(missing(b.referee, d.fixtures.map((f) => f.referee_id))).toEqual([])
    expect(d.fixtures.every((f) => f.home_team_id !== f.away_team_id)).toBe(true)
  })

  it('resolves the foreign keys of teams, people, venues and standings', () => {
    const b = d.byId
    expect(missing(b.venue, d.teams.map((t) => t.venue_id))).toEqual([])
    expect(missing(b.country, d.teams.map((t) => t.country_id))).toEqual([])
    const people = [...d.players, ...d.coaches, ...d.referees]
    expect(missing(b.country, people.map((p) => p.country_id))).toEqual([])
    expect(missing(b.city, people.map((p) => p.city_id))).toEqual([])
    expect(missing(b.country, [...d.players, ...d.coaches].map((p) => p.nationality_id))).toEqual([])
    expect(missing(b.city, d.venues.map((v) => v.city_id))).toEqual([])
    expect(d.venues.every((v) => b.city.get(v.city_id)?.name === v.city_name)).toBe(true)
    expect(missing(b.team, d.standings.map((s) => s.participant_id))).toEqual([])
    expect(missing(b.stage, d.standings.map((s) => s.stage_id))).toEqual([])
    expect(missing(b.group, d.standings.map((s) => s.group_id))).toEqual([])
    expect(missing(b.round, d.standings.map((s) => s.round_id))).toEqual([])
  })

  it('gives every team a squad and a coach, clubs 22 players with goalkeepers first', () => {
    for (const team of d.teams) {
      const squad = d.squads.get(team.id) ?? []
      expect(squad.length, team.name).toBe(team.type === 'national' ? 23 : 22)
      expect(missing(d.byId.player, squad)).toEqual([])
      expect(d.byId.player.get(squad[0] ?? 0)?.position_id).toBe(24)
      expect(d.byId.coach.has(d.coachOfTeam.get(team.id) ?? 0)).toBe(true)
    }
    const national = d.teams.find((t) => t.type === 'national' && t.country_id === 320)
    const nationalities = (d.squads.get(national?.id ?? 0) ?? []).map((id) => d.byId.player.get(id)?.nationality_id)
    expect(new Set(nationalities)).toEqual(new Set([320]))
  })

  it('has the type records the simulator uses', () => {
    const ids = [10, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1697, 1, 2, 3, 5, 39, 1525, 5314, 48996,
      34, 41, 42, 43, 44, 45, 52, 56, 57, 80, 84, 83, 86, 223, 224, 225]
    expect(missing(d.byId.type, ids)).toEqual([])
    expect(d.byId.type.get(45)).toEqual({
      id: 45, name: 'Ball Possession %', code: 'ball-possession', developer_name: 'BALL_POSSESSION', model_type: 'statistic', stat_group: 'overall'
    })
  })

  it('uses exactly the fields the contract lets clients select', () => {
    const samples: Array<[Kind, object | undefined]> = [
      ['continent', d.continents[0]], ['country', d.countries[0]], ['region', d.regions[0]], ['city', d.cities[0]],
      ['league', d.leagues[0]], ['season', d.seasons[0]], ['stage', d.stages[0]], ['round', d.rounds[0]],
      ['fixture', d.fixtures[0] && fixtureBase(d.fixtures[0])], ['team', d.teams[0]], ['player', d.players[0]],
      ['coach', d.coaches[0]], ['referee', d.referees[0]], ['venue', d.venues[0]], ['standing', d.standings[0]], ['type', d.types[0]]
    ]
    for (const [kind, record] of samples) {
      const fields = (SELECTABLE[kind] ?? []).map((f) => SELECT_ALIASES[f] ?? f)
      expect(Object.keys(record ?? {}).sort(), kind).toEqual(fields.sort())
    }
  })

  it('derives the indexes from the records', () => {
    const count = (m: ReadonlyMap<unknown, readonly unknown[]>): number => [...m.values()].reduce((n, l) => n + l.length, 0)
    expect(count(d.fixturesBySeason)).toBe(d.fixtures.length)
    expect(count(d.fixturesByDate)).toBe(d.fixtures.length)
    expect(count(d.fixturesByTeam)).toBe(2 * d.fixtures.length)
    expect(count(d.citiesByRegion)).toBe(d.cities.length)
    for (const [date, list] of d.fixturesByDate) expect(list.every((f) => f.starting_at?.startsWith(date))).toBe(true)
    const dayList = d.fixturesByDate.values().next().value ?? []
    expect(dayList.map((f) => f.starting_at_timestamp)).toEqual(dayList.map((f) => f.starting_at_timestamp).sort((a, b) => a - b))
    const current = d.currentSeasonByLeague.get(271) as Dataset['seasons'][number]
    expect(d.teamsBySeason.get(current.id)).toHaveLength(12)
    expect(d.seasonsByTeam.get(d.teamsBySeason.get(current.id)?.[0]?.id ?? 0)?.map((s) => s.id)).toContain(current.id)
  })
})
