/**
 * The catalogue: every path of the upstream's football, core and odds surface (docs/upstream.md), with what
 * the query rules (query.ts) need to know about it: the entity bucket it draws on (docs/upstream.md, "Rate
 * limits"), the kind of record it returns, whether it pages, the include depth and the filters it takes.
 */
import type { Kind } from './resources.ts'

export type Mode = 'single' | 'list' | 'unpaged'

/** How a filter's value is written: `ids` is a comma list of integers, `flag` takes no value. */
type FilterValue = 'ids' | 'id' | 'flag' | 'text'

export interface FilterSpec {
  /** The canonical spelling; matching is case-insensitive, as the real API's `idAfter`/`IdAfter` show. */
  name: string
  value: FilterValue
  dynamic: boolean
}

export interface Endpoint {
  /** Stable name, e.g. `cities.search`. */
  id: string
  /** Path under the base URL with `:params`, e.g. `/core/cities/search/:name`. */
  path: string
  entity: string
  kind: Kind
  mode: Mode
  /** Deepest include nesting allowed. */
  maxDepth: number
  filters: readonly FilterSpec[]
  /** Fixture-type endpoints accept `timezone` and apply it to datetimes. */
  fixtureType: boolean
}

const f = (name: string, value: FilterValue, dynamic = false): FilterSpec => ({ name, value, dynamic })

const ID_AFTER = f('IdAfter', 'id')
const POPULATE = f('populate', 'flag')
/** Odds by market and bookmaker: on the odds feeds, and on fixtures for their odds includes (docs/upstream.md, "Includes"). */
const ODDS_FILTERS = [f('markets', 'ids', true), f('bookmakers', 'ids', true)]
const FIXTURE_FILTERS = [
  f('fixtureLeagues', 'ids', true), f('fixtureStages', 'ids', true), f('fixtureSeason', 'id', true),
  f('fixtureStates', 'ids', true), f('eventTypes', 'ids', true), f('fixtureStatisticTypes', 'ids', true),
  f('statisticTypes', 'ids', true), f('participantSearch', 'text'), f('venues', 'ids'), f('todayDate', 'flag'),
  ...ODDS_FILTERS, ID_AFTER, POPULATE
]
const LIVE_FILTERS = FIXTURE_FILTERS.filter((x) => x !== POPULATE && x !== ID_AFTER)
const LIST = [ID_AFTER, POPULATE]

interface Family {
  base: string
  entity: string
  kind: Kind
  depth: number
  fixtureType?: boolean
  filters?: readonly FilterSpec[]
  /** Extra list paths (`countries/:id` etc.) of this family. */
  lists?: readonly string[]
  search?: boolean
  byId?: boolean
  all?: boolean
}

function family (name: string, fam: Family): Endpoint[] {
  const common = { entity: fam.entity, kind: fam.kind, maxDepth: fam.depth, fixtureType: fam.fixtureType ?? false }
  const filters = fam.filters ?? LIST
  const out: Endpoint[] = []
  if (fam.all !== false) out.push({ id: `${name}.list`, path: fam.base, mode: 'list', filters, ...common })
  for (const sub of fam.lists ?? []) {
    out.push({ id: `${name}.${sub.split('/')[0] ?? sub}`, path: `${fam.base}/${sub}`, mode: 'list', filters, ...common })
  }
  if (fam.search !== false) out.push({ id: `${name}.search`, path: `${fam.base}/search/:name`, mode: 'list', filters, ...common })
  if (fam.byId !== false) {
    out.push({ id: `${name}.byId`, path: `${fam.base}/:id`, mode: 'single', filters: filters.filter((x) => x.dynamic), ...common })
  }
  return out
}

const endpoint = (id: string, path: string, entity: string, kind: Kind, mode: Mode, maxDepth: number, filters: readonly FilterSpec[] = [], fixtureType = false): Endpoint =>
  ({ id, path, entity, kind, mode, maxDepth, filters, fixtureType })

/** A paged list, and a list the real API sends whole. */
const list = (id: string, path: string, entity: string, kind: Kind, maxDepth = 2, filters: readonly FilterSpec[] = LIST): Endpoint =>
  endpoint(id, path, entity, kind, 'list', maxDepth, filters)
const unpaged = (id: string, path: string, entity: string, kind: Kind, maxDepth = 2, filters: readonly FilterSpec[] = []): Endpoint =>
  endpoint(id, path, entity, kind, 'unpaged', maxDepth, filters)

/**
 * The upstream's paths as docs/upstream.md describes them (its rules win where it states them), every path
 * of the real API's published 2023 OpenAPI document, and the paths its documentation added since (statistics,
 * team rankings, team of the week, match facts, transfer rumours, expected lineups, premium odds).
 *
 * `entity` is the rate-limit bucket (`requested_entity`). The real API names it after the model in PascalCase
 * (docs/upstream.md, "Rate limits"); buckets observed or documented: Fixture, State, League, Continent; the
 * documented list adds Team, Player, Season, Type, Venue, Coach, Referee, Resource. Every other name here is inferred from
 * the model's name in the docs. Paging follows the docs' "Pagination YES/NO" where read, else is inferred
 * (lists of a whole collection paged, lists under one fixture or team not).
 */
export const ENDPOINTS: readonly Endpoint[] = [
  // Core
  ...family('continents', { base: '/core/continents', entity: 'Continent', kind: 'continent', depth: 3, search: false }),
  ...family('countries', { base: '/core/countries', entity: 'Country', kind: 'country', depth: 2, filters: [ID_AFTER, POPULATE, f('regionCountries', 'ids', true), f('leagueCountries', 'ids', true)] }),
  ...family('regions', { base: '/core/regions', entity: 'Region', kind: 'region', depth: 3 }),
  ...family('cities', { base: '/core/cities', entity: 'City', kind: 'city', depth: 4, filters: [ID_AFTER, POPULATE, f('regionCities', 'ids', true)] }),
  ...family('types', { base: '/core/types', entity: 'Type', kind: 'type', depth: 1, search: false }),
  endpoint('timezones.list', '/core/timezones', 'Timezone', 'timezone', 'unpaged', 0),
  endpoint('filters.entity', '/core/filters/entity', 'Filter', 'filter', 'unpaged', 0),
  // Leagues, with every path of the real API
  list('leagues.live', '/football/leagues/live', 'League', 'league'),
  list('leagues.date', '/football/leagues/date/:date', 'League', 'league'),
  list('leagues.countries', '/football/leagues/countries/:countryId', 'League', 'league'),
  // The docs' current form of "leagues of a team" (the 2023 document has /teams/{teamId}/leagues, below).
  list('leagues.teams', '/football/leagues/teams/:teamId', 'League', 'league'),
  list('leagues.teamsCurrent', '/football/leagues/teams/:teamId/current', 'League', 'league'),
  unpaged('leagues.includes', '/football/leagues/:leagueId/includes', 'League', 'league', 0),
  unpaged('leagues.jerseys', '/football/leagues/:leagueId/jerseys', 'Jersey', 'jersey', 1),
  ...family('leagues', { base: '/football/leagues', entity: 'League', kind: 'league', depth: 2 }),
  // Competition structure
  list('seasons.teams', '/football/seasons/teams/:teamId', 'Season', 'season'),
  ...family('seasons', { base: '/football/seasons', entity: 'Season', kind: 'season', depth: 2 }),
  list('stages.seasons', '/football/stages/seasons/:seasonId', 'Stage', 'stage'),
  ...family('stages', { base: '/football/stages', entity: 'Stage', kind: 'stage', depth: 2 }),
  list('rounds.seasons', '/football/rounds/seasons/:seasonId', 'Round', 'round'),
  ...family('rounds', { base: '/football/rounds', entity: 'Round', kind: 'round', depth: 2 }),
  endpoint('schedules.seasons', '/football/schedules/seasons/:seasonId', 'Schedule', 'stage', 'unpaged', 0, [], true),
  endpoint('schedules.seasonTeams', '/football/schedules/seasons/:seasonId/teams/:teamId', 'Schedule', 'stage', 'unpaged', 0, [], true),
  endpoint('schedules.teams', '/football/schedules/teams/:teamId', 'Schedule', 'stage', 'unpaged', 0, [], true),
  list('standings.list', '/football/standings', 'Standing', 'standing'),
  unpaged('standings.seasons', '/football/standings/seasons/:seasonId', 'Standing', 'standing'),
  unpaged('standings.rounds', '/football/standings/rounds/:roundId', 'Standing', 'standing'),
  unpaged('standings.corrections', '/football/standings/corrections/seasons/:seasonId', 'Standing', 'correction'),
  // "No pagination, max 2 includes" (docs).
  unpaged('standings.live', '/football/standings/live/leagues/:leagueId', 'Standing', 'standing'),
  list('topscorers.seasons', '/football/topscorers/seasons/:seasonId', 'Topscorer', 'topscorer'),
  list('topscorers.stages', '/football/topscorers/stages/:stageId', 'Topscorer', 'topscorer'),
  list('statistics.players', '/football/statistics/seasons/players/:playerId', 'Statistic', 'seasonStatistic'),
  list('statistics.teams', '/football/statistics/seasons/teams/:teamId', 'Statistic', 'seasonStatistic'),
  list('statistics.coaches', '/football/statistics/seasons/coaches/:coachId', 'Statistic', 'seasonStatistic'),
  list('statistics.referees', '/football/statistics/seasons/referees/:refereeId', 'Statistic', 'seasonStatistic'),
  unpaged('statistics.stages', '/football/statistics/stages/:stageId', 'Statistic', 'seasonStatistic'),
  unpaged('statistics.rounds', '/football/statistics/rounds/:roundId', 'Statistic', 'seasonStatistic'),
  endpoint('states.list', '/football/states', 'State', 'state', 'list', 1, []),
  endpoint('states.byId', '/football/states/:id', 'State', 'state', 'single', 1, []),
  // Fixtures and livescores
  endpoint('fixtures.multi', '/football/fixtures/multi/:ids', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('fixtures.date', '/football/fixtures/date/:date', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.between', '/football/fixtures/between/:start/:end', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.betweenTeam', '/football/fixtures/between/:start/:end/:teamId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.headToHead', '/football/fixtures/head-to-head/:team1/:team2', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.seasons', '/football/fixtures/seasons/:seasonId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.upcomingMarkets', '/football/fixtures/upcoming/markets/:marketId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.upcomingTvStations', '/football/fixtures/upcoming/tv-stations/:tvStationId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.pastTvStations', '/football/fixtures/past/tv-stations/:tvStationId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.latest', '/football/fixtures/latest', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  ...family('fixtures', { base: '/football/fixtures', entity: 'Fixture', kind: 'fixture', depth: 3, fixtureType: true, filters: FIXTURE_FILTERS }),
  endpoint('livescores.all', '/football/livescores', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('livescores.inplay', '/football/livescores/inplay', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('livescores.latest', '/football/livescores/latest', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  list('commentaries.list', '/football/commentaries', 'Commentary', 'commentary'),
  unpaged('commentaries.fixtures', '/football/commentaries/fixtures/:fixtureId', 'Commentary', 'commentary'),
  list('matchFacts.list', '/football/match-facts', 'MatchFact', 'matchfact', 3),
  unpaged('matchFacts.fixtures', '/football/match-facts/fixtures/:fixtureId', 'MatchFact', 'matchfact', 3),
  list('matchFacts.leagues', '/football/match-facts/leagues/:leagueId', 'MatchFact', 'matchfact', 3),
  // People and places
  list('teams.leagues', '/football/teams/:teamId/leagues', 'League', 'league'),
  list('teams.leaguesCurrent', '/football/teams/:teamId/leagues/current', 'League', 'league'),
  ...family('teams', { base: '/football/teams', entity: 'Team', kind: 'team', depth: 3, lists: ['countries/:countryId', 'seasons/:seasonId'] }),
  unpaged('squads.teams', '/football/squads/teams/:teamId', 'TeamSquad', 'squad'),
  unpaged('squads.seasonTeams', '/football/squads/seasons/:seasonId/teams/:teamId', 'TeamSquad', 'squad'),
  unpaged('players.latest', '/football/players/latest', 'Player', 'player', 3),
  ...family('players', { base: '/football/players', entity: 'Player', kind: 'player', depth: 3, lists: ['countries/:countryId'] }),
  unpaged('coaches.latest', '/football/coaches/latest', 'Coach', 'coach', 3),
  ...family('coaches', { base: '/football/coaches', entity: 'Coach', kind: 'coach', depth: 3, lists: ['countries/:countryId'] }),
  ...family('referees', { base: '/football/referees', entity: 'Referee', kind: 'referee', depth: 3, lists: ['countries/:countryId', 'seasons/:seasonId'] }),
  ...family('venues', { base: '/football/venues', entity: 'Venue', kind: 'venue', depth: 3, lists: ['seasons/:seasonId'] }),
  list('transfers.latest', '/football/transfers/latest', 'Transfer', 'transfer'),
  list('transfers.between', '/football/transfers/between/:start/:end', 'Transfer', 'transfer'),
  list('transfers.players', '/football/transfers/players/:playerId', 'Transfer', 'transfer'),
  list('transfers.teams', '/football/transfers/teams/:teamId', 'Transfer', 'transfer'),
  ...family('transfers', { base: '/football/transfers', entity: 'Transfer', kind: 'transfer', depth: 2, search: false }),
  list('transferRumours.list', '/football/transfer-rumours', 'TransferRumour', 'transferRumour'),
  list('transferRumours.teams', '/football/transfer-rumours/teams/:teamId', 'TransferRumour', 'transferRumour'),
  list('transferRumours.players', '/football/transfer-rumours/players/:playerId', 'TransferRumour', 'transferRumour'),
  unpaged('tvStations.fixtures', '/football/tv-stations/fixtures/:fixtureId', 'TvStation', 'tvstation', 1),
  ...family('tvStations', { base: '/football/tv-stations', entity: 'TvStation', kind: 'tvstation', depth: 1, search: false }),
  list('rivals.list', '/football/rivals', 'Rival', 'rival'),
  unpaged('rivals.teams', '/football/rivals/teams/:teamId', 'Rival', 'rival'),
  list('teamRankings.list', '/football/team-rankings', 'TeamRanking', 'teamRanking', 1),
  list('teamRankings.teams', '/football/team-rankings/teams/:teamId', 'TeamRanking', 'teamRanking', 1),
  list('teamRankings.date', '/football/team-rankings/date/:date', 'TeamRanking', 'teamRanking', 1),
  list('teamOfTheWeek.list', '/football/team-of-the-week', 'TeamOfTheWeek', 'teamOfTheWeek'),
  unpaged('teamOfTheWeek.rounds', '/football/team-of-the-week/rounds/:roundId', 'TeamOfTheWeek', 'teamOfTheWeek'),
  unpaged('teamOfTheWeek.leaguesLatest', '/football/team-of-the-week/leagues/:leagueId/latest', 'TeamOfTheWeek', 'teamOfTheWeek'),
  // News: an add-on of the real API; the embedded provider has none to give (empty lists).
  ...(['pre', 'post'] as const).flatMap((when) => {
    const [id, base] = [`news.${when}Match`, `/football/news/${when}-match`]
    return [list(id, base, 'News', 'news'), list(`${id}Seasons`, `${base}/seasons/:seasonId`, 'News', 'news'), list(`${id}Upcoming`, `${base}/upcoming`, 'News', 'news')]
  }),
  // Paid extras: present so that a plan without them gets the upstream's 403 (ENDPOINT_FEATURES below)
  list('expected.fixtures', '/football/expected/fixtures', 'Expected', 'xg', 1),
  list('expected.lineups', '/football/expected/lineups', 'Expected', 'xg', 1),
  unpaged('expectedLineups.teams', '/football/expected-lineups/teams/:teamId', 'ExpectedLineup', 'expectedLineup', 1),
  list('predictions.probabilities', '/football/predictions/probabilities', 'Prediction', 'prediction', 1),
  unpaged('predictions.fixtures', '/football/predictions/probabilities/fixtures/:fixtureId', 'Prediction', 'prediction', 1),
  list('predictions.valueBets', '/football/predictions/value-bets', 'ValueBet', 'prediction', 1),
  unpaged('predictions.valueBetsFixtures', '/football/predictions/value-bets/fixtures/:fixtureId', 'ValueBet', 'prediction', 1),
  ...oddsFeed('odds.preMatch', '/football/odds/pre-match', 'Odd'),
  ...oddsFeed('odds.inplay', '/football/odds/inplay', 'InplayOdd'),
  ...oddsFeed('odds.premium', '/football/odds/premium', 'PremiumOdd'),
  unpaged('odds.premiumUpdated', '/football/odds/premium/updated/between/:startTime/:endTime', 'PremiumOdd', 'odd', 1),
  list('odds.premiumHistorical', '/football/odds/premium/historical', 'PremiumOdd', 'odd', 1),
  unpaged('odds.premiumHistoricalUpdated', '/football/odds/premium/historical/updated/between/:startTime/:endTime', 'PremiumOdd', 'odd', 1),
  // Odds reference data (the real API's `/odds` domain): markets and bookmakers need no odds package.
  list('markets.premium', '/odds/markets/premium', 'Market', 'market', 0),
  ...family('markets', { base: '/odds/markets', entity: 'Market', kind: 'market', depth: 0 }),
  list('bookmakers.premium', '/odds/bookmakers/premium', 'Bookmaker', 'bookmaker', 0),
  unpaged('bookmakers.fixtures', '/odds/bookmakers/fixtures/:fixtureId', 'Bookmaker', 'bookmaker', 0),
  unpaged('bookmakers.fixturesMapping', '/odds/bookmakers/fixtures/:fixtureId/mapping', 'Bookmaker', 'bookmaker', 0),
  ...family('bookmakers', { base: '/odds/bookmakers', entity: 'Bookmaker', kind: 'bookmaker', depth: 0 }),
  // Account: the caller's own plan, usage and resources
  list('my.leagues', '/my/leagues', 'League', 'league'),
  endpoint('my.resources', '/my/resources', 'Resource', 'resource', 'unpaged', 0),
  endpoint('my.enrichments', '/my/enrichments', 'Resource', 'enrichment', 'unpaged', 0),
  endpoint('my.usage', '/my/usage', 'Resource', 'usage', 'unpaged', 0),
  endpoint('my.filters', '/my/filters/entity', 'Filter', 'filter', 'unpaged', 0)
]

/** One odds feed (pre-match, inplay, premium): all, latest, by fixture, by fixture and bookmaker or market. */
function oddsFeed (id: string, base: string, entity: string): Endpoint[] {
  return [
    list(`${id}.list`, base, entity, 'odd', 1, [...ODDS_FILTERS, ID_AFTER]),
    unpaged(`${id}.latest`, `${base}/latest`, entity, 'odd', 1, ODDS_FILTERS),
    // `odds.fixtures` is the id the plans' checks and the passthrough's TTLs already know.
    unpaged(id === 'odds.preMatch' ? 'odds.fixtures' : `${id}.fixtures`, `${base}/fixtures/:fixtureId`, entity, 'odd', 1, ODDS_FILTERS),
    unpaged(`${id}.fixturesBookmakers`, `${base}/fixtures/:fixtureId/bookmakers/:bookmakerId`, entity, 'odd', 1, ODDS_FILTERS),
    unpaged(`${id}.fixturesMarkets`, `${base}/fixtures/:fixtureId/markets/:marketId`, entity, 'odd', 1, ODDS_FILTERS)
  ]
}

/** Query parameters known to the API, the real API's `locale`, `sortBy` and `cursor` included (docs/upstream.md, "select, filters and other options"). */
export const LIST_PARAMS = new Set(['api_token', 'include', 'select', 'filters', 'order', 'per_page', 'page', 'cursor', 'timezone', 'locale', 'sortBy'])
export const SINGLE_PARAMS = new Set(['api_token', 'include', 'select', 'filters', 'timezone', 'locale'])

/**
 * Features endpoints need regardless of includes (a 403 without them): every odds feed needs the odds package,
 * predictions the add-on, expected goals the xG tier. Markets and bookmakers are reference data (inferred).
 */
export const ENDPOINT_FEATURES: Readonly<Record<string, 'xg' | 'predictions' | 'odds'>> = Object.fromEntries(ENDPOINTS.flatMap((e) => {
  const feature = e.id.startsWith('odds.') ? 'odds' : e.id.startsWith('predictions.') ? 'predictions' : e.id.startsWith('expected.') ? 'xg' : undefined
  return feature === undefined ? [] : [[e.id, feature] as const]
}))
