/**
 * The poller and the passthrough against the budget, over real parts: the embedded provider on a real
 * port (behind a proxy where it must answer like the real API), the undici client, memory or Redis ledgers
 * and stores, and a private redis-server where Redis must go away.
 */
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { countingDispatcher, countingLedger } from '../../helpers/pipeline.ts'
import { createMemoryLedger, createRedisLedger, type BudgetLedger } from '../../../src/budget/index.ts'
import { fetchUpstream } from '../../../src/passthrough/fetch.ts'
import { ingestFixture } from '../../../src/poller/ingest.ts'
import { createPoller, LEDGER_RETRY_MS, type Poller, type PollerOptions } from '../../../src/poller/poller.ts'
import { DEMO_TOKENS, startProvider, type ProviderOptions, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { parseFixtures, type UpstreamFixture, LIVE_INCLUDES } from '../../../src/upstream/schemas.ts'
import { createUpstreamClient, UpstreamErrorCode, type CallInfo, type UpstreamClient } from '../../../src/upstream/index.ts'
import { startProxy, type ProxyRule, type RunningProxy } from '../../helpers/http-proxy.ts'
import { freshPrefix, openTestRedis } from '../../helpers/redis.ts'
import { startPrivateRedis } from '../../helpers/redis-server.ts'
import { SLOWEST_POLL_MS } from '../../../src/budget/share.ts'
import { FAILURES_AT_FLOOR, PollSkipped } from '../../../src/poller/calls.ts'
import { RETIRE_AFTER_MISSES } from '../../../src/poller/tracking.ts'
import { waitFor } from '../../helpers/wait.ts'

const log = pino({ level: 'silent' })

interface Rig {
  provider: RunningProvider
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  poller: Poller
  /** Every upstream attempt the client made, as its onCall hook saw it. */
  calls: CallInfo[]
  /** Reservations the ledger granted. */
  reserved: () => number
  /** Requests the client sent (hedges aborted after they went out included). */
  sent: () => number
  /** Moves the provider's clock (frozen from the start when `frozen`). */
  advance: (ms: number) => void
}

interface RigOptions {
  provider?: ProviderOptions
  token?: string
  proxy?: ProxyRule
  ledger?: BudgetLedger
  store?: LiveStore
  poller?: PollerOptions
  frozen?: boolean
  onCall?: (c: CallInfo, provider: RunningProvider) => void
  /** Replaces the poller's pauses (the loop then runs without waiting). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {})
})

async function rig (opts: RigOptions = {}): Promise<Rig> {
  let frozen: number | undefined = opts.frozen === true ? Date.now() : undefined
  const now = (): number => frozen ?? Date.now()
  const provider = await startProvider({ port: 0, now, simSpeed: 60, liveTarget: 6, ...opts.provider })
  cleanups.push(async () => { await provider.close() })
  let proxy: RunningProxy | undefined
  if (opts.proxy !== undefined) {
    proxy = await startProxy(provider.baseUrl, opts.proxy)
    cleanups.push(async () => { await proxy?.close() })
  }
  const inner = opts.ledger ?? createMemoryLedger()
  const { ledger, granted } = countingLedger(inner)
  const store = opts.store ?? createStore({ kind: 'memory' })
  const calls: CallInfo[] = []
  const baseUrl = proxy?.baseUrl ?? provider.baseUrl
  const { dispatcher, sent } = countingDispatcher(baseUrl)
  cleanups.push(async () => { await dispatcher.close() })
  const upstream = createUpstreamClient({
    baseUrl,
    dispatcher,
    token: opts.token ?? DEMO_TOKENS.enterprise,
    ledger,
    logger: log,
    retryBaseMs: 20,
    onCall: (c) => { calls.push(c); opts.onCall?.(c, provider) }
  })
  const poller = createPoller({ upstream, ledger, store, log, ...(opts.sleep !== undefined ? { sleep: opts.sleep } : {}) }, { floorMs: 100, reconcileIntervalMs: 2000, maxBackoffMs: 500, ...opts.poller })
  cleanups.push(async () => { await poller.stop(); await upstream.close() })
  return { provider, upstream, ledger, store, poller, calls, reserved: granted, sent, advance: (ms) => { frozen = now() + ms } }
}

/**
 * Fixtures of the provider's dataset from two days ago and earlier (long over: they cannot enter the feed
 * while a test runs), fetched outside any rig.
 */
async function fixturesOutsideFeed (provider: RunningProvider, count: number): Promise<UpstreamFixture[]> {
  const client = createUpstreamClient({ baseUrl: provider.baseUrl, token: DEMO_TOKENS.enterprise })
  try {
    const feed = new Set(parseFixtures((await client.get('/football/livescores', { include: LIVE_INCLUDES })).envelope).map((f) => f.id))
    const out: UpstreamFixture[] = []
    for (let daysAgo = 2; daysAgo < 30 && out.length < count; daysAgo++) {
      const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
      for await (const page of client.paginate(`/football/fixtures/date/${day}`, { include: LIVE_INCLUDES, per_page: '50' })) {
        for (const f of parseFixtures(page.envelope)) if (!feed.has(f.id) && out.length < count) out.push(f)
        if (out.length >= count) break
      }
    }
    return out
  } finally {
    await client.close()
  }
}

describe('the poller spends only what it reserved', () => {
  it('reserves every call of a reconcile: livescores, two multi batches and a client retry', async () => {
    const r = await rig({
      // The first multi attempt fails with a 500 and is retried once.
      onCall: (c, provider) => { if (c.status === 500) provider.faults.set({}) }
    })
    const at = new Date().toISOString()
    const outside = await fixturesOutsideFeed(r.provider, 60)
    expect(outside).toHaveLength(60)
    // 60 fixtures the store holds as live that are not in the feed: fetched by id, 50 per call.
    for (const f of outside) await ingestFixture(r.store, f, at)
    r.provider.faults.set({ errorRate: 1, pathContains: 'fixtures/multi' })
    await r.poller.step()
    const kinds = r.calls.map((c) => c.status)
    // livescores, multi (500), multi again (200), second multi batch.
    expect(kinds).toEqual([200, 500, 200, 200])
    expect(r.reserved()).toBe(r.sent())
    expect(r.poller.status().pendingFinal).toBe(0)
    const live = new Set((await r.store.liveFixtures()).map((f) => f.id))
    for (const f of outside) expect(live.has(f.id)).toBe(false)
  }, 30_000)

  it('makes no upstream call when the Redis ledger cannot be read, and says why in its status', async () => {
    const own = await startPrivateRedis()
    cleanups.push(own.close)
    const conn = own.connect({ lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 200 })
    await conn.connect()
    const r = await rig({ ledger: createRedisLedger({ redis: conn, prefix: freshPrefix() }) })
    await r.poller.step()
    expect(r.calls.length).toBeGreaterThan(0)
    expect(r.reserved()).toBe(r.sent())

    await own.stop()
    const before = r.calls.length
    await expect(r.poller.step()).rejects.toBeInstanceOf(PollSkipped)
    r.poller.start()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await r.poller.stop()
    expect(r.calls.length).toBe(before)
    expect(r.poller.status()).toMatchObject({ lastError: 'budget_ledger_unavailable', consecutiveFailures: 0 })
    // Asking our own Redis costs no upstream call: the pause stays short, not a growing backoff, so polling
    // resumes moments after Redis is back (the interval is the pause plus the failed read).
    expect(r.poller.status().intervalMs).toBeGreaterThanOrEqual(LEDGER_RETRY_MS)
    expect(r.poller.status().intervalMs).toBeLessThan(LEDGER_RETRY_MS + 250)
    await own.start()
    r.poller.start()
    await waitFor('a call once Redis is back', () => r.calls.length > before, 10_000)
    await r.poller.stop()
    expect(r.calls.length).toBeGreaterThan(before)
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)
})

describe('failed polls', () => {
  it('are retried at the floor while sporadic, with a backoff that grows only after FAILURES_AT_FLOOR in a row', async () => {
    const pauses: number[] = []
    const r = await rig({
      poller: { floorMs: 1000, maxBackoffMs: 4000 },
      provider: { faults: { errorRate: 1, pathContains: '/livescores/latest' } },
      // No waiting, and no step after the one the test looks at: the loop holds there until stopped.
      sleep: async (ms, signal) => {
        pauses.push(ms)
        if (pauses.length >= 2 + FAILURES_AT_FLOOR) await new Promise((resolve) => { signal.addEventListener('abort', resolve) })
      }
    })
    r.poller.start()
    await waitFor(`${2 + FAILURES_AT_FLOOR} pauses`, () => pauses.length >= 2 + FAILURES_AT_FLOOR, 15_000)
    await r.poller.stop()
    // The pause after the reconcile, then one after each failed poll (jittered down to half).
    const [, ...afterFailures] = pauses
    expect(r.poller.status().consecutiveFailures).toBeGreaterThan(FAILURES_AT_FLOOR)
    for (const ms of afterFailures.slice(0, FAILURES_AT_FLOOR)) expect(ms).toBeLessThanOrEqual(1000)
    expect(afterFailures[FAILURES_AT_FLOOR]).toBeGreaterThan(1000)
    // The first FAILURES_AT_FLOOR failed polls: the request and both hedges, sent at once on each failure,
    // each answered 500 twice (the client retries once). After them the upstream looks down: the request
    // alone (its hedges are due only long after its error answers), so an outage is not met with triples.
    const errors = r.calls.filter((c) => c.status === 500).length
    expect(errors).toBeGreaterThanOrEqual(6 * FAILURES_AT_FLOOR + 2)
    expect(errors).toBeLessThan(6 * (FAILURES_AT_FLOOR + 1))
  }, 30_000)
})

/** A proxy rule that leaves the next `n` `latest` requests after `arm()` unanswered (hung), and lets the rest through. */
function hangNextLatest (): { rule: ProxyRule, arm: (n: number) => void, hung: () => number } {
  let left = 0
  let hung = 0
  return {
    rule: {
      delayMs: (url) => {
        if (!url.includes('/livescores/latest') || left === 0) return 0
        left--
        hung++
        return Infinity
      }
    },
    arm: (n) => { left = n },
    hung: () => hung
  }
}

describe('a hung latest poll', () => {
  it('is not lost to three hung requests in a row: hedges keep going out within its deadline until one answers', async () => {
    const hang = hangNextLatest()
    const r = await rig({ proxy: hang.rule, poller: { reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 } })
    await r.poller.step() // reconcile
    await r.poller.step() // latest, fast: its own pace (a hedge after 0.5 s) from now on
    hang.arm(3)
    // The request and two hedges hang; a third hedge, still inside the 2.5 s deadline, answers.
    await r.poller.step()
    expect(hang.hung()).toBe(3)
    expect(r.poller.status()).toMatchObject({ consecutiveFailures: 0, lastError: null })
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)

  it('when every request hangs, ends at one deadline for the call, every request abandoned together', async () => {
    /** When each request the client gave up on was given up, ms. */
    const gaveUp: number[] = []
    const r = await rig({ poller: { reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 }, onCall: (c) => { if (c.status === 'timeout') gaveUp.push(performance.now()) } })
    await r.poller.step() // reconcile
    await r.poller.step() // latest: a hedge after 0.5 s, a 2.5 s deadline
    r.provider.faults.set({ hangRate: 1, pathContains: '/livescores/latest' })
    const err = await r.poller.step().then(() => undefined, (e: unknown) => e)
    expect(err).toMatchObject({ code: UpstreamErrorCode.Timeout })
    // The request and four hedges, 0.5 s apart, each given what is left of the call's 2.5 s: given up
    // together at the call's deadline (before: three requests, each 2.5 s after it was sent, the last at 3.5 s).
    expect(gaveUp).toHaveLength(5)
    // Together up to the latency of sending each (a reservation, the event loop): well under the second
    // between the first and the last give-up before.
    expect(Math.max(...gaveUp) - Math.min(...gaveUp)).toBeLessThan(500)
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)

  it('has a deadline and hedges of its own: a slow reconcile does not lengthen them', async () => {
    // The full livescores takes 1.2 s here: four times that would be the deadline of every call.
    const r = await rig({ provider: { faults: { latencyMs: 1200, pathContains: '/livescores?' } }, poller: { reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 } })
    await r.poller.step() // reconcile, slow
    await r.poller.step() // latest, fast: its own pace from now on
    r.provider.faults.set({ hangRate: 1, pathContains: '/livescores/latest' })
    const started = Date.now()
    const err = await r.poller.step().then(() => undefined, (e: unknown) => e)
    expect(err).toMatchObject({ code: UpstreamErrorCode.Timeout })
    expect(String((err as Error).message)).toMatch(/2500 ms/)
    // Hedges every 0.5 s (the latest polls' own pace), all abandoned at the call's 2.5 s deadline.
    expect(Date.now() - started).toBeLessThan(4500)
  }, 30_000)

  it('is abandoned after the short deadline, not retried, and the next poll goes out', async () => {
    // No read of the days beside the steps below (nor a reconcile for a kick-off it would bring).
    const r = await rig({ provider: { faults: { hangRate: 1, pathContains: '/livescores/latest' } }, poller: { kickoffListEveryMs: 0 } })
    await r.poller.step() // reconcile: livescores answers
    await r.poller.step() // fixtures/latest, in the place of the first latest poll (poller.ts nextAction)
    const started = Date.now()
    const err = await r.poller.step().then(() => undefined, (e: unknown) => e)
    const waited = Date.now() - started
    expect(err).toMatchObject({ code: UpstreamErrorCode.Timeout })
    expect(String((err as Error).message)).toMatch(/within \d+ ms \(the request and its hedges\)/)
    // No retry (the client's 10 s timeout and its two retries would silence changes for ~30 s): the
    // request and the hedges sent beside it within its deadline (hedge.ts), each reserved in the ledger.
    // Before any latest poll answered, the deadline and hedge delay are the reconciles' (at least 2.5 s
    // and 0.5 s here): two hedges or more.
    expect(r.calls.filter((c) => c.status === 'timeout').length).toBeGreaterThanOrEqual(3)
    expect(r.reserved()).toBe(r.sent())
    expect(waited).toBeLessThan(8000)
    // The next step reconciles (the gap may have lost changes) and succeeds.
    await r.poller.step()
    expect(r.poller.status()).toMatchObject({ consecutiveFailures: 0, lastError: null })
  }, 30_000)

  it('lost on its own, is followed by the next poll at once; lost in a row, after a pause at the floor', async () => {
    const pauses: number[] = []
    const r = await rig({
      poller: { floorMs: 1000, maxBackoffMs: 4000, reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 },
      // No waiting, and no step after the third lost poll: the loop holds there until stopped.
      sleep: async (ms, signal) => {
        pauses.push(ms)
        if (pauses.length >= 4) await new Promise((resolve) => { signal.addEventListener('abort', resolve) })
      }
    })
    await r.poller.step() // reconcile
    await r.poller.step() // latest: its own 2.5 s deadline from now on
    r.provider.faults.set({ hangRate: 1, pathContains: '/livescores/latest' })
    r.poller.start()
    await waitFor('three polls lost', () => pauses.length >= 4, 20_000)
    await r.poller.stop()
    // The reconcile the loop starts with, then the lost polls: the first took its 2.5 s deadline, longer
    // than the 1 s pace, so the next went at once; the next ones in a row waited at the floor (jittered).
    const [, first, ...inRow] = pauses
    expect(first).toBe(0)
    for (const ms of inRow) expect(ms).toBeGreaterThanOrEqual(500)
  }, 30_000)
})

describe('the pace of latest polls', () => {
  it('runs from the start of one poll to the next: answers that take 400 ms do not space the polls out', async () => {
    /** The median gap between two `latest` polls reaching the provider, its answers held `delay` ms. */
    const medianGap = async (delay: number): Promise<{ gap: number, shown: number }> => {
      const starts: number[] = []
      const r = await rig({
        proxy: { delayMs: (url) => { if (!url.includes('/livescores/latest')) return undefined; starts.push(performance.now()); return delay } },
        poller: { floorMs: 100, reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 }
      })
      r.poller.start()
      await waitFor('nine latest polls', () => starts.length >= 9, 30_000)
      const shown = r.poller.status().intervalMs
      await r.poller.stop()
      const gaps = starts.slice(1).map((t, i) => t - (starts[i] as number)).sort((x, y) => x - y)
      return { gap: gaps[Math.floor(gaps.length / 2)] as number, shown }
    }
    const quick = await medianGap(0)
    const slow = await medianGap(400)
    // The Enterprise plan's pace here is about 0.9 s: well above the 400 ms an answer takes plus the floor.
    expect(quick.gap).toBeGreaterThan(600)
    expect(Math.abs(slow.gap - quick.gap)).toBeLessThan(150)
    // The status (and the metric) show that interval, not the pause left after a 400 ms answer.
    expect(Math.abs(slow.shown - slow.gap)).toBeLessThan(150)
  }, 60_000)
})

describe('a fixture before kick-off', () => {
  it('is in the store after the latest poll that first lists it, not at the next reconcile', async () => {
    const served: { upcoming?: UpstreamFixture } = {}
    const r = await rig({
      // The real `latest`: a fixture whose base fields changed before kick-off (e.g. its starting time).
      proxy: {
        answer: (url) => url.includes('/livescores/latest') && served.upcoming !== undefined
          ? { status: 200, body: { data: [served.upcoming], rate_limit: { resets_in_seconds: 3000, remaining: 4000, requested_entity: 'Fixture' }, timezone: 'UTC' } }
          : undefined
      },
      // No reconcile in the way of the steps below: none periodic, none for a kick-off the days would bring.
      poller: { reconcileIntervalMs: 600_000, kickoffListEveryMs: 0 }
    })
    const [sample] = await fixturesOutsideFeed(r.provider, 1)
    const kickoff = Math.floor(Date.now() / 1000) + 600
    // The dataset ends today: a fixture of its shape, not started, kicking off in 10 minutes.
    const next = sample === undefined
      ? undefined
      : { ...sample, id: 990_000_002, state_id: 1, result_info: null, starting_at_timestamp: kickoff, starting_at: new Date(kickoff * 1000).toISOString().slice(0, 19).replace('T', ' '), scores: [], events: [], periods: [] }
    await r.poller.step() // reconcile
    await r.poller.step() // fixtures/latest, in the place of the first latest poll (poller.ts nextAction)
    expect(await r.store.getFixture(next?.id ?? 0)).toBeUndefined()
    if (next !== undefined) served.upcoming = next
    const reconciled = r.poller.status().lastReconcileAt
    await r.poller.step() // latest
    expect(r.poller.status().lastReconcileAt).toBe(reconciled)
    expect(await r.store.getFixture(next?.id ?? 0)).toMatchObject({ id: next?.id, state: { phase: 'scheduled' } })
    expect((await r.store.liveFixtures()).map((f) => f.id)).toContain(next?.id)
  }, 30_000)
})

describe('fixtures the upstream forgets', () => {
  /** A live fixture in the store whose id the upstream does not know. */
  async function forgotten (r: Rig): Promise<number> {
    const [sample] = await fixturesOutsideFeed(r.provider, 1)
    if (sample === undefined) throw new Error('no fixture in the dataset')
    const id = 990_000_001
    await ingestFixture(r.store, { ...sample, id, state_id: 2 }, new Date().toISOString())
    expect((await r.store.liveFixtures()).map((f) => f.id)).toContain(id)
    return id
  }

  async function reconcileTimes (r: Rig, n: number): Promise<void> {
    for (let i = 0; i < n; i++) { r.poller.forceReconcile(); await r.poller.step() }
  }

  async function removals (r: Rig, id: number): Promise<number> {
    const log = await r.store.readSince(undefined, { fixtures: [id], limit: 100 })
    return log.records.filter((rec) => rec.changes.some((c) => c.kind === 'fixture_removed')).length
  }

  it(`retires one answered with a 200 "No result(s)" after ${RETIRE_AFTER_MISSES} reconciles`, async () => {
    const r = await rig()
    const id = await forgotten(r)
    await reconcileTimes(r, RETIRE_AFTER_MISSES - 1)
    expect((await r.store.liveFixtures()).map((f) => f.id)).toContain(id)
    expect(await removals(r, id)).toBe(0)
    await reconcileTimes(r, 1)
    expect((await r.store.liveFixtures()).map((f) => f.id)).not.toContain(id)
    expect(await removals(r, id)).toBe(1)
    expect(r.poller.status().pendingFinal).toBe(0)
    // Not asked for again.
    const multis = r.calls.length
    await reconcileTimes(r, 1)
    expect(r.calls.length).toBe(multis + 1)
  }, 30_000)

  it(`retires one answered with a 404 after ${RETIRE_AFTER_MISSES} reconciles`, async () => {
    const r = await rig({
      proxy: { answer: (url) => url.includes('/fixtures/multi/') ? { status: 404, body: { message: 'No query results for model [Fixture].' } } : undefined }
    })
    const id = await forgotten(r)
    await reconcileTimes(r, RETIRE_AFTER_MISSES - 1)
    expect(await removals(r, id)).toBe(0)
    await reconcileTimes(r, 1)
    expect((await r.store.liveFixtures()).map((f) => f.id)).not.toContain(id)
    expect(await removals(r, id)).toBe(1)
  }, 30_000)
})

describe('a store that loses its data under a running poller', () => {
  it('still ends FT in the store for a match that finished while the store was empty', async () => {
    const redis = openTestRedis()
    cleanups.push(redis.close)
    const store = createStore({ kind: 'redis', redis: redis.connect(), prefix: redis.prefix })
    cleanups.push(async () => { await store.close() })
    const r = await rig({ store, frozen: true })
    await r.poller.step()
    const before = (await store.liveFixtures()).filter((f) => f.state.phase === 'live')
    expect(before.length).toBeGreaterThan(2)
    // Redis loses everything (a flush of this deployment's keys).
    await redis.wipe()
    expect(await store.liveFixtures()).toEqual([])
    // Three match hours later every one of them has ended and left the feed.
    r.advance(3 * 3600_000 / 60)
    r.poller.forceReconcile()
    await r.poller.step()
    const after = await store.getFixtures(before.map((f) => f.id))
    expect(after.map((f) => f.id).sort()).toEqual(before.map((f) => f.id).sort())
    for (const f of after) expect(['finished', 'cancelled', 'postponed'], `fixture ${f.id}`).toContain(f.state.phase)
    const live = new Set((await store.liveFixtures()).map((f) => f.id))
    for (const f of before) expect(live.has(f.id)).toBe(false)
  }, 30_000)
})

describe('a small bucket without a reported total', () => {
  it('learns 120/h, leaves the passthrough its reserve beyond the poller\'s claim, and never meets a 429', async () => {
    const r = await rig({
      token: DEMO_TOKENS.pro,
      provider: { hourlyLimits: { Pro: 120 } },
      // The real API: `rate_limit` has no total, and the header limit is not the entity's.
      proxy: { dropHeaders: ['x-ratelimit-limit'] }
    })
    r.poller.start()
    // Until the first step is over and the poller has chosen its next pause.
    await waitFor('a pace slower than the slowest poll', () => r.poller.status().intervalMs > SLOWEST_POLL_MS)
    const bucket = await r.ledger.get('Fixture')
    expect(bucket).toMatchObject({ limit: 120, limitSource: 'learned' })
    // The poller paces itself over the hour: a handful of calls, not one per 100 ms.
    expect(r.calls.length).toBeLessThan(5)
    expect(r.poller.status().intervalMs).toBeGreaterThan(SLOWEST_POLL_MS)

    // The passthrough gets what the poller's claim leaves (its share of 96 capped the claim), then is refused (no 429).
    const deps = { upstream: r.upstream, ledger: r.ledger, log, scrub: (t: string) => t }
    const ids = (await r.store.liveFixtures()).map((f) => f.id)
    let answered = 0
    let refused = 0
    for (let i = 0; i < 40; i++) {
      const id = ids[i % ids.length] ?? 1
      const fetched = await fetchUpstream(deps, {
        request: { path: `/football/fixtures/${id}`, query: {}, key: `k${i}` },
        entity: 'Fixture',
        kind: 'fixture',
        now: Date.now(),
        ttlMs: 1000,
        notFoundTtlMs: 1000
      })
      if (fetched.kind === 'entry') answered++
      else if (fetched.kind === 'budget') refused++
    }
    const left = await r.ledger.get('Fixture')
    const need = left?.pollersNeed ?? 0
    // Between 20 and 24 (the reserve less what the poller spent beyond its share so far).
    expect(answered).toBeGreaterThanOrEqual(20)
    expect(answered + refused).toBe(40)
    expect(left?.remaining).toBeGreaterThanOrEqual(need)
    expect(need).toBeGreaterThan(90)
    expect(need).toBeLessThanOrEqual(96)
    // The poller still polls on what was left for it.
    r.poller.forceReconcile()
    await r.poller.step()
    expect(r.calls.filter((c) => c.status === 429)).toHaveLength(0)
  }, 30_000)
})
