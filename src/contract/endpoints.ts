/**
 * Every path of the interface spec (parts 4.2 to 4.4, and the real API's paths where the spec says "not
 * shown"), with what the query rules of part 4.1 need to know about it: the entity bucket it draws on
 * (part 8.2), the kind of record it returns, whether it pages, the include depth and the filters it takes.
 */
import type { Kind } from './resources.ts'

export type Mode = 'single' | 'list' | 'unpaged'

/** How a filter's value is written: `ids` is a comma list of integers, `flag` takes no value. */
export type FilterValue = 'ids' | 'id' | 'flag' | 'text'

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
  /** Deepest include nesting allowed (spec 4.1). */
  maxDepth: number
  filters: readonly FilterSpec[]
  /** Fixture-type endpoints accept `timezone` and apply it to datetimes. */
  fixtureType: boolean
}

const f = (name: string, value: FilterValue, dynamic = false): FilterSpec => ({ name, value, dynamic })

const ID_AFTER = f('IdAfter', 'id')
const POPULATE = f('populate', 'flag')
const FIXTURE_FILTERS = [
  f('fixtureLeagues', 'ids', true), f('fixtureStages', 'ids', true), f('fixtureSeason', 'id', true),
  f('fixtureStates', 'ids', true), f('eventTypes', 'ids', true), f('fixtureStatisticTypes', 'ids', true),
  f('statisticTypes', 'ids', true), f('participantSearch', 'text'), f('venues', 'ids'), f('todayDate', 'flag'),
  ID_AFTER, POPULATE
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

export const ENDPOINTS: readonly Endpoint[] = [
  // Core (4.2)
  ...family('continents', { base: '/core/continents', entity: 'Continent', kind: 'continent', depth: 3, search: false }),
  ...family('countries', { base: '/core/countries', entity: 'Country', kind: 'country', depth: 2, filters: [ID_AFTER, POPULATE, f('regionCountries', 'ids', true), f('leagueCountries', 'ids', true)] }),
  ...family('regions', { base: '/core/regions', entity: 'Region', kind: 'region', depth: 3 }),
  ...family('cities', { base: '/core/cities', entity: 'City', kind: 'city', depth: 4, filters: [ID_AFTER, POPULATE, f('regionCities', 'ids', true)] }),
  ...family('types', { base: '/core/types', entity: 'Type', kind: 'type', depth: 1, search: false }),
  endpoint('timezones.list', '/core/timezones', 'Timezone', 'timezone', 'unpaged', 0),
  endpoint('filters.entity', '/core/filters/entity', 'Filter', 'filter', 'unpaged', 0),
  // Leagues (4.3), with the real API's paths for the ones the spec does not show
  endpoint('leagues.live', '/football/leagues/live', 'League', 'league', 'list', 2, LIST),
  endpoint('leagues.date', '/football/leagues/date/:date', 'League', 'league', 'list', 2, LIST),
  endpoint('leagues.countries', '/football/leagues/countries/:countryId', 'League', 'league', 'list', 2, LIST),
  ...family('leagues', { base: '/football/leagues', entity: 'League', kind: 'league', depth: 2 }),
  // Competition structure (4.4)
  endpoint('seasons.teams', '/football/seasons/teams/:teamId', 'Season', 'season', 'list', 2, LIST),
  ...family('seasons', { base: '/football/seasons', entity: 'Season', kind: 'season', depth: 2 }),
  endpoint('stages.seasons', '/football/stages/seasons/:seasonId', 'Stage', 'stage', 'list', 2, LIST),
  ...family('stages', { base: '/football/stages', entity: 'Stage', kind: 'stage', depth: 2 }),
  endpoint('rounds.seasons', '/football/rounds/seasons/:seasonId', 'Round', 'round', 'list', 2, LIST),
  ...family('rounds', { base: '/football/rounds', entity: 'Round', kind: 'round', depth: 2 }),
  endpoint('schedules.seasons', '/football/schedules/seasons/:seasonId', 'Schedule', 'stage', 'unpaged', 0, [], true),
  endpoint('schedules.teams', '/football/schedules/teams/:teamId', 'Schedule', 'stage', 'unpaged', 0, [], true),
  endpoint('standings.list', '/football/standings', 'Standing', 'standing', 'list', 2, LIST),
  endpoint('standings.seasons', '/football/standings/seasons/:seasonId', 'Standing', 'standing', 'unpaged', 2),
  endpoint('standings.rounds', '/football/standings/rounds/:roundId', 'Standing', 'standing', 'unpaged', 2),
  endpoint('states.list', '/football/states', 'State', 'state', 'list', 0, []),
  endpoint('states.byId', '/football/states/:id', 'State', 'state', 'single', 0, []),
  // Fixtures and livescores
  endpoint('fixtures.multi', '/football/fixtures/multi/:ids', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('fixtures.date', '/football/fixtures/date/:date', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.between', '/football/fixtures/between/:start/:end', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.betweenTeam', '/football/fixtures/between/:start/:end/:teamId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.headToHead', '/football/fixtures/head-to-head/:team1/:team2', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.seasons', '/football/fixtures/seasons/:seasonId', 'Fixture', 'fixture', 'list', 3, FIXTURE_FILTERS, true),
  endpoint('fixtures.latest', '/football/fixtures/latest', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  ...family('fixtures', { base: '/football/fixtures', entity: 'Fixture', kind: 'fixture', depth: 3, fixtureType: true, filters: FIXTURE_FILTERS }),
  endpoint('livescores.all', '/football/livescores', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('livescores.inplay', '/football/livescores/inplay', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  endpoint('livescores.latest', '/football/livescores/latest', 'Fixture', 'fixture', 'unpaged', 3, LIVE_FILTERS, true),
  // People and places
  ...family('teams', { base: '/football/teams', entity: 'Team', kind: 'team', depth: 3, lists: ['countries/:countryId', 'seasons/:seasonId'] }),
  ...family('players', { base: '/football/players', entity: 'Player', kind: 'player', depth: 3, lists: ['countries/:countryId'] }),
  ...family('coaches', { base: '/football/coaches', entity: 'Coach', kind: 'coach', depth: 3, lists: ['countries/:countryId'] }),
  ...family('referees', { base: '/football/referees', entity: 'Referee', kind: 'referee', depth: 3, lists: ['countries/:countryId', 'seasons/:seasonId'] }),
  ...family('venues', { base: '/football/venues', entity: 'Venue', kind: 'venue', depth: 3, lists: ['seasons/:seasonId'] }),
  // Paid extras: present so that a plan without them gets the spec's 403
  endpoint('expected.fixtures', '/football/expected/fixtures', 'Expected', 'xg', 'list', 1, LIST),
  endpoint('predictions.fixtures', '/football/predictions/probabilities/fixtures/:fixtureId', 'Prediction', 'prediction', 'unpaged', 1),
  endpoint('odds.fixtures', '/football/odds/pre-match/fixtures/:fixtureId', 'Odd', 'odd', 'unpaged', 1),
  // Account (4.4, 8.2 rule 6)
  endpoint('my.leagues', '/my/leagues', 'League', 'league', 'list', 2, LIST),
  endpoint('my.resources', '/my/resources', 'Resource', 'resource', 'unpaged', 0),
  endpoint('my.usage', '/my/usage', 'Resource', 'usage', 'unpaged', 0),
  endpoint('my.filters', '/my/filters/entity', 'Filter', 'filter', 'unpaged', 0)
]

/** Query parameters known to the API (spec 4.1 plus the real API's `locale` and `sortBy`). */
export const LIST_PARAMS = new Set(['api_token', 'include', 'select', 'filters', 'order', 'per_page', 'page', 'timezone', 'locale', 'sortBy'])
export const SINGLE_PARAMS = new Set(['api_token', 'include', 'select', 'filters', 'timezone', 'locale'])

/** Features endpoints need regardless of includes (spec 7, 403 row). */
export const ENDPOINT_FEATURES: Readonly<Record<string, 'xg' | 'predictions' | 'odds'>> = {
  'expected.fixtures': 'xg',
  'predictions.fixtures': 'predictions',
  'odds.fixtures': 'odds'
}
