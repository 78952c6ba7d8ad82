/**
 * Every look-up of the dataset, derived from the records in one place (nothing is maintained by hand).
 * Lists keep the order of the records they come from: by id, fixtures by kick-off then id.
 */
import type { DatasetFixture, DatasetIndexes, DatasetRecords, Season, Team } from './types.ts'

function byId<T extends { id: number }> (records: readonly T[]): Map<number, T> {
  const map = new Map<number, T>()
  for (const r of records) map.set(r.id, r)
  return map
}

function groupBy<T, K> (records: readonly T[], key: (r: T) => K | null | undefined): Map<K, T[]> {
  const map = new Map<K, T[]>()
  for (const r of records) {
    const k = key(r)
    if (k === null || k === undefined) continue
    const list = map.get(k)
    if (list === undefined) map.set(k, [r])
    else list.push(r)
  }
  return map
}

/** Like groupBy, for records that belong to several keys. */
function groupByMany<T, K> (records: readonly T[], keys: (r: T) => readonly K[]): Map<K, T[]> {
  const map = new Map<K, T[]>()
  for (const r of records) {
    for (const k of new Set(keys(r))) {
      const list = map.get(k)
      if (list === undefined) map.set(k, [r])
      else list.push(r)
    }
  }
  return map
}

const byKickoff = (a: DatasetFixture, b: DatasetFixture): number => a.starting_at_timestamp - b.starting_at_timestamp || a.id - b.id

export function indexDataset (records: DatasetRecords): DatasetIndexes {
  const team = byId(records.teams)
  const season = byId(records.seasons)
  const fixtures = records.fixtures.slice().sort(byKickoff)
  const teamIdsBySeason = new Map<number, Set<number>>()
  for (const f of records.fixtures) {
    let set = teamIdsBySeason.get(f.season_id)
    if (set === undefined) teamIdsBySeason.set(f.season_id, set = new Set())
    set.add(f.home_team_id)
    set.add(f.away_team_id)
  }
  const teamsBySeason = new Map<number, Team[]>()
  const seasonsByTeam = new Map<number, Season[]>()
  for (const s of records.seasons) {
    const members = [...(teamIdsBySeason.get(s.id) ?? [])].sort((a, b) => a - b)
    teamsBySeason.set(s.id, members.map((id) => team.get(id)).filter((t): t is Team => t !== undefined))
    for (const id of members) {
      const list = seasonsByTeam.get(id)
      if (list === undefined) seasonsByTeam.set(id, [s])
      else list.push(s)
    }
  }
  const squadEntries = [...records.squads.entries()].sort(([a], [b]) => a - b)
  const teamsByPlayer = new Map<number, Team[]>()
  for (const [teamId, players] of squadEntries) {
    const t = team.get(teamId)
    if (t === undefined) continue
    for (const p of players) {
      const list = teamsByPlayer.get(p)
      if (list === undefined) teamsByPlayer.set(p, [t])
      else list.push(t)
    }
  }
  const teamsByCoach = groupBy([...records.coachOfTeam.entries()].sort(([a], [b]) => a - b), ([, coach]) => coach)
  return {
    byId: {
      continent: byId(records.continents),
      country: byId(records.countries),
      region: byId(records.regions),
      city: byId(records.cities),
      league: byId(records.leagues),
      season,
      stage: byId(records.stages),
      round: byId(records.rounds),
      group: byId(records.groups),
      team,
      player: byId(records.players),
      coach: byId(records.coaches),
      referee: byId(records.referees),
      venue: byId(records.venues),
      fixture: byId(records.fixtures),
      standing: byId(records.standings),
      type: byId(records.types)
    },
    countriesByContinent: groupBy(records.countries, (c) => c.continent_id),
    regionsByCountry: groupBy(records.regions, (r) => r.country_id),
    citiesByRegion: groupBy(records.cities, (c) => c.region_id),
    citiesByCountry: groupBy(records.cities, (c) => c.country_id),
    leaguesByCountry: groupBy(records.leagues, (l) => l.country_id),
    seasonsByLeague: groupBy(records.seasons, (s) => s.league_id),
    currentSeasonByLeague: new Map(records.seasons.filter((s) => s.is_current).map((s) => [s.league_id, s])),
    stagesBySeason: groupBy(records.stages, (s) => s.season_id),
    roundsBySeason: groupBy(records.rounds, (r) => r.season_id),
    groupsBySeason: groupBy(records.groups, (g) => g.season_id),
    roundsByStage: groupBy(records.rounds, (r) => r.stage_id),
    groupsByStage: groupBy(records.groups, (g) => g.stage_id),
    fixturesBySeason: groupBy(fixtures, (f) => f.season_id),
    fixturesByStage: groupBy(fixtures, (f) => f.stage_id),
    fixturesByRound: groupBy(fixtures, (f) => f.round_id),
    fixturesByGroup: groupBy(fixtures, (f) => f.group_id),
    fixturesByTeam: groupByMany(fixtures, (f) => [f.home_team_id, f.away_team_id]),
    fixturesByVenue: groupBy(fixtures, (f) => f.venue_id),
    fixturesByDate: groupBy(fixtures, (f) => f.starting_at?.slice(0, 10)),
    teamsBySeason,
    seasonsByTeam,
    standingsBySeason: groupBy(records.standings, (s) => s.season_id),
    teamsByPlayer,
    teamsByCoach: new Map([...teamsByCoach].map(([coach, entries]) => [coach, entries.map(([id]) => team.get(id)).filter((t): t is Team => t !== undefined)]))
  }
}
