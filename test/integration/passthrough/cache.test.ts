/**
 * Cache and coalescing of the REST passthrough, counted at the provider: identical concurrent misses make
 * one upstream call, invalid requests make none, hits cost the key's quota but no budget, entries expire by
 * kind of data, and `next_page` points at the gateway without any token.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'

const KEYS = [
  ...Array.from({ length: 100 }, (_, i) => ({ key: `tl-crowd-${i}`, name: `crowd-${i}` })),
  { key: 'tl-main-key', name: 'main', hourly_quota: 5000 },
  { key: 'tl-scoped-key', name: 'scoped', leagues: [271] }
]
const MAIN = 'tl-main-key'

let offsetMs = 0
const now = (): number => Date.now() + offsetMs
let t: TestGateway
/** Every request the provider receives (the poller is off, so they all come from the passthrough). */
let calls: RequestCounter

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, passthrough: { now } } })
  calls = countRequests(t.providerServer)
})
afterAll(async () => {
  calls.stop()
  await t.close()
})
afterEach(() => {
  t.gw.provider?.faults.set({})
  expectNoLeaks()
})

const url = (path: string, key = MAIN): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

describe('coalescing', () => {
  it('1,000 concurrent identical requests from 100 keys make exactly one upstream call', async () => {
    // Upstream latency keeps the one call in flight while all 1,000 arrive, so they coalesce rather than hit.
    t.gw.provider?.faults.set({ latencyMs: 300, pathContains: '/football/teams' })
    const before = calls.count()
    const path = '/football/teams?per_page=7&include=country'
    const responses = await Promise.all(Array.from({ length: 1000 }, async (_, i) => await get(url(path, `tl-crowd-${i % 100}`))))

    expect(responses.map((r) => r.status).filter((s) => s !== 200)).toEqual([])
    expect(calls.count() - before, 'requests received by the provider').toBe(1)
    expect(responses.filter((r) => r.headers['x-cache'] === 'miss')).toHaveLength(1)
    const ids = new Set(responses.map((r) => JSON.stringify(r.body.data.map((x: { id: number }) => x.id))))
    expect(ids.size, 'everyone got the same page').toBe(1)
    // Every request counted against its own key: 10 per key, so each key's last remaining is 2990.
    const lowest = new Map<string, number>()
    responses.forEach((r, i) => {
      const key = `k${i % 100}`
      lowest.set(key, Math.min(lowest.get(key) ?? Infinity, Number(r.headers['x-ratelimit-remaining'])))
      expect(r.body.rate_limit.requested_entity).toBe('Team')
    })
    expect(new Set(lowest.values())).toEqual(new Set([2990]))
  })

  it('invalid requests are answered locally and make no upstream call', async () => {
    const before = calls.count()
    const cases: Array<[string, number]> = [
      ['/football/teams?per_page=51', 400],
      ['/core/countries?include=continent,leagues', 400],
      ['/core/countries?include=continent.countries.continent', 400],
      ['/core/countries?filters=IdAfter:abc', 400],
      ['/core/countries?order=sideways', 400],
      ['/core/countries?page=0', 400],
      ['/football/livescores?timezone=Mars/Olympus_Mons', 400],
      ['/core/countries?colour=blue', 400],
      ['/core/countries?cursor=abc&per_page=5', 400],
      ['/core/countries/1?cursor=abc', 400],
      ['/basketball/leagues', 404],
      // A repeated parameter counts with its last value (docs/passthrough.md): only the last one is judged.
      ['/core/countries?page=1&page=0', 400],
      ['/core/cities?per_page=50&page=402', 400]
    ]
    for (const [path, status] of cases) {
      const res = await get(url(path))
      expect(res.status, `${path} → ${res.text}`).toBe(status)
      expect(res.body).not.toHaveProperty('rate_limit')
    }
    expect((await get(`${t.base}/core/countries`)).status).toBe(401)
    expect((await get(url('/core/countries', 'no-such-key'))).status).toBe(401)
    expect((await get(url('/football/leagues/501', 'tl-scoped-key'))).status).toBe(403)
    expect(calls.count() - before, 'requests received by the provider').toBe(0)
  })

  it('names the catalogue does not know cost one upstream call, and their 4xx is then served from the cache for an hour', async () => {
    const cases: Array<[string, number]> = [
      ['/core/continents?include=noSuchInclude', 400],
      ['/core/continents?select=name,nope', 400],
      ['/core/countries?filters=noSuchFilter:1', 400],
      ['/football/no-such-thing', 404],
      ['/football/fixtures/not-a-number', 404]
    ]
    for (const [path, status] of cases) {
      const before = calls.count()
      const first = await get(url(path))
      expect(first.status, `${path} → ${first.text}`).toBe(status)
      expect(first.body).not.toHaveProperty('rate_limit')
      expect(calls.count() - before, `${path} is forwarded once`).toBe(1)
      offsetMs += 59 * 60_000
      const again = await get(url(path))
      offsetMs -= 59 * 60_000
      expect(again.text).toBe(first.text)
      expect(again.headers['x-cache']).toBe('hit')
      expect(calls.count() - before, `${path} is not forwarded again within the hour`).toBe(1)
    }
    expect((await get(url('/core/continents?include=noSuchInclude'))).body.code).toBe(5001)
  })

  it('takes the last value of a repeated parameter, as the real API does', async () => {
    const res = await get(url('/core/countries?page=1&page=2&per_page=3'))
    expect(res.status).toBe(200)
    expect(res.body.pagination.current_page).toBe(2)
  })
})

describe('cache', () => {
  it('serves a repeat from the cache: x-cache, age, the quota counts it, the upstream does not see it', async () => {
    const before = calls.count()
    const first = await get(url('/core/countries?per_page=3'))
    const second = await get(url('/core/countries?page=1&per_page=3&order=asc'))
    expect(first.status).toBe(200)
    expect(first.headers['x-cache']).toBe('miss')
    expect(second.headers['x-cache'], 'same request with default parameters spelled out').toBe('hit')
    expect(second.headers.age).toMatch(/^\d+$/)
    expect(second.body.data).toEqual(first.body.data)
    expect(second.body.rate_limit.remaining).toBe(first.body.rate_limit.remaining - 1)
    expect(second.headers['x-ratelimit-remaining']).toBe(String(second.body.rate_limit.remaining))
    expect(second.headers['x-ratelimit-limit']).toBe('5000')
    expect(second.body.subscription, 'the upstream subscription is kept').toBeInstanceOf(Array)
    expect(calls.count() - before).toBe(1)
  })

  it('expires fixtures within seconds and keeps reference data for an hour', async () => {
    const season = await get(url('/football/leagues/271?include=currentSeason'))
    const seasonId = season.body.data.currentseason.id as number
    const fixtures = await get(url(`/football/fixtures/seasons/${seasonId}?per_page=3`))
    const fixturePath = `/football/fixtures/${fixtures.body.data[0].id as number}`
    expect((await get(url(fixturePath))).headers['x-cache']).toBe('miss')
    expect((await get(url(fixturePath))).headers['x-cache']).toBe('hit')
    expect((await get(url('/core/continents?per_page=4'))).headers['x-cache']).toBe('miss')
    offsetMs += 16_000
    expect((await get(url(fixturePath))).headers['x-cache'], 'fixtures live 15 s').toBe('miss')
    expect((await get(url('/core/continents?per_page=4'))).headers['x-cache'], 'reference data lives 1 h').toBe('hit')
    offsetMs += 60 * 60_000
    expect((await get(url('/core/continents?per_page=4'))).headers['x-cache']).toBe('miss')
  })

  it('caches an upstream 404 briefly and relays its body', async () => {
    const before = calls.count()
    const a = await get(url('/football/teams/987654321'))
    const b = await get(url('/football/teams/987654321'))
    expect(a.status).toBe(404)
    expect(a.body).toMatchObject({ error: 'Not Found', resource_type: 'team', resource_id: '987654321' })
    expect(b.status).toBe(404)
    expect(b.headers['x-cache']).toBe('hit')
    expect(b.body).toEqual(a.body)
    expect(calls.count() - before).toBe(1)
    offsetMs += 31_000
    expect((await get(url('/football/teams/987654321'))).headers['x-cache'], 'a 404 lives 30 s').toBe('miss')
  })
})

describe('next_page', () => {
  it('points at the gateway, keeps the query and the client\'s own key, and works with the header form of the key', async () => {
    const res = await get(url('/core/countries?per_page=2&order=desc&include=continent'))
    const next = new URL(res.body.pagination.next_page as string)
    expect(next.origin).toBe(new URL(t.base).origin)
    expect(next.pathname).toBe('/v3/core/countries')
    expect(Object.fromEntries(next.searchParams)).toEqual({ per_page: '2', order: 'desc', include: 'continent', api_token: MAIN, page: '2' })
    expect((await get(next.toString())).body.pagination.current_page, 'the link works as given').toBe(2)
    const byHeader = await get(`${t.base}/core/countries?per_page=2&order=desc&include=continent`, { authorization: `Bearer ${MAIN}` })
    expect(byHeader.body.pagination.next_page, 'a key sent in a header stays out of URLs').not.toMatch(/token/i)
    const page2 = await get(byHeader.body.pagination.next_page as string, { authorization: `Bearer ${MAIN}` })
    expect(page2.status).toBe(200)
    expect(page2.body.pagination.current_page).toBe(2)
    expect(page2.body.data[0]).toHaveProperty('continent')
    const last = await get(url('/core/continents?per_page=50'))
    expect(last.body.pagination).toMatchObject({ has_more: false, next_page: null })
  })
})
