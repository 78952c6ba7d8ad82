import { describe, expect, it } from 'vitest'
import { DAY } from '../../../packages/provider/src/dataset/dates.ts'
import { generateDataset } from '../../../packages/provider/src/dataset/generate.ts'
import type { Dataset } from '../../../packages/provider/src/dataset/types.ts'

const ANCHOR = Date.UTC(2026, 10, 21) / 1000

/** Ids and names of every named kind of record. */
function identity (d: Dataset): Record<string, Array<[number, string]>> {
  return {
    countries: d.countries.map((r) => [r.id, r.name]),
    cities: d.cities.map((r) => [r.id, r.name]),
    leagues: d.leagues.map((r) => [r.id, r.name]),
    seasons: d.seasons.map((r) => [r.id, r.name]),
    stages: d.stages.map((r) => [r.id, r.name]),
    rounds: d.rounds.map((r) => [r.id, r.name]),
    groups: d.groups.map((r) => [r.id, r.name]),
    teams: d.teams.map((r) => [r.id, r.name]),
    players: d.players.map((r) => [r.id, r.name]),
    coaches: d.coaches.map((r) => [r.id, r.name]),
    referees: d.referees.map((r) => [r.id, r.name]),
    venues: d.venues.map((r) => [r.id, r.name]),
    fixtures: d.fixtures.map((r) => [r.id, r.name ?? ''])
  }
}

describe('dataset determinism', () => {
  const a = generateDataset({ seed: 1, anchor: ANCHOR })

  it('gives the same records for the same seed and anchor', () => {
    const b = generateDataset({ seed: 1, anchor: ANCHOR })
    expect(identity(b)).toEqual(identity(a))
    expect(b.fixtures).toEqual(a.fixtures)
    expect(b.standings).toEqual(a.standings)
    expect([...b.squads]).toEqual([...a.squads])
  })

  it('gives other names for another seed but keeps the fixed ids', () => {
    const other = generateDataset({ seed: 2, anchor: ANCHOR })
    expect(other.teams.map((t) => t.name)).not.toEqual(a.teams.map((t) => t.name))
    expect(other.players.map((p) => p.name)).not.toEqual(a.players.map((p) => p.name))
    expect(other.byId.league.get(271)?.name).toBe('Superliga')
    expect(other.countries).toEqual(a.countries)
  })

  it('moves only dates when the anchor moves', () => {
    const later = generateDataset({ seed: 1, anchor: ANCHOR + 7 * DAY })
    expect(later.teams.map((t) => [t.id, t.name])).toEqual(identity(a).teams)
    expect(later.fixtures.map((f) => [f.id, f.name, f.state_id, f.starting_at_timestamp - later.anchor]))
      .toEqual(a.fixtures.map((f) => [f.id, f.name, f.state_id, f.starting_at_timestamp - a.anchor]))
  })

  it('normalizes the anchor to the start of its UTC day', () => {
    expect(generateDataset({ seed: 1, anchor: ANCHOR + 13 * 3600 }).anchor).toBe(ANCHOR)
  })
})
