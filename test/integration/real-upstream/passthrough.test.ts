/**
 * The passthrough and the budget against a server that answers like the real API (test/helpers/real-upstream.ts),
 * not our embedded provider: cursor pages in both forms of `next_cursor`, paths and includes of the real
 * surface and names our catalogue lacks, refusals the upstream makes, a `rate_limit` with no total and a
 * small `remaining` (the ledger in memory and in Redis). Whatever the suite did, the upstream token shows in
 * no response, frame or log line.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'undici'
import type { StatusBody } from '../../../src/http/status.ts'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { capturedFixtures, envelope, OFFSET_ROWS_MAX, pagedList, RECORDED_FIXTURE_ID, startRealUpstream, type RealUpstream } from '../../helpers/real-upstream.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { captureLogger } from '../passthrough/harness.ts'
import { openTestRedis, type TestRedis } from '../../helpers/redis.ts'

const TOKEN = `real-${randomUUID()}`
/** The Redis engine's gateway writes under a prefix of this file's own, deleted after its tests. */
const REDIS = openTestRedis()

/** Everything the gateways of this file said, to look for the token and the upstream host at the end. */
const received: string[] = []
const logs: string[][] = []
const upstreams: RealUpstream[] = []

interface Res { status: number, headers: Record<string, unknown>, body: any }

async function get (url: string): Promise<Res> {
  const res = await request(url)
  const text = await res.body.text()
  received.push(text, JSON.stringify(res.headers))
  let body: unknown = text
  try { body = JSON.parse(text) } catch {}
  return { status: res.statusCode, headers: res.headers, body }
}

/** The same request made straight at the real-like server (its own answer, to compare the gateway's with). */
async function direct (upstream: RealUpstream, path: string): Promise<any> {
  const sep = path.includes('?') ? '&' : '?'
  return await (await request(`${upstream.baseUrl}${path}${sep}api_token=${upstream.token}`)).body.json()
}

async function startAgainst (upstream: RealUpstream, env: Record<string, string> = {}): Promise<Gateway> {
  const captured = captureLogger()
  const gw = await startTestGateway({
    env: {
      TOUCHLINE_UPSTREAM_URL: upstream.baseUrl,
      TOUCHLINE_UPSTREAM_TOKEN: upstream.token,
      TOUCHLINE_LOG_LEVEL: 'trace',
      ...env
    },
    log: captured.log
  })
  logs.push(captured.lines)
  return gw
}

/** The Fixture bucket of /v1/status once the ledger knows its limit. */
async function fixtureBudget (gw: Gateway): Promise<StatusBody['budget'][number]> {
  let fixture: StatusBody['budget'][number] | undefined
  for (let i = 0; i < 100 && fixture?.limit == null; i++) {
    fixture = ((await get(`${gw.url}/v1/status`)).body as StatusBody).budget.find((b) => b.entity === 'Fixture')
    if (fixture?.limit == null) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(fixture).toBeDefined()
  return fixture as StatusBody['budget'][number]
}

describe('passthrough against a real-like upstream', () => {
  let upstream: RealUpstream
  let gw: Gateway
  let v3: string

  beforeAll(async () => {
    upstream = await startRealUpstream({ token: TOKEN, remaining: 100_000 })
    upstreams.push(upstream)
    upstream.set('/football/fixtures', pagedList(capturedFixtures, 'url'))
    upstream.set('/football/fixtures/between/{start}/{end}', pagedList(capturedFixtures, 'token'))
    gw = await startAgainst(upstream)
    v3 = `${gw.url}/v3`
  })

  afterAll(async () => {
    await gw?.close()
  })

  /** Follows `next_cursor` from `first` through the gateway; every page as answered. */
  async function walk (first: string, follow: (cursor: string) => string): Promise<Res[]> {
    const pages = [await get(first)]
    for (let last = pages[0] as Res; last.body.pagination?.has_more === true; last = pages.at(-1) as Res) {
      expect(last.status).toBe(200)
      expect(pages.length).toBeLessThan(10)
      pages.push(await get(follow(last.body.pagination.next_cursor as string)))
    }
    return pages
  }

  function expectEveryRowOnce (pages: Res[]): void {
    const ids = pages.flatMap((p) => (p.body.data as Array<{ id: number }>).map((f) => f.id))
    expect(ids).toEqual(capturedFixtures().map((f) => f.id))
    expect(pages.map((p) => p.body.pagination.count)).toEqual([10, 10, 5])
    expect(pages.at(-1)?.body.pagination).toMatchObject({ has_more: false, next_cursor: null, next_page: null })
  }

  it('walks a next_cursor the upstream wrote as a full URL with its host and token: gateway URLs, every row once', async () => {
    const before = upstream.hits('/football/fixtures').length
    const pages = await walk(`${v3}/football/fixtures?per_page=10&api_token=demo`, (cursor) => {
      expect(cursor.startsWith(`${v3}/football/fixtures?`)).toBe(true)
      expect(new URL(cursor).searchParams.get('api_token')).toBe('demo')
      expect(new URL(cursor).searchParams.has('per_page')).toBe(false)
      return cursor
    })
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200])
    expectEveryRowOnce(pages)
    // Each page was one upstream call, asked with the upstream's own cursor.
    const sent = upstream.hits('/football/fixtures').slice(before)
    expect(sent).toHaveLength(3)
    expect(sent.slice(1).every((r) => r.query.has('cursor') && !r.query.has('per_page') && r.status === 200)).toBe(true)
    // The offset link of a page is the gateway's too, and leads to the same next rows.
    const nextPage = pages[0]?.body.pagination.next_page as string
    expect(nextPage.startsWith(`${v3}/football/fixtures?`)).toBe(true)
    expect((await get(nextPage)).body.data).toEqual(pages[1]?.body.data)
  })

  it('walks a next_cursor the upstream wrote as a bare token: the token as given, passed back as cursor=', async () => {
    const path = '/football/fixtures/between/2023-01-01/2023-01-31'
    const upstreamFirst = await direct(upstream, `${path}?per_page=10`)
    const pages = await walk(`${v3}${path}?per_page=10&api_token=demo`, (cursor) => {
      expect(cursor).toMatch(/^[\w-]+$/)
      return `${v3}${path}?cursor=${cursor}&api_token=demo`
    })
    expect(pages[0]?.body.pagination.next_cursor).toBe(upstreamFirst.pagination.next_cursor)
    expectEveryRowOnce(pages)
  })

  it('refuses cursor with per_page, and an offset page past 20,000 rows, without calling the upstream', async () => {
    const calls = upstream.requests.length
    const withPerPage = await get(`${v3}/football/fixtures?cursor=eyJvIjoxMH0&per_page=10&api_token=demo`)
    expect(withPerPage.status).toBe(400)
    expect(JSON.stringify(withPerPage.body)).toContain('per_page')
    const pastOffset = await get(`${v3}/football/fixtures?page=${OFFSET_ROWS_MAX / 50 + 2}&per_page=50&api_token=demo`)
    expect(pastOffset.status).toBe(400)
    expect(upstream.requests.slice(calls).filter((r) => r.path.startsWith('/football/fixtures'))).toEqual([])
    // The last page offset paging allows still goes upstream (and finds nothing there).
    const edge = await get(`${v3}/football/fixtures?page=${OFFSET_ROWS_MAX / 50 + 1}&per_page=50&api_token=demo`)
    expect(edge.status).toBe(200)
    expect(upstream.requests.slice(calls).filter((r) => r.path === '/football/fixtures')).toHaveLength(1)
  })

  const FIXTURE_INCLUDES = 'lineups;timeline;coaches;tvStations;metadata;formations;trends;sidelined;weatherReport;events.period;state.type;statistics.type'
  const SURFACE = [
    '/football/topscorers/seasons/23619',
    '/football/squads/teams/591',
    '/football/transfers',
    '/football/tv-stations/fixtures/19683241',
    '/football/fixtures/upcoming/markets/1',
    '/odds/markets',
    '/odds/bookmakers',
    `/football/fixtures/${RECORDED_FIXTURE_ID}?include=${FIXTURE_INCLUDES}`,
    // Names our catalogue does not have, which the server accepts.
    `/football/fixtures/${RECORDED_FIXTURE_ID}?include=momentum;participants`,
    `/football/momentum/fixtures/${RECORDED_FIXTURE_ID}`
  ]

  it.each(SURFACE)('answers %s with the upstream\'s data', async (path) => {
    const sep = path.includes('?') ? '&' : '?'
    const res = await get(`${v3}${path}${sep}api_token=demo`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const own = await direct(upstream, path)
    expect(own.data).toBeDefined()
    expect(res.body.data).toEqual(own.data)
  })

  it('keeps the lower-cased keys of camelCase and nested includes', async () => {
    const res = await get(`${v3}/football/fixtures/${RECORDED_FIXTURE_ID}?include=${FIXTURE_INCLUDES}&api_token=demo`)
    const fixture = res.body.data
    for (const key of ['lineups', 'timeline', 'coaches', 'tvstations', 'metadata', 'formations', 'trends', 'sidelined', 'weatherreport', 'events', 'state', 'statistics']) {
      expect(fixture, key).toHaveProperty(key)
    }
    expect(fixture.events.every((e: { period?: { id: number } }) => e.period !== undefined)).toBe(true)
    expect(fixture.state.type).toMatchObject({ developer_name: 'PENALTY_SHOOTOUT' })
    expect(fixture.statistics[0].type).toMatchObject({ id: fixture.statistics[0].type_id })
  })

  it('sends a repeated include as one, the last, as the real API reads it', async () => {
    const res = await get(`${v3}/football/fixtures/${RECORDED_FIXTURE_ID}?include=participants&include=scores&api_token=demo`)
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveProperty('scores')
    expect(res.body.data).not.toHaveProperty('participants')
    expect(res.body.data).toEqual((await direct(upstream, `/football/fixtures/${RECORDED_FIXTURE_ID}?include=participants&include=scores`)).data)
  })

  it.each([
    { what: 'an include the upstream does not know', path: `/football/fixtures/${RECORDED_FIXTURE_ID}?include=madeUpThing`, status: 400, upstreamPath: `/football/fixtures/${RECORDED_FIXTURE_ID}`, code: 5001 },
    { what: 'a path the upstream does not have', path: '/football/made-up-things/7', status: 404, upstreamPath: '/football/made-up-things/7', code: undefined }
  ])('relays the upstream\'s refusal of $what, calling it once for many identical requests', async ({ path, status, upstreamPath, code }) => {
    const before = upstream.hits(upstreamPath).length
    const sep = path.includes('?') ? '&' : '?'
    const first = await get(`${v3}${path}${sep}api_token=demo`)
    expect(first.status).toBe(status)
    expect(first.body).toEqual(await direct(upstream, path))
    if (code !== undefined) expect(first.body.code).toBe(code)
    const again = await Promise.all(Array.from({ length: 8 }, async () => await get(`${v3}${path}${sep}api_token=demo`)))
    for (let i = 0; i < 4; i++) again.push(await get(`${v3}${path}${sep}api_token=demo`))
    expect(again.map((r) => r.status)).toEqual(again.map(() => status))
    // One call from the gateway, one from `direct` above.
    expect(upstream.hits(upstreamPath).length - before).toBe(2)
  })

  it.each([
    { what: 'a 400 whose message quotes the request URL', reply: (url: string) => ({ status: 400, body: { message: `Bad request: ${url}` } }), status: 400 },
    { what: 'a 500 page that quotes the request URL', reply: (url: string) => ({ status: 500, body: `<h1>Server Error</h1><p>${url}</p>`, headers: { 'content-type': 'text/html' } }), status: 502 },
    { what: 'a 401 for the gateway\'s own token', reply: () => ({ status: 401, body: { message: 'Unauthenticated.' } }), status: 502 },
    { what: 'a connection reset', reply: () => ({ hangUp: true }), status: 503 }
  ])('answers $what without the token', async ({ reply, status }) => {
    upstream.set('/football/failing/{n}', (req, server) => reply(`${server.baseUrl}${req.path}?${req.query.toString()}`))
    const path = `/football/failing/${status}-${upstream.requests.length}`
    const res = await get(`${v3}${path}?api_token=demo`)
    expect(res.status).toBe(status)
    expect(upstream.hits(path).length).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(res)).not.toContain(TOKEN)
  })

  it('sends the live feed over WebSocket (frames kept for the token scan)', async () => {
    const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
    try {
      await ws.take('hello')
      expect(await ws.request({ op: 'subscribe', ref: '1', leagues: [501, 2] })).toMatchObject({ type: 'subscribed' })
      await ws.take('snapshot')
    } finally {
      received.push(JSON.stringify(ws.frames))
      ws.ws.close()
    }
  })
})

/** The ledger in memory, and in Redis (its Lua scripts) under a prefix of this run's own. */
const ENGINES: Array<{ engine: string, env: Record<string, string>, redis?: TestRedis }> = [
  { engine: 'memory', env: {} },
  { engine: 'redis', env: { TOUCHLINE_REDIS_URL: REDIS.url, TOUCHLINE_REDIS_PREFIX: REDIS.prefix }, redis: REDIS }
]

describe.each(ENGINES)('budget against a real-like upstream, no total and a small remaining ($engine)', ({ env, redis }) => {
  let upstream: RealUpstream
  let gw: Gateway

  beforeAll(async () => {
    upstream = await startRealUpstream({ token: TOKEN, remaining: 60 })
    upstreams.push(upstream)
    gw = await startAgainst(upstream, env)
  })

  afterAll(async () => {
    await gw?.close()
    await redis?.close()
  })

  it('learns the Fixture limit from the counting down, and says so in /v1/status and /metrics', async () => {
    const fixture = await fixtureBudget(gw)
    expect(fixture).toMatchObject({ limit: 60, limit_source: 'learned' })
    expect(fixture.remaining).toBeLessThan(60)
    expect((await get(`${gw.url}/metrics`)).body).toContain('touchline_budget_limit{entity="Fixture",source="learned"} 60')
  })

  it('answers Fixture requests while the poller\'s need until the reset is below what is left, then refuses locally', async () => {
    await fixtureBudget(gw)
    const left = upstream.remaining('Fixture')
    // The poller's need for the hour: its share (80 %) of the learned limit, prorated to the time left.
    const need = 48
    expect(left).toBeGreaterThan(need + 1)
    // A burst of distinct Fixture requests at once: the reservations must hold under concurrency.
    const ids = capturedFixtures().map((f) => f.id)
    const answers = await Promise.all(ids.map(async (id) => await get(`${gw.url}/v3/football/fixtures/multi/${id}?api_token=demo`)))
    const served = ids.filter((_id, i) => answers[i]?.status === 200)
    const refused = ids.filter((_id, i) => answers[i]?.status !== 200)
    // Not locked out for the hour: every call above the poller's need was served (a poll may take one).
    expect(served.length).toBeGreaterThanOrEqual(left - need - 2)
    expect(refused.length).toBeGreaterThan(0)
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(429)
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3000)
    }
    // Refused by the gateway before the upstream ran dry: what the poller needs is still there.
    expect(upstream.remaining('Fixture')).toBeGreaterThanOrEqual(need - 1)
    expect(refused.flatMap((id) => upstream.hits(`/football/fixtures/multi/${id}`))).toEqual([])
    // Still answering later requests the cache can serve, without an upstream call.
    const cached = `/football/fixtures/multi/${served[0] as number}`
    expect((await get(`${gw.url}/v3${cached}?api_token=demo`)).status).toBe(200)
    expect(upstream.hits(cached)).toHaveLength(1)
  })

  it('keeps the poller\'s need from a path the catalogue does not know that the upstream charges to Fixture', async () => {
    upstream.set('/football/momentum/fixtures/{fixtureId}', {
      entity: 'Fixture',
      handler: (req) => ({ body: envelope([{ fixture_id: Number(req.params.fixtureId), participant_id: 591, minute: 12, value: 0.4 }]) })
    })
    const need = 48
    const paths = capturedFixtures().map((f) => `/football/momentum/fixtures/${f.id as number}`)
    // One call at a time: the first answer names the bucket.
    const answers: Res[] = []
    for (const path of paths) answers.push(await get(`${gw.url}/v3${path}?api_token=demo`))
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1)
    expect(answers.slice(1).map((r) => r.status)).toEqual(paths.slice(1).map(() => 429))
    expect(upstream.remaining('Fixture')).toBeGreaterThanOrEqual(need - 2)
  })

  it('never makes the upstream answer 429', () => {
    expect(upstream.requests.length).toBeGreaterThan(0)
    expect(upstream.requests.filter((r) => r.status === 429)).toEqual([])
    expect(gw.poller.status().lastError).toBeNull()
  })
})

describe('budget with TOUCHLINE_UPSTREAM_HOURLY_LIMIT against a real-like upstream', () => {
  it('reports the configured limit in /v1/status and /metrics', async () => {
    const upstream = await startRealUpstream({ token: TOKEN, remaining: 60 })
    upstreams.push(upstream)
    const gw = await startAgainst(upstream, { TOUCHLINE_UPSTREAM_HOURLY_LIMIT: '75' })
    try {
      expect(await fixtureBudget(gw)).toMatchObject({ limit: 75, limit_source: 'configured' })
      expect((await get(`${gw.url}/metrics`)).body).toContain('touchline_budget_limit{entity="Fixture",source="configured"} 75')
      expect(upstream.requests.filter((r) => r.status === 429)).toEqual([])
    } finally {
      await gw.close()
    }
  })
})

describe('across everything above', () => {
  afterAll(async () => {
    await Promise.all(upstreams.map(async (u) => { await u.close() }))
  })

  it('sent the token only as api_token, and no response, frame or log line carries it or names the upstream host', () => {
    expect(upstreams).toHaveLength(4)
    for (const req of upstreams.flatMap((u) => u.requests)) {
      expect(req.query.get('api_token')).toBe(TOKEN)
      expect(JSON.stringify(req.headers)).not.toContain(TOKEN)
    }
    expect(received.length).toBeGreaterThan(50)
    expect(received.filter((text) => text.includes(TOKEN))).toEqual([])
    for (const upstream of upstreams) {
      expect(received.filter((text) => text.includes(upstream.origin) || text.includes(upstream.origin.replaceAll('/', '\\/')))).toEqual([])
    }
    const lines = logs.flat()
    expect(lines.length).toBeGreaterThan(20)
    expect(lines.filter((line) => line.includes(TOKEN))).toEqual([])
  })
})
