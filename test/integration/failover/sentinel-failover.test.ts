/**
 * Redis as production runs it (docs/operations.md, "Redis with Sentinel"): a primary, a replica and three
 * sentinels, two gateways on `redis+sentinel://`, 500 WebSocket subscribers and 100 SSE streams spread over
 * them, two webhook endpoints, the poller. The primary is killed (SIGKILL) or hung (`DEBUG SLEEP 30`) while
 * all of it runs. The sentinels promote the replica; the gateways follow it (their scripts loaded again on
 * NOSCRIPT, their tails reconnected); exactly one polls afterwards; every subscriber ends equal to the
 * provider's truth with no change missing or out of order, and no webhook change is lost or out of order.
 *
 * In the kill, the replica is held back first (its replication stream frozen in a proxy) while the primary
 * acknowledges writes: the new primary lacks records the clients already got. The gateways must take that
 * for a lost log (a new epoch: subscribers reset with a snapshot, webhook endpoints resynced), never go on
 * handing out the same cursors for other records (a silent gap).
 *
 * Prints the time from the fault to the promotion and to the first change written after the fault reaching
 * the subscribers (docs/operations.md, bench/RUNS.md).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { redisKeys } from '../../../src/store/redis-keys.ts'
import { startSentinelGroup, type SentinelGroup } from '../../helpers/redis-sentinel.ts'
import { waitFor } from '../../helpers/wait.ts'
import { startUpstream, type Upstream } from '../resilience/harness.ts'
import { startReceiver, type Receiver } from '../webhooks/harness.ts'
import {
  epochOf, expectAllEqualToTruth, expectNoGap, failoverGateway, fault, hookSegments, keysFile, offsetOf, oneLeader, openClients,
  settleAll, spread, sseClient, startReference, wsClient, type Client, type Reference
} from './harness.ts'

const WS_CLIENTS = 500
const SSE_CLIENTS = 100
const HOOKS = ['hook-a', 'hook-b']

let group: SentinelGroup | undefined
let up: Upstream | undefined
let reference: Reference | undefined
let clients: Client[] = []
const gateways: Gateway[] = []

afterEach(async () => {
  fault.at = Infinity
  for (const c of clients.splice(0)) c.close()
  for (const g of gateways.splice(0)) await g.close()
  await reference?.close()
  await up?.provider.close()
  await group?.close()
})

interface Running { receivers: Receiver[], primaryEpoch: string }

async function startAll (): Promise<Running> {
  group = await startSentinelGroup()
  up = await startUpstream({ simSpeed: 120, liveTarget: 8 })
  const receivers = [await startReceiver(), await startReceiver()]
  const keys = keysFile(HOOKS.map((id, i) => ({ id, url: (receivers[i] as Receiver).url })))
  gateways.push(await failoverGateway(up, group.url, keys), await failoverGateway(up, group.url, keys))
  await oneLeader(gateways, 0)
  reference = await startReference(group.url)
  clients = [
    ...await openClients(gateways, WS_CLIENTS, wsClient),
    ...await openClients(gateways, SSE_CLIENTS, sseClient)
  ]
  await waitFor('every client with changes, both endpoints with deliveries', () =>
    clients.every((c) => (c.mirror.segments[0]?.changes.length ?? 0) >= 2) &&
    receivers.every((r) => r.requests.filter((q) => q.answer === 200).length >= 3), 60_000, 200)
  const primaryEpoch = epochOf(await (gateways[0] as Gateway).store.head())
  // No failover before the fault: the sentinels still name the first primary.
  expect(await group.masterPort(), 'the master before the fault').not.toBe(group.replica.port)
  return { receivers, primaryEpoch }
}

/** The log's head on one node. */
async function headOn (conn: SentinelGroup['primary']['conn']): Promise<string> {
  const [epoch, offset] = await conn.hmget(redisKeys().meta, 'epoch', 'offset')
  return `${epoch ?? ''}:${offset ?? '0'}`
}
const primaryHead = async (g: SentinelGroup): Promise<string> => await headOn(g.primary.conn)

/** Everything the test must show after the failover, with the figures printed. */
async function expectRecovered (label: string, run: Running, promotedMs: number): Promise<void> {
  const g = group as SentinelGroup
  await waitFor(() => `every client got a change written after the fault (${clients.filter((c) => c.mirror.firstNewAt === undefined).length} not yet)`,
    () => clients.every((c) => c.mirror.firstNewAt !== undefined), 60_000, 100)
  const firstChange = spread(clients.map((c) => (c.mirror.firstNewAt as number) - fault.at))
  const leader = await oneLeader(gateways)
  await settleAll(up as Upstream, leader, clients, gateways)
  await expectAllEqualToTruth(up as Upstream, clients)
  for (const c of clients) expectNoGap(c.mirror.name, c.mirror.segments, reference as Reference)

  const finalEpoch = epochOf(await leader.store.head())
  const live = await leader.store.liveFixtures()
  for (const [i, id] of HOOKS.entries()) {
    const { segments, held, resyncs } = hookSegments(run.receivers[i] as Receiver, id)
    expectNoGap(id, segments, reference as Reference)
    // A new epoch reaches the endpoint as a resync, or from the new log's first record.
    const first = segments.find((s) => epochOf(s.from) === finalEpoch)
    if (finalEpoch !== run.primaryEpoch) expect(first?.from === `${finalEpoch}:0` || resyncs > 0, `${id}: the new log begins with a resync`).toBe(true)
    expect([...held.keys()].sort((a, b) => a - b), `${id}: the receiver holds the live fixtures`).toEqual(live.map((f) => f.id))
    for (const f of live) expect(held.get(f.id)?.version, `${id}: fixture ${f.id}`).toBe(f.version)
  }
  const resets = clients.filter((c) => c.mirror.resets > 0).length
  console.log(`[failover ${label}] promoted after ${promotedMs} ms; first change written after the fault delivered after ` +
    `${firstChange.min} ms (median over ${clients.length} clients ${firstChange.median} ms, last ${firstChange.max} ms); ` +
    `log ${finalEpoch === run.primaryEpoch ? 'kept (same epoch)' : 'lost writes: new epoch'}; clients reset: ${resets}`)
  expect(await g.masterPort()).toBe(g.replica.port)
}

describe('a Sentinel failover under 500 WebSocket and 100 SSE subscribers, two webhook endpoints and the poller', () => {
  it('the primary killed (SIGKILL) after acknowledging writes its replica lacks: a new epoch, everyone reset or resynced, nothing lost', async () => {
    const run = await startAll()
    const g = group as SentinelGroup
    // Hold the replication stream back while the poller writes: the replica stops at `before`.
    await g.holdBackReplica()
    const before = await primaryHead(g)
    await waitFor('writes acknowledged by the primary alone', async () => offsetOf(await primaryHead(g)) >= offsetOf(before) + 3, 10_000, 20)
    const head = await primaryHead(g)
    // The new primary lacks writes: everything it logs is of a new epoch (asserted below), and only that
    // counts as written after the kill (records the old primary took between `head` and the kill do not).
    fault.isNew = (cursor) => epochOf(cursor) !== epochOf(head)
    fault.at = Date.now()
    await g.primary.kill()
    g.dropHeld()
    await g.waitForMaster(g.replica.port)
    const promotedMs = Date.now() - fault.at
    // Every subscriber had seen records the new primary lacks: each is reset to the new log.
    const newPrimary = await g.replica.conn.hmget(redisKeys().meta, 'epoch', 'offset')
    await waitFor(() => `every client reset to a new epoch (${clients.filter((c) => c.mirror.resets === 0).length} not reset; the old primary was at ${head}, the new one at ${newPrimary.join(':')} when promoted)`,
      () => clients.every((c) => c.mirror.resets > 0 && epochOf(c.mirror.segments.at(-1)?.from ?? '') !== run.primaryEpoch), 30_000, 100)
    await expectRecovered('SIGKILL', run, promotedMs)
  }, 240_000)

  it('the primary hung (DEBUG SLEEP 30): the replica is promoted, the gateways leave the hung primary, nothing lost', async () => {
    const run = await startAll()
    const g = group as SentinelGroup
    fault.at = Date.now()
    // The log's head and the sleep in one pipeline: Redis runs them back to back, so `head` is the last
    // record the hung primary took, and a change past it was written by the new primary. Both answers come
    // when the primary wakes, 30 s on: the changes are judged then.
    const sleeping = g.primary.conn.pipeline().hmget(redisKeys().meta, 'epoch', 'offset').call('DEBUG', 'SLEEP', '30').exec()
    await g.waitForMaster(g.replica.port)
    const promotedMs = Date.now() - fault.at
    // The old primary wakes up and is turned into a replica of the new one; nothing of it reaches a client.
    const [epoch, offset] = ((await sleeping)?.[0]?.[1] ?? []) as Array<string | null>
    const head = `${epoch ?? ''}:${offset ?? '0'}`
    fault.isNew = (cursor) => epochOf(cursor) !== epochOf(head) || offsetOf(cursor) > offsetOf(head)
    await waitFor('the old primary a replica of the new one', async () => /role:slave/.test(await g.primary.conn.info('replication').catch(() => '')), 30_000, 200)
    await sleep(1000)
    await expectRecovered('DEBUG SLEEP 30', run, promotedMs)
  }, 240_000)
})
