/**
 * A key's quota bounds the upstream calls it causes (docs/passthrough.md), counted at the embedded provider: requests
 * for distinct missing ids each reach the upstream, so each costs the key a call whatever the answer, and
 * once the quota is spent nothing more goes upstream. Requests refused by validation stay free.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'

const QUOTA = 5
const KEYS = [
  { key: 'tl-all-key', name: 'all' },
  { key: 'tl-five-key', name: 'five', hourly_quota: QUOTA },
  { key: 'tl-five-271-key', name: 'five-danish', hourly_quota: QUOTA, leagues: [271] },
  { key: 'tl-three-key', name: 'three', hourly_quota: 3 }
]

let t: TestGateway
let calls: RequestCounter
const url = (path: string, key: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false } })
  calls = countRequests(t.providerServer)
})
afterAll(async () => {
  calls.stop()
  await t.close()
})
afterEach(() => { expectNoLeaks() })

/** Statuses of 40 concurrent requests for distinct ids that do not exist. */
async function fortyMissing (path: (id: number) => string, key: string, first: number): Promise<number[]> {
  const ids = Array.from({ length: 40 }, (_, i) => first + i)
  return (await Promise.all(ids.map(async (id) => await get(url(path(id), key))))).map((r) => r.status)
}

const tally = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})

describe('a spent quota', () => {
  it('lets 40 requests for distinct missing ids cause at most the key\'s quota of upstream calls', async () => {
    const before = calls.count()
    const statuses = await fortyMissing((id) => `/football/fixtures/${id}`, 'tl-five-key', 990_000_000)
    expect(calls.count() - before, 'upstream calls').toBe(QUOTA)
    expect(tally(statuses)).toEqual({ 404: QUOTA, 429: 40 - QUOTA })
    const after = calls.count()
    const more = await get(url('/football/fixtures/991000000', 'tl-five-key'))
    expect(more.status).toBe(429)
    expect(more.body.rate_limit).toMatchObject({ remaining: 0, requested_entity: 'Fixture' })
    expect(calls.count(), 'a spent quota makes zero upstream calls').toBe(after)
  })

  it('bounds a scoped key the same way, lookups included', async () => {
    const before = calls.count()
    // Fixture-scoped lists look the fixture up first (a Fixture call), then would call for the odds.
    const statuses = await fortyMissing((id) => `/football/odds/pre-match/fixtures/${id}`, 'tl-five-271-key', 992_000_000)
    expect(calls.count() - before, 'upstream calls').toBeLessThanOrEqual(QUOTA)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - QUOTA)
    const after = calls.count()
    expect((await get(url('/football/fixtures/993000000', 'tl-five-271-key'))).status).toBe(429)
    expect(calls.count()).toBe(after)
  })

  it('keeps invalid requests free', async () => {
    const before = calls.count()
    for (const bad of ['/football/teams?per_page=0', '/football/teams?include=players,coaches', '/football/teams?page=x', '/football/teams?timezone=Nowhere/City']) {
      expect((await get(url(bad, 'tl-three-key'))).status, bad).toBe(400)
    }
    expect(calls.count(), 'validation happens before any call').toBe(before)
    const ok = await get(url('/football/teams?per_page=2', 'tl-three-key'))
    expect(ok.body.rate_limit.remaining).toBe(2)
  })

  it('gives back what was answered without an upstream call: a cached 404', async () => {
    await get(url('/football/referees/994000000', 'tl-all-key'))
    const before = calls.count()
    for (let i = 0; i < 4; i++) expect((await get(url('/football/referees/994000000', 'tl-three-key'))).status).toBe(404)
    expect(calls.count()).toBe(before)
    const ok = await get(url('/football/referees?per_page=2', 'tl-three-key'))
    expect(ok.body.rate_limit.remaining, 'only this request counted').toBe(2)
  })
})
