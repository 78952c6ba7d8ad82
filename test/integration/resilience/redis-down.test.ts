/**
 * Degrade, don't fail (docs/operations.md): with Redis unreachable (a TCP proxy that drops every connection
 * and refuses new ones, so Redis keeps its data and comes back with the same log), nothing answers 500:
 * `/readyz` is 503, `/v1/status` marks the store down, `/v1/changes` and `/v1/fixtures/live` answer 503
 * `unavailable`, WebSocket and SSE subscribes get an `unavailable` error and are served by themselves once
 * Redis is back, and the passthrough answers from its local cache where it can and 503 with `retry-after`
 * where it cannot (no upstream call for a key while its quota cannot be counted).
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { counterValue } from '../../helpers/pipeline.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse, type SseStream } from '../fanout/harness.ts'
import { startPollingGateway, startUpstream, type Upstream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

let redis: PrivateRedis
let proxy: TcpProxy
let up: Upstream
let gateway: Gateway
const CACHED = '/v3/football/leagues?api_token=demo&per_page=5'
const NOT_CACHED = '/v3/football/teams?api_token=demo&per_page=5'
/** The gateway's log lines, parsed. */
const logged: Array<{ level: number, msg: string }> = []
const sink = new Writable({ write (chunk: Buffer, _enc, done) { for (const l of chunk.toString().split('\n')) if (l !== '') logged.push(JSON.parse(l)); done() } })

beforeAll(async () => {
  redis = await startPrivateRedis()
  proxy = await startTcpProxy(redis.port)
  up = await startUpstream()
  gateway = await startPollingGateway(up, proxy.url.replace('http', 'redis'), 3000, pino({ level: 'warn' }, sink))
  await waitFor('an elected poller', () => gateway.poller.status().running, 10_000)
  // Cached while Redis is up (also in the local cache).
  expect((await fetch(`${gateway.url}${CACHED}`)).status).toBe(200)
  proxy.pause()
  proxy.cut()
}, 60_000)

afterAll(async () => {
  await gateway?.close()
  await proxy?.close()
  await up?.provider.close()
  await redis?.close()
})

/** Upstream calls the passthrough made (the poller calls only the Fixture entity). */
const upstreamCalls = async (): Promise<number> =>
  await counterValue(gateway.metrics, 'touchline_upstream_calls_total', { entity: 'Team' }) +
  await counterValue(gateway.metrics, 'touchline_upstream_calls_total', { entity: 'League' })

const get = async (path: string): Promise<Response> => await fetch(`${gateway.url}${path}`)

describe('with Redis unreachable', () => {
  it('/readyz answers 503 with the store check failed; /healthz stays 200', async () => {
    const res = await get('/readyz')
    expect(res.status).toBe(503)
    expect((await res.json() as { checks: Record<string, boolean> }).checks.store).toBe(false)
    expect((await get('/healthz')).status).toBe(200)
  })

  it('nothing answers 500', async () => {
    const paths = [
      '/healthz', '/readyz', '/metrics', '/v1/status', '/v1/changes?api_token=demo', '/v1/fixtures/live?api_token=demo',
      '/v3/my/usage?api_token=demo', '/v3/football/livescores?api_token=demo', CACHED, NOT_CACHED, '/', '/status'
    ]
    const statuses = await Promise.all(paths.map(async (p) => `${p} ${(await get(p)).status}`))
    expect(statuses.filter((s) => s.endsWith(' 500'))).toEqual([])
  })

  it('/v1/status answers 200 with the store marked down', async () => {
    const res = await get('/v1/status')
    expect(res.status).toBe(200)
    const body = await res.json() as { store: Record<string, unknown>, cursor: string | null, poller: unknown, live_fixtures: number | null, live_set: unknown }
    expect(body.store).toEqual({ engine: 'redis', status: 'down', log_length: null, log_max_length: null })
    expect(body.cursor).toBeNull()
    // Read from the store, not guessed: unknown while it cannot be read.
    expect(body.live_fixtures).toBeNull()
    expect(body.live_set).toBeNull()
  })

  it('/v1/changes and /v1/fixtures/live answer 503 unavailable with retry-after', async () => {
    for (const path of ['/v1/changes?api_token=demo', '/v1/fixtures/live?api_token=demo']) {
      const res = await get(path)
      expect(res.status, path).toBe(503)
      expect(Number(res.headers.get('retry-after')), path).toBeGreaterThan(0)
      expect(await res.json(), path).toMatchObject({ code: 'unavailable' })
    }
  })

  it('the passthrough serves what its local cache holds, and 503 with retry-after without calling upstream otherwise', async () => {
    const calls = await upstreamCalls()
    const hit = await get(CACHED)
    expect(hit.status).toBe(200)
    expect(hit.headers.get('x-cache')).toBe('hit')
    const miss = await get(NOT_CACHED)
    expect(miss.status).toBe(503)
    expect(Number(miss.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = await miss.json() as { error: string, message: string, error_id: string }
    expect(body.error).toBe('Service Unavailable')
    expect(body.error_id).toMatch(/\w/)
    // Fail closed: the key's quota cannot be counted, so it gets no upstream call.
    expect(await upstreamCalls()).toBe(calls)
  })

  it('the hub logs the outage once, at warn, not an error line every few seconds', async () => {
    await new Promise((resolve) => setTimeout(resolve, 9000))
    expect(logged.filter((l) => l.msg === 'hub tail error')).toEqual([])
    expect(logged.filter((l) => l.msg === 'hub tail: store unreachable, retrying')).toHaveLength(1)
  }, 20_000)

  it('a WebSocket and an SSE subscribe get `unavailable`, then a reset and a snapshot by themselves once Redis is back', async () => {
    const ws = await WsTestClient.connect(`${gateway.url.replace('http', 'ws')}/v1/live?api_token=demo`)
    ws.send({ op: 'subscribe', ref: 's', leagues: up.leagues })
    expect(await ws.take('subscribed')).toMatchObject({ ref: 's' })
    expect(await ws.take('error', 10_000)).toMatchObject({ ref: 's', code: 'unavailable' })
    const sse: SseStream = await openSse(`${gateway.url}/v1/sse?api_token=demo`)
    expect(sse.status).toBe(200)
    await waitFor('an SSE error event', () => sse.events.some((e) => e.event === 'error'), 10_000)
    expect(sse.events.find((e) => e.event === 'error')?.data).toMatchObject({ code: 'unavailable' })

    proxy.resume()
    const replay = await ws.take('replay', 15_000)
    expect(replay.recovered).toBe(false)
    const snapshot = await ws.take('snapshot', 10_000)
    expect(snapshot.fixtures.length).toBeGreaterThan(0)
    await waitFor('SSE replay then snapshot', () => {
      const types = sse.events.map((e) => e.event)
      const r = types.indexOf('replay')
      return r >= 0 && types.indexOf('snapshot', r) > r
    }, 15_000)
    expect(sse.events.find((e) => e.event === 'replay')?.data).toMatchObject({ recovered: false })
    // And the feeds answer again.
    await waitFor('ready again', async () => (await get('/readyz')).status === 200, 10_000)
    expect((await get('/v1/changes?api_token=demo')).status).toBe(200)
    ws.ws.terminate()
    sse.close()
  }, 40_000)
})
