/** The passthrough's decision: known → validated in full; unknown names → syntax check and forward; else the upstream's refusal. */
import { describe, expect, it } from 'vitest'
import { entityOf, routeRequest, type Route } from '../../../src/passthrough/route.ts'

const kind = (r: Route): string => r.kind === 'refused' ? `refused ${r.reply.status}` : r.kind

describe('routeRequest', () => {
  it('validates a path and names the catalogue knows in full, cursor included', () => {
    expect(kind(routeRequest('/football/fixtures', { include: 'participants;events.player', per_page: '50' }))).toBe('known')
    expect(kind(routeRequest('/football/teams', { cursor: 'abc' }))).toBe('known')
    expect(kind(routeRequest('/football/teams', { cursor: 'abc', per_page: '5' }))).toBe('refused 400')
    expect(kind(routeRequest('/football/teams/1', { cursor: 'abc' })), 'by-id endpoints take no paging').toBe('refused 400')
  })

  it('forwards unknown include, filter and select names and unknown paths that are well formed', () => {
    for (const [path, query] of [
      ['/football/fixtures/1', { include: 'shotmap' }],
      ['/football/fixtures', { filters: 'shotmapTypes:1,2' }],
      ['/football/teams', { select: 'name,nickname' }],
      ['/football/expected/shotmaps', { include: 'fixture', page: '2' }],
      ['/odds/markets/popular', {}],
      ['/football/fixtures/upcoming', {}]
    ] as const) expect(kind(routeRequest(path, query)), `${path} ${JSON.stringify(query)}`).toBe('forward')
  })

  it('keeps the catalogue\'s verdict where only a known name is wrong, and the upstream\'s 400s for syntax', () => {
    expect(kind(routeRequest('/football/fixtures', { filters: 'fixtureLeagues:abc' }))).toBe('refused 400')
    expect(kind(routeRequest('/football/fixtures/1', { include: 'shotmap', colour: 'blue' }))).toBe('refused 400')
    expect(kind(routeRequest('/football/fixtures/1', { include: 'shotmap,participants' }))).toBe('refused 400')
    expect(kind(routeRequest('/football/expected/shotmaps', { include: 'a.b.c.d.e' }))).toBe('refused 400')
    expect(kind(routeRequest('/football/news', { per_page: '0' }))).toBe('refused 400')
  })

  it('never forwards /my/* nor another root', () => {
    expect(kind(routeRequest('/my/usage', { include: 'x' }))).toBe('refused 400')
    expect(kind(routeRequest('/my/something-new', {}))).toBe('refused 404')
    expect(kind(routeRequest('/basketball/leagues', {}))).toBe('refused 404')
    expect(kind(routeRequest('/football', {}))).toBe('refused 404')
  })

  it('charges an unknown path to the closest family, and names the paid features it may reach', () => {
    const lineups = routeRequest('/football/expected/shotmaps', { include: 'fixture.odds' })
    expect(lineups).toMatchObject({ kind: 'forward', endpoint: { entity: 'Expected' } })
    expect(lineups.kind === 'forward' ? [...lineups.features].sort() : []).toEqual(['odds', 'xg'])
    expect(routeRequest('/football/fixtures/upcoming/markets/1', {})).toMatchObject({ endpoint: { entity: 'Fixture' } })
    expect(routeRequest('/football/fixtures/1', { include: 'liveOddsFeed' })).toMatchObject({ kind: 'forward', features: ['odds'] })
    expect(routeRequest('/football/tv-stations/countries/1', {})).toMatchObject({ endpoint: { entity: 'TvStation' } })
    for (const invented of ['/football/aaa1', '/football/aaa2', '/core/planets']) {
      expect(routeRequest(invented, {}), 'an invented family mints no bucket of its own').toMatchObject({ endpoint: { entity: 'Unknown' } })
    }
  })
})

describe('entityOf', () => {
  it('infers an entity from a path segment', () => {
    expect(['tv-stations', 'commentaries', 'transfers', 'news', 'bookmakers'].map(entityOf)).toEqual(['TvStation', 'Commentary', 'Transfer', 'News', 'Bookmaker'])
  })
})
