/**
 * The odds poller on a 3,000-an-hour InplayOdd budget (the Pro plan) over a board of live fixtures at real
 * match speed (docs/architecture.md, "Odds"): the embedded provider over real HTTP on a clock the test moves,
 * the livescore poller stepped beside it, the odds poller stepped at the pace it asks for.
 *
 * At real speed a fixture's prices rest for a minute or more between re-pricings, so `latest` leaves most
 * fixtures out of most answers. An answer that overlaps the one before says nothing of those changed: it
 * confirms them, and a fixture is fetched whole only when it enters play and at the recheck every
 * RECHECK_AFTER_MS. Before, each fixture unlisted for 20 s was fetched whole to confirm it, twice a minute,
 * and the whole fetches, outside the pace, left `latest` a poll every 3.7 s (bench:odds).
 */
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createOddsPoller, RECHECK_AFTER_MS } from '../../../src/poller/odds.ts'
import { createPoller } from '../../../src/poller/poller.ts'
import { startProvider, type RunningProvider } from '../../../src/provider/index.ts'
import { createStore } from '../../../src/store/index.ts'
import { isOddsRecord } from '../../../src/store/types.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/index.ts'
import type { OddsRecord } from '../../../src/wire/model.ts'

const MINUTES = 8
/** The poller's share of the Pro plan's 3,000 an hour (20 % kept for the passthrough), for the run. */
const SHARE = 3000 * 0.8 * MINUTES / 60

let provider: RunningProvider
let upstream: UpstreamClient
const calls = { latest: 0, whole: 0, status429: 0 }
/** Whole fetches per fixture. */
const wholeOf = new Map<number, number>()
const records: OddsRecord[] = []
/** Pauses the odds poller asked for after the first minute (the first fetches of the board are done). */
const pauses: number[] = []

beforeAll(async () => {
  const clock = { now: Date.now() }
  const now = (): number => clock.now
  provider = await startProvider({ port: 0, now, simSpeed: 1, liveTarget: 8, hourlyLimits: { Pro: 3000 }, tokens: [{ token: 'odds-pro', plan: 'Pro', status: 'active' }] })
  const log = pino({ level: 'silent' })
  const ledger = createMemoryLedger({ now })
  const store = createStore({ kind: 'memory' })
  await store.subscribe((record) => { if (isOddsRecord(record)) records.push(record) })
  upstream = createUpstreamClient({ baseUrl: provider.baseUrl, token: 'odds-pro', ledger, now, logger: log, onCall: (c) => { if (c.status === 429) calls.status429++ } })
  const counted: UpstreamClient = {
    ...upstream,
    get: async (path, query, opts) => {
      const whole = /\/inplay\/fixtures\/(\d+)$/.exec(path)
      if (whole !== null) wholeOf.set(Number(whole[1]), (wholeOf.get(Number(whole[1])) ?? 0) + 1)
      if (whole !== null) calls.whole++
      else calls.latest++
      return await upstream.get(path, query, opts)
    }
  }
  const livescores = createPoller({ upstream, ledger, store, log, now }, { floorMs: 0 })
  const odds = createOddsPoller({ upstream: counted, ledger, store, log, now }, { reserve: 0.2, floorMs: 1000 })
  const start = clock.now
  let nextLivescores = start
  while (clock.now < start + MINUTES * 60_000) {
    if (clock.now >= nextLivescores) {
      await livescores.step()
      nextLivescores = clock.now + 1500
    }
    const pause = await odds.step()
    if (clock.now > start + 60_000) pauses.push(pause)
    clock.now += pause
  }
  await livescores.stop()
  await odds.stop()
}, 120_000)

afterAll(async () => {
  await upstream?.close()
  await provider?.close()
})

describe('the odds poller on a 3,000-an-hour InplayOdd budget, a board at real match speed', () => {
  it('fetches a fixture whole when it enters play and at the recheck, not to confirm prices that rest', () => {
    expect(wholeOf.size).toBeGreaterThanOrEqual(8)
    const allowed = 1 + Math.floor(MINUTES * 60_000 / RECHECK_AFTER_MS)
    for (const [id, n] of wholeOf) expect(n, `fixture ${id}`).toBeLessThanOrEqual(allowed)
    expect(calls.latest).toBeGreaterThan(calls.whole * 5)
  })

  it('keeps every fixture fresh meanwhile: overlapping `latest` answers confirm what they leave out', () => {
    const stale = records.flatMap((r) => r.changes.filter((c) => c.kind === 'odds_stale' && c.stale).map(() => r.fixture_id))
    expect(stale).toEqual([])
    // Prices did move and reach the log through `latest` (not only through whole fetches).
    expect(records.filter((r) => r.changes.some((c) => c.kind === 'odds_changed')).length).toBeGreaterThan(20)
  })

  it('pays for the whole fetches from the pace: within its share of the budget, `latest` every 1.5 s or so, no 429', () => {
    expect(calls.latest + calls.whole).toBeLessThanOrEqual(Math.ceil(SHARE) + 3)
    expect(calls.latest + calls.whole).toBeGreaterThanOrEqual(SHARE * 0.9)
    const sorted = [...pauses].sort((a, b) => a - b)
    expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(1400)
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(1700)
    expect(calls.status429).toBe(0)
  })
})
