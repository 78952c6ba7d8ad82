/**
 * The resource graph of the interface spec: for each kind of record, the relations a request may `include`
 * and the fields it may `select`. Shared by the embedded provider (which resolves them) and the REST
 * passthrough (which validates requests locally before spending budget).
 */

export type Kind =
  | 'continent' | 'country' | 'region' | 'city' | 'type' | 'timezone' | 'filter'
  | 'league' | 'season' | 'stage' | 'round' | 'group' | 'aggregate' | 'standing' | 'standingDetail' | 'standingForm' | 'correction'
  | 'fixture' | 'team' | 'player' | 'coach' | 'referee' | 'venue' | 'state' | 'sport'
  | 'score' | 'event' | 'period' | 'statistic' | 'usage' | 'resource' | 'enrichment'
  | 'lineup' | 'lineupDetail' | 'formation' | 'metadata' | 'weather' | 'fixtureTvStation' | 'tvstation'
  | 'commentary' | 'trend' | 'sidelined' | 'ballCoordinate' | 'pressure' | 'expectedLineup' | 'matchfact' | 'news'
  | 'topscorer' | 'squad' | 'transfer' | 'transferRumour' | 'rival' | 'teamRanking' | 'teamOfTheWeek'
  | 'seasonStatistic' | 'trophy' | 'social' | 'jersey'
  | 'xg' | 'prediction' | 'odd' | 'market' | 'bookmaker'

/** What a plan must have for an include: xG needs a tier, predictions an add-on, odds the odds package. */
export type Feature = 'xg' | 'predictions' | 'odds'

export interface Relation {
  target: Kind
  many: boolean
  feature?: Feature
}

const one = (target: Kind, feature?: Feature): Relation => ({ target, many: false, ...(feature ? { feature } : {}) })
const many = (target: Kind, feature?: Feature): Relation => ({ target, many: true, ...(feature ? { feature } : {}) })

/**
 * Fixture includes: the real API's full list (docs/upstream.md, "Includes"; the fixture endpoint pages of its
 * documentation: sport ... expectedLineups, matchfacts). Livescores take the same ones.
 */
const FIXTURE_RELATIONS: Record<string, Relation> = {
  sport: one('sport'),
  league: one('league'),
  season: one('season'),
  stage: one('stage'),
  round: one('round'),
  group: one('group'),
  aggregate: one('aggregate'),
  venue: one('venue'),
  state: one('state'),
  coaches: many('coach'),
  tvStations: many('fixtureTvStation'),
  weatherReport: one('weather'),
  lineups: many('lineup'),
  expectedLineups: many('expectedLineup'),
  // Named only by a third-party listing of fixtures/latest [unverified].
  predictedLineups: many('expectedLineup'),
  formations: many('formation'),
  participants: many('team'),
  scores: many('score'),
  events: many('event'),
  timeline: many('event'),
  comments: many('commentary'),
  trends: many('trend'),
  periods: many('period'),
  detailedPeriods: many('period'),
  currentPeriod: one('period'),
  statistics: many('statistic'),
  referees: many('referee'),
  metadata: many('metadata'),
  sidelined: many('sidelined'),
  ballCoordinates: many('ballCoordinate'),
  pressure: many('pressure'),
  prematchNews: many('news'),
  postmatchNews: many('news'),
  matchfacts: many('matchfact'),
  xGFixture: many('xg', 'xg'),
  predictions: many('prediction', 'predictions'),
  odds: many('odd', 'odds'),
  premiumOdds: many('odd', 'odds'),
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
  season: {
    sport: one('sport'),
    league: one('league'),
    stages: many('stage'),
    rounds: many('round'),
    groups: many('group'),
    teams: many('team'),
    fixtures: many('fixture'),
    currentStage: one('stage'),
    statistics: many('seasonStatistic'),
    topscorers: many('topscorer')
  },
  stage: {
    sport: one('sport'),
    league: one('league'),
    season: one('season'),
    rounds: many('round'),
    groups: many('group'),
    aggregates: many('aggregate'),
    fixtures: many('fixture'),
    type: one('type'),
    statistics: many('seasonStatistic'),
    topscorers: many('topscorer')
  },
  round: { sport: one('sport'), league: one('league'), season: one('season'), stage: one('stage'), fixtures: many('fixture'), statistics: many('seasonStatistic') },
  group: { sport: one('sport'), league: one('league'), season: one('season'), stage: one('stage'), fixtures: many('fixture') },
  aggregate: { league: one('league'), season: one('season'), stage: one('stage'), fixtures: many('fixture') },
  standing: {
    participant: one('team'),
    sport: one('sport'),
    league: one('league'),
    season: one('season'),
    stage: one('stage'),
    round: one('round'),
    group: one('group'),
    rule: one('type'),
    details: many('standingDetail'),
    form: many('standingForm')
  },
  standingDetail: { type: one('type') },
  standingForm: { fixture: one('fixture') },
  correction: { participant: one('team'), season: one('season'), stage: one('stage'), group: one('group'), type: one('type') },
  fixture: FIXTURE_RELATIONS,
  team: {
    sport: one('sport'),
    country: one('country'),
    venue: one('venue'),
    players: many('player'),
    coaches: many('coach'),
    rivals: many('rival'),
    latest: many('fixture'),
    upcoming: many('fixture'),
    seasons: many('season'),
    activeSeasons: many('season'),
    sidelined: many('sidelined'),
    sidelinedHistory: many('sidelined'),
    statistics: many('seasonStatistic'),
    trophies: many('trophy'),
    socials: many('social'),
    rankings: many('teamRanking')
  },
  player: {
    sport: one('sport'),
    country: one('country'),
    nationality: one('country'),
    city: one('city'),
    position: one('type'),
    detailedPosition: one('type'),
    teams: many('team'),
    statistics: many('seasonStatistic'),
    transfers: many('transfer'),
    latest: many('lineup'),
    lineups: many('lineup'),
    trophies: many('trophy'),
    sidelined: many('sidelined'),
    metadata: many('metadata')
  },
  coach: { sport: one('sport'), country: one('country'), nationality: one('country'), player: one('player'), teams: many('team'), statistics: many('seasonStatistic'), trophies: many('trophy') },
  referee: { sport: one('sport'), country: one('country'), nationality: one('country'), city: one('city'), statistics: many('seasonStatistic') },
  venue: { country: one('country'), city: one('city'), fixtures: many('fixture') },
  state: { type: one('type') },
  score: { participant: one('team'), type: one('type') },
  event: { player: one('player'), relatedPlayer: one('player'), participant: one('team'), type: one('type'), subType: one('type'), period: one('period'), fixture: one('fixture') },
  period: { type: one('type'), fixture: one('fixture') },
  statistic: { type: one('type'), participant: one('team'), fixture: one('fixture') },
  usage: {},
  resource: {},
  enrichment: {},
  lineup: {
    player: one('player'),
    team: one('team'),
    fixture: one('fixture'),
    type: one('type'),
    position: one('type'),
    detailedPosition: one('type'),
    details: many('lineupDetail'),
    xGLineup: many('xg', 'xg')
  },
  lineupDetail: { type: one('type'), player: one('player') },
  formation: { participant: one('team'), fixture: one('fixture') },
  metadata: { type: one('type') },
  weather: { fixture: one('fixture') },
  fixtureTvStation: { tvStation: one('tvstation'), country: one('country'), fixture: one('fixture') },
  tvstation: { fixtures: many('fixture'), countries: many('country') },
  commentary: { fixture: one('fixture'), player: one('player'), relatedPlayer: one('player') },
  trend: { type: one('type'), participant: one('team'), fixture: one('fixture') },
  sidelined: { player: one('player'), team: one('team'), season: one('season'), type: one('type'), fixture: one('fixture') },
  ballCoordinate: { fixture: one('fixture'), type: one('type') },
  pressure: { participant: one('team'), fixture: one('fixture') },
  expectedLineup: { player: one('player'), team: one('team'), type: one('type'), fixture: one('fixture') },
  matchfact: { sport: one('sport'), fixture: one('fixture'), type: one('type'), league: one('league') },
  news: { fixture: one('fixture'), league: one('league'), season: one('season') },
  topscorer: { player: one('player'), participant: one('team'), type: one('type'), season: one('season'), stage: one('stage') },
  squad: { player: one('player'), team: one('team'), position: one('type'), detailedPosition: one('type'), transfer: one('transfer') },
  transfer: { sport: one('sport'), player: one('player'), type: one('type'), fromTeam: one('team'), toTeam: one('team'), position: one('type'), detailedPosition: one('type') },
  transferRumour: { player: one('player'), fromTeam: one('team'), toTeam: one('team'), type: one('type'), position: one('type') },
  rival: { team: one('team'), rival: one('team') },
  teamRanking: { team: one('team') },
  teamOfTheWeek: { player: one('player'), team: one('team'), round: one('round'), fixture: one('fixture'), league: one('league') },
  seasonStatistic: { player: one('player'), team: one('team'), coach: one('coach'), referee: one('referee'), season: one('season'), position: one('type'), type: one('type') },
  trophy: { league: one('league'), season: one('season'), trophy: one('type') },
  social: {},
  jersey: { team: one('team') },
  xg: { type: one('type'), fixture: one('fixture'), player: one('player'), team: one('team') },
  prediction: { type: one('type'), fixture: one('fixture') },
  odd: { market: one('market'), bookmaker: one('bookmaker'), fixture: one('fixture') },
  market: {},
  bookmaker: {}
}

/**
 * Fields `select` accepts, by kind. City and Country take two aliases (`region` selects `region_id`,
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

/** Select names that differ from the field they return. */
export const SELECT_ALIASES: Readonly<Record<string, string>> = { region: 'region_id', border: 'borders' }
