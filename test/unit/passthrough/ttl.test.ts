import { describe, expect, it } from 'vitest'
import { matchEndpoint, parseQuery } from '../../../packages/upstream-contract/src/query.ts'
import { DEFAULT_TTL, ttlFor } from '../../../src/passthrough/ttl.ts'

function ttl (path: string, include = ''): number {
  const match = matchEndpoint(path)
  if (match === undefined) throw new Error(`no endpoint for ${path}`)
  const parsed = parseQuery(match.endpoint, include === '' ? {} : { include })
  if (!parsed.ok) throw new Error(parsed.error.body.message)
  return ttlFor(match.endpoint, parsed.query.includes)
}

describe('ttlFor', () => {
  it('keeps reference data for an hour, fixtures for seconds, standings for minutes', () => {
    expect(ttl('/core/countries')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/leagues/271')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/teams/1')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/fixtures/1')).toBe(DEFAULT_TTL.fixtureMs)
    expect(ttl('/football/fixtures/date/2026-01-01')).toBe(DEFAULT_TTL.fixtureMs)
    expect(ttl('/football/standings/seasons/1')).toBe(DEFAULT_TTL.standingsMs)
    expect(ttl('/football/livescores')).toBe(DEFAULT_TTL.liveMs)
    expect(ttl('/football/leagues/live')).toBe(DEFAULT_TTL.liveMs)
  })

  it('takes the shortest TTL of anything included', () => {
    expect(ttl('/football/leagues/271', 'currentSeason.stages')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/leagues/271', 'latest')).toBe(DEFAULT_TTL.fixtureMs)
    expect(ttl('/football/leagues/271', 'country;inplay')).toBe(DEFAULT_TTL.liveMs)
    expect(ttl('/football/seasons/1', 'stages.fixtures')).toBe(DEFAULT_TTL.fixtureMs)
  })

  it('gives the real API\'s paths beyond the core API the TTL of their kind of data', () => {
    expect(ttl('/football/commentaries/fixtures/1')).toBe(DEFAULT_TTL.fixtureMs)
    expect(ttl('/football/topscorers/seasons/1')).toBe(DEFAULT_TTL.standingsMs)
    expect(ttl('/football/standings/live/leagues/271')).toBe(DEFAULT_TTL.standingsMs)
    expect(ttl('/football/transfers')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/odds/markets')).toBe(DEFAULT_TTL.referenceMs)
    // In-play odds and every odds `latest` move like livescores; pre-match odds like fixtures.
    expect(ttl('/football/odds/inplay/latest')).toBe(DEFAULT_TTL.liveMs)
    expect(ttl('/football/odds/inplay/fixtures/1')).toBe(DEFAULT_TTL.liveMs)
    expect(ttl('/football/odds/pre-match/latest')).toBe(DEFAULT_TTL.liveMs)
    expect(ttl('/football/odds/pre-match/fixtures/1')).toBe(DEFAULT_TTL.fixtureMs)
    expect(ttl('/football/teams/1', 'players;rivals')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/squads/teams/1', 'player')).toBe(DEFAULT_TTL.referenceMs)
    expect(ttl('/football/players/1', 'lineups')).toBe(DEFAULT_TTL.fixtureMs)
  })
})
