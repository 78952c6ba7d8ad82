/**
 * Records of the embedded provider's reference data, with exactly the field names of the real API, as its
 * documentation and recorded responses show them (docs/upstream.md).
 * The HTTP layer serializes these as they are, minus the dataset-only fields of `DatasetFixture`.
 */
import type { FixtureBase, Team } from '@touchline/upstream-contract/football'

export interface Continent {
  id: number
  name: string
  /** Two letters, e.g. `EU`. */
  code: string
}

export interface Country {
  id: number
  continent_id: number
  name: string
  official_name: string
  /** Three letters, e.g. `DEN`. */
  fifa_name: string
  iso2: string
  iso3: string
  latitude: string
  longitude: string
  geonameid: number
  /** iso3 codes of neighbours present in the dataset. */
  borders: string[]
  image_path: string
}

export interface Region {
  id: number
  country_id: number
  name: string
}

export interface City {
  id: number
  country_id: number
  region_id: number
  name: string
  latitude: string
  longitude: string
  geonameid: number
}

type LeagueType = 'league' | 'phase'
/** League sub-types. The docs do not show the wire spelling of the last three; these are the docs' own words. */
export type LeagueSubType = 'domestic' | 'domestic_cup' | 'international' | 'cup_international' | 'play-offs' | 'friendly'

export interface League {
  id: number
  sport_id: number
  country_id: number
  name: string
  active: boolean
  short_code: string
  image_path: string
  type: LeagueType
  sub_type: LeagueSubType
  /** `YYYY-MM-DD HH:MM:SS` of the latest kick-off before the anchor, or null. */
  last_played_at: string | null
  category: number
  has_jerseys: boolean
}

export interface Season {
  id: number
  sport_id: number
  league_id: number
  tie_breaker_rule_id: number
  name: string
  finished: boolean
  pending: boolean
  is_current: boolean
  starting_at: string
  ending_at: string
  standings_recalculated_at: string | null
  games_in_current_week: boolean
}

/** Stage types: 223 Group Stage, 224 Knock Out, 225 Qualifying. */
export type StageTypeId = 223 | 224 | 225

export interface Stage {
  id: number
  sport_id: number
  league_id: number
  season_id: number
  type_id: StageTypeId
  name: string
  sort_order: number
  finished: boolean
  is_current: boolean
  starting_at: string
  ending_at: string
  games_in_current_week: boolean
  tie_breaker_rule_id: number | null
}

export interface Round {
  id: number
  sport_id: number
  league_id: number
  season_id: number
  stage_id: number
  name: string
  finished: boolean
  is_current: boolean
  starting_at: string
  ending_at: string
  games_in_current_week: boolean
}

export interface Group {
  id: number
  sport_id: number
  league_id: number
  season_id: number
  stage_id: number
  name: string
  starting_at: string
  ending_at: string
  games_in_current_week: boolean
  is_current: boolean
  finished: boolean
  pending: boolean
}

export type { Team }

/** Fields shared by players, coaches and referees. */
export interface PersonBase {
  id: number
  sport_id: number
  country_id: number
  city_id: number | null
  common_name: string
  firstname: string
  lastname: string
  name: string
  display_name: string
  image_path: string
  height: number | null
  weight: number | null
  date_of_birth: string | null
  gender: string
}

export interface Player extends PersonBase {
  nationality_id: number
  /** 24 goalkeeper, 25 defender, 26 midfielder, 27 attacker. */
  position_id: number
  detailed_position_id: number | null
  /** Equals `position_id`, as in the real API. */
  type_id: number
}

export interface Coach extends PersonBase {
  player_id: number | null
  nationality_id: number
}

export type Referee = PersonBase

export interface Venue {
  id: number
  country_id: number
  city_id: number
  name: string
  address: string | null
  zipcode: string | null
  latitude: string
  longitude: string
  capacity: number
  image_path: string
  city_name: string
  surface: string
  national_team: boolean
}

export interface Standing {
  id: number
  participant_id: number
  sport_id: number
  league_id: number
  season_id: number
  stage_id: number
  group_id: number | null
  round_id: number | null
  standing_rule_id: number
  position: number
  result: 'up' | 'down' | 'equal'
  points: number
}

export interface TypeRecord {
  id: number
  name: string
  code: string
  developer_name: string
  model_type: string
  stat_group: string | null
}

/**
 * `cup`: the fixture decides a knock-out tie (a single-leg tie or the second leg), so a tie level after 90'
 * goes to extra time and penalties. Everything else, first legs included, is `league`.
 */
export type FixtureKind = 'league' | 'cup'

/**
 * A fixture as scheduled. `state_id` is the scheduled state: 5 (or 7/8 for some `cup` ties) before the
 * anchor, 1 (NS) from the anchor on. `result_info` is null: scores, events and results are the simulator's.
 */
export type DatasetFixture = FixtureBase & {
  home_team_id: number
  away_team_id: number
  referee_id: number | null
  kind: FixtureKind
}

/** Every record of the dataset, each array sorted by id ascending. */
export interface DatasetRecords {
  continents: Continent[]
  countries: Country[]
  regions: Region[]
  cities: City[]
  leagues: League[]
  seasons: Season[]
  stages: Stage[]
  rounds: Round[]
  groups: Group[]
  teams: Team[]
  players: Player[]
  coaches: Coach[]
  referees: Referee[]
  venues: Venue[]
  fixtures: DatasetFixture[]
  standings: Standing[]
  types: TypeRecord[]
  /** Team id to the ids of its squad (clubs about 22, national teams 23, goalkeepers first). */
  squads: Map<number, number[]>
  coachOfTeam: Map<number, number>
  /**
   * Decisive fixture of each knock-out tie (`kind: 'cup'`) to the team the schedule lets through: later
   * rounds are drawn from these teams, so a simulator that wants consistent brackets makes them win.
   */
  tieWinners: Map<number, number>
}

type ById<T> = ReadonlyMap<number, T>
type Many<T> = ReadonlyMap<number, readonly T[]>

/** Look-ups derived from the records by `indexDataset()`; lists are sorted by id (fixtures by kick-off, then id). */
export interface DatasetIndexes {
  byId: {
    continent: ById<Continent>
    country: ById<Country>
    region: ById<Region>
    city: ById<City>
    league: ById<League>
    season: ById<Season>
    stage: ById<Stage>
    round: ById<Round>
    group: ById<Group>
    team: ById<Team>
    player: ById<Player>
    coach: ById<Coach>
    referee: ById<Referee>
    venue: ById<Venue>
    fixture: ById<DatasetFixture>
    standing: ById<Standing>
    type: ById<TypeRecord>
  }
  countriesByContinent: Many<Country>
  regionsByCountry: Many<Region>
  citiesByRegion: Many<City>
  citiesByCountry: Many<City>
  leaguesByCountry: Many<League>
  seasonsByLeague: Many<Season>
  /** The `is_current` season of each league. */
  currentSeasonByLeague: ById<Season>
  stagesBySeason: Many<Stage>
  roundsBySeason: Many<Round>
  groupsBySeason: Many<Group>
  roundsByStage: Many<Round>
  groupsByStage: Many<Group>
  fixturesBySeason: Many<DatasetFixture>
  fixturesByStage: Many<DatasetFixture>
  fixturesByRound: Many<DatasetFixture>
  fixturesByGroup: Many<DatasetFixture>
  fixturesByTeam: Many<DatasetFixture>
  fixturesByVenue: Many<DatasetFixture>
  /** Key `YYYY-MM-DD` (UTC) of `starting_at`. */
  fixturesByDate: ReadonlyMap<string, readonly DatasetFixture[]>
  teamsBySeason: Many<Team>
  seasonsByTeam: Many<Season>
  standingsBySeason: Many<Standing>
  /** Teams whose squad lists the player (a club and possibly a national team). */
  teamsByPlayer: Many<Team>
  teamsByCoach: Many<Team>
}

export interface Dataset extends DatasetRecords, DatasetIndexes {
  seed: number
  /** Unix seconds of the anchor day at 00:00 UTC; every date of the dataset is relative to it. */
  anchor: number
}
