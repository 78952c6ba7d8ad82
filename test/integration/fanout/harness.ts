/**
 * A push server on a real port for the integration tests: the hub, the WebSocket route and the HTTP feeds
 * over a store (memory, or Redis on a unique prefix), plus helpers to apply changes and read SSE.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { onTestFinished } from 'vitest'
import { createHub, type Hub } from '../../../src/fanout/hub.ts'
import type { HubLimits } from '../../../src/fanout/limits.ts'
import { feedRoutes } from '../../../src/http/feeds.ts'
import { liveRoutes } from '../../../src/http/websocket.ts'
import { createKeyRing, type ClientKey } from '../../../src/client-keys.ts'
import type { ChangeRecord, LiveFixture } from '../../../src/wire-model/model.ts'
import { createMetrics, type Metrics } from '../../../src/metrics.ts'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { fixture } from '../store/fixture.ts'

export const AT = '2026-11-21T20:15:03.120Z'

export function clientKey (name: string, overrides: Partial<ClientKey> = {}): ClientKey {
  return { key: `${name}-key`, name, leagues: '*', hourly_quota: 3000, max_connections: 100, allowed_origins: '*', features: [], ...overrides }
}

/** Keys every suite can use: `all-key` sees every league, `scoped-key` only 271. */
export const KEYS = [clientKey('all'), clientKey('scoped', { leagues: [271] })]

export interface PushServer {
  app: FastifyInstance
  hub: Hub
  store: LiveStore
  metrics: Metrics
  base: string
  /** ws URL of /v1/live for a key (default `all-key`). */
  wsUrl: (token?: string) => string
  /** Applies one change to fixture `id` (creating it on first use) and returns the record. */
  apply: (id: number, leagueId: number, overrides?: Partial<LiveFixture>) => Promise<ChangeRecord>
}

export interface PushOptions {
  store?: LiveStore
  keys?: ClientKey[]
  limits?: Partial<HubLimits>
}

/** Starts a server closed automatically when the test finishes. */
export async function startPush (opts: PushOptions = {}): Promise<PushServer> {
  const store = opts.store ?? createStore({ kind: 'memory' })
  const metrics = createMetrics({ defaults: false })
  const log = pino({ level: 'silent' })
  const hub = createHub({ store, metrics, log, limits: { connectionBurstPerIp: 1000, connectionsPerSecondPerIp: 1000, ...opts.limits } })
  await hub.start()
  const keys = createKeyRing(opts.keys ?? KEYS)
  const app = Fastify({ logger: false })
  await app.register(liveRoutes({ hub, keys, metrics, log }))
  await app.register(feedRoutes({ store, hub, keys, metrics }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const base = `http://127.0.0.1:${port}`
  return { app, hub, store, metrics, base, wsUrl: (token = 'all-key') => `ws://127.0.0.1:${port}/v1/live?api_token=${token}`, apply: applier(store) }
}

/** Applies successive versions of fixtures, as the poller would. */
export function applier (store: LiveStore): PushServer['apply'] {
  const versions = new Map<number, number>()
  let minute = 0
  return async (id, leagueId, overrides = {}) => {
    const expectedVersion = versions.get(id) ?? 0
    minute++
    const result = await store.apply({
      fixture: fixture(id, leagueId, { minute, ...overrides }),
      changes: [{ kind: 'clock', minute, previous: minute - 1 }],
      expectedVersion,
      live: true,
      at: AT
    })
    if (!result.ok) throw new Error(`apply of fixture ${id} rejected: ${JSON.stringify(result)}`)
    versions.set(id, expectedVersion + 1)
    return result.record
  }
}

export interface SseEvent { id?: string, event: string, data: any }

/** An SSE stream read with node:http: its parsed events as they arrive. */
export interface SseStream {
  status: number
  headers: IncomingMessage['headers']
  events: SseEvent[]
  comments: string[]
  ended: Promise<void>
  close: () => void
}

export async function openSse (url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        ended: new Promise((resolve) => res.on('close', resolve)),
        close: () => req.destroy()
      }
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffer += chunk
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          parseEvent(buffer.slice(0, end), stream)
          buffer = buffer.slice(end + 2)
        }
      })
      res.on('error', () => {})
      resolve(stream)
    })
    req.on('error', reject)
    req.end()
  })
}

function parseEvent (block: string, stream: SseStream): void {
  const event: Partial<SseEvent> & { data?: string } = {}
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) { stream.comments.push(line.slice(1).trim()); continue }
    const colon = line.indexOf(':')
    const field = line.slice(0, colon)
    const value = line.slice(colon + 1).replace(/^ /, '')
    if (field === 'id') event.id = value
    else if (field === 'event') event.event = value
    else if (field === 'data') event.data = value
  }
  if (event.data === undefined) return
  stream.events.push({ id: event.id, event: event.event ?? 'message', data: JSON.parse(event.data) })
}

export { fixture }
