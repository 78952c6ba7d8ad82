/** Status mapping, retries with backoff, timeouts, refused connections and aborts, against a real server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import { createUpstreamClient, type CallInfo, type UpstreamClient, type UpstreamClientOptions } from '../../../src/upstream/client.ts'
import {
  parseRetryAfter, UpstreamBadRequestError, UpstreamError, UpstreamForbiddenError, UpstreamNetworkError, UpstreamNotFoundError,
  UpstreamRateLimitedError, UpstreamServerError, UpstreamTimeoutError, UpstreamUnauthorizedError
} from '../../../src/upstream/errors.ts'
import { envelope, rateLimit, refusedBaseUrl, startServer, type TestServer } from './client-server.ts'

const TOKEN = 'tl-test-token-9d8e7f'
const PATH = '/football/fixtures/5'
const SERVER_ERROR = { status: 500, body: { error: 'Internal Server Error', message: 'Something went wrong.', error_id: 'err-42' } }

let server: TestServer
let client: UpstreamClient
let calls: CallInfo[]

function open (opts: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  client = createUpstreamClient({
    baseUrl: server.baseUrl, token: TOKEN, retryBaseMs: 5, onCall: (info) => calls.push(info), ...opts
  })
  return client
}

async function failure (promise: Promise<unknown>): Promise<UpstreamError> {
  const err = await promise.then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(UpstreamError)
  return err as UpstreamError
}

beforeEach(async () => {
  server = await startServer()
  calls = []
})

afterEach(async () => {
  await client?.close()
  await server.close()
})

describe('upstream client: status mapping of the error answers, no retry on 4xx', () => {
  it('maps 400 with its errors object and internal code', async () => {
    server.on(PATH, { status: 400, body: { message: 'Include not found.', code: 5001, errors: { include: ['"foo" does not exist'] } } })
    const err = await failure(open().get(PATH, { include: 'foo' }))
    expect(err).toBeInstanceOf(UpstreamBadRequestError)
    expect(err).toMatchObject({ code: 'TL_ERR_UPSTREAM_BAD_REQUEST', status: 400, upstreamCode: 5001, retryable: false, entity: 'Fixture' })
    expect((err as UpstreamBadRequestError).errors).toEqual({ include: ['"foo" does not exist'] })
    expect(err.message).toContain(`GET ${PATH}?include=foo`)
    expect(server.hits(PATH)).toHaveLength(1)
  })

  it('maps 401, 403 and 404 with their body fields', async () => {
    open()
    server.on(PATH, { status: 401, body: { message: 'Unauthenticated.' } })
    expect(await failure(client.get(PATH))).toBeInstanceOf(UpstreamUnauthorizedError)
    server.on(PATH, { status: 403, body: { error: 'Forbidden', message: 'no', resource: 'league 8', plan_required: 'Pro' } })
    const forbidden = await failure(client.get(PATH))
    expect(forbidden).toBeInstanceOf(UpstreamForbiddenError)
    expect(forbidden).toMatchObject({ code: 'TL_ERR_UPSTREAM_FORBIDDEN', resource: 'league 8', planRequired: 'Pro' })
    server.on(PATH, { status: 404, body: { error: 'Not Found', message: 'No fixture.', resource_type: 'fixture', resource_id: '5' } })
    const notFound = await failure(client.get(PATH))
    expect(notFound).toBeInstanceOf(UpstreamNotFoundError)
    expect(notFound).toMatchObject({ code: 'TL_ERR_UPSTREAM_NOT_FOUND', resourceType: 'fixture', resourceId: '5', upstreamMessage: 'No fixture.' })
    expect(server.hits(PATH)).toHaveLength(3)
    expect(calls.map((c) => c.status)).toEqual([401, 403, 404])
  })

  it('throws RateLimited on 429 with retry_after from the body, without retrying', async () => {
    server.on(PATH, {
      status: 429,
      body: { error: 'Too Many Requests', message: 'Try again in 321 seconds.', retry_after: 321, rate_limit: { ...rateLimit(0, 'Fixture', 321), total: 20 } },
      headers: { 'retry-after': '999' }
    })
    const err = await failure(open().get(PATH))
    expect(err).toBeInstanceOf(UpstreamRateLimitedError)
    expect(err).toMatchObject({
      code: 'TL_ERR_UPSTREAM_RATE_LIMITED',
      status: 429,
      retryable: false,
      retryAfterSeconds: 321,
      entity: 'Fixture',
      rateLimit: { remaining: 0, total: 20, resetsInSeconds: 321, entity: 'Fixture' }
    })
    expect(server.hits(PATH)).toHaveLength(1)
  })

  it('takes retryAfterSeconds from the retry-after header when the body is the real API\'s bare message', async () => {
    const ledger = createMemoryLedger({ now: () => 1_000_000 })
    server.on(PATH, { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '120' } })
    const err = await failure(open({ ledger, now: () => 1_000_000 }).get(PATH))
    expect(err).toMatchObject({ retryAfterSeconds: 120, entity: 'Fixture' })
    expect(await ledger.get('Fixture')).toMatchObject({ remaining: 0, resetsAt: 1_000_000 + 120_000 })
  })

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('30', 0)).toBe(30)
    expect(parseRetryAfter(new Date(90_500).toUTCString(), 0)).toBe(90)
    expect(parseRetryAfter('soon', 0)).toBeUndefined()
    expect(parseRetryAfter(undefined, 0)).toBeUndefined()
  })
})

describe('upstream client: retries on 5xx, timeouts and network errors', () => {
  it('retries a 500 and returns the next success', async () => {
    server.on(PATH, SERVER_ERROR, { body: envelope({ id: 5 }) })
    expect((await open().get(PATH)).data).toEqual({ id: 5 })
    expect(server.hits(PATH)).toHaveLength(2)
    expect(calls.map((c) => c.status)).toEqual([500, 200])
  })

  it('gives up after `retries` retries with a ServerError carrying error_id', async () => {
    server.on(PATH, SERVER_ERROR)
    const err = await failure(open({ retries: 2 }).get(PATH))
    expect(err).toBeInstanceOf(UpstreamServerError)
    expect(err).toMatchObject({ code: 'TL_ERR_UPSTREAM_SERVER', status: 500, errorId: 'err-42', retryable: true })
    expect(server.hits(PATH)).toHaveLength(3)
  })

  it('backs off exponentially between attempts (jitter pinned to its maximum)', async () => {
    server.on(PATH, SERVER_ERROR, SERVER_ERROR, { body: envelope({ id: 5 }) })
    await open({ retryBaseMs: 60, random: () => 0.999 }).get(PATH)
    const [a, b, c] = server.hits(PATH).map((r) => r.at) as [number, number, number]
    // Delays drawn from [0, 60) then [0, 120): pinned near the top, they come out at 60 and 120 ms.
    expect(b - a).toBeGreaterThanOrEqual(55)
    expect(c - b).toBeGreaterThanOrEqual(115)
  })

  it('caps a backoff delay at retryMaxMs', async () => {
    server.on(PATH, SERVER_ERROR, { body: envelope({ id: 5 }) })
    const started = performance.now()
    await open({ retryBaseMs: 60_000, retryMaxMs: 20, random: () => 0.999 }).get(PATH)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('times out a hanging response and retries it', async () => {
    server.on(PATH, 'hang', { body: envelope({ id: 5 }) })
    const res = await open({ timeoutMs: 150 }).get(PATH)
    expect(res.data).toEqual({ id: 5 })
    expect(calls.map((c) => c.status)).toEqual(['timeout', 200])
  })

  it('with retryTimeouts false, retries an error answer but not a hung attempt (the poller hedges those)', async () => {
    server.on(PATH, SERVER_ERROR, { body: envelope({ id: 5 }) })
    expect((await open({ timeoutMs: 150 }).get(PATH, {}, { retries: 1, retryTimeouts: false })).data).toEqual({ id: 5 })
    server.on(PATH, 'hang', { body: envelope({ id: 5 }) })
    const err = await failure(client.get(PATH, {}, { retries: 1, retryTimeouts: false }))
    expect(err).toBeInstanceOf(UpstreamTimeoutError)
    expect(calls.map((c) => c.status)).toEqual([500, 200, 'timeout'])
  })

  it('fails with a Timeout after the last attempt', async () => {
    server.on(PATH, 'hang')
    const err = await failure(open({ timeoutMs: 100, retries: 1 }).get(PATH))
    expect(err).toBeInstanceOf(UpstreamTimeoutError)
    expect(err).toMatchObject({ code: 'TL_ERR_UPSTREAM_TIMEOUT', retryable: true, entity: 'Fixture' })
    expect(server.hits(PATH)).toHaveLength(2)
  })

  it('retries a refused connection and fails with a Network error', async () => {
    const err = await failure(open({ baseUrl: await refusedBaseUrl() }).get(PATH))
    expect(err).toBeInstanceOf(UpstreamNetworkError)
    expect(err).toMatchObject({ code: 'TL_ERR_UPSTREAM_NETWORK', retryable: true })
    expect(err.message).toContain('ECONNREFUSED')
    expect(calls.map((c) => c.status)).toEqual(['network', 'network', 'network'])
  })

  it('stops on the caller\'s abort and on close(), also during a backoff', async () => {
    server.on(PATH, 'hang')
    open({ timeoutMs: 5000 })
    const controller = new AbortController()
    const pending = failure(client.get(PATH, {}, { signal: controller.signal }))
    setTimeout(() => controller.abort(), 50)
    expect(await pending).toMatchObject({ code: 'TL_ERR_UPSTREAM_ABORTED', retryable: false })
    await client.close()

    server.on(PATH, SERVER_ERROR)
    const backingOff = failure(open({ retryBaseMs: 10_000, random: () => 0.999 }).get(PATH))
    setTimeout(() => { client.close().catch(() => {}) }, 100)
    expect(await backingOff).toMatchObject({ code: 'TL_ERR_UPSTREAM_ABORTED' })
    expect(calls.filter((c) => c.status === 'network' || c.status === 'timeout')).toEqual([])
  })
})
