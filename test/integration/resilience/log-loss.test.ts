/**
 * Losing the log (docs/protocol.md, "Log loss and epochs"): with subscribers connected, Redis is
 * flushed, or restarted without its data. Every subscriber must get `replay` recovered:false and a fresh
 * snapshot (SSE: a `replay` event, then a `snapshot` event) and end equal to the provider's truth; the days
 * and the leagues' live tables are read again into the new log.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { expectEqualToTruth, inPlay, settle, sseSubscriber, startPollingGateway, startUpstream, truthOf, wsSubscriber, type Subscriber, type Upstream } from './harness.ts'
import { wholeLog } from '../../helpers/log.ts'
import { counterValue } from '../../helpers/pipeline.ts'
import { waitFor } from '../../helpers/wait.ts'

let redis: PrivateRedis
let up: Upstream
let gateway: Gateway
let subscribers: Subscriber[] = []

beforeEach(async () => {
  redis = await startPrivateRedis()
  up = await startUpstream()
  gateway = await startPollingGateway(up, redis.url)
  await waitFor('an elected poller', () => gateway.poller.status().running, 10_000)
  subscribers = [await wsSubscriber(gateway.url, up.leagues), await sseSubscriber(gateway.url)]
  // Some history before the loss: every subscriber holds live fixtures and has seen changes.
  await waitFor('subscribers with live fixtures and changes', () =>
    subscribers.every((s) => s.mirror.fixtures.size >= 3 && s.mirror.changesSince(0).length >= 5), 20_000)
})

afterEach(async () => {
  for (const s of subscribers) s.close()
  await gateway?.close()
  await up?.provider.close()
  await redis?.close()
})

/** Waits until every subscriber got replay recovered:false then a snapshot after its `from`-th frame. */
async function expectEveryoneReset (from: number[]): Promise<void> {
  await waitFor('every subscriber reset', () => subscribers.every((s, i) => s.mirror.resetAfter(from[i] as number) !== undefined), 15_000)
}

/** Waits until every subscriber got `n` changes after its reset snapshot: the new log is flowing. */
async function changesAfterReset (from: number[], n = 3): Promise<void> {
  await waitFor(`${n} changes after every reset`, () => subscribers.every((s, i) => {
    const at = s.mirror.resetAfter(from[i] as number) as number
    const snapAt = s.mirror.seen.findIndex((f, j) => j > at && f.type === 'snapshot')
    return snapAt >= 0 && s.mirror.changesSince(snapAt).length >= n
  }), 15_000)
}

/**
 * After its reset snapshot, a subscriber to everything gets every fixture record of the new log, in order:
 * the records after the snapshot's cursor (nothing at or below it, which it already shows; the odds records,
 * which it did not ask for, left out).
 */
async function expectNoGapAfterReset (from: number[]): Promise<void> {
  for (const [i, s] of subscribers.entries()) {
    const at = s.mirror.resetAfter(from[i] as number) as number
    const snapAt = s.mirror.seen.findIndex((f, j) => j > at && f.type === 'snapshot')
    const changes = s.mirror.changesSince(snapAt).map((c) => `${c.epoch}:${c.offset}`)
    expect(changes.length, `${s.name}: changes after the reset`).toBeGreaterThan(0)
    const log = (await wholeLog(gateway.store, s.mirror.seen[snapAt]?.cursor)).map((r) => r.cursor)
    expect(changes, `${s.name}: every record after the snapshot, in order`).toEqual(log.slice(0, changes.length))
  }
}

describe('losing the log with subscribers connected', () => {
  it('FLUSHALL: every subscriber gets replay recovered:false and a snapshot, and ends equal to the provider; the days are read again', async () => {
    const before = subscribers.map((s) => s.mirror.seen.length)
    const oldEpoch = (await gateway.store.head()).split(':')[0]
    const today = [Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`), Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000] as const
    const daysRead = async (): Promise<number> => await counterValue(gateway.metrics, 'touchline_polls_total', { kind: 'days', outcome: 'ok' })
    // A read of the week is many pages; one that times out on a busy machine goes on 30 s later.
    await waitFor('the days read', async () => await daysRead() >= 1, 120_000)
    const held = (await gateway.store.scheduled(...today)).length
    expect(held, 'today\'s fixtures held before').toBeGreaterThan(0)
    const tables = async (): Promise<number[]> => (await gateway.store.getStandings()).map((t) => t.league_id)
    const tablesBefore = await waitFor('the live tables read', async () => { const held = await tables(); return held.length > 0 && held }, 30_000)
    await redis.flush()
    await expectEveryoneReset(before)
    for (const [i, s] of subscribers.entries()) {
      const at = s.mirror.resetAfter(before[i] as number) as number
      const snapshot = s.mirror.seen.slice(at + 1).find((f) => f.type === 'snapshot')
      expect(snapshot?.cursor.split(':')[0], `${s.name}: the snapshot is of the new log`).not.toBe(oldEpoch)
      expect(s.mirror.changesSince(at).every((c) => c.epoch !== oldEpoch), `${s.name}: no change of the lost log after the reset`).toBe(true)
    }
    await changesAfterReset(before)
    await expectNoGapAfterReset(before)
    // The store lost the days with its log: they are read again, not an hour later (a ceiling: a week is many
    // pages, and beside a loaded suite the read once took more than 75 s).
    await waitFor('the days read again', async () => await daysRead() >= 2, 120_000)
    expect((await gateway.store.scheduled(...today)).length).toBeGreaterThanOrEqual(held)
    // And the tables of the leagues in play, written whole into the new log (not at their next refresh).
    await waitFor('the live tables read again', async () => (await tables()).length >= tablesBefore.length, 30_000)
    await settle(up, gateway, subscribers)
    await expectEqualToTruth(up, subscribers)
  }, 360_000)

  it('restart without persistence: every subscriber is reset and ends equal to the provider', async () => {
    const before = subscribers.map((s) => s.mirror.seen.length)
    await redis.stop()
    await sleep(2000)
    await redis.start()
    await expectEveryoneReset(before)
    await changesAfterReset(before)
    await expectNoGapAfterReset(before)
    await settle(up, gateway, subscribers)
    await expectEqualToTruth(up, subscribers)
  }, 60_000)

  // The poller keeps its own list of the fixtures it last knew as live and fetches them by id until final,
  // so a match that ends while Redis is down still reaches the new log, and every subscriber.
  it('restart: a match that ended during the outage reaches every subscriber as final', async () => {
    const liveBefore = (await inPlay(up)).map((f) => f.id)
    expect(liveBefore.length).toBeGreaterThan(0)
    await redis.stop()
    // Two and a half hours of match time: every match in play now ends during the outage.
    up.jump(150 * 60_000 / 120)
    const ended = [...(await truthOf(up, liveBefore)).values()].filter((f) => f.state.phase === 'finished').map((f) => f.id)
    expect(ended.length).toBeGreaterThan(0)
    await sleep(1000)
    await redis.start()
    const restartedAt = Date.now()
    await waitFor('a reconcile into the new log', () => (gateway.poller.status().lastReconcileAt ?? 0) > restartedAt, 15_000)
    await settle(up, gateway, subscribers)
    await expectEqualToTruth(up, subscribers)
    for (const s of subscribers) {
      for (const id of ended) expect(s.mirror.fixtures.get(id)?.state.phase, `${s.name}: fixture ${id} ended during the outage`).toBe('finished')
    }
  }, 60_000)
})
