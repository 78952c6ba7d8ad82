/**
 * Limits and failures of the REST passthrough: the key's own quota (the upstream's 429 body, headers), the shared
 * upstream budget (never the poller's reserve), and upstream errors, which never crash anything, never
 * charge the key and never show the upstream token or an upstream message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, UPSTREAM_TOKEN, type RequestCounter, type TestGateway } from './harness.ts'

const KEYS = [
  { key: 'tl-main-key', name: 'main' },
  { key: 'tl-small-key', name: 'small', hourly_quota: 3 }
]

let offsetMs = 0
const now = (): number => Date.now() + offsetMs
let t: TestGateway
let calls: RequestCounter

const url = (path: string, key = 'tl-main-key'): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

/** The upstream's 500-shaped body for a gateway failure: no stack, no upstream text, no token. */
function expectFailure (res: { status: number, body: any, text: string }, status: number): void {
  expect(res.status).toBe(status)
  expect(Object.keys(res.body).sort()).toEqual(['error', 'error_id', 'message'])
  expect(res.body.error_id).toMatch(/^[0-9a-f-]{36}$/)
  expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|demo-/)
}

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, passthrough: { now, upstreamTimeoutMs: 500 } } })
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

describe('the key quota', () => {
  it('answers the upstream\'s 429 past the hourly quota, per entity, with the key\'s numbers in body and headers', async () => {
    for (const remaining of [2, 1, 0]) {
      const res = await get(url('/football/venues', 'tl-small-key'))
      expect(res.status).toBe(200)
      expect(res.body.rate_limit).toEqual({ resets_in_seconds: expect.any(Number), remaining, requested_entity: 'Venue' })
      expect(res.headers['x-ratelimit-limit']).toBe('3')
      expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining))
    }
    const before = calls.count()
    const over = await get(url('/football/venues?page=2', 'tl-small-key'))
    expect(over.status).toBe(429)
    expect(over.body).toEqual({
      error: 'Too Many Requests',
      message: expect.any(String),
      retry_after: expect.any(Number),
      rate_limit: { remaining: 0, total: 3, resets_in_seconds: over.body.retry_after, requested_entity: 'Venue' }
    })
    expect(over.headers['retry-after']).toBe(String(over.body.retry_after))
    expect(calls.count(), 'an over-quota request costs no upstream call').toBe(before)
    expect((await get(url('/football/coaches', 'tl-small-key'))).status, 'other entities remain usable').toBe(200)
    offsetMs += (over.body.retry_after + 1) * 1000
    expect((await get(url('/football/venues', 'tl-small-key'))).body.rate_limit.remaining, 'a new window after the hour').toBe(2)
  })

  it('counts an error that reached the upstream, and gives back one answered from the cache', async () => {
    for (let i = 0; i < 5; i++) expect((await get(url('/football/referees/987654321', 'tl-small-key'))).status).toBe(404)
    const ok = await get(url('/football/referees', 'tl-small-key'))
    expect(ok.body.rate_limit.remaining, 'the first 404 went upstream and costs a call; the four cached ones cost nothing').toBe(1)
  })
})

describe('the shared upstream budget', () => {
  it('refuses a miss that would dig into the poller\'s Fixture reserve, and still serves hits', async () => {
    const cached = '/football/fixtures/date/2026-01-10'
    expect((await get(url(cached))).headers['x-cache']).toBe('miss')
    // A poller (this gateway polls not: one on another instance) claims a call per 8 s, some 450 until the
    // reset about an hour away; 10 are left in the window, so nothing is over for the passthrough.
    await t.gw.ledger.claim('Fixture', 'poller', { perHour: 450, reserve: 0.2, lumps: 0, ttlMs: 3_600_000 })
    const bucket = await t.gw.ledger.get('Fixture')
    const resetsIn = Math.round(((bucket?.resetsAt ?? 0) - Date.now()) / 1000)
    expect(resetsIn).toBeGreaterThan(3500)
    await t.gw.ledger.record('Fixture', { remaining: 10, resetsInSeconds: resetsIn, limit: 5000 })
    const before = calls.count()
    const refused = await get(url('/football/fixtures/date/2026-01-11'))
    expect(refused.status).toBe(429)
    expect(Math.abs(refused.body.retry_after - resetsIn)).toBeLessThanOrEqual(2)
    expect(refused.body.rate_limit.requested_entity).toBe('Fixture')
    expect(refused.body.rate_limit.remaining, 'the key keeps its own quota').toBeGreaterThan(0)
    expect(calls.count()).toBe(before)
    const hit = await get(url(cached))
    expect(hit.status).toBe(200)
    expect(hit.headers['x-cache']).toBe('hit')
    expect((await get(url('/football/teams?per_page=3'))).status, 'other entities keep no reserve').toBe(200)
    // A later window (as the upstream would report after the reset) lifts the refusal.
    await t.gw.ledger.record('Fixture', { remaining: 4000, resetsInSeconds: resetsIn + 3600, limit: 5000 })
    expect((await get(url('/football/fixtures/date/2026-01-11'))).status).toBe(200)
  })

  it('answers an upstream 429 with the upstream\'s 429 body and its retry_after', async () => {
    t.gw.provider?.faults.set({ rateLimitBurst: 1, pathContains: '/football/rounds' })
    const res = await get(url('/football/rounds?per_page=3'))
    expect(res.status).toBe(429)
    expect(res.body.retry_after).toBe(60)
    expect(res.body.rate_limit).toMatchObject({ total: 3000, requested_entity: 'Round' })
  })
})

describe('upstream failures', () => {
  it('turns an upstream 500 into 502 with the upstream\'s 500 body shape, and charges the call it made', async () => {
    t.gw.provider?.faults.set({ errorRate: 1, pathContains: '/football/players' })
    const res = await get(url('/football/players?per_page=4'))
    expectFailure(res, 502)
    t.gw.provider?.faults.set({})
    const ok = await get(url('/football/players?per_page=4'))
    expect(ok.status, 'failures are not cached').toBe(200)
    expect(ok.body.rate_limit.remaining, 'the failed call and this one').toBe(2998)
  })

  it('turns an upstream outage into 503 and a hung call into 504', async () => {
    t.gw.provider?.faults.set({ outageUntil: now() + 60_000, pathContains: '/football/states' })
    expectFailure(await get(url('/football/states')), 503)
    t.gw.provider?.faults.set({ hangRate: 1, pathContains: '/football/stages' })
    const started = Date.now()
    expectFailure(await get(url('/football/stages?per_page=2')), 504)
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('relays upstream 4xx bodies it cannot foresee', async () => {
    const res = await get(url('/football/fixtures/date/2026-13-45'))
    expect(res.status).toBe(400)
    expect(res.body.errors).toHaveProperty('date')
  })

  it('never writes the upstream token to a log line, even at trace level', () => {
    expect(t.lines.length).toBeGreaterThan(0)
    expect(t.lines.filter((l) => l.includes(UPSTREAM_TOKEN))).toEqual([])
  })
})

describe('an unreachable upstream', () => {
  it('answers 503 and keeps serving what it has cached', async () => {
    const g = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false } })
    try {
      const u = (path: string): string => `${g.base}${path}?api_token=tl-main-key`
      expect((await get(u('/core/continents'))).status).toBe(200)
      await g.gw.provider?.close()
      expectFailure(await get(u('/core/countries')), 503)
      const hit = await get(u('/core/continents'))
      expect(hit.status).toBe(200)
      expect(hit.headers['x-cache']).toBe('hit')
      expect(g.lines.filter((l) => l.includes(UPSTREAM_TOKEN))).toEqual([])
    } finally {
      await g.close()
    }
  })
})
