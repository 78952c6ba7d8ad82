/**
 * The drain before a shutdown (TOUCHLINE_DRAIN_DELAY_MS, docs/operations.md "Graceful shutdown"), on a real
 * `touchline serve` process: on SIGTERM `/readyz` answers 503 `draining` at once while everything else goes
 * on serving (open sockets, new connections); once the delay is over the sockets close with 1001 and the
 * cursor, the listener takes no more connections, and the process exits 0.
 */
import { connect } from 'node:net'
import { expect, it } from 'vitest'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse } from '../fanout/harness.ts'
import { spawnGateway } from './gateway-process.ts'
import { waitFor } from '../../helpers/wait.ts'

const DRAIN_MS = 6000

/** Whether a TCP connection to the gateway's port is accepted now. */
async function accepts (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return await new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
  })
}

it('SIGTERM with a drain delay: /readyz fails at once, the gateway serves until the delay is over, then closes with 1001 and stops listening', async () => {
  const gw = await spawnGateway({ env: { TOUCHLINE_DRAIN_DELAY_MS: String(DRAIN_MS) } })
  const wsUrl = `${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`
  const ws = await WsTestClient.connect(wsUrl)
  await ws.take('hello')
  expect(await ws.request({ op: 'subscribe', ref: 's', leagues: [271], snapshot: false })).toMatchObject({ type: 'subscribed' })
  const sse = await openSse(`${gw.url}/v1/sse?api_token=demo&leagues=271`)
  await waitFor('SSE snapshot', () => sse.events.length > 0, 10_000)
  expect((await fetch(`${gw.url}/readyz`)).status).toBe(200)

  const signalledAt = Date.now()
  gw.child.kill('SIGTERM')
  await waitFor('/readyz answering 503', async () => (await fetch(`${gw.url}/readyz`)).status === 503, 2000, 20)
  const ready = await fetch(`${gw.url}/readyz`)
  expect(ready.status).toBe(503)
  expect(await ready.json()).toEqual({ status: 'draining', checks: {} })
  expect(Date.now() - signalledAt, '/readyz failed well before the drain ends').toBeLessThan(DRAIN_MS - 1000)

  // Still serving: liveness, the open socket, and a new connection (a balancer may send one before its
  // health checks noticed).
  expect((await fetch(`${gw.url}/healthz`)).status).toBe(200)
  expect(await ws.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
  const late = await WsTestClient.connect(wsUrl)
  expect(await late.take('hello')).toMatchObject({ type: 'hello' })

  const closed = await ws.closed
  const closedAfter = Date.now() - signalledAt
  expect(closed.code).toBe(1001)
  expect(closed.reason, 'the close reason is the cursor to resume from').toMatch(/^[0-9a-f]+:\d+$/)
  expect(closedAfter, 'sockets stay open for the drain delay').toBeGreaterThanOrEqual(DRAIN_MS - 50)
  expect((await late.closed).code).toBe(1001)
  await sse.ended
  await waitFor('the listener closed', async () => !await accepts(gw.url), 5000, 20)
  expect(await gw.exited).toBe(0)
  const draining = gw.logs().find((l) => l.msg.startsWith('draining'))
  expect(draining).toMatchObject({ delayMs: DRAIN_MS })
}, 60_000)

it('without a drain delay (the default) /readyz fails and the sockets close at once', async () => {
  const gw = await spawnGateway()
  const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
  await ws.take('hello')
  const signalledAt = Date.now()
  gw.child.kill('SIGTERM')
  expect((await ws.closed).code).toBe(1001)
  expect(Date.now() - signalledAt).toBeLessThan(2000)
  expect(await gw.exited).toBe(0)
}, 60_000)
