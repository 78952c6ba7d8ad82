/**
 * Fixtures that enter the livescores feed before kick-off (15 match minutes before it: 15 s at simulator
 * speed 60) reach the store at the first poll after they enter it, not at the next periodic reconcile.
 * Over real parts: the embedded provider on a real port behind a proxy that logs every request, the undici
 * client, a memory ledger and store, the poller stepped by hand on the provider's frozen clock.
 */
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { countingDispatcher, countingLedger } from '../../helpers/pipeline.ts'
import { createMemoryLedger, type BudgetLedger } from '../../../src/budget/index.ts'
import { createPoller, type Poller, type PollerOptions } from '../../../src/poller/poller.ts'
import { DEMO_TOKENS, startProvider, type ProviderOptions, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { LIVESCORES_WINDOW_SECONDS } from '../../../packages/provider/src/sim/engine.ts'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { createUpstreamClient, type CallInfo } from '../../../src/upstream/index.ts'
import { startProxy, type ProxyRule } from '../../helpers/http-proxy.ts'
import { LIVE_INCLUDES } from '../../../src/upstream/schemas.ts'
import { SLOWEST_POLL_MS } from '../../../src/budget/share.ts'
import { waitFor } from '../../helpers/wait.ts'

const SPEED = 60
/** When a fixture enters the embedded provider's feed: 15 match minutes before kick-off. */
const LEAD_MS = LIVESCORES_WINDOW_SECONDS * 1000 / SPEED
/** Long enough that no periodic reconcile comes while the test runs. */
const RECONCILE_MS = 600_000

interface Rig {
  provider: RunningProvider
  ledger: BudgetLedger
  store: LiveStore
  poller: Poller
  /** Every upstream attempt, as the client's onCall hook saw it. */
  calls: CallInfo[]
  /** Every request that reached the provider, path and query (through the proxy, unless `direct`). */
  urls: string[]
  reserved: () => number
  /** Requests the client sent (hedges aborted after they went out included). */
  sent: () => number
  now: () => number
  /** Moves the frozen clock (provider and poller) to `ms`. */
  setNow: (ms: number) => void
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {})
})

async function rig (poller: PollerOptions = {}, opts: { token?: string, provider?: ProviderOptions, answer?: ProxyRule['answer'], direct?: boolean } = {}): Promise<Rig> {
  let frozen = Date.now()
  const now = (): number => frozen
  const provider = await startProvider({ port: 0, now, simSpeed: SPEED, liveTarget: 6, ...opts.provider })
  const urls: string[] = []
  const proxy = await startProxy(provider.baseUrl, { answer: (url) => { urls.push(url); return opts.answer?.(url) } })
  cleanups.push(async () => { await proxy.close() })
  cleanups.push(async () => { await provider.close() })
  const inner = createMemoryLedger({ now })
  const { ledger, granted } = countingLedger(inner)
  const store = createStore({ kind: 'memory' })
  const calls: CallInfo[] = []
  const log = pino({ level: 'silent' })
  const baseUrl = opts.direct === true ? provider.baseUrl : proxy.baseUrl
  const { dispatcher, sent } = countingDispatcher(baseUrl)
  cleanups.push(async () => { await dispatcher.close() })
  const upstream = createUpstreamClient({ baseUrl, dispatcher, token: opts.token ?? DEMO_TOKENS.enterprise, ledger, logger: log, onCall: (c) => { calls.push(c) } })
  const p = createPoller({ upstream, ledger, store, log, now }, { floorMs: 100, reconcileIntervalMs: RECONCILE_MS, feedLeadMs: LEAD_MS, ...poller })
  cleanups.push(async () => { await p.stop(); await upstream.close() })
  return { provider, ledger, store, poller: p, calls, urls, reserved: granted, sent, now, setNow: (ms) => { frozen = ms } }
}

/** Ids the provider itself serves at its current time (asked directly, not through the rig's client). */
async function served (r: Rig, path: string, leagues?: readonly number[]): Promise<Array<{ id: number, league_id: number, starting_at_timestamp: number }>> {
  const query = new URLSearchParams({ api_token: DEMO_TOKENS.enterprise, include: LIVE_INCLUDES, per_page: '1000', filters: 'populate' })
  if (path.includes('livescores')) query.delete('per_page')
  if (path.includes('livescores')) query.delete('filters')
  const res = await fetch(`${r.provider.baseUrl}${path}?${query.toString()}`)
  const body = await res.json() as { data?: Array<{ id: number, league_id: number, starting_at_timestamp: number }> }
  return (body.data ?? []).filter((f) => leagues === undefined || leagues.includes(f.league_id))
}

/** Fixtures (in `leagues`, if given) that enter the feed after the rig's current time, soonest first. */
async function entering (r: Rig, leagues?: readonly number[]): Promise<Array<{ id: number, league: number, entersAt: number }>> {
  const today = new Date(r.now()).toISOString().slice(0, 10)
  const tomorrow = new Date(r.now() + 86_400_000).toISOString().slice(0, 10)
  return (await served(r, `/football/fixtures/between/${today}/${tomorrow}`, leagues))
    .map((f) => ({ id: f.id, league: f.league_id, entersAt: f.starting_at_timestamp * 1000 - LEAD_MS }))
    .filter((f) => f.entersAt > r.now() + 1000)
    .sort((a, b) => a.entersAt - b.entersAt)
}

async function nextEntering (r: Rig, leagues?: readonly number[]): Promise<{ id: number, entersAt: number }> {
  const [next] = await entering(r, leagues)
  if (next === undefined) throw new Error('no upcoming fixture in the provider')
  return next
}

/** Steps the poller every 2 s of frozen time (polls overlap) until just before `until`. */
async function pollUntil (r: Rig, until: number): Promise<void> {
  while (r.now() + 2000 < until) {
    r.setNow(r.now() + 2000)
    await r.poller.step()
  }
}

/** Polls up to the moment the fixture enters the feed, checks it is there but not in `latest`, then steps once. */
async function stepAtEntry (r: Rig, target: { id: number, entersAt: number }): Promise<void> {
  await pollUntil(r, target.entersAt)
  // Held as a fixture of its day perhaps (the read of the days), not in the live set yet.
  expect((await r.store.getEntry(target.id))?.live ?? false).toBe(false)
  r.setNow(target.entersAt)
  // The provider has it in `livescores` now, and `latest` does not list it (nothing tracked changed).
  expect((await served(r, '/football/livescores')).map((f) => f.id)).toContain(target.id)
  expect((await served(r, '/football/livescores/latest')).map((f) => f.id)).not.toContain(target.id)
  await r.poller.step()
}

describe('a fixture that enters livescores before kick-off', () => {
  it('is in the store after the first poll once it is in the feed, not at the next reconcile; every call is reserved', async () => {
    const r = await rig()
    await r.poller.step() // reconcile at start
    r.setNow(r.now() + 1000)
    await r.poller.step() // a poll, then the read of the days
    const lists = r.urls.filter((u) => u.includes('/fixtures/between/'))
    // The days around today, every league, with the includes: 50 a page.
    expect(lists.length).toBeGreaterThanOrEqual(1)
    expect(decodeURIComponent(lists[0] ?? '')).toContain(`include=${LIVE_INCLUDES}`)
    expect(lists[0]).toContain('per_page=50')

    const target = await nextEntering(r)
    await stepAtEntry(r, target)
    expect(r.poller.status().lastReconcileAt).toBe(target.entersAt)
    expect(await r.store.getFixture(target.id)).toMatchObject({ id: target.id, state: { phase: 'scheduled' } })
    expect((await r.store.liveFixtures()).map((f) => f.id)).toContain(target.id)

    // Every request that reached the provider was a call the client made, and each was reserved first.
    // Not read again within the hour.
    expect(r.urls.filter((u) => u.includes('/fixtures/between/'))).toHaveLength(lists.length)
    expect(r.calls).toHaveLength(r.urls.length)
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)

  it('waits for the next reconcile without the kick-off list (the gap this closes)', async () => {
    const r = await rig({ kickoffListEveryMs: 0 })
    await r.poller.step()
    const target = await nextEntering(r)
    await stepAtEntry(r, target)
    expect(r.urls.filter((u) => u.includes('/fixtures/between/'))).toHaveLength(0)
    expect(await r.store.getEntry(target.id)).toBeUndefined()
  }, 30_000)

  it('with a league filter lists those leagues only, and reconciles for no fixture of another league', async () => {
    const leagues = [271, 501]
    const r = await rig({ leagues })
    await r.poller.step()
    r.setNow(r.now() + 1000)
    await r.poller.step()
    const list = r.urls.find((u) => u.includes('/fixtures/between/'))
    expect(decodeURIComponent(list ?? '')).toContain('fixtureLeagues:271,501')

    const target = await nextEntering(r, leagues)
    // Fixtures of other leagues that enter the feed first bring no reconcile.
    const others = (await entering(r)).filter((f) => f.entersAt < target.entersAt && !leagues.includes(f.league))
    expect(others.length).toBeGreaterThan(0)
    const reconcilesBefore = r.urls.filter((u) => /\/livescores\?/.test(u)).length
    await pollUntil(r, target.entersAt)
    expect(r.urls.filter((u) => /\/livescores\?/.test(u)).length).toBe(reconcilesBefore)
    await stepAtEntry(r, target)
    expect(r.urls.filter((u) => /\/livescores\?/.test(u)).length).toBe(reconcilesBefore + 1)
    expect(await r.store.getFixture(target.id)).toMatchObject({ id: target.id, state: { phase: 'scheduled' } })
    expect(r.reserved()).toBe(r.sent())
  }, 60_000)

  it('is not listed for with a bucket too small for overlapping polls (every poll is a reconcile there)', async () => {
    const r = await rig({}, { token: DEMO_TOKENS.pro, provider: { hourlyLimits: { Pro: 120 } } })
    r.poller.start()
    // Until the first step is over and the poller has chosen its (slow) pace.
    await waitFor('a pace slower than the slowest poll', () => r.poller.status().intervalMs > SLOWEST_POLL_MS)
    await r.poller.stop()
    expect(r.poller.status().intervalMs).toBeGreaterThan(SLOWEST_POLL_MS)
    r.setNow(r.now() + 1000)
    await r.poller.step()
    expect(r.urls.filter((u) => u.includes('/livescores/latest'))).toHaveLength(1)
    expect(r.urls.filter((u) => u.includes('/fixtures/between/'))).toHaveLength(0)
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)

  it('keeps polling when the list fails or hangs: the poll it follows counts, and it is not asked again at once', async () => {
    const failing = await rig({}, { answer: (url) => url.includes('/fixtures/between/') ? { status: 500, body: { message: 'Server Error' } } : undefined })
    await failing.poller.step()
    failing.setNow(failing.now() + 1000)
    await failing.poller.step()
    expect(failing.poller.status()).toMatchObject({ lastError: null, consecutiveFailures: 0 })
    expect(failing.urls.filter((u) => u.includes('/fixtures/between/'))).toHaveLength(1)
    failing.setNow(failing.now() + 1000)
    await failing.poller.step()
    expect(failing.urls.filter((u) => u.includes('/fixtures/between/'))).toHaveLength(1)
    expect(failing.reserved()).toBe(failing.sent())

    // Straight to the provider: the proxy would hold the hung request open.
    const hung = await rig({}, { direct: true, provider: { faults: { hangRate: 1, pathContains: '/fixtures/between/' } } })
    await hung.poller.step()
    hung.setNow(hung.now() + 1000)
    const started = Date.now()
    await hung.poller.step()
    // One attempt with its own deadline, not the client's 10 s timeout and retries.
    expect(Date.now() - started).toBeLessThan(8000)
    expect(hung.calls.filter((c) => c.status === 'timeout')).toHaveLength(1)
    expect(hung.poller.status()).toMatchObject({ lastError: null, consecutiveFailures: 0 })
  }, 30_000)

  it('does not hold up the polls: while a list hangs, the poller keeps polling beside it', async () => {
    const r = await rig({}, { direct: true, provider: { faults: { hangRate: 1, pathContains: '/fixtures/between/' } } })
    r.poller.start()
    await waitFor('the hung list timed out', () => r.calls.some((c) => c.status === 'timeout'), 15_000)
    await r.poller.stop()
    const hungAt = r.calls.findIndex((c) => c.status === 'timeout')
    expect(hungAt, 'the hung list timed out').toBeGreaterThan(0)
    // Before it: the reconcile at start and the poll the list followed, then the polls made while it hung
    // (at the 100 ms floor: dozens in its 5 s deadline).
    expect(r.calls.slice(0, hungAt).filter((c) => c.status === 200).length).toBeGreaterThan(5)
    expect(r.reserved()).toBe(r.sent())
  }, 30_000)
})
