import { describe, expect, it } from 'vitest'
import { presentedKey, upstreamRequest } from '../../../src/passthrough/request.ts'

describe('upstreamRequest', () => {
  it('drops the token and default-valued parameters and sorts the rest, so equivalent requests share a key', () => {
    const a = upstreamRequest('/core/countries', { api_token: 'k1', per_page: '3', include: 'continent' })
    const b = upstreamRequest('/core/countries/', { include: 'continent', page: '1', order: 'asc', per_page: '3', timezone: 'UTC', select: '', api_token: 'k2' })
    expect(a).toEqual({ path: '/core/countries', query: { include: 'continent', per_page: '3' }, key: '/core/countries?include=continent&per_page=3' })
    expect(b.key).toBe(a.key)
  })

  it('keeps include and filter punctuation readable and encodes the rest', () => {
    const r = upstreamRequest('/football/fixtures/multi/1%2C2', { filters: 'fixtureLeagues:271,501;fixtureStates:5', include: 'events.player;scores' })
    expect(r.path).toBe('/football/fixtures/multi/1,2')
    expect(r.key).toBe('/football/fixtures/multi/1,2?filters=fixtureLeagues:271,501;fixtureStates:5&include=events.player;scores')
    expect(upstreamRequest('/core/cities/search/san%20jos%C3%A9', {}).path).toBe('/core/cities/search/san%20jos%C3%A9')
  })
})

describe('presentedKey', () => {
  it('takes api_token first, then the Authorization header with or without Bearer', () => {
    expect(presentedKey({ query: { api_token: 'q' }, authorization: 'h' })).toBe('q')
    expect(presentedKey({ query: {}, authorization: 'Bearer h' })).toBe('h')
    expect(presentedKey({ query: {}, authorization: 'h' })).toBe('h')
    expect(presentedKey({ query: {} })).toBeUndefined()
    expect(presentedKey({ query: { api_token: ['a', 'b'] } }), 'a repeated token matches no key').toBe('a,b')
  })
})
