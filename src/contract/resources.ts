/**
 * The resource graph of the interface spec: for each kind of record, the relations a request may `include`
 * and the fields it may `select`. Shared by the embedded provider (which resolves them) and the REST
 * passthrough (which validates requests locally before spending budget).
 */

export type Kind =
  | 'continent' | 'country' | 'region' | 'city' | 'type' | 'timezone' | 'filter'
  | 'league' | 'season' | 'stage' | 'round' | 'group' | 'standing'
  | 'fixture' | 'team' | 'player' | 'coach' | 'referee' | 'venue' | 'state' | 'sport'
  | 'score' | 'event' | 'period' | 'statistic' | 'usage' | 'resource'
  | 'xg' | 'prediction' | 'odd'

/** What a plan must have for an include: spec 7 (xG needs a tier, predictions an add-on, odds the odds package). */
export type Feature = 'xg' | 'predictions' | 'odds'

export interface Relation {
  target: Kind
  many: boolean
  feature?: Feature
}

const one = (target: Kind, feature?: Feature): Relation => ({ target, many: false, ...(feature ? { feature } : {}) })
const many = (target: Kind, feature?: Feature): Relation => ({ target, many: true, ...(feature ? { feature } : {}) })

const FIXTURE_RELATIONS: Record<string, Relation> = {
  sport: one('sport'),
  league: one('league'),
  season: one('season'),
  stage: one('stage'),
  round: one('round'),
  group: one('group'),
  venue: one('venue'),
  state: one('state'),
  participants: many('team'),
  scores: many('score'),
  events: many('event'),
  periods: many('period'),
  detailedPeriods: many('period'),
  currentPeriod: one('period'),
  statistics: many('statistic'),
  referees: many('referee'),
  xGFixture: many('xg', 'xg'),
  predictions: many('prediction', 'predictions'),
  odds: many('odd', 'odds'),
  inplayOdds: many('odd', 'odds')
}

/** Relations by kind. Include names are case-sensitive as in the real API; response keys are lower-cased. */
export const RELATIONS: Readonly<Record<Kind, Readonly<Record<string, Relation>>>> = {
  continent: { countries: many('country') },
  country: { continent: one('continent'), leagues: many('league'), regions: many('region') },
  region: { country: one('country'), cities: many('city') },
  city: { region: one('region'), country: one('country') },
  type: {},
  timezone: {},
  filter: {},
  sport: {},
  league: {
    sport: one('sport'),
    country: one('country'),
    stages: many('stage'),
    currentSeason: one('season'),
    seasons: many('season'),
    latest: many('fixture'),
    upcoming: many('fixture'),
    inplay: many('fixture'),
    today: many('fixture')
  },
  season: { league: one('league'), stages: many('stage'), rounds: many('round'), groups: many('group'), teams: many('team'), fixtures: many('fixture'), currentStage: one('stage') },
  stage: { league: one('league'), season: one('season'), rounds: many('round'), groups: many('group'), fixtures: many('fixture'), type: one('type') },
  round: { league: one('league'), season: one('season'), stage: one('stage'), fixtures: many('fixture') },
  group: { league: one('league'), season: one('season'), stage: one('stage'), fixtures: many('fixture') },
  standing: { participant: one('team'), league: one('league'), season: one('season'), stage: one('stage'), round: one('round'), group: one('group') },
  fixture: FIXTURE_RELATIONS,
  team: { country: one('country'), venue: one('venue'), players: many('player'), coaches: many('coach'), latest: many('fixture'), upcoming: many('fixture'), seasons: many('season') },
  player: { country: one('country'), nationality: one('country'), city: one('city'), teams: many('team') },
  coach: { country: one('country'), nationality: one('country'), teams: many('team') },
  referee: { country: one('country'), city: one('city') },
  venue: { country: one('country'), city: one('city'), fixtures: many('fixture') },
  state: {},
  score: { participant: one('team'), type: one('type') },
  event: { player: one('player'), relatedPlayer: one('player'), participant: one('team'), type: one('type'), fixture: one('fixture') },
  period: { type: one('type') },
  statistic: { type: one('type'), participant: one('team') },
  usage: {},
  resource: {},
  xg: { type: one('type') },
  prediction: { type: one('type') },
  odd: {}
}

/**
 * Fields `select` accepts, by kind. City and Country follow spec 2.5 and 2.7 (`region` selects `region_id`,
 * `border` selects `borders`); the others are the base fields of the real API.
 */
export const SELECTABLE: Readonly<Partial<Record<Kind, readonly string[]>>> = {
  city: ['id', 'country_id', 'region', 'name', 'latitude', 'longitude', 'geonameid'],
  continent: ['id', 'name', 'code'],
  country: ['id', 'continent_id', 'name', 'official_name', 'fifa_name', 'iso2', 'iso3', 'latitude', 'longitude', 'geonameid', 'border', 'image_path'],
  region: ['id', 'country_id', 'name'],
  league: ['id', 'sport_id', 'country_id', 'name', 'active', 'short_code', 'image_path', 'type', 'sub_type', 'last_played_at', 'category', 'has_jerseys'],
  season: ['id', 'sport_id', 'league_id', 'tie_breaker_rule_id', 'name', 'finished', 'pending', 'is_current', 'starting_at', 'ending_at', 'standings_recalculated_at', 'games_in_current_week'],
  stage: ['id', 'sport_id', 'league_id', 'season_id', 'type_id', 'name', 'sort_order', 'finished', 'is_current', 'starting_at', 'ending_at', 'games_in_current_week', 'tie_breaker_rule_id'],
  round: ['id', 'sport_id', 'league_id', 'season_id', 'stage_id', 'name', 'finished', 'is_current', 'starting_at', 'ending_at', 'games_in_current_week'],
  fixture: ['id', 'sport_id', 'league_id', 'season_id', 'stage_id', 'group_id', 'aggregate_id', 'round_id', 'state_id', 'venue_id', 'name', 'starting_at', 'result_info', 'leg', 'details', 'length', 'placeholder', 'has_odds', 'has_premium_odds', 'starting_at_timestamp'],
  team: ['id', 'sport_id', 'country_id', 'venue_id', 'gender', 'name', 'short_code', 'image_path', 'founded', 'type', 'placeholder', 'last_played_at'],
  player: ['id', 'sport_id', 'country_id', 'nationality_id', 'city_id', 'position_id', 'detailed_position_id', 'type_id', 'common_name', 'firstname', 'lastname', 'name', 'display_name', 'image_path', 'height', 'weight', 'date_of_birth', 'gender'],
  coach: ['id', 'player_id', 'sport_id', 'country_id', 'nationality_id', 'city_id', 'common_name', 'firstname', 'lastname', 'name', 'display_name', 'image_path', 'height', 'weight', 'date_of_birth', 'gender'],
  referee: ['id', 'sport_id', 'country_id', 'city_id', 'common_name', 'firstname', 'lastname', 'name', 'display_name', 'image_path', 'height', 'weight', 'date_of_birth', 'gender'],
  venue: ['id', 'country_id', 'city_id', 'name', 'address', 'zipcode', 'latitude', 'longitude', 'capacity', 'image_path', 'city_name', 'surface', 'national_team'],
  standing: ['id', 'participant_id', 'sport_id', 'league_id', 'season_id', 'stage_id', 'group_id', 'round_id', 'standing_rule_id', 'position', 'result', 'points'],
  type: ['id', 'name', 'code', 'developer_name', 'model_type', 'stat_group']
}

/** Select names that differ from the field they return (spec 2.5, 2.7). */
export const SELECT_ALIASES: Readonly<Record<string, string>> = { region: 'region_id', border: 'borders' }
