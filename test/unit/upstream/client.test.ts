/** The upstream client against a real local HTTP server: success shapes, quirks, ledger updates, getRaw. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import type { BudgetLedger } from '../../../src/budget/types.ts'
import { createUpstreamClient, type CallInfo, type UpstreamClient, type UpstreamClientOptions } from '../../../src/upstream/client.ts'
import { envelope, rateLimit, startServer, type TestServer } from './client-server.ts'

const TOKEN = 'tl-test-token-4f1c2a'
const NOW = 1_700_000_000_000
const LATEST = '/football/livescores/latest'

let server: TestServer
let ledger: BudgetLedger
let client: UpstreamClient
let calls: CallInfo[]

function open (opts: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  client = createUpstreamClient({
    baseUrl: server.baseUrl, token: TOKEN, ledger, now: () => NOW, onCall: (info) => calls.push(info), ...opts
  })
  return client
}

beforeEach(async () => {
  server = await startServer()
  ledger = createMemoryLedger({ now: () => NOW })
  calls = []
})

afterEach(async () => {
  await client?.close()
  await server.close()
})

describe('upstream client: successful responses', () => {
  it('returns data, the parsed envelope and the bucket, sending the token as api_token', async () => {
    server.on(LATEST, { body: envelope([{ id: 1 }, { id: 2 }]), headers: { 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': '2990' } })
    const res = await open().get<Array<{ id: number }>>(LATEST, { include: 'scores;participants', filters: 'fixtureLeagues:271,501' })
    expect(res.status).toBe(200)
    expect(res.data).toEqual([{ id: 1 }, { id: 2 }])
    expect(res.envelope.timezone).toBe('UTC')
    expect(res.rateLimit).toEqual({ entity: 'Fixture', remaining: 2990, resetsInSeconds: 1800, limit: 3000 })
    expect(res.durationMs).toBeGreaterThanOrEqual(0)
    const [req] = server.hits(LATEST)
    expect(req?.query.get('api_token')).toBe(TOKEN)
    expect(req?.query.get('include')).toBe('scores;participants')
    expect(req?.query.get('filters')).toBe('fixtureLeagues:271,501')
    expect(req?.headers.authorization).toBeUndefined()
    expect(calls).toEqual([{ entity: 'Fixture', status: 200, durationMs: expect.any(Number) }])
  })

  it('treats a 200 with a message and no data as an empty list (null on a single-resource endpoint)', async () => {
    const empty = { message: 'No result(s) found matching your request.', subscription: [], rate_limit: rateLimit(2989), timezone: 'UTC' }
    server.on(LATEST, { body: empty })
    server.on('/football/fixtures/1', { body: empty })
    open()
    expect((await client.get(LATEST)).data).toEqual([])
    expect((await client.get('/football/fixtures/1')).data).toBeNull()
  })

  it('wraps `latest` answered as one object into a list, and leaves single resources alone', async () => {
    server.on(LATEST, { body: envelope({ id: 7 }) })
    server.on('/football/fixtures/7', { body: envelope({ id: 7 }) })
    open()
    expect((await client.get(LATEST)).data).toEqual([{ id: 7 }])
    expect((await client.get('/football/fixtures/7')).data).toEqual({ id: 7 })
  })

  it('replaces any api_token the caller passes and accepts a query inside the path', async () => {
    server.on(LATEST, { body: envelope([]) })
    await open().get(`${LATEST}?include=scores&api_token=theirs`, { api_token: 'client-key', per_page: '5' })
    const [req] = server.hits(LATEST)
    expect(req?.query.getAll('api_token')).toEqual([TOKEN])
    expect(req?.query.get('include')).toBe('scores')
    expect(req?.query.get('per_page')).toBe('5')
  })

  it('fails with TL_ERR_UPSTREAM_BAD_RESPONSE on a 200 that is not an envelope, without retrying', async () => {
    server.on(LATEST, { body: '<html>gateway</html>' })
    await expect(open().get(LATEST)).rejects.toMatchObject({ code: 'TL_ERR_UPSTREAM_BAD_RESPONSE', status: 200, retryable: false })
    expect(server.hits(LATEST)).toHaveLength(1)
  })
})

describe('upstream client: budget ledger', () => {
  it('records the body bucket with the header limit on every response', async () => {
    server.on(LATEST, { body: envelope([], { rate_limit: rateLimit(120, 'Fixture', 600) }), headers: { 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': '999' } })
    await open().get(LATEST)
    // The body wins over the header count (docs/upstream.md, "Rate limits").
    expect(await ledger.get('Fixture')).toMatchObject({ remaining: 120, limit: 3000, resetsAt: NOW + 600_000 })
  })

  it('falls back to the x-ratelimit headers when the body has no rate_limit', async () => {
    await ledger.record('Fixture', { remaining: 50, resetsInSeconds: 900 }, NOW)
    server.on(LATEST, { body: { data: [], timezone: 'UTC' }, headers: { 'x-ratelimit-limit': '3000', 'x-ratelimit-remaining': '44' } })
    const res = await open().get(LATEST)
    expect(res.rateLimit).toEqual({ entity: 'Fixture', remaining: 44, resetsInSeconds: 900, limit: 3000 })
    expect(await ledger.get('Fixture')).toMatchObject({ remaining: 44, limit: 3000 })
  })

  it('records a 429 bucket and its total', async () => {
    server.on(LATEST, {
      status: 429,
      body: { error: 'Too Many Requests', message: 'limit', retry_after: 321, rate_limit: { ...rateLimit(0, 'Fixture', 321), total: 20 } }
    })
    await expect(open().get(LATEST)).rejects.toMatchObject({ code: 'TL_ERR_UPSTREAM_RATE_LIMITED' })
    expect(await ledger.get('Fixture')).toMatchObject({ remaining: 0, limit: 20, resetsAt: NOW + 321_000 })
  })

  it('keeps serving when the ledger fails', async () => {
    const broken: BudgetLedger = { ...createMemoryLedger(), record: async () => { throw new Error('redis down') } }
    server.on(LATEST, { body: envelope([{ id: 1 }]) })
    expect((await open({ ledger: broken }).get(LATEST)).data).toEqual([{ id: 1 }])
  })
})

describe('upstream client: getRaw', () => {
  it('returns status, headers and bytes untouched, never throws on a status, and still feeds the ledger', async () => {
    const body = { error: 'Not Found', message: 'No fixture found with id 9.', resource_type: 'fixture', resource_id: '9' }
    server.on('/football/fixtures/9', { status: 404, body, headers: { 'x-custom': 'yes' } })
    server.on('/football/fixtures/8', { body: envelope({ id: 8 }, { rate_limit: rateLimit(77) }) })
    open()
    const miss = await client.getRaw('/football/fixtures/9', { include: 'events', api_token: 'client-key' }, {
      authorization: 'client-key', host: 'evil.example', 'accept-language': 'da'
    })
    expect(miss.status).toBe(404)
    expect(miss.headers['x-custom']).toBe('yes')
    expect(JSON.parse(miss.body.toString('utf8'))).toEqual(body)
    const [req] = server.hits('/football/fixtures/9')
    expect(req?.query.getAll('api_token')).toEqual([TOKEN])
    expect(req?.headers.authorization).toBeUndefined()
    expect(req?.headers.host).not.toBe('evil.example')
    expect(req?.headers['accept-language']).toBe('da')

    const hit = await client.getRaw('/football/fixtures/8')
    expect(Buffer.isBuffer(hit.body)).toBe(true)
    expect(await ledger.get('Fixture')).toMatchObject({ remaining: 77 })
    expect(calls.map((c) => c.status)).toEqual([404, 200])
  })

  it('makes exactly one attempt, even on a 500', async () => {
    server.on(LATEST, { status: 500, body: { error: 'Internal Server Error', message: 'oops', error_id: 'e1' } })
    expect((await open().getRaw(LATEST)).status).toBe(500)
    expect(server.hits(LATEST)).toHaveLength(1)
  })
})
