import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { LiveFixture } from '../../../src/wire/model.ts'
import { parseFixtures, LIVE_INCLUDES } from '../../../src/upstream/schemas.ts'
import { counterValue, startPipeline, type Pipeline } from '../../helpers/pipeline.ts'

const redisUrl = inject('redisUrl')
let pipeline: Pipeline | undefined
afterEach(async () => { await pipeline?.close(); pipeline = undefined })

/** What matters for "equal to the provider's truth": state, scores and events (and the result). */
const essence = (f: LiveFixture) => ({ state: f.state.code, home: f.home.score, away: f.away.score, scores: f.scores, events: f.events, result_info: f.result_info })

/** Freezes the provider, lets the poller settle (reconcile, then fetch every fixture that left the feed), and compares. */
async function settleAndCompare (p: Pipeline): Promise<number> {
  await p.poller.stop()
  p.freeze()
  p.provider.faults.set({})
  p.poller.forceReconcile()
  await p.poller.step()
  for (let i = 0; i < 50 && p.poller.status().pendingFinal > 0; i++) await p.poller.step()
  expect(p.poller.status().pendingFinal).toBe(0)

  const ids = await p.store.trackedFixtureIds()
  expect(ids.length).toBeGreaterThan(5)
  const stored = await p.store.getFixtures(ids)
  for (let i = 0; i < ids.length; i += 50) {
    const batch = ids.slice(i, i + 50)
    const res = await fetch(`${p.provider.baseUrl}/football/fixtures/multi/${batch.join(',')}?include=${LIVE_INCLUDES}&api_token=demo-enterprise`)
    const truth = parseFixtures(await res.json()).map((f) => normalizeFixture(f))
    for (const t of truth) {
      const s = stored.find((x) => x.id === t.id)
      expect(s, `fixture ${t.id} in the store`).toBeDefined()
      expect(essence(s as LiveFixture), `fixture ${t.id}`).toEqual(essence(t))
    }
  }
  return ids.length
}

describe.each(['memory', 'redis'] as const)('live pipeline on the %s engine', (engine) => {
  it('ends with the store equal to the provider for every tracked fixture, and never a 429', async () => {
    pipeline = await startPipeline(engine, redisUrl, { provider: { simSpeed: 600, liveTarget: 8, hourlyLimits: { Enterprise: 100_000 } } })
    pipeline.poller.start()
    await sleep(15_000)
    const tracked = await settleAndCompare(pipeline)
    expect(tracked).toBeGreaterThan(8)
    expect(await counterValue(pipeline.metrics, 'touchline_upstream_calls_total', { status: '429' })).toBe(0)
    expect(await counterValue(pipeline.metrics, 'touchline_changes_total', { kind: 'score_changed' })).toBeGreaterThan(0)
    const log = await pipeline.store.readSince(undefined, { limit: 1000 })
    expect(log.records.length).toBeGreaterThan(tracked)
  }, 60_000)

  it('still ends equal when latest reports only the base fields, as the real API does (reconciliation catches the rest)', async () => {
    pipeline = await startPipeline(engine, redisUrl, { provider: { simSpeed: 600, liveTarget: 8, hourlyLimits: { Enterprise: 100_000 }, latestTracks: 'base' } })
    pipeline.poller.start()
    await sleep(10_000)
    await settleAndCompare(pipeline)
    // Goals reached the log although `latest` never listed a fixture for a goal alone.
    expect(await counterValue(pipeline.metrics, 'touchline_changes_total', { kind: 'score_changed' })).toBeGreaterThan(0)
  }, 60_000)

  it('recovers by itself from 30 % errors, a 30 s outage and a 429 burst, and still ends equal', async () => {
    pipeline = await startPipeline(engine, redisUrl, { provider: { simSpeed: 600, liveTarget: 8, hourlyLimits: { Enterprise: 100_000 }, faults: { errorRate: 0.3 } } })
    const p = pipeline
    p.poller.start()
    await sleep(4_000)
    p.provider.faults.set({ errorRate: 0.3, outageUntil: Date.now() + 30_000 })
    await sleep(15_000)
    expect(p.poller.status().consecutiveFailures).toBeGreaterThan(0)
    expect(p.poller.status().lastError).toBe('TL_ERR_UPSTREAM_SERVER')
    await sleep(16_000)
    p.provider.faults.set({ errorRate: 0.3, rateLimitBurst: 5, retryAfterSeconds: 2 })
    await sleep(6_000)
    p.provider.faults.set({ errorRate: 0.3 })
    await sleep(4_000)
    // The poller came back on its own: it polls successfully again.
    const okPolls = await counterValue(p.metrics, 'touchline_polls_total', { outcome: 'ok' })
    await sleep(2_000)
    expect(await counterValue(p.metrics, 'touchline_polls_total', { outcome: 'ok' })).toBeGreaterThan(okPolls)
    expect(await counterValue(p.metrics, 'touchline_upstream_calls_total', { status: '429' })).toBeGreaterThan(0)
    await settleAndCompare(p)
  }, 120_000)
})
