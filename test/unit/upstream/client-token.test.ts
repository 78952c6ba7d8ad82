/**
 * The upstream token never leaves the client: not in any error (message, String, stack, JSON, inspect with
 * causes) and not in any log line, even when the upstream echoes it back in its error bodies.
 */
import { inspect } from 'node:util'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from '../../../src/upstream/client.ts'
import { UpstreamError } from '../../../src/upstream/upstream-errors.ts'
import { envelope, refusedBaseUrl, startServer, type Reply, type TestServer } from './client-server.ts'

const TOKEN = 'sekret-7Hq2xZ9v'

let server: TestServer
let lines: string[]
let clients: UpstreamClient[]

function open (opts: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  const logger = pino({ level: 'trace' }, { write: (line: string) => { lines.push(line) } })
  const client = createUpstreamClient({
    baseUrl: server.baseUrl, token: TOKEN, retryBaseMs: 1, timeoutMs: 100, logger, ledger: createMemoryLedger(), ...opts
  })
  clients.push(client)
  return client
}

/** Every rendering of an error someone might log or send. */
function renderings (err: unknown): string[] {
  const e = err as Error
  return [e.message, String(e), e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 10 })]
}

const ECHO: Record<string, Reply> = {
  '/football/fixtures/400': { status: 400, body: { message: `bad token ${TOKEN}`, code: 5006, errors: { [`api_token=${TOKEN}`]: [`${TOKEN} is not allowed`] } } },
  '/football/fixtures/401': { status: 401, body: { error: 'Unauthorized', message: `The token ${TOKEN} was revoked.` } },
  '/football/fixtures/403': { status: 403, body: { error: 'Forbidden', message: `?api_token=${TOKEN}`, resource: TOKEN, plan_required: TOKEN } },
  '/football/fixtures/404': { status: 404, body: { error: 'Not Found', message: 'none', resource_type: 'fixture', resource_id: TOKEN } },
  '/football/fixtures/429': { status: 429, body: { error: 'Too Many Requests', message: `slow down ${TOKEN}`, retry_after: 5 } },
  '/football/fixtures/500': { status: 500, body: { error: 'Internal Server Error', message: `crash for ${TOKEN}`, error_id: TOKEN } },
  '/football/fixtures/502': { status: 502, body: `<html>${TOKEN}</html>` },
  '/football/fixtures/600': { body: `not json ${TOKEN}` },
  '/football/fixtures/700': 'hang'
}

beforeEach(async () => {
  server = await startServer()
  lines = []
  clients = []
  for (const [path, reply] of Object.entries(ECHO)) server.on(path, reply)
})

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server.close()
})

describe('upstream client: the token never leaks', () => {
  it('keeps it out of every error and every log line', async () => {
    const client = open()
    const errors: unknown[] = []
    const capture = async (p: Promise<unknown>) => { errors.push(await p.then(() => new Error('expected a failure'), (e: unknown) => e)) }
    for (const path of Object.keys(ECHO)) await capture(client.get(path, { api_token: TOKEN, include: 'events' }))
    await capture(open({ baseUrl: await refusedBaseUrl() }).get('/football/fixtures/1'))
    const aborted = new AbortController()
    aborted.abort()
    await capture(client.get('/football/fixtures/1', {}, { signal: aborted.signal }))
    server.on('/football/teams', { body: envelope([1], { pagination: { count: 1, per_page: 1, current_page: 1, has_more: true } }) })
    const walk = async (): Promise<number> => {
      let pages = 0
      for await (const res of client.paginate('/football/teams', { api_token: TOKEN }, { maxPages: 1 })) pages += res.status === 200 ? 1 : 0
      return pages
    }
    await capture(walk())
    // A raw passthrough call with the token echoed in headers and body: the caller gets the bytes, logs stay clean.
    await client.getRaw('/football/fixtures/401', { api_token: TOKEN })

    expect(errors).toHaveLength(Object.keys(ECHO).length + 3)
    for (const err of errors) {
      expect(err).toBeInstanceOf(UpstreamError)
      for (const text of renderings(err)) expect(text).not.toContain(TOKEN)
    }
    // The echoes were scrubbed, not dropped.
    const unauthorized = errors[1] as UpstreamError
    expect(unauthorized.upstreamMessage).toBe('The token [redacted] was revoked.')

    // Log the errors the way the app will (pino's err serializer walks causes), then scan every line.
    const logger = pino({ level: 'trace' }, { write: (line: string) => { lines.push(line) } })
    for (const err of errors) logger.error({ err }, 'upstream call failed')
    expect(lines.length).toBeGreaterThan(errors.length)
    for (const line of lines) expect(line).not.toContain(TOKEN)
    expect(lines.some((l) => l.includes('"msg":"upstream call"') && l.includes('api_token') === false)).toBe(true)
  })

  it('still sends it to the upstream, once, as api_token', async () => {
    server.on('/football/fixtures/1', { body: envelope({ id: 1 }) })
    await open().get('/football/fixtures/1')
    expect(server.hits('/football/fixtures/1')[0]?.query.getAll('api_token')).toEqual([TOKEN])
  })

  it('refuses to start without a token', () => {
    expect(() => createUpstreamClient({ baseUrl: server.baseUrl, token: '' })).toThrow(TypeError)
  })
})
