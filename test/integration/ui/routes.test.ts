/**
 * The UI's HTTP side without a browser: static files (types, ETag, caching, CSP), per-key CORS on the
 * JSON endpoints, and `GET /v1/status`.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createHub } from '../../../src/fanout/hub.ts'
import { corsRoutes } from '../../../src/http/cors.ts'
import { feedRoutes } from '../../../src/http/feeds.ts'
import { statusRoutes } from '../../../src/http/status.ts'
import { uiRoutes } from '../../../src/http/ui.ts'
import { createKeyRing, type ClientKey } from '../../../src/client-keys.ts'
import { createMetrics } from '../../../src/metrics.ts'
import { createStore } from '../../../src/store/index.ts'

const key = (k: string, origins: ClientKey['allowed_origins']): ClientKey =>
  ({ key: k, name: k, leagues: '*', hourly_quota: 3000, max_connections: 100, allowed_origins: origins, features: [] })

const apps: FastifyInstance[] = []
afterEach(async () => { for (const app of apps.splice(0)) await app.close() })

async function build (): Promise<FastifyInstance> {
  const store = createStore({ kind: 'memory' })
  const metrics = createMetrics({ defaults: false })
  const log = pino({ level: 'silent' })
  const hub = createHub({ store, metrics, log })
  await hub.start()
  const keys = createKeyRing([key('open-key', '*'), key('site-key', ['https://site.example'])])
  const ledger = createMemoryLedger()
  await ledger.record('Fixture', { remaining: 2400, resetsInSeconds: 1200, limit: 3000 })
  const app = Fastify()
  await app.register(corsRoutes({ keys }))
  await app.register(feedRoutes({ store, hub, keys, metrics }))
  await app.register(statusRoutes({ ledger, metrics, poller: () => undefined, store }))
  await app.register(uiRoutes())
  apps.push(app)
  return app
}

describe('static files', () => {
  it('serves the pages and scripts with their types, an ETag answered by 304, and a CSP on pages', async () => {
    const app = await build()
    const page = await app.inject('/')
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['cache-control']).toBe('no-cache')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.body).toContain('<main')
    const again = await app.inject({ url: '/', headers: { 'if-none-match': String(page.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect((await app.inject('/status')).body).toContain('Gateway status')
    for (const [path, type] of [['/app.js', 'text/javascript'], ['/widget.js', 'text/javascript'], ['/lib/feed.js', 'text/javascript'], ['/styles.css', 'text/css'], ['/favicon.svg', 'image/svg+xml']]) {
      const res = await app.inject(path as string)
      expect(res.statusCode, path).toBe(200)
      expect(String(res.headers['content-type']).startsWith(type as string), path).toBe(true)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
    expect((await app.inject('/widget/app.js')).headers['access-control-allow-origin']).toBe('*')
    // Modules are not versioned: revalidated every time (a cheap 304), never a mix of two deploys.
    for (const path of ['/lib/feed.js', '/lib/card.css', '/widget.js']) {
      const res = await app.inject(path)
      expect(res.headers['cache-control'], path).toContain('no-cache')
      expect(res.headers['cache-control'], path).not.toMatch(/max-age=[1-9]/)
      const again = await app.inject({ url: path, headers: { 'if-none-match': String(res.headers.etag) } })
      expect(again.statusCode, path).toBe(304)
    }
    expect((await app.inject('/nope.js')).statusCode).toBe(404)
    expect((await app.inject('/../package.json')).statusCode).toBe(404)
  })
})

describe('CORS for the JSON endpoints', () => {
  it('echoes an allowed origin, refuses another with 403, and leaves requests without Origin alone', async () => {
    const app = await build()
    const ok = await app.inject({ url: '/v1/fixtures/live?api_token=site-key', headers: { origin: 'https://site.example' } })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe('https://site.example')
    expect(ok.headers.vary).toMatch(/Origin/)
    const any = await app.inject({ url: '/v1/changes?api_token=open-key', headers: { origin: 'https://anywhere.example' } })
    expect(any.headers['access-control-allow-origin']).toBe('https://anywhere.example')
    const refused = await app.inject({ url: '/v1/changes?api_token=site-key', headers: { origin: 'https://evil.example' } })
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
    expect(refused.json()).toMatchObject({ code: 'forbidden' })
    const noOrigin = await app.inject('/v1/fixtures/live?api_token=site-key')
    expect(noOrigin.statusCode).toBe(200)
    expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined()
    const badKey = await app.inject({ url: '/v1/fixtures/live?api_token=nope', headers: { origin: 'https://site.example' } })
    // A 401 is readable cross-origin, so a widget elsewhere sees the refusal instead of a blind network error.
    expect(badKey.statusCode).toBe(401)
    expect(badKey.headers['access-control-allow-origin']).toBe('https://site.example')
    expect(badKey.headers.vary).toMatch(/Origin/)
    const noKey = await app.inject({ url: '/v1/changes', headers: { origin: 'https://other.example' } })
    expect(noKey.statusCode).toBe(401)
    expect(noKey.headers['access-control-allow-origin']).toBe('https://other.example')
    expect((await app.inject('/v1/fixtures/live?api_token=nope')).headers['access-control-allow-origin']).toBeUndefined()
    // Other routes are not CORS-enabled by this hook.
    const status = await app.inject({ url: '/v1/status', headers: { origin: 'https://site.example' } })
    expect(status.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers preflights for allowed origins', async () => {
    const app = await build()
    const pre = await app.inject({ method: 'OPTIONS', url: '/v1/sse?api_token=site-key', headers: { origin: 'https://site.example', 'access-control-request-headers': 'last-event-id' } })
    expect(pre.statusCode).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe('https://site.example')
    expect(pre.headers['access-control-allow-headers']).toContain('last-event-id')
    const no = await app.inject({ method: 'OPTIONS', url: '/v1/sse?api_token=site-key', headers: { origin: 'https://evil.example' } })
    expect(no.statusCode).toBe(403)
  })
})

describe('GET /v1/status', () => {
  it('reports budget, connections, poller and history without a key', async () => {
    const app = await build()
    const res = await app.inject('/v1/status')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    const body = res.json()
    expect(body.budget).toEqual([{ entity: 'Fixture', remaining: 2400, limit: 3000, limit_source: 'reported', resets_at: expect.any(String), resets_in_s: expect.any(Number), expired: false, pollers_need: 0, spent: { pollers: 0, passthrough: 0 }, burn: null }])
    expect(body.budget[0].resets_in_s).toBeGreaterThan(1190)
    expect(body).toMatchObject({
      poller: null,
      odds_poller: null,
      detection_latency: null,
      connections: { ws: 0, sse: 0, total: 0 },
      live_fixtures: 0,
      live_set: { total: 0, by_phase: {} },
      store: { engine: 'memory', status: 'up', log_length: 0, log_max_length: 10_000 },
      history: { interval_s: 10, samples: [] }
    })
    expect(body.cursor).toMatch(/:0$/)
  })
})
