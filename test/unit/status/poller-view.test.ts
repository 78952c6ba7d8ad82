/**
 * The poller as every process reports it (status/poller-view.ts): the process that polls publishes its
 * state on the board, every other reads it and reports it with `here: false` and who polls; a state no one
 * renewed lapses after three periods; a board that cannot be read keeps the last state read until then.
 */
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { createStatusBoard, type StatusBoard } from '../../../src/store/status-board.ts'
import { createMetrics } from '../../../src/metrics.ts'
import { createDetectionWindow } from '../../../src/status/detection.ts'
import { createPollerView, type PollerFacts, type ProcessId } from '../../../src/status/poller-view.ts'

const log = pino({ level: 'silent' })
const LEADER: ProcessId = { host: 'gw-a', pid: 101, worker: 1 }
const FOLLOWER: ProcessId = { host: 'gw-a', pid: 102, worker: 2 }

function poller (running: boolean, over: Partial<PollerFacts> = {}): { facts: PollerFacts, status: () => PollerFacts } {
  const facts: PollerFacts = { running, intervalMs: 1500, lastPollAt: 1_000, lastReconcileAt: 900, lastError: null, consecutiveFailures: 0, tracked: 7, pendingFinal: 1, ...over }
  return { facts, status: () => facts }
}

describe('the poller view', () => {
  it('a follower reports the leader\'s state as published, naming the leader; it lapses three periods after the last', async () => {
    let now = 10_000
    const board = createStatusBoard({ kind: 'memory', now: () => now })
    const polling = poller(true)
    const idle = poller(false)
    const oddsFacts = { running: true, enabled: true, tracked: 3, lastError: null, lastPollAt: 9_500 }
    const odds = { status: () => oddsFacts }
    const leader = createPollerView({ board, poller: () => polling, odds: () => odds, log, self: LEADER, now: () => now })
    const follower = createPollerView({ board, poller: () => idle, log, self: FOLLOWER, now: () => now })

    expect(leader.current()).toEqual({ poller: polling.facts, odds: oddsFacts, detection: null, by: LEADER, at: now, here: true })
    expect(follower.current(), 'nothing read yet').toBeUndefined()

    await leader.refresh()
    const publishedAt = now
    now += 400
    await follower.refresh()
    expect(follower.current()).toEqual({ poller: polling.facts, odds: oddsFacts, detection: null, by: LEADER, at: publishedAt, here: false })

    // The leader stops polling and publishes nothing more: the state lapses 3 periods (3 s) after it was put.
    polling.facts.running = false
    await leader.refresh()
    expect(leader.current(), 'a process that stopped polling reports the board, not itself').toEqual(expect.objectContaining({ by: LEADER, here: false }))
    now = publishedAt + 2_999
    await follower.refresh()
    expect(follower.current()?.by).toEqual(LEADER)
    now = publishedAt + 3_001
    await follower.refresh()
    expect(follower.current()).toBeUndefined()
  })

  it('keeps the last state read while the board cannot be read, until it lapses', async () => {
    let now = 0
    let up = true
    const memory = createStatusBoard({ kind: 'memory', now: () => now })
    const board: StatusBoard = {
      put: memory.put,
      get: async (name) => { if (!up) throw new Error('store unavailable'); return await memory.get(name) }
    }
    await createPollerView({ board, poller: () => poller(true), log, self: LEADER, now: () => now }).refresh()
    const follower = createPollerView({ board, poller: () => undefined, log, self: FOLLOWER, now: () => now })
    await follower.refresh()
    up = false
    now += 2_000
    await expect(follower.refresh()).rejects.toThrow('store unavailable')
    expect(follower.current()?.by).toEqual(LEADER)
    now += 1_500
    expect(follower.current(), 'read 3.5 s ago: lapsed').toBeUndefined()
  })

  it('publishes the detection latency measured where the poller runs, read there at each refresh', async () => {
    let now = 50_000
    const board = createStatusBoard({ kind: 'memory', now: () => now })
    const metrics = createMetrics({ defaults: false })
    const detection = createDetectionWindow({ metrics, now: () => now })
    const leader = createPollerView({ board, poller: () => poller(true), detection, log, self: LEADER, now: () => now })
    const follower = createPollerView({ board, poller: () => undefined, log, self: FOLLOWER, now: () => now })
    for (const s of [0.3, 0.7, 1.2, 4]) metrics.detectionLatency.observe(s)
    now += 2_000
    await leader.refresh()
    await follower.refresh()
    const expected = { p50: 1, p95: 4.6, changes: 4, windowMs: 2_000 }
    expect(leader.current()?.detection).toEqual(expected)
    expect(follower.current()?.detection).toEqual(expected)
  })

  it('reads a state published by the version before (no odds poll time, no detection latency)', async () => {
    const board = createStatusBoard({ kind: 'memory' })
    const facts = poller(true).facts
    await board.put('poller', JSON.stringify({ poller: facts, odds: { running: true, enabled: true, tracked: 0, lastError: null }, by: LEADER, at: Date.now() }), 3000)
    const follower = createPollerView({ board, poller: () => undefined, log, self: FOLLOWER })
    await follower.refresh()
    expect(follower.current()).toMatchObject({ odds: { lastPollAt: null }, detection: null, here: false })
  })

  it('ignores a published state it cannot read', async () => {
    const board = createStatusBoard({ kind: 'memory' })
    await board.put('poller', JSON.stringify({ poller: { running: 'yes' } }), 3000)
    const follower = createPollerView({ board, poller: () => undefined, log, self: FOLLOWER })
    await follower.refresh()
    expect(follower.current()).toBeUndefined()
  })
})
