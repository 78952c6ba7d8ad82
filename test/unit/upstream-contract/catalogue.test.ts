/**
 * The catalogue of the real API (packages/upstream-contract/src): every path of its published document resolves to an endpoint,
 * the fixture includes real clients send are accepted, and the shared query rules for repeated parameters,
 * cursors and deep offset pages.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, ENDPOINT_FEATURES } from '../../../packages/upstream-contract/src/endpoints.ts'
import { UpstreamInternalCode, matchEndpoint, parseQuery, singleValues } from '../../../packages/upstream-contract/src/query.ts'

const REAL_PATHS = new URL('../../fixtures/upstream/real-paths.md', import.meta.url)

/** The 130 paths of the real API's 2023 document, with `{param}` placeholders. */
function realPaths (): string[] {
  const text = readFileSync(REAL_PATHS, 'utf8')
  const block = text.slice(text.indexOf('```') + 3, text.lastIndexOf('```'))
  return block.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/'))
}

/** A concrete value for a path parameter of the document. */
function sample (param: string): string {
  if (param === 'name') return 'celtic'
  if (/date/i.test(param)) return '2026-01-10'
  if (param === 'fixtureIds') return '1,2,3'
  return '42'
}

const concrete = (path: string): string => path.replace(/\{([A-Za-z]+)\}/g, (_m, p: string) => sample(p))

const endpointOf = (path: string) => {
  const match = matchEndpoint(path)
  if (match === undefined) throw new Error(`no endpoint for ${path}`)
  return match.endpoint
}

describe('catalogue: the real API surface', () => {
  it('every path of real-paths.md resolves to an endpoint', () => {
    const paths = realPaths()
    expect(paths).toHaveLength(130)
    const missing = paths.filter((p) => matchEndpoint(concrete(p)) === undefined)
    expect(missing).toEqual([])
  })

  it('the paths of the issue resolve, with their entity and paging', () => {
    expect(endpointOf('/football/topscorers/seasons/19735')).toMatchObject({ entity: 'Topscorer', mode: 'list', kind: 'topscorer' })
    expect(endpointOf('/football/squads/teams/53')).toMatchObject({ entity: 'TeamSquad', mode: 'unpaged' })
    expect(endpointOf('/football/transfers')).toMatchObject({ entity: 'Transfer', mode: 'list' })
    expect(endpointOf('/football/transfers/12')).toMatchObject({ entity: 'Transfer', mode: 'single' })
    expect(endpointOf('/football/tv-stations/fixtures/19135043')).toMatchObject({ entity: 'TvStation', mode: 'unpaged' })
    expect(endpointOf('/football/fixtures/upcoming/markets/1')).toMatchObject({ entity: 'Fixture', mode: 'list', fixtureType: true })
    expect(endpointOf('/odds/markets')).toMatchObject({ entity: 'Market', mode: 'list' })
    expect(endpointOf('/odds/bookmakers')).toMatchObject({ entity: 'Bookmaker', mode: 'list' })
    expect(endpointOf('/football/livescores/inplay')).toMatchObject({ entity: 'Fixture', mode: 'unpaged' })
  })

  it('paths added since the 2023 document resolve', () => {
    for (const path of [
      '/football/statistics/seasons/teams/53', '/football/statistics/stages/77', '/football/statistics/rounds/9',
      '/football/team-rankings', '/football/team-rankings/teams/53', '/football/team-rankings/date/2026-01-10',
      '/football/team-of-the-week', '/football/team-of-the-week/rounds/9', '/football/team-of-the-week/leagues/271/latest',
      '/football/match-facts', '/football/match-facts/fixtures/1', '/football/match-facts/leagues/271',
      '/football/transfer-rumours', '/football/expected/lineups', '/football/expected-lineups/teams/53',
      '/football/odds/premium/fixtures/1', '/football/fixtures/upcoming/tv-stations/3', '/football/leagues/teams/53/current'
    ]) expect(matchEndpoint(path), path).toBeDefined()
  })

  it('ids and paths are unique, and ids still need digits (a word is a 404)', () => {
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length)
    expect(new Set(ENDPOINTS.map((e) => e.path)).size).toBe(ENDPOINTS.length)
    expect(matchEndpoint('/football/transfers/abc')).toBeUndefined()
    expect(matchEndpoint('/football/squads/teams/abc')).toBeUndefined()
    expect(matchEndpoint('/basketball/transfers')).toBeUndefined()
  })

  it('odds feeds need the odds package, predictions the add-on, xG the tier; markets and bookmakers nothing', () => {
    expect(ENDPOINT_FEATURES[endpointOf('/football/odds/inplay/fixtures/1').id]).toBe('odds')
    expect(ENDPOINT_FEATURES[endpointOf('/football/odds/pre-match/fixtures/1').id]).toBe('odds')
    expect(ENDPOINT_FEATURES[endpointOf('/football/predictions/value-bets').id]).toBe('predictions')
    expect(ENDPOINT_FEATURES[endpointOf('/football/expected/lineups').id]).toBe('xg')
    expect(ENDPOINT_FEATURES[endpointOf('/odds/markets').id]).toBeUndefined()
    expect(ENDPOINT_FEATURES[endpointOf('/odds/bookmakers/fixtures/1').id]).toBeUndefined()
  })
})

/** The include options of the real API's fixture and livescores pages, nested ones included. */
const FIXTURE_INCLUDES = [
  'sport', 'round', 'stage', 'group', 'aggregate', 'league', 'season', 'coaches', 'tvStations', 'venue', 'state', 'state.type',
  'weatherReport', 'lineups', 'lineups.player', 'lineups.details', 'lineups.type', 'events', 'events.type', 'events.period',
  'events.player', 'timeline', 'comments', 'trends', 'statistics', 'statistics.type', 'periods', 'detailedPeriods',
  'currentPeriod', 'participants', 'inplayOdds', 'prematchNews', 'postmatchNews', 'metadata', 'sidelined', 'predictions',
  'referees', 'formations', 'ballCoordinates', 'scores', 'xGFixture', 'pressure', 'expectedLineups', 'matchfacts'
]

describe('catalogue: includes', () => {
  for (const path of ['/football/livescores', '/football/livescores/inplay', '/football/fixtures/19135043', '/football/fixtures/date/2026-01-10']) {
    it(`every fixture include is accepted on ${path}`, () => {
      const endpoint = endpointOf(path)
      const refused = FIXTURE_INCLUDES.filter((name) => !parseQuery(endpoint, { include: name }).ok)
      expect(refused).toEqual([])
      expect(parseQuery(endpoint, { include: FIXTURE_INCLUDES.join(';') }).ok).toBe(true)
    })
  }

  it('response keys of camelCase includes are lower-cased, as on the real API', () => {
    const parsed = parseQuery(endpointOf('/football/livescores'), { include: 'weatherReport;tvStations;lineups.details' })
    if (!parsed.ok) throw new Error('refused')
    expect(parsed.query.includes.map((n) => n.key)).toEqual(['weatherreport', 'tvstations', 'lineups'])
  })

  it('the odds filters are accepted on a fixture, livescores and the odds feeds', () => {
    for (const path of ['/football/fixtures/1', '/football/livescores', '/football/odds/pre-match/fixtures/1', '/football/odds/inplay']) {
      expect(parseQuery(endpointOf(path), { filters: 'markets:1,80;bookmakers:2' }).ok, path).toBe(true)
    }
  })

  it('an include that does not exist is still 400 with code 5001', () => {
    const parsed = parseQuery(endpointOf('/football/livescores'), { include: 'noSuchThing' })
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error.code).toBe(UpstreamInternalCode.INCLUDE_NOT_FOUND)
  })

  it('entity includes of teams, players, seasons are accepted', () => {
    const ok = (path: string, include: string): boolean => parseQuery(endpointOf(path), { include }).ok
    expect(ok('/football/teams/53', 'sport;country;venue;coaches;rivals;players;latest;upcoming;seasons;activeSeasons;sidelined;statistics;trophies;socials;rankings')).toBe(true)
    expect(ok('/football/players/1', 'sport;position;detailedPosition;statistics;transfers;lineups;trophies;metadata;teams')).toBe(true)
    expect(ok('/football/seasons/1', 'sport;league;teams;stages;currentStage;fixtures;groups;statistics;topscorers')).toBe(true)
    expect(ok('/football/topscorers/seasons/1', 'player;participant;type')).toBe(true)
    expect(ok('/football/transfers', 'player;fromTeam;toTeam;type')).toBe(true)
  })
})

describe('query rules: repeated parameters, cursors, deep offset pages', () => {
  const countries = endpointOf('/core/countries')

  it('a repeated parameter counts with its last value', () => {
    const parsed = parseQuery(endpointOf('/football/livescores'), { include: ['participants', 'scores;events'] })
    expect(parsed.ok).toBe(true)
    if (parsed.ok) expect(parsed.query.includes.map((n) => n.name)).toEqual(['scores', 'events'])
    expect(singleValues({ a: ['1', '2'], b: '3', c: undefined })).toEqual({ a: '2', b: '3' })
    // The last value decides validity too.
    expect(parseQuery(countries, { per_page: ['10', '51'] }).ok).toBe(false)
    expect(parseQuery(countries, { per_page: ['51', '10'] }).ok).toBe(true)
  })

  it('cursor is accepted on lists, refused on single records, and refused beside per_page', () => {
    const parsed = parseQuery(countries, { cursor: 'abc.def' })
    expect(parsed.ok && parsed.query.cursor).toBe('abc.def')
    expect(parseQuery(countries, { cursor: '' }), 'an empty cursor is none').toMatchObject({ ok: true, query: { cursor: null } })
    const both = parseQuery(countries, { cursor: 'abc', per_page: '10' })
    expect(both.ok).toBe(false)
    if (!both.ok) expect(both.error.body.errors).toHaveProperty('cursor')
    expect(parseQuery(endpointOf('/core/countries/320'), { cursor: 'abc' }).ok).toBe(false)
    expect(parseQuery(countries, { cursor: 'has space' }).ok).toBe(false)
    expect(parseQuery(countries, { cursor: 'x'.repeat(2049) }).ok).toBe(false)
  })

  it('offset pages past 20,000 rows are refused with 5003, the 20,000th row is not', () => {
    expect(parseQuery(countries, { per_page: '50', page: '401' }).ok).toBe(true)
    const deep = parseQuery(countries, { per_page: '50', page: '402' })
    expect(deep.ok).toBe(false)
    if (!deep.ok) {
      expect(deep.error.code).toBe(UpstreamInternalCode.PAGINATION_LIMIT)
      expect(deep.error.body.message).toMatch(/cursor/)
    }
    expect(parseQuery(countries, { page: '802' }).ok).toBe(false)
    expect(parseQuery(countries, { page: '801' }).ok).toBe(true)
    expect(parseQuery(countries, { page: '99999', cursor: 'abc' }).ok, 'page is ignored beside a cursor').toBe(true)
  })
})
