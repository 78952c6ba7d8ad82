import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, inject, it } from 'vitest'
import type { LiveStore } from '../../../src/store/index.ts'
import { fixtureIdOf } from '../../../src/store/types.ts'
import { StoreUnavailableError } from '../../../src/store/unavailable.ts'
import { startPipeline, type Pipeline } from '../../helpers/pipeline.ts'

const redisUrl = inject('redisUrl')
let pipeline: Pipeline | undefined
afterEach(async () => { await pipeline?.close(); pipeline = undefined })

describe('poller edge cases', () => {
  it('fetches fixtures that left the feed by id, stores their final state and drops them from the live set', async () => {
    pipeline = await startPipeline('memory', redisUrl, { provider: { simSpeed: 60, liveTarget: 6 } })
    const p = pipeline
    p.freeze()
    await p.poller.step()
    const before = await p.store.liveFixtures()
    expect(before.length).toBeGreaterThan(3)
    // Three hours later every one of them has ended and left the feed (15 match minutes after the end).
    p.advance(3 * 3600_000 / 60)
    p.poller.forceReconcile()
    await p.poller.step()
    const live = new Set((await p.store.liveFixtures()).map((f) => f.id))
    const after = await p.store.getFixtures(before.map((f) => f.id))
    for (const f of after) {
      expect(live.has(f.id), `fixture ${f.id} left the live set`).toBe(false)
      expect(['finished', 'cancelled', 'postponed']).toContain(f.state.phase)
      expect(f.result_info === null && f.state.phase === 'finished').toBe(false)
    }
    const log = await p.store.readSince(undefined, { fixtures: before.map((f) => f.id), limit: 1000 })
    const removed = new Set(log.records.filter((r) => r.changes.some((c) => c.kind === 'fixture_removed')).map((r) => fixtureIdOf(r)))
    expect([...removed].sort()).toEqual(before.map((f) => f.id).sort())
    expect(p.poller.status().pendingFinal).toBe(0)
  }, 30_000)

  it('counts a poll whose changes could not be stored as failed, and reconciles next', async () => {
    let failNext = false
    const wrap = (store: LiveStore): LiveStore => ({
      ...store,
      apply: async (input) => {
        if (failNext) { failNext = false; throw new Error('store unavailable') }
        return await store.apply(input)
      }
    })
    pipeline = await startPipeline('memory', redisUrl, { provider: { simSpeed: 600, liveTarget: 6 }, wrapStore: wrap })
    const p = pipeline
    await p.poller.step()
    await sleep(300)
    failNext = true
    await expect(p.poller.step()).rejects.toThrow(/could not be stored/)
    expect(p.poller.status()).toMatchObject({ consecutiveFailures: 1, lastError: 'Error' })
    const reconciles = p.poller.status().lastReconcileAt
    await sleep(50)
    await p.poller.step()
    expect(p.poller.status().consecutiveFailures).toBe(0)
    expect(p.poller.status().lastReconcileAt).toBeGreaterThan(reconciles ?? 0)
  }, 30_000)

  it('fails a step at the first write the store cannot take for an outage, without trying every other fixture', async () => {
    let down = false
    let writes = 0
    const wrap = (store: LiveStore): LiveStore => ({
      ...store,
      apply: async (input) => {
        writes++
        if (down) throw new StoreUnavailableError(new Error('Command timed out'))
        return await store.apply(input)
      }
    })
    pipeline = await startPipeline('memory', redisUrl, { provider: { simSpeed: 60, liveTarget: 6 }, wrapStore: wrap })
    const p = pipeline
    p.freeze()
    await p.poller.step()
    expect(writes, 'several fixtures stored by the first reconcile').toBeGreaterThan(3)
    down = true
    writes = 0
    // Ten minutes of match time later every fixture in the feed has changed.
    p.advance(10_000)
    p.poller.forceReconcile()
    await expect(p.poller.step()).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(writes).toBe(1)
    expect(p.poller.status()).toMatchObject({ consecutiveFailures: 1, lastError: 'StoreUnavailableError' })
  }, 30_000)
})
