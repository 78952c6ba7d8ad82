/**
 * A whole gateway (embedded provider, upstream client, ledger, passthrough) on free ports for the passthrough
 * tests (test/helpers/gateway.ts), with its keys, a logger whose every line is kept (to look for the token), an HTTP
 * helper that checks every response for the upstream token, and a counter of calls made at the provider.
 */
import type { IncomingMessage, Server } from 'node:http'
import { Writable } from 'node:stream'
import { pino, type Logger } from 'pino'
import { request } from 'undici'
import { expect } from 'vitest'
import type { Gateway, GatewayOverrides } from '../../../src/gateway.ts'
import { loggerOptions } from '../../../src/logger.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

/** The gateway's upstream token when it starts the embedded provider itself (docs/settings.md). */
export const UPSTREAM_TOKEN = 'demo-enterprise'

export interface KeySpec {
  key: string
  name: string
  leagues?: number[] | '*'
  hourly_quota?: number
  allowed_origins?: string[] | '*'
}

export interface Res {
  status: number
  headers: Record<string, string>
  body: any
  text: string
}

/** Every response any test of this process received, and those that carried the upstream token. */
export const scanned = { responses: 0, leaks: [] as string[] }

/** GET a URL; records (for `expectNoLeaks`) any response whose body or headers carry the upstream token. */
export async function get (url: string, headers: Record<string, string> = {}): Promise<Res> {
  const res = await request(url, { headers })
  const text = await res.body.text()
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  scanned.responses++
  if (text.includes(UPSTREAM_TOKEN) || Object.entries(flat).some(([n, v]) => `${n}: ${v}`.includes(UPSTREAM_TOKEN))) scanned.leaks.push(url)
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.statusCode, headers: flat, body, text }
}

export function expectNoLeaks (): void {
  expect(scanned.leaks, 'responses carrying the upstream token').toEqual([])
}

/** A pino logger with the gateway's options (redaction, serializers) that keeps every line, at trace level. */
export function captureLogger (): { log: Logger, lines: string[] } {
  const lines: string[] = []
  const stream = new Writable({ write (chunk: Buffer, _enc, done) { lines.push(chunk.toString('utf8')); done() } })
  const { transport: _t, ...options } = loggerOptions('trace')
  return { log: pino(options, stream), lines }
}

export interface TestGateway {
  gw: Gateway
  /** The gateway's `/v3` base URL. */
  base: string
  /** The provider's `/v3` base URL. */
  upstream: string
  /** The embedded provider's HTTP server (for countRequests); absent with an external upstream. */
  providerServer: Server
  lines: string[]
  close: () => Promise<void>
}

export interface PassthroughGatewayOptions {
  keys: KeySpec[]
  /** Redis for the cache, quotas, ledger and store; memory when unset. */
  redis?: { url: string, prefix: string }
  /** An upstream to use (with the demo Enterprise token) instead of starting an embedded provider. */
  upstreamUrl?: string
  overrides?: GatewayOverrides
  /** Further settings, e.g. TOUCHLINE_PUBLIC_URL. */
  env?: Record<string, string>
}

/** A gateway whose every log line is kept (`lines`), for the passthrough's tests. */
export async function startPassthroughGateway (opts: PassthroughGatewayOptions): Promise<TestGateway> {
  const env: Record<string, string> = { TOUCHLINE_LOG_LEVEL: 'trace', ...opts.env }
  if (opts.upstreamUrl !== undefined) {
    env.TOUCHLINE_UPSTREAM_URL = opts.upstreamUrl
    env.TOUCHLINE_UPSTREAM_TOKEN = UPSTREAM_TOKEN
  }
  if (opts.redis !== undefined) {
    env.TOUCHLINE_REDIS_URL = opts.redis.url
    env.TOUCHLINE_REDIS_PREFIX = opts.redis.prefix
  }
  const { log, lines } = captureLogger()
  const gw = await startTestGateway({ env, keys: opts.keys, log, ...(opts.overrides !== undefined ? { overrides: opts.overrides } : {}) })
  return {
    gw,
    base: `${gw.url}/v3`,
    upstream: gw.provider?.baseUrl ?? opts.upstreamUrl ?? '',
    providerServer: gw.provider?.app.server as Server,
    lines,
    close: async () => { await gw.close() }
  }
}

/** Paths of the requests a provider received while counting (query left out: it holds the token). */
export interface RequestCounter {
  paths: string[]
  /** Requests whose path starts with `prefix` (every request when omitted). */
  count: (prefix?: string) => number
  stop: () => void
}

/**
 * Counts every request that reaches the provider, whatever its answer: a second `request` listener on its
 * HTTP server (fastify's own handler answers; this one only records). The provider's `/my/usage` would not
 * do, since it counts successful requests only.
 */
export function countRequests (server: Server): RequestCounter {
  const paths: string[] = []
  const listener = (req: IncomingMessage): void => { paths.push((req.url ?? '').split('?')[0] ?? '') }
  server.on('request', listener)
  return {
    paths,
    count: (prefix = '') => paths.filter((p) => p.startsWith(`/v3${prefix}`)).length,
    stop: () => { server.off('request', listener) }
  }
}
