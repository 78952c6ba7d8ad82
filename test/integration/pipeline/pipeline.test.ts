import { describe, expect, inject, it, type TestContext } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { LIVE_INCLUDES, parseFixtures } from '../../../src/upstream/schemas.ts'
import { LATEST_WINDOW_MS } from '../../../packages/upstream-contract/src/livescores.ts'
import { counterValue, startPipeline, type Pipeline } from '../../helpers/pipeline.ts'
import type { ProviderOptions } from '../../../packages/provider/src/index.ts'
import { wholeLog } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'

const redisUrl = inject('redisUrl')

/** A busy match day at 600x (a match minute every 0.1 s), with a bucket the poller never exhausts. */
const DAY: ProviderOptions = { simSpeed: 600, liveTarget: 8, hourlyLimits: { Enterprise: 100_000 } }

/** A pipeline closed when the test `ctx` ends (the context's hook: the tests run concurrently). */
async function pipelineFor (ctx: TestContext, engine: 'memory' | 'redis', provider: ProviderOptions = {}): Promise<Pipeline> {
  const p = await startPipeline(engine, redisUrl, { provider: { ...DAY, ...provider } })
  ctx.onTestFinished(async () => { await p.close() })
  return p
}

const count = async (p: Pipeline, name: string, labels: Record<string, string>): Promise<number> => await counterValue(p.metrics, name, labels)

/**
 * Waits until the day has shown what the comparison is about: more than `tracked` fixtures in the store,
 * goals, and `ended` matches that ended and left the feed (whose final state the poller fetches by id).
 */
async function untilDayShows (p: Pipeline, tracked: number, ended: number): Promise<void> {
  await waitFor(`over ${tracked} fixtures tracked, goals, ${ended} matches ended`, async () =>
    (await p.store.trackedFixtureIds()).length > tracked &&
    await count(p, 'touchline_changes_total', { kind: 'score_changed' }) > 0 &&
    await count(p, 'touchline_changes_total', { kind: 'fixture_removed' }) >= ended, 45_000, 100)
}

/** What matters for "equal to the provider's truth": state, scores and events (and the result). */
const essence = (f: LiveFixture) => ({ state: f.state.code, home: f.home.score, away: f.away.score, scores: f.scores, events: f.events, result_info: f.result_info })

/**
 * Freezes the provider, lets the poller settle (reconcile, then fetch every fixture that left the feed), and
 * compares every fixture the store holds, or with `liveSet` those that were in the live set (a fixture of a
 * day outside it is brought up to date by the next read of the days, which follows failures at its own pace).
 */
async function settleAndCompare (p: Pipeline, opts: { liveSet?: boolean } = {}): Promise<number> {
  await p.poller.stop()
  p.freeze()
  p.provider.faults.set({})
  p.poller.forceReconcile()
  await p.poller.step()
  for (let i = 0; i < 50 && p.poller.status().pendingFinal > 0; i++) await p.poller.step()
  expect(p.poller.status().pendingFinal).toBe(0)

  const inLiveSet = new Set((await wholeLog(p.store)).map((r) => (JSON.parse(r.json) as { fixture_id: number }).fixture_id))
  const ids = (await p.store.trackedFixtureIds()).filter((id) => opts.liveSet !== true || inLiveSet.has(id))
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

// The engines run side by side: each test waits on a simulated match day, not on the CPU. On a loaded
// machine the day's polls come slower: the waits are generous, the checks the same.
describe.concurrent.each(['memory', 'redis'] as const)('live pipeline on the %s engine', (engine) => {
  it('ends with the store equal to the provider for every tracked fixture, and never a 429', async (ctx) => {
    const p = await pipelineFor(ctx, engine)
    p.poller.start()
    await untilDayShows(p, 8, 1)
    const tracked = await settleAndCompare(p)
    expect(tracked).toBeGreaterThan(8)
    expect(await count(p, 'touchline_upstream_calls_total', { status: '429' })).toBe(0)
    expect(await count(p, 'touchline_changes_total', { kind: 'score_changed' })).toBeGreaterThan(0)
    // Every fixture tracked has its first record, and the day's changes follow: the whole log, read page by
    // page (a week of the simulator at 600x tracks over a thousand fixtures, more than one page).
    let records = 0
    for (let cursor: string | undefined, more = true; more;) {
      const page = await p.store.readSince(cursor, { limit: 1000 })
      records += page.records.length
      cursor = page.cursor
      more = page.more
    }
    expect(records).toBeGreaterThan(tracked)
  }, 90_000)

  it('still ends equal when latest reports only the base fields, as the real API does (reconciliation catches the rest)', async (ctx) => {
    const p = await pipelineFor(ctx, engine, { latestTracks: 'base' })
    p.poller.start()
    await untilDayShows(p, 5, 1)
    await settleAndCompare(p)
    // Goals reached the log although `latest` never listed a fixture for a goal alone.
    expect(await count(p, 'touchline_changes_total', { kind: 'score_changed' })).toBeGreaterThan(0)
  }, 90_000)

  it('recovers by itself from 30 % errors, an outage longer than the latest window and a 429 burst, and still ends equal', async (ctx) => {
    const p = await pipelineFor(ctx, engine, { faults: { errorRate: 0.3 } })
    const okPolls = async (): Promise<number> => await count(p, 'touchline_polls_total', { outcome: 'ok' })
    p.poller.start()
    // A ceiling: 5 s alone, over 30 s once beside the loaded suite (30 % of calls fail, each retried with backoff).
    await waitFor('polls succeeding through the errors', async () => await okPolls() >= 5, 60_000)
    // Longer than the 10 s `latest` window: afterwards only a reconcile can bring back what changed meanwhile.
    const outageMs = LATEST_WINDOW_MS + 2000
    const outageEnds = Date.now() + outageMs
    p.provider.faults.set({ errorRate: 0.3, outageUntil: outageEnds })
    // Polls fail through the outage (awaited: on a busy machine the first poll in it may come late).
    await waitFor('a poll failing in the outage', () => Date.now() >= outageEnds - 1000 && p.poller.status().consecutiveFailures > 0, outageMs + 30_000)
    expect(p.poller.status().lastError).toBe('TL_ERR_UPSTREAM_SERVER')
    const okAfterOutage = await okPolls()
    await waitFor('a successful poll after the outage', async () => await okPolls() > okAfterOutage, 30_000)
    p.provider.faults.set({ errorRate: 0.3, rateLimitBurst: 5, retryAfterSeconds: 2 })
    await waitFor('the 429 burst answered', () => (p.provider.faults.get().rateLimitBurst ?? 0) === 0, 30_000)
    expect(await count(p, 'touchline_upstream_calls_total', { status: '429' })).toBeGreaterThan(0)
    // The poller came back on its own: it polls successfully again.
    const okAfterBurst = await okPolls()
    await waitFor('a successful poll after the burst', async () => await okPolls() > okAfterBurst, 30_000)
    await settleAndCompare(p, { liveSet: true })
  }, 180_000)
})
