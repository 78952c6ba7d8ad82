/**
 * No client starves the pollers (docs/architecture.md, "Pacing"): a key hammers the REST passthrough with
 * paths nothing can cache or coalesce (a new fixture id each time) in the `Fixture` and `InplayOdd` buckets,
 * on a small plan. The livescore and odds pollers keep their pace during the hammering and after it, changes
 * and odds keep flowing, and the hammer is refused with 429 once it has spent what the pollers do not need.
 *
 * Real parts on one clock the test moves: the gateway (memory store and ledger) in front of its embedded
 * provider over real HTTP, its passthrough over real HTTP. The livescore poller runs its own loop (its claim
 * on the bucket is made there), with pauses that move the clock; the odds poller is stepped at the pace it
 * asks for inside those pauses, and the hammer fires inside them too. Three phases of five minutes: before,
 * during and after the hammering.
 *
 * Before: the passthrough kept only a floor for the poller, so the burst spent the bucket down to it and the
 * poller's pace stretched for the rest of the hour; the odds bucket had no floor at all.
 */
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOddsPoller, ODDS_ENTITY } from '../../../src/poller/odds.ts'
import { createPoller, type Poller } from '../../../src/poller/poller.ts'
import { isOddsRecord } from '../../../src/store/types.ts'
import type { UpstreamClient } from '../../../src/upstream/index.ts'
import { startPassthroughGateway, type TestGateway } from '../passthrough/harness.ts'

/** A small plan: 3,000 calls an hour per entity. */
const LIMIT = 3000
const PHASE_MS = 5 * 60_000
const START = Date.now()
const PHASES = ['before', 'during', 'after'] as const
type Phase = typeof PHASES[number]
const phaseAt = (at: number): Phase | undefined => PHASES[Math.floor((at - START) / PHASE_MS)]

const clock = { now: START }
const now = (): number => clock.now
const log = pino({ level: 'silent' })

/** Per phase: the pollers' upstream calls, the changes and odds records appended, the hammer's answers. */
const tally = Object.fromEntries(PHASES.map((p) => [p, { livescores: 0, odds: 0, changes: 0, oddsRecords: 0, hammer: new Map<number, number>() }])) as
  Record<Phase, { livescores: number, odds: number, changes: number, oddsRecords: number, hammer: Map<number, number> }>
const retryAfter: string[] = []
/** The hammer's paths the passthrough served (any answer but a 429). */
const servedPaths: string[] = []
let t: TestGateway

/** The poller's calls, counted by phase on the test's clock: each `get`, and each page of a `paginate` (the days). */
function counted (upstream: UpstreamClient, which: 'livescores' | 'odds'): UpstreamClient {
  const count = (): void => {
    const phase = phaseAt(clock.now)
    if (phase !== undefined) tally[phase][which]++
  }
  return {
    ...upstream,
    get: async (path, query, opts) => {
      count()
      return await upstream.get(path, query, opts) as never
    },
    // Each page's request, once the poller has reserved it.
    paginate: (path, query, opts) => upstream.paginate(path, query, {
      ...opts,
      beforeAttempt: async (attempt) => { await opts?.beforeAttempt?.(attempt); count() }
    })
  }
}

let nextId = 90_000_000
/** `n` requests for fixtures and in-play odds nobody asked for before: each one is an upstream call, or a 429. */
async function hammer (n: number): Promise<void> {
  const phase = phaseAt(clock.now) as Phase
  const paths = Array.from({ length: n }, (_, i) => i % 2 === 0 ? `/football/fixtures/${nextId++}` : `/football/odds/inplay/fixtures/${nextId++}`)
  for (let i = 0; i < paths.length; i += 25) {
    await Promise.all(paths.slice(i, i + 25).map(async (path) => {
      const res = await fetch(`${t.base}${path}?api_token=hammer`)
      await res.arrayBuffer()
      tally[phase].hammer.set(res.status, (tally[phase].hammer.get(res.status) ?? 0) + 1)
      if (res.status === 429) retryAfter.push(res.headers.get('retry-after') ?? '')
      else servedPaths.push(path)
    }))
  }
}

beforeAll(async () => {
  t = await startPassthroughGateway({
    keys: [{ key: 'hammer', name: 'hammer', hourly_quota: 1_000_000 }],
    env: { TOUCHLINE_LOG_LEVEL: 'silent' },
    overrides: {
      provider: { now, liveTarget: 6, hourlyLimits: { Enterprise: LIMIT } },
      poll: false,
      budgetNow: now,
      passthrough: { now }
    }
  })
  const { gw } = t
  await gw.store.subscribe((record) => {
    const phase = phaseAt(clock.now)
    if (phase === undefined) return
    if (isOddsRecord(record)) tally[phase].oddsRecords++
    else tally[phase].changes++
  })
  const odds = createOddsPoller({ upstream: counted(gw.upstream, 'odds'), ledger: gw.ledger, store: gw.store, log, now }, { reserve: 0.2, floorMs: 1000 })
  const end = START + PHASES.length * PHASE_MS
  let nextOdds = START
  let nextBurst = START + PHASE_MS
  let done!: () => void
  const finished = new Promise<void>((resolve) => { done = resolve })
  /**
   * The livescore poller's pause: the clock moves to its end, with the odds steps and the hammer's bursts due
   * before it run on the way. Past the last phase the pause lasts until the poller is stopped.
   */
  const sleep = async (ms: number, signal: AbortSignal): Promise<void> => {
    const until = clock.now + ms
    for (;;) {
      const hammering = phaseAt(nextBurst) === 'during'
      const due = Math.min(until, nextOdds, hammering ? nextBurst : Infinity)
      clock.now = Math.max(clock.now, due)
      if (clock.now >= end) {
        done()
        await new Promise((resolve) => { if (signal.aborted) resolve(undefined); else signal.addEventListener('abort', resolve, { once: true }) })
        return
      }
      if (due === until) return
      if (due === nextOdds) nextOdds = clock.now + await odds.step()
      else {
        // The first second of the hammering is a burst; then a steady stream.
        await hammer(nextBurst === START + PHASE_MS ? 600 : 4)
        nextBurst += 1000
      }
    }
  }
  const livescores: Poller = createPoller({ upstream: counted(gw.upstream, 'livescores'), ledger: gw.ledger, store: gw.store, log, now, sleep }, { reserve: 0.2, floorMs: 1000 })
  livescores.start()
  await finished
  await livescores.stop()
  await odds.stop()
}, 240_000)

afterAll(async () => { await t?.close() })

describe('a key hammering uncacheable Fixture and InplayOdd paths on a 3,000-an-hour plan', () => {
  it('is refused with 429 and the time to the reset once it has spent what the pollers do not need', () => {
    const during = tally.during.hammer
    expect(during.get(429) ?? 0, JSON.stringify([...during])).toBeGreaterThan(0)
    // It was served first: the passthrough spends what the pollers leave.
    expect([...during].filter(([status]) => status !== 429).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(0)
    for (const r of retryAfter) expect(Number(r)).toBeGreaterThan(0)
  })

  it('leaves the livescore poller at least 0.8x its pace, during the hammering and after it', () => {
    const { before, during, after } = tally
    expect(before.livescores).toBeGreaterThan(100)
    expect(during.livescores, JSON.stringify(tally)).toBeGreaterThanOrEqual(0.8 * before.livescores)
    expect(after.livescores, JSON.stringify(tally)).toBeGreaterThanOrEqual(0.8 * before.livescores)
  })

  it('leaves the odds poller at least 0.8x its pace, during the hammering and after it', () => {
    const { before, during, after } = tally
    expect(before.odds).toBeGreaterThan(100)
    expect(during.odds, JSON.stringify(tally)).toBeGreaterThanOrEqual(0.8 * before.odds)
    expect(after.odds, JSON.stringify(tally)).toBeGreaterThanOrEqual(0.8 * before.odds)
  })

  it('keeps changes and odds flowing in every phase', () => {
    for (const phase of PHASES) {
      expect(tally[phase].changes, phase).toBeGreaterThan(0)
      expect(tally[phase].oddsRecords, phase).toBeGreaterThan(0)
    }
  })

  it('shows each bucket\'s split as it was spent: the pollers\' calls, the hammer\'s served calls, and what the pollers need until the reset', async () => {
    const served = (prefix: string): number => servedPaths.filter((p) => p.startsWith(prefix)).length
    const polled = (which: 'livescores' | 'odds'): number => PHASES.reduce((n, p) => n + tally[p][which], 0)
    for (const [entity, which, prefix] of [['Fixture', 'livescores', '/football/fixtures/'], [ODDS_ENTITY, 'odds', '/football/odds/']] as const) {
      const view = await t.gw.ledger.get(entity)
      expect(view?.spent.passthrough, entity).toBe(served(prefix))
      // The first call of a bucket comes before the ledger knows it, so it is not counted.
      expect(view?.spent.pollers, entity).toBeGreaterThanOrEqual(polled(which) - 1)
      expect(view?.spent.pollers, entity).toBeLessThanOrEqual(polled(which))
      expect(view?.pollersNeed, entity).toBeGreaterThan(0)
    }
  })
})
