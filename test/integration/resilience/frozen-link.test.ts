/**
 * Leadership when the leader's Redis link hangs: a TCP proxy between the leader and Redis
 * stops forwarding (no error, no close). The leader must stop polling on its own before its lease can
 * expire (a local deadline), another instance must take over within the lease time plus 2 s, the two must
 * never poll at the same time, and a subscriber of the other instance must see no gap.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { expectContiguous, expectEqualToTruth, settle, startPollingGateway, startUpstream, wsSubscriber, type Subscriber, type Upstream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const TTL_MS = 6000

let redis: PrivateRedis
let proxy: TcpProxy
let up: Upstream
const gateways: Gateway[] = []
let subscriber: Subscriber | undefined

beforeEach(async () => {
  redis = await startPrivateRedis()
  proxy = await startTcpProxy(redis.port)
  up = await startUpstream()
})

afterEach(async () => {
  subscriber?.close()
  proxy.thaw()
  for (const g of gateways.splice(0)) await g.close()
  await proxy.close()
  await up.provider.close()
  await redis.close()
})

/** Who holds leadership and who runs a poller loop, sampled every 20 ms. */
function sample (a: Gateway, b: Gateway): { stop: () => void, overlaps: () => string[] } {
  const overlaps: string[] = []
  const timer = setInterval(() => {
    if (a.isLeader() && b.isLeader()) overlaps.push(`both lead at ${Date.now()}`)
    if (a.poller.status().running && b.poller.status().running) overlaps.push(`both poll at ${Date.now()}`)
  }, 20)
  return { stop: () => clearInterval(timer), overlaps: () => overlaps }
}

it('a leader whose Redis link freezes stops polling by itself; one other instance polls within the lease time + 2 s, never both, no gap', async () => {
  // A reaches Redis through the proxy and leads; B connects directly and follows.
  const a = await startPollingGateway(up, proxy.url.replace('http', 'redis'), TTL_MS)
  gateways.push(a)
  await waitFor('A leads', () => a.isLeader() && a.poller.status().running, 10_000)
  const b = await startPollingGateway(up, redis.url, TTL_MS)
  gateways.push(b)
  subscriber = await wsSubscriber(b.url, up.leagues)
  await waitFor('changes flowing', () => (subscriber as Subscriber).mirror.changesSince(0).length >= 5, 20_000)
  expect(b.isLeader()).toBe(false)

  const watch = sample(a, b)
  const frozenAt = Date.now()
  proxy.freeze()
  await waitFor('A stops polling', () => !a.isLeader() && !a.poller.status().running, TTL_MS + 2000)
  const aStopped = Date.now() - frozenAt
  // By its local deadline: before the lease it last renewed (at or before the freeze) can expire.
  expect(aStopped).toBeLessThan(TTL_MS)
  await waitFor('B polls', () => b.isLeader() && b.poller.status().running, TTL_MS + 2000)
  const bLeads = Date.now() - frozenAt
  expect(bLeads).toBeLessThanOrEqual(TTL_MS + 2000)
  const cursorAtTakeover = subscriber.mirror.lastCursor
  await waitFor('changes from the new poller', () => (subscriber as Subscriber).mirror.lastCursor !== cursorAtTakeover, 10_000)

  // The link comes back: A's late replies must not make it lead again while B holds the lease.
  proxy.thaw()
  await sleep(2 * TTL_MS / 3 + 500)
  watch.stop()
  expect(watch.overlaps(), 'two pollers at once').toEqual([])
  expect(a.isLeader()).toBe(false)
  expect(b.isLeader()).toBe(true)
  console.info(`frozen link (lease ${TTL_MS} ms): A stopped polling ${aStopped} ms after the freeze, B polled after ${bLeads} ms`)

  // No gap: B's subscriber got every record of the log, in order, across the takeover.
  await expectContiguous(b.store, subscriber)
  await settle(up, b, [subscriber])
  await expectEqualToTruth(up, [subscriber])
}, 90_000)
