/**
 * `GET /v1/webhooks` and `POST /v1/webhooks/{id}/resume` while Redis cannot be reached (a TCP proxy that
 * drops every connection and refuses new ones): 503 `unavailable` with `retry-after`, as every other route
 * that needs the store answers (docs/operations.md, "Redis"), never a 500 with a stack in the log; and the
 * routes answer again by themselves once Redis is back.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { waitFor } from '../../helpers/wait.ts'
import { hookKey, SECRET } from './harness.ts'

let redis: PrivateRedis
let proxy: TcpProxy
let gateway: Gateway
/** The gateway's log lines at warn and above, parsed. */
const logged: Array<{ level: number, msg: string, err?: { stack?: string } }> = []
const sink = new Writable({ write (chunk: Buffer, _enc, done) { for (const l of chunk.toString().split('\n')) if (l !== '') logged.push(JSON.parse(l)); done() } })
const KEY = 'hook-client-key'

beforeAll(async () => {
  redis = await startPrivateRedis()
  proxy = await startTcpProxy(redis.port)
  // The receiver is never reached in this test: nothing is appended.
  gateway = await startTestGateway({
    env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3', TOUCHLINE_REDIS_URL: proxy.url.replace('http', 'redis') },
    keys: [hookKey([{ id: 'x', url: 'http://127.0.0.1:9/hook', secret: SECRET }])],
    log: pino({ level: 'warn' }, sink),
    overrides: { poll: false }
  })
  expect((await fetch(`${gateway.url}/v1/webhooks?api_token=${KEY}`)).status).toBe(200)
}, 30_000)

afterAll(async () => {
  await gateway?.close()
  await proxy?.close()
  await redis?.close()
})

describe('webhook routes with Redis unreachable', () => {
  it('GET /v1/webhooks and POST /v1/webhooks/{id}/resume answer 503 unavailable with retry-after, and log no error', async () => {
    proxy.pause()
    proxy.cut()
    const requests = [
      { method: 'GET', path: `/v1/webhooks?api_token=${KEY}` },
      { method: 'POST', path: `/v1/webhooks/x/resume?api_token=${KEY}` }
    ]
    for (const { method, path } of requests) {
      const res = await fetch(`${gateway.url}${path}`, { method })
      const body = await res.json() as { code?: string }
      expect({ status: res.status, retryAfter: Number(res.headers.get('retry-after')) > 0, code: body.code }, `${method} ${path}`)
        .toEqual({ status: 503, retryAfter: true, code: 'unavailable' })
    }
    // An outage is a known state: no `request failed` error line with a stack.
    expect(logged.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([])

    // Still a 404 for an id the key does not have, and a 401 without a key: neither needs the store.
    expect((await fetch(`${gateway.url}/v1/webhooks/nope/resume?api_token=${KEY}`, { method: 'POST' })).status).toBe(404)
    expect((await fetch(`${gateway.url}/v1/webhooks`)).status).toBe(401)

    proxy.resume()
    await waitFor('GET /v1/webhooks answers again', async () => (await fetch(`${gateway.url}/v1/webhooks?api_token=${KEY}`)).status === 200, 15_000)
    const resumed = await fetch(`${gateway.url}/v1/webhooks/x/resume?api_token=${KEY}`, { method: 'POST' })
    expect(resumed.status).toBe(200)
  }, 40_000)
})
