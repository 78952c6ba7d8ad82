/**
 * A leader that freezes (GC pause, SIGSTOP, a paused VM) after it read an upstream answer and before it wrote
 * it, loses its lease, and wakes up after its successor stored a newer state: its writes are fenced by the
 * lease in the store's apply script (ApplyFence, as gateway.ts wires it), so it takes nothing back and adds
 * nothing twice. Real Redis (store and leases), real HTTP (the real-like upstream), the real leader and poller.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import type { ChangeRecord } from '../../../src/wire-model/model.ts'
import { changeRecords } from '../../../src/store/types.ts'
import { startLeadership, type Leader } from '../../../src/store/leadership.ts'
import { createPoller, type Poller } from '../../../src/poller/poller.ts'
import { createLease, createStore, type Lease, type LiveStore } from '../../../src/store/index.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/index.ts'
import { openTestRedis, type TestRedis } from '../../helpers/redis.ts'
import { liveShootout, SHOOTOUT_FIXTURE_ID, startRealUpstream, type RealUpstream } from '../../helpers/real-upstream.ts'
import { waitFor } from '../../helpers/wait.ts'

const log = pino({ level: 'silent' })
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {})
})

/** A gate: while closed, every call through it waits (the process is "frozen" there). */
function gate (): { close: () => void, open: () => void, pass: () => Promise<void>, hits: () => number } {
  let waiting: Promise<void> | undefined
  let release: (() => void) | undefined
  let hits = 0
  return {
    close () { waiting = new Promise((resolve) => { release = resolve }) },
    open () { release?.(); waiting = undefined },
    async pass () { if (waiting !== undefined) { hits++; await waiting } },
    hits: () => hits
  }
}

interface Instance { store: LiveStore, poller: Poller, leader: Leader, frozen: ReturnType<typeof gate>, leaseFrozen: ReturnType<typeof gate> }

/** One gateway instance on `shared`'s prefix, on its own connection as another process would be. */
async function instance (upstreamServer: RealUpstream, shared: TestRedis, name: string): Promise<Instance> {
  const redis = shared.connect()
  const prefix = shared.prefix
  const inner = createStore({ kind: 'redis', redis, prefix })
  const frozen = gate()
  const leaseFrozen = gate()
  // The freeze: every store read and lease command of this instance waits while the gate is closed.
  const store: LiveStore = {
    ...inner,
    // (the pause comes while the shoot-out fixture is the one in flight)
    getFixture: async (id) => { if (id === SHOOTOUT_FIXTURE_ID) await frozen.pass(); return await inner.getFixture(id) },
    apply: async (input) => { await frozen.pass(); return await inner.apply(input) }
  }
  const realLease = createLease({ kind: 'redis', redis, prefix })
  const lease: Lease = {
    ...realLease,
    acquire: async (...a) => { await leaseFrozen.pass(); return await realLease.acquire(...a) },
    renew: async (...a) => { await leaseFrozen.pass(); return await realLease.renew(...a) }
  }
  const upstream: UpstreamClient = createUpstreamClient({ baseUrl: upstreamServer.baseUrl, token: upstreamServer.token, ledger: createMemoryLedger(), logger: log, timeoutMs: 2000, retryBaseMs: 20 })
  const poller = createPoller({ upstream, ledger: createMemoryLedger(), store, log, fence: { lease: 'poller', holder: name } }, { floorMs: 100, reconcileIntervalMs: 200, kickoffListEveryMs: 0 })
  const leader = startLeadership({
    lease,
    name: 'poller',
    holderId: name,
    ttlMs: 1000,
    marginMs: 300,
    log,
    onElected: () => { poller.start() },
    onDeposed: async () => { await poller.stop() }
  })
  cleanups.push(async () => {
    frozen.open()
    leaseFrozen.open()
    await leader.stop()
    await poller.stop()
    await upstream.close()
    await inner.close()
  })
  return { store, poller, leader, frozen, leaseFrozen }
}

function kicks (n: number): number {
  return (liveShootout(n).events as Array<{ type_id: number }>).filter((e) => e.type_id === 22 || e.type_id === 23).length
}

describe('a frozen leader wakes up after losing its lease', () => {
  it('does not write its stale answer over the successor\'s newer state (no regression, no duplicate events)', async () => {
    const upstream = await startRealUpstream({ remaining: 100_000 })
    cleanups.push(async () => { await upstream.close() })
    const redis = openTestRedis()
    cleanups.push(redis.close)
    const shootoutAt = upstream.live.findIndex((f) => f.id === SHOOTOUT_FIXTURE_ID)
    upstream.live[shootoutAt] = liveShootout(6)

    const a = await instance(upstream, redis, 'A')
    await waitFor('A elected', () => a.leader.isLeader(), 5000)
    const stored = async (): Promise<number> => ((await a.store.getFixture(SHOOTOUT_FIXTURE_ID))?.events ?? []).filter((e) => e.type.startsWith('PENALTY_SHOOTOUT')).length
    await waitFor('A stored 6 kicks', async () => await stored() === kicks(6), 5000)
    const b = await instance(upstream, redis, 'B')

    // A reads the shoot-out from the upstream (6 or 7 kicks), then freezes before it writes it (a GC pause,
    // SIGSTOP): its store commands and lease renewals wait.
    a.frozen.close()
    upstream.live[shootoutAt] = liveShootout(7)
    await waitFor('A frozen with the shoot-out in flight', () => a.frozen.hits() > 0, 5000)
    a.leaseFrozen.close()

    // Meanwhile the match goes on: the successor takes the lease and stores 8 kicks.
    upstream.live[shootoutAt] = liveShootout(8)
    await waitFor('B elected', () => b.leader.isLeader(), 5000)
    await waitFor('B stored 8 kicks', async () => ((await b.store.getFixture(SHOOTOUT_FIXTURE_ID))?.events ?? []).filter((e) => e.type.startsWith('PENALTY_SHOOTOUT')).length === kicks(8), 5000)
    expect(a.leader.isLeader()).toBe(false)

    // A wakes up: it is no longer the leader (B keeps its lease), and its answer is older than the stored state.
    a.frozen.open()
    a.leaseFrozen.open()
    await sleep(1500)
    expect(b.leader.isLeader()).toBe(true)
    expect(a.leader.isLeader()).toBe(false)

    // The upstream only ever went forward (6, 7, 8 kicks): the log must never take a kick back, nor add one twice.
    const all = await b.store.readSince(undefined, { limit: 1000, fixtures: [SHOOTOUT_FIXTURE_ID] })
    const changes = changeRecords(all.records).flatMap((r: ChangeRecord) => r.changes)
    const removed = changes.filter((c) => c.kind === 'event_removed')
    const added = changes.flatMap((c) => c.kind === 'event_added' ? [c.event.id] : [])
    expect({ removed: removed.length, addedTwice: added.filter((id, i) => added.indexOf(id) !== i) }).toEqual({ removed: 0, addedTwice: [] })
  }, 30_000)
})
