/** Connection lifecycle (docs/protocol.md, docs/operations.md): slow consumers, heartbeat, graceful shutdown. */
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, it } from 'vitest'
import { heartbeatSlices } from '../../../src/fanout/lifecycle.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse, startPush, type PushServer } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

/** `gc()` without --expose-gc on the command line. */
function collector (): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

const rawSocket = (c: WsTestClient): Socket => (c.ws as unknown as { _socket: Socket })._socket

/** Subscribes `slow` and `fast`, stops `slow` reading, and pushes big changes until the hub drops it. */
async function overrun (s: PushServer, slow: WsTestClient, fast: WsTestClient): Promise<string> {
  await slow.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  await fast.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  // Stop reading: the kernel buffers fill first (several MB on loopback), then the server's own queue.
  rawSocket(slow).pause()
  const big = { name: 'x'.repeat(64 * 1024) }
  let last = ''
  for (let i = 0; i < 600 && s.hub.stats().connections === 2; i++) {
    last = (await s.apply(1 + (i % 4), 271, big)).cursor
    if (i % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
  }
  expect(s.hub.stats().connections).toBe(1)
  return last
}

it('closes a slow consumer with 4008 while a fast one receives everything', async () => {
  const s = await startPush()
  const slow = await WsTestClient.connect(s.wsUrl())
  const fast = await WsTestClient.connect(s.wsUrl())
  let last = await overrun(s, slow, fast)
  // Keeps flowing for the others after the drop.
  for (let i = 0; i < 5; i++) last = (await s.apply(9, 271)).cursor
  await fast.take((f) => f.type === 'change' && f.cursor === last, 10_000)
  const cursors = fast.changes().map((f) => f.cursor as string)
  expect(new Set(cursors).size).toBe(cursors.length)
  expect(Number(last.split(':')[1])).toBe(cursors.length)
  expect(await s.metrics.registry.metrics()).toMatch(/touchline_slow_consumer_closes_total 1/)

  rawSocket(slow).resume()
  expect((await slow.closed).code).toBe(4008)
  fast.close()
})

it('does not let a stuck slow consumer hold up shutdown', async () => {
  const s = await startPush({ limits: { closeGraceMs: 100 } })
  const slow = await WsTestClient.connect(s.wsUrl())
  const fast = await WsTestClient.connect(s.wsUrl())
  await overrun(s, slow, fast)
  const started = Date.now()
  await s.app.close()
  expect(Date.now() - started).toBeLessThan(2000)
  expect((await fast.closed).code).toBe(1001)
})

it('drops a peer that stops answering pings and keeps one that answers', async () => {
  const s = await startPush({ limits: { heartbeatMs: 50 } })
  const dead = await WsTestClient.connect(s.wsUrl(), { autoPong: false })
  const alive = await WsTestClient.connect(s.wsUrl())
  expect((await dead.take('hello')).heartbeat_ms).toBe(50)
  const closed = await dead.closed
  expect(closed.code).toBe(1006) // terminated: a dead peer gets no close handshake
  await new Promise((resolve) => setTimeout(resolve, 150))
  expect(s.hub.stats().connections).toBe(1)
  expect(await alive.request({ op: 'ping', ref: 'still' })).toMatchObject({ type: 'pong' })
  alive.close()
})

it('spreads the heartbeat: each peer pinged once per interval, a slice at a time, and a silent one still dropped', async () => {
  // 2 s: ten slices of 200 ms.
  // One slice per 100 ms: 20 here, 250 for the default 25 s (40 pings a tick at 10,000 connections).
  expect(heartbeatSlices(2000)).toBe(20)
  expect(heartbeatSlices(25_000)).toBe(250)
  const s = await startPush({ limits: { heartbeatMs: 2000 } })
  const clients = await Promise.all(Array.from({ length: 30 }, async () => await WsTestClient.connect(s.wsUrl())))
  const dead = await WsTestClient.connect(s.wsUrl(), { autoPong: false })
  const start = Date.now()
  const pings: number[][] = clients.map(() => [])
  clients.forEach((c, i) => c.ws.on('ping', () => pings[i]?.push(Date.now() - start)))
  await new Promise((resolve) => setTimeout(resolve, 4300))
  // Every peer pinged once per interval: twice in two intervals, the two pings an interval apart...
  for (const p of pings) {
    expect(p.length).toBeGreaterThanOrEqual(2)
    for (let i = 1; i < p.length; i++) expect((p[i] ?? 0) - (p[i - 1] ?? 0)).toBeGreaterThan(1700)
  }
  // ...and not all at once: the pings fall into most of the interval's ten 200 ms windows.
  const windows = new Set(pings.map((p) => Math.floor(((p[0] ?? 0) % 2000) / 200)))
  expect(windows.size).toBeGreaterThanOrEqual(6)
  // The silent peer is judged at its slice's next turn, one interval after its ping.
  expect((await dead.closed).code).toBe(1006)
  expect(s.hub.stats().connections).toBe(30)
  for (const c of clients) c.close()
}, 15_000)

it('closes every socket with 1001 and the final cursor on shutdown', async () => {
  const s = await startPush()
  const c = await WsTestClient.connect(s.wsUrl())
  await c.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  const rec = await s.apply(1, 271)
  await s.apply(2, 501)
  await c.take('change')
  const closing = s.app.close()
  const closed = await c.closed
  await closing
  expect(closed.code).toBe(1001)
  // The head, not the client's last change: nothing between them matched its subscription.
  expect(closed.reason).toBe(s.hub.head())
  expect(Number(closed.reason.split(':')[1])).toBeGreaterThan(Number(rec.cursor.split(':')[1]))
  expect(s.hub.stats().connections).toBe(0)
})

it('revoking a key closes its WebSockets with 4001, ends its SSE streams, and leaves other keys alone', async () => {
  const s = await startPush()
  const revokedWs = [await WsTestClient.connect(s.wsUrl('scoped-key')), await WsTestClient.connect(s.wsUrl('scoped-key'))]
  const otherWs = await WsTestClient.connect(s.wsUrl())
  for (const c of [...revokedWs, otherWs]) await c.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  const revokedSse = await openSse(`${s.base}/v1/sse?api_token=scoped-key`)
  const otherSse = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271`)
  await waitFor('revokedSse.events.length === 1 && otherSse.events.length === 1', () => revokedSse.events.length === 1 && otherSse.events.length === 1)
  expect(s.hub.stats().connections).toBe(5)

  expect(s.hub.revokeKey('scoped')).toBe(3)
  for (const c of revokedWs) expect(await c.closed).toEqual({ code: 4001, reason: 'key revoked' })
  await revokedSse.ended
  expect(s.hub.stats()).toMatchObject({ connections: 2, subscriptions: 2 })
  const metrics = await s.metrics.registry.metrics()
  expect(metrics).toMatch(/touchline_connections\{transport="ws"\} 1/)
  expect(metrics).toMatch(/touchline_connections\{transport="sse"\} 1/)

  const rec = await s.apply(1, 271)
  expect((await otherWs.take('change')).cursor).toBe(rec.cursor)
  await waitFor('otherSse.events.length === 2', () => otherSse.events.length === 2)
  expect(revokedSse.events.map((e) => e.event)).toEqual(['snapshot'])
  for (const c of revokedWs) expect(c.changes()).toEqual([])
  expect(s.hub.revokeKey('scoped')).toBe(0)
  otherWs.close()
  otherSse.close()
})

it('lets go of the upgrade request once the socket is adopted (nothing of fastify\'s routing is held per connection)', async () => {
  const s = await startPush()
  const requests: Array<WeakRef<IncomingMessage>> = []
  s.app.server.on('upgrade', (req: IncomingMessage) => { requests.push(new WeakRef(req)) })
  const clients = await Promise.all(Array.from({ length: 3 }, async () => await WsTestClient.connect(s.wsUrl())))
  // Each is served after adoption: the route, the hub and the socket's listeners are all in place.
  for (const c of clients) await c.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  expect(requests).toHaveLength(3)
  const gc = collector()
  await waitFor('the upgrade requests to be collected', () => { gc(); return requests.every((r) => r.deref() === undefined) }, 5000)
  // Still served afterwards: nothing the connection needs went with the request.
  const { cursor } = await s.apply(1, 271)
  for (const c of clients) await c.take((f) => f.type === 'change' && f.cursor === cursor)
})
