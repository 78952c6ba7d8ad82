/**
 * Redis restarted without its data (killed, started again empty) under a polling gateway with a webhook
 * endpoint, the outage longer than the endpoint's lease, so the delivering instance stops its worker and
 * takes the lease again from an empty Redis: the endpoint's stored cursor is gone with the log. Whether the
 * receiver was failing at the time (answering 500, a delivery being retried) or caught up, and whether the
 * instance that takes the lease back delivered before or not, the endpoint's first delivery from the new log
 * must be a `resync` (or the new log from its first record), never the new log from wherever it stood when
 * the lease was taken: the records that reseed it (`fixture_added` for every live fixture) would be skipped,
 * and the receiver would keep fixtures that ended meanwhile (docs/webhooks.md, "Resync after log loss"). At
 * the end the receiver's fixtures are the gateway's.
 *
 * The endpoint's lease is held for a moment after the restart (as another instance's would be, or a slower
 * campaign), so the poller has reseeded the new log when the gateway takes the endpoint back: the order in
 * which the head of the new log was skipped.
 *
 * Real parts: a private redis-server (test/helpers/redis-server.ts) behind a TCP proxy (so the test reaches
 * the restarted Redis before the gateways do), the embedded provider over HTTP, polling gateways that reseed
 * the new log, a node:http receiver.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { redisKeys, webhookKeys } from '../../../src/store/redis-keys.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { waitFor } from '../../helpers/wait.ts'
import { gatewayEnv, startUpstream, type Upstream } from '../resilience/harness.ts'
import { hookKey, SECRET, startReceiver, wholeLog, writeKeys, type Received, type Receiver } from './harness.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

const LEASE_TTL_MS = 2000
/** Longer than the endpoint's lease: its holder's local deadline passes and it stops the worker. */
const OUTAGE_MS = 4000

/** How long the endpoint's lease is held by someone else after the restart. */
const HELD_MS = 2500

let redis: PrivateRedis | undefined
let proxy: TcpProxy | undefined
let up: Upstream | undefined
const gateways: Gateway[] = []
afterEach(async () => {
  for (const g of gateways.splice(0)) await g.close()
  await proxy?.close()
  await up?.provider.close()
  await redis?.close()
})

async function start (): Promise<{ receiver: Receiver, respond: (status: number) => void, open: () => Promise<Gateway> }> {
  redis = await startPrivateRedis()
  proxy = await startTcpProxy(redis.port)
  up = await startUpstream()
  let answer = 200
  const receiver = await startReceiver(() => answer)
  const keysFile = writeKeys([hookKey([{ id: 'all', url: receiver.url, secret: SECRET }])])
  const env = gatewayEnv(up.provider.baseUrl, `redis://127.0.0.1:${proxy.port}`, {
    TOUCHLINE_KEYS_FILE: keysFile,
    TOUCHLINE_WEBHOOK_LEASE_TTL_MS: String(LEASE_TTL_MS),
    TOUCHLINE_WEBHOOK_RETRY_BASE_MS: '50',
    TOUCHLINE_WEBHOOK_RETRY_MAX_MS: '300',
    TOUCHLINE_WEBHOOK_TIMEOUT_MS: '2000'
  })
  const open = async (): Promise<Gateway> => {
    const g = await startTestGateway({ env, overrides: { leaseTtlMs: 3000 } })
    gateways.push(g)
    return g
  }
  return { receiver, respond: (status) => { answer = status }, open }
}

/**
 * Redis dies (the gateways' links drop), stays down OUTAGE_MS, and comes back empty; before the gateways
 * reach it, the endpoint's lease is taken for HELD_MS by a holder that never delivers. `whileDown` runs
 * during the outage. Resolves to the epoch of the lost log.
 */
async function restartRedis (gw: Gateway, whileDown: () => Promise<void> = async () => {}): Promise<string> {
  const oldEpoch = epochOf(await gw.store.head())
  proxy!.pause()
  proxy!.cut()
  await redis!.stop()
  await Promise.all([sleep(OUTAGE_MS), whileDown()])
  await redis!.start()
  const direct = redis!.connect()
  await direct.set(redisKeys().lease(webhookKeys().leaseName('hooks', 'all')), 'another-instance', 'PX', HELD_MS)
  proxy!.resume()
  return oldEpoch
}

/**
 * Waits for the new log to be reseeded and for the receiver (answering 200 from then on) to acknowledge a
 * delivery of it; checks that the first is a resync or starts at the new log's first record, that every
 * record after its starting point follows in order, and that the receiver ends holding the gateway's live
 * fixtures.
 */
async function expectResynced (gw: Gateway, receiver: Receiver, oldEpoch: string, respond: (status: number) => void): Promise<void> {
  await waitFor('the new log reseeded', async () => {
    const head = await gw.store.head().catch(() => undefined)
    return head !== undefined && epochOf(head) !== oldEpoch && offsetOf(head) >= 3
  }, 20_000)
  const newEpoch = epochOf(await gw.store.head())
  respond(200)
  await waitFor('a delivery of the new log acknowledged', () => acked(receiver).some((q) => epochOf(q.body.cursor) === newEpoch), 20_000)
  const first = acked(receiver).find((q) => epochOf(q.body.cursor) === newEpoch) as Received
  const firstFrame = first.body.data?.[0]?.cursor
  expect({ type: first.body.type, firstFrame: first.body.type === 'resync' ? undefined : firstFrame }, 'the first delivery of the new log')
    .toSatisfy((d: { type: string, firstFrame?: string }) => d.type === 'resync' || d.firstFrame === `${newEpoch}:1`)

  // Every record after that first delivery's starting point reaches the receiver, in order.
  up!.freeze()
  const frozenAt = Date.now()
  gw.poller.forceReconcile()
  // The reconcile of the frozen upstream done and nothing written since: the log's head is final.
  await waitFor('a reconcile after the freeze', () => (gw.poller.status().lastReconcileAt ?? 0) > frozenAt, 20_000)
  const head = await quietHead(gw)
  // At the head or past it: the pollers may append records the endpoint does not take (a league's table).
  const reached = (cursor: string | null | undefined): boolean => cursor != null && epochOf(cursor) === epochOf(head) && offsetOf(cursor) >= offsetOf(head)
  await waitFor('the receiver caught up', async () => reached((await gw.webhooks.list(gw.keys.all()[0]!))[0]?.cursor), 20_000)
  const deliveries = acked(receiver)
  const from = deliveries.indexOf(first)
  const since = first.body.type === 'resync' ? first.body.cursor : `${newEpoch}:0`
  expect(deliveries.slice(from).flatMap((q) => q.body.data ?? []).map((f) => f.cursor).filter((c) => offsetOf(c) <= offsetOf(head))).toEqual((await wholeLog(gw.store, since)).map((r) => r.cursor).filter((c) => offsetOf(c) <= offsetOf(head)))
  // The receiver holds exactly the gateway's live fixtures, as they are. Awaited, then asserted: a record
  // written after the quiet head (a day read's, a final score fetched late) reaches it a delivery later.
  const holdsLive = async (): Promise<boolean> => {
    const held = mirror(acked(receiver))
    const live = await gw.store.liveFixtures()
    return held.size === live.length && live.every((f) => held.get(f.id)?.version === f.version)
  }
  await waitFor('the receiver holding the gateway\'s live fixtures', holdsLive, 20_000).catch(() => {})
  const held = mirror(acked(receiver))
  const live = await gw.store.liveFixtures()
  expect([...held.keys()].sort((a, b) => a - b)).toEqual(live.map((f) => f.id))
  for (const f of live) expect(held.get(f.id)?.version, `fixture ${f.id}`).toBe(f.version)
}

/**
 * The log's head once the live fixtures are written: the same at two reads a second apart (a read of the
 * days may still add fixtures of the frozen upstream after it, never to the live set).
 */
async function quietHead (gw: Gateway): Promise<string> {
  return await waitFor('a quiet log', async () => {
    const head = await gw.store.head()
    await sleep(1000)
    return head === await gw.store.head() ? head : undefined
  }, 60_000) // a ceiling: on a loaded machine the days' read of the frozen upstream went on past 30 s
}

const epochOf = (cursor: string): string => cursor.split(':')[0] ?? ''
const offsetOf = (cursor: string): number => Number(cursor.split(':')[1])

/** The deliveries the receiver acknowledged, once each, in order. */
function acked (r: Receiver): Received[] {
  const seen = new Set<string>()
  return r.requests.filter((q) => q.answer === 200 && !seen.has(q.deliveryId) && seen.add(q.deliveryId) !== undefined)
}

/** What the receiver holds after applying its acknowledged deliveries: a resync replaces everything. */
function mirror (deliveries: Received[]): Map<number, LiveFixture> {
  const held = new Map<number, LiveFixture>()
  for (const d of deliveries) {
    if (d.body.type === 'resync') {
      held.clear()
      for (const f of (d.body.fixtures ?? []) as LiveFixture[]) held.set(f.id, f)
      continue
    }
    for (const frame of d.body.data ?? []) {
      const f = frame as unknown as { fixture_id: number, fixture: LiveFixture, changes: Array<{ kind: string }> }
      if (f.changes.some((c) => c.kind === 'fixture_removed')) held.delete(f.fixture_id)
      else held.set(f.fixture_id, f.fixture)
    }
  }
  return held
}

const deliveredFrames = (r: Receiver): number => acked(r).flatMap((q) => q.body.data ?? []).length

describe('webhooks across a Redis restart that outlasts the endpoint lease', () => {
  for (const during of [500, 200] as const) {
    it(`receiver answering ${during} during the restart: the first delivery of the new log is a resync (or its first record), and the receiver ends with the gateway's fixtures`, async () => {
      const { receiver, respond, open } = await start()
      const gw = await open()
      await waitFor('changes acknowledged before the restart', () => deliveredFrames(receiver) >= 5, 20_000)
      respond(during)
      const before = receiver.requests.length
      if (during === 500) await waitFor('a delivery failing and retried', () => receiver.requests.slice(before).filter((q) => q.answer === 500).length >= 2, 10_000)
      const oldEpoch = await restartRedis(gw)
      await expectResynced(gw, receiver, oldEpoch, respond)
    }, 150_000)
  }

  it('the instance that takes the endpoint over after the restart never delivered to it: still a resync first', async () => {
    const { receiver, respond, open } = await start()
    const a = await open()
    await waitFor('instance A delivering', async () => (await a.webhooks.summary()).delivering_here === 1, 10_000)
    const b = await open()
    await waitFor('changes acknowledged before the restart', () => deliveredFrames(receiver) >= 5, 20_000)
    expect((await b.webhooks.summary()).delivering_here).toBe(0)
    respond(500)
    // Instance A dies while Redis is down; B takes the poller and the endpoint when it is back.
    const oldEpoch = await restartRedis(a, async () => {
      gateways.splice(gateways.indexOf(a), 1)
      await a.close()
    })
    await expectResynced(b, receiver, oldEpoch, respond)
  }, 150_000)
})
