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
 *
 * The board runs twice: once with answers that take no time on the test's clock, once through an upstream
 * whose every answer takes 300 ms. The pace is from the start of one poll to the next: before, the pause
 * began when the step ended, so polls came every pace plus the step's time (1.8 s here, 272 calls against
 * a share of 320), as on the loaded machine of bench:odds.
 */
import { pino } from 'pino'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createOddsPoller, RECHECK_AFTER_MS } from '../../../src/poller/odds.ts'
import { createPoller } from '../../../src/poller/poller.ts'
import { startProvider } from '../../../packages/provider/src/index.ts'
import { createStore } from '../../../src/store/index.ts'
import { isOddsRecord } from '../../../src/store/types.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/index.ts'
import type { OddsRecord } from '../../../src/wire-model/model.ts'

const MINUTES = 8
/** The poller's share of the Pro plan's 3,000 an hour (20 % kept for the passthrough), for the run. */
const SHARE = 3000 * 0.8 * MINUTES / 60

/** What one run of the two pollers saw. */
interface Run {
  calls: { latest: number, whole: number, status429: number }
  /** Whole fetches per fixture. */
  wholeOf: Map<number, number>
  records: OddsRecord[]
  /** Pauses the odds poller asked for after the first minute (the first fetches of the board are done). */
  pauses: number[]
  /** When each `latest` call was sent, after the first minute. */
  latestAt: number[]
}

/**
 * Runs both pollers for MINUTES on a clock the test moves, the odds poller stepped at the pace it asks for.
 * Each odds call moves the clock by `latencyMs` before its answer comes: an upstream that takes that long.
 */
async function run (latencyMs: number): Promise<Run> {
  const clock = { now: Date.now() }
  const now = (): number => clock.now
  const out: Run = { calls: { latest: 0, whole: 0, status429: 0 }, wholeOf: new Map(), records: [], pauses: [], latestAt: [] }
  const provider = await startProvider({ port: 0, now, simSpeed: 1, liveTarget: 8, hourlyLimits: { Pro: 3000 }, tokens: [{ token: 'odds-pro', plan: 'Pro', status: 'active' }] })
  const log = pino({ level: 'silent' })
  const ledger = createMemoryLedger({ now })
  const store = createStore({ kind: 'memory' })
  await store.subscribe((record) => { if (isOddsRecord(record)) out.records.push(record) })
  const upstream = createUpstreamClient({ baseUrl: provider.baseUrl, token: 'odds-pro', ledger, now, logger: log, onCall: (c) => { if (c.status === 429) out.calls.status429++ } })
  const start = clock.now
  const counted: UpstreamClient = {
    ...upstream,
    get: async (path, query, opts) => {
      const whole = /\/inplay\/fixtures\/(\d+)$/.exec(path)
      if (whole !== null) out.wholeOf.set(Number(whole[1]), (out.wholeOf.get(Number(whole[1])) ?? 0) + 1)
      if (whole !== null) out.calls.whole++
      else out.calls.latest++
      if (whole === null && clock.now > start + 60_000) out.latestAt.push(clock.now)
      clock.now += latencyMs
      return await upstream.get(path, query, opts)
    }
  }
  const livescores = createPoller({ upstream, ledger, store, log, now }, { floorMs: 0 })
  const odds = createOddsPoller({ upstream: counted, ledger, store, log, now }, { reserve: 0.2, floorMs: 1000 })
  let nextLivescores = start
  try {
    while (clock.now < start + MINUTES * 60_000) {
      if (clock.now >= nextLivescores) {
        await livescores.step()
        nextLivescores = clock.now + 1500
      }
      const pause = await odds.step()
      if (clock.now > start + 60_000) out.pauses.push(pause)
      clock.now += pause
    }
  } finally {
    await livescores.stop()
    await odds.stop()
    await upstream.close()
    await provider.close()
  }
  return out
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

let instant: Run
/** The same board through an upstream whose every answer takes 300 ms. */
let slow: Run

beforeAll(async () => {
  instant = await run(0)
  slow = await run(300)
}, 240_000)

describe('the odds poller on a 3,000-an-hour InplayOdd budget, a board at real match speed', () => {
  it('fetches a fixture whole when it enters play and at the recheck, not to confirm prices that rest', () => {
    const { calls, wholeOf } = instant
    expect(wholeOf.size).toBeGreaterThanOrEqual(8)
    const allowed = 1 + Math.floor(MINUTES * 60_000 / RECHECK_AFTER_MS)
    for (const [id, n] of wholeOf) expect(n, `fixture ${id}`).toBeLessThanOrEqual(allowed)
    expect(calls.latest).toBeGreaterThan(calls.whole * 5)
  })

  it('keeps every fixture fresh meanwhile: overlapping `latest` answers confirm what they leave out', () => {
    const { records } = instant
    const stale = records.flatMap((r) => r.changes.filter((c) => c.kind === 'odds_stale' && c.stale).map(() => r.fixture_id))
    expect(stale).toEqual([])
    // Prices did move and reach the log through `latest` (not only through whole fetches).
    expect(records.filter((r) => r.changes.some((c) => c.kind === 'odds_changed')).length).toBeGreaterThan(20)
  })

  it('pays for the whole fetches from the pace: within its share of the budget, `latest` every 1.5 s or so, no 429', () => {
    const { calls, pauses } = instant
    expect(calls.latest + calls.whole).toBeLessThanOrEqual(Math.ceil(SHARE) + 3)
    expect(calls.latest + calls.whole).toBeGreaterThanOrEqual(SHARE * 0.9)
    expect(median(pauses)).toBeGreaterThanOrEqual(1400)
    expect(median(pauses)).toBeLessThanOrEqual(1700)
    expect(calls.status429).toBe(0)
  })

  it('counts the pace from the start of a poll: an upstream that takes 300 ms an answer still gets `latest` every 1.5 s or so, its share spent', () => {
    const { calls, pauses, latestAt } = slow
    const between = latestAt.slice(1).map((at, i) => at - (latestAt[i] as number))
    expect(median(between)).toBeGreaterThanOrEqual(1400)
    expect(median(between)).toBeLessThanOrEqual(1700)
    // The step's own time came out of the pause it asked for (never under the 1 s floor after the step).
    expect(median(pauses)).toBeLessThan(median(instant.pauses))
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(1000)
    expect(calls.latest + calls.whole).toBeLessThanOrEqual(Math.ceil(SHARE) + 3)
    expect(calls.latest + calls.whole).toBeGreaterThanOrEqual(SHARE * 0.9)
    expect(calls.status429).toBe(0)
  })
})
