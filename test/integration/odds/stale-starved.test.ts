/**
 * Odds of matches in play go stale when the budget starves the odds poller (docs/protocol.md, "Odds": `stale`
 * once the upstream has not confirmed them for 30 s while the match goes on), not only when `latest` fails.
 *
 * The embedded provider over real HTTP on a clock the test moves, a memory ledger and store on that clock,
 * the livescore poller stepped every 1.5 s and the odds poller at the pace it asks for. After a minute of
 * odds, another client of the same upstream token spends the whole InplayOdd bucket at the provider: the
 * odds poller's next call meets the upstream's 429, and every step after it is refused by the ledger (none
 * left until the reset, almost an hour away), so nothing confirms the odds any more.
 *
 * Before: a step whose `latest` the budget refused skipped the staleness check altogether (and a failed one
 * never reached it), and the pause before the next step was the wait for the reset: odds unconfirmed for
 * the rest of the hour still said `stale: false`.
 */
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createOddsPoller, ODDS_ENTITY, STALE_AFTER_MS } from '../../../src/poller/odds.ts'
import { createPoller } from '../../../src/poller/poller.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { isOddsRecord } from '../../../src/store/types.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/index.ts'
import type { OddsRecord } from '../../../src/wire-model/model.ts'

const TOKEN = 'stale-pro'
/** A small plan: the other client spends it in a few hundred requests. */
const LIMIT = 600
/** How long the test follows the starved poller: twice the staleness delay. */
const STARVED_MS = 2 * STALE_AFTER_MS

const clock = { now: Date.now() }
const now = (): number => clock.now
const records: OddsRecord[] = []
/** When the other client had spent the bucket, on the test's clock. */
let starvedAt = 0
/** The odds poller's calls after that, and the answers that were a 429. */
const after = { calls: 0, status429: 0 }
let provider: RunningProvider
let upstream: UpstreamClient
let store: LiveStore
/** The fixtures in play at the end, with the odds image of each. */
let inPlay: Array<{ id: number, stale: boolean | undefined }> = []

/** Spends what is left of the token's InplayOdd bucket at the provider, as another app on the same token would. */
async function spendBucket (): Promise<number> {
  let spent = 0
  for (let i = 0; i <= LIMIT; i++) {
    const res = await fetch(`${provider.baseUrl}/football/odds/inplay/latest?api_token=${TOKEN}`)
    await res.arrayBuffer()
    if (res.status === 429) return spent
    spent++
  }
  throw new Error('the provider never answered 429')
}

beforeAll(async () => {
  provider = await startProvider({ port: 0, now, simSpeed: 1, liveTarget: 6, hourlyLimits: { Pro: LIMIT }, tokens: [{ token: TOKEN, plan: 'Pro', status: 'active' }] })
  const log = pino({ level: 'silent' })
  const ledger = createMemoryLedger({ now })
  store = createStore({ kind: 'memory' })
  await store.subscribe((record) => { if (isOddsRecord(record)) records.push(record) })
  upstream = createUpstreamClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    ledger,
    now,
    logger: log,
    onCall: (c) => {
      if (starvedAt === 0 || c.entity !== ODDS_ENTITY) return
      after.calls++
      if (c.status === 429) after.status429++
    }
  })
  const livescores = createPoller({ upstream, ledger, store, log, now }, { floorMs: 0 })
  const odds = createOddsPoller({ upstream, ledger, store, log, now }, { reserve: 0.2, floorMs: 1000 })
  const start = clock.now
  let nextLive = start
  let nextOdds = start
  try {
    while (clock.now < start + 60_000 + STARVED_MS) {
      if (starvedAt === 0 && clock.now >= start + 60_000) {
        await spendBucket()
        starvedAt = clock.now
      }
      if (clock.now >= nextLive) {
        await livescores.step()
        nextLive = clock.now + 1500
      }
      if (clock.now >= nextOdds) nextOdds = clock.now + await odds.step()
      clock.now = Math.min(nextLive, nextOdds)
    }
    const playing = (await store.liveFixtures()).filter((f) => f.state.phase === 'live' || f.state.phase === 'break').map((f) => f.id)
    const images = new Map((await store.getOdds(playing)).map((o) => [o.fixture_id, o]))
    inPlay = playing.map((id) => ({ id, stale: images.get(id)?.stale }))
  } finally {
    await livescores.stop()
    await odds.stop()
  }
}, 120_000)

afterAll(async () => {
  await upstream?.close()
  await provider?.close()
  await store?.close()
})

describe('odds while the InplayOdd budget is starved', () => {
  it('were fresh while the budget lasted, for several matches in play', () => {
    expect(records.filter((r) => r.odds.stale && Date.parse(r.at) < starvedAt)).toEqual([])
    expect(inPlay.length).toBeGreaterThanOrEqual(3)
    // The starved poller made one call (the upstream's 429 told the ledger) and no more until the reset.
    expect(after.status429).toBe(1)
    expect(after.calls).toBe(1)
  })

  it('go stale 30 s after they were last confirmed, for every match in play, though no call answered', () => {
    const staleness = records.flatMap((r) => r.changes.flatMap((c) => c.kind === 'odds_stale' && c.stale ? [{ id: r.fixture_id, at: Date.parse(r.at), confirmedAt: Date.parse(c.confirmed_at ?? '') }] : []))
    expect(inPlay.map((f) => [f.id, f.stale])).toEqual(inPlay.map((f) => [f.id, true]))
    for (const f of inPlay) expect(staleness.map((s) => s.id), `fixture ${f.id}`).toContain(f.id)
    for (const s of staleness) {
      // Not before the 30 s, and not much after them: no pause of the starved poller outlasts them.
      expect(s.at - s.confirmedAt, `fixture ${s.id}`).toBeGreaterThan(STALE_AFTER_MS)
      expect(s.at - s.confirmedAt, `fixture ${s.id}`).toBeLessThanOrEqual(STALE_AFTER_MS + 2000)
      expect(s.confirmedAt, `fixture ${s.id}`).toBeLessThanOrEqual(starvedAt)
    }
  })
})
