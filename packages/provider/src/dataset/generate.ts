/**
 * The embedded provider's reference data, generated deterministically: the same seed gives the same ids
 * and names; the anchor (a day) only moves dates. See competitions.ts for what is generated and when.
 */
import { ClubFactory } from './clubs.ts'
import { LEAGUES, CLUB_POOL_PER_COUNTRY, FA_CUP_EXTRA_CLUBS, SCOTTISH_CHAMPIONSHIP_CLUBS, type LeagueSpec } from './competitions.ts'
import { emptyRecords, imagePath, Ids, type BuildContext } from './context.ts'
import { DAY, startOfTodayUtc, ymdhms } from './dates.ts'
import { entrantsFor, hostVenues, neutralVenues, refereePicker, seasonName, type TeamPools } from './draws.ts'
import { buildGeo } from './geo.ts'
import type { CountrySeed } from './geo-data.ts'
import { indexDataset } from './indexes.ts'
import { PeopleFactory } from './people.ts'
import { Rng } from '../rng.ts'
import { buildSeason } from './season.ts'
import { TYPE_RECORDS } from './type-records.ts'
import type { FixtureBase } from '@touchline/upstream-contract/football'
import type { Dataset, DatasetFixture, DatasetRecords, League, Team } from './types.ts'

export interface GenerateOptions {
  /** @default 1 */
  seed?: number
  /** Unix seconds of the anchor day at 00:00 UTC. @default the start of today (UTC) */
  anchor?: number
}

function countrySeed (ctx: BuildContext, iso3: string): CountrySeed {
  const id = ctx.geo.byIso3.get(iso3)?.id
  const seed = id === undefined ? undefined : ctx.geo.seeds.get(id)
  if (seed === undefined) throw new Error(`no country ${iso3}`)
  return seed
}

/** Every team, in a fixed order so that ids do not depend on anything but the code. */
function createTeams (ctx: BuildContext): TeamPools {
  const clubs = new ClubFactory(ctx)
  const leagues = new Map<number, Team[]>()
  const leagueCountries = new Set<number>()
  for (const spec of LEAGUES.filter((s) => s.draw === 'domestic')) {
    const seed = countrySeed(ctx, spec.country)
    leagueCountries.add(seed.id)
    const tier = spec.category === 1 ? 1 : 2
    leagues.set(spec.id, clubs.clubs(seed, spec.teams, tier, (i) => 0.9 - 0.7 * i / (spec.teams - 1)))
  }
  const faCupExtra = clubs.clubs(countrySeed(ctx, 'ENG'), FA_CUP_EXTRA_CLUBS, 3, (i) => 0.35 - 0.25 * i / FA_CUP_EXTRA_CLUBS)
  const scottishChampionship = clubs.clubs(countrySeed(ctx, 'SCO'), SCOTTISH_CHAMPIONSHIP_CLUBS, 2, (i) => 0.3 - 0.05 * i)
  const european = [...ctx.geo.seeds.values()].filter((s) => s.continent === 1)
  const europeanPool = european
    .filter((s) => !leagueCountries.has(s.id))
    .flatMap((s) => clubs.clubs(s, CLUB_POOL_PER_COUNTRY, 2, (i) => 0.6 - 0.15 * i))
  const nationalTeams = european.map((s) => clubs.nationalTeam(s))
  return { leagues, faCupExtra, scottishChampionship, europeanPool, nationalTeams }
}

function createPeople (ctx: BuildContext, pools: TeamPools): void {
  const people = new PeopleFactory(ctx)
  const nationalIds = new Set(pools.nationalTeams.map((t) => t.id))
  const clubs = ctx.out.teams.filter((t) => !nationalIds.has(t.id))
  for (const team of clubs) people.clubSquad(team)
  for (const team of pools.nationalTeams) people.nationalSquad(team)
  for (const team of ctx.out.teams) people.coach(team)
  const busy = new Set(LEAGUES.filter((s) => s.draw === 'domestic').map((s) => s.country))
  people.referees((seed) => busy.has(seed.iso3) ? 10 : 3)
}

function createLeague (ctx: BuildContext, spec: LeagueSpec, countryId: number): League {
  const stageTypes = new Set(spec.phases.map((p) => p.type))
  const league: League = {
    id: spec.id,
    sport_id: 1,
    country_id: countryId,
    name: spec.name,
    active: true,
    short_code: spec.short_code,
    image_path: imagePath('leagues', spec.id),
    // Competitions made of phases of different kinds (qualifying, groups, knock-out) are `phase` leagues.
    type: stageTypes.size > 1 ? 'phase' : 'league',
    sub_type: spec.sub_type,
    last_played_at: null,
    category: spec.category,
    has_jerseys: false
  }
  ctx.out.leagues.push(league)
  return league
}

function createCompetitions (ctx: BuildContext, pools: TeamPools): void {
  for (const spec of LEAGUES) {
    const countryId = spec.country === 'EUR' ? ctx.geo.europe.id : countrySeed(ctx, spec.country).id
    const league = createLeague(ctx, spec, countryId)
    const neutral = neutralVenues(ctx, countryId)
    const referee = refereePicker(ctx, spec, countryId)
    for (let age = spec.seasons - 1; age >= 0; age--) {
      const rng = ctx.rng.fork(`draw:${spec.id}:${age}`)
      // A tournament needs big stadiums: the host is one of the countries with a top-category league.
      const host = spec.draw === 'euro' ? rng.pick(LEAGUES.filter((s) => s.draw === 'domestic' && s.category === 1)).country : null
      buildSeason(ctx, {
        spec,
        league,
        age,
        name: seasonName(spec, ctx.anchor, age),
        entrants: entrantsFor(spec, LEAGUES, pools, rng),
        neutralVenue: (r) => neutral.length > 0 ? r.pick(neutral) : null,
        hostVenues: host === null ? null : hostVenues(ctx, countrySeed(ctx, host).id),
        referee
      })
    }
  }
}

/** The wire form of a fixture: the dataset-only fields (`home_team_id`, `away_team_id`, `referee_id`, `kind`) removed. */
export function fixtureBase (fixture: DatasetFixture): FixtureBase {
  const { home_team_id: _home, away_team_id: _away, referee_id: _referee, kind: _kind, ...base } = fixture
  return base
}

/** `last_played_at` of teams and leagues: their latest kick-off before the anchor. */
function setLastPlayed (ctx: BuildContext): void {
  const latest = new Map<string, number>()
  const bump = (key: string, ts: number): void => {
    if ((latest.get(key) ?? -Infinity) < ts) latest.set(key, ts)
  }
  for (const f of ctx.out.fixtures) {
    if (f.starting_at_timestamp >= ctx.anchor) continue
    bump(`t${f.home_team_id}`, f.starting_at_timestamp)
    bump(`t${f.away_team_id}`, f.starting_at_timestamp)
    bump(`l${f.league_id}`, f.starting_at_timestamp)
  }
  const at = (key: string): string | null => {
    const ts = latest.get(key)
    return ts === undefined ? null : ymdhms(ts)
  }
  for (const t of ctx.out.teams) t.last_played_at = at(`t${t.id}`)
  for (const l of ctx.out.leagues) l.last_played_at = at(`l${l.id}`)
}

function sortRecords (records: DatasetRecords): void {
  const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id
  for (const list of [records.continents, records.countries, records.regions, records.cities, records.leagues,
    records.seasons, records.stages, records.rounds, records.groups, records.teams, records.players, records.coaches,
    records.referees, records.venues, records.fixtures, records.standings, records.types]) {
    list.sort(byId)
  }
}

/** Generates the whole dataset (about 300 teams, 7,000 players, 9,000 fixtures) in well under a second. */
export function generateDataset (options: GenerateOptions = {}): Dataset {
  const seed = options.seed ?? 1
  // Only the day counts: any time of day is moved back to its 00:00 UTC.
  const anchor = Math.floor((options.anchor ?? startOfTodayUtc()) / DAY) * DAY
  const geo = buildGeo()
  const out = emptyRecords()
  out.continents = geo.continents
  out.countries = geo.countries
  out.regions = geo.regions
  out.cities = geo.cities
  out.types = TYPE_RECORDS.map((t) => ({ ...t }))
  const ctx: BuildContext = {
    seed,
    anchor,
    rng: new Rng(seed),
    geo,
    ids: new Ids(),
    out,
    teams: new Map(),
    strength: new Map(),
    venuesByCountry: new Map(),
    refereesByCountry: new Map()
  }
  const pools = createTeams(ctx)
  createPeople(ctx, pools)
  createCompetitions(ctx, pools)
  setLastPlayed(ctx)
  sortRecords(out)
  return { seed, anchor, ...out, ...indexDataset(out) }
}
