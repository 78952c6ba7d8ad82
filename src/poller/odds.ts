/**
 * The odds poller (docs/architecture.md, "Odds"): beside the livescore poller, on the same leadership, one
 * request at a time, inside the upstream's `InplayOdd` budget, never the `Fixture` one.
 *  - `odds/inplay/latest` (the odds that changed in the last 10 s) at the pace the InplayOdd bucket allows
 *    (pacing.ts, with the same reserve for the passthrough's odds calls as the Fixture bucket), counted from
 *    the start of the previous step, at least the floor after its end;
 *  - a fixture's whole odds (`odds/inplay/fixtures/{id}`) when the poller holds no image of it (a fixture that
 *    entered play, a restart), for every fixture after a gap longer than the `latest` window, and every
 *    RECHECK_AFTER_MS as a safety net; a few per step, paid from the same pace as `latest`;
 *  - each fixture's image diffed (src/odds) and applied to the store, which appends the odds changes to the
 *    same log as the match's;
 *  - odds stale: a fixture in play whose odds the upstream has not confirmed for STALE_AFTER_MS gets
 *    `odds_stale`, and again (stale false) once they are confirmed. Confirmed: listed in `latest`, fetched
 *    whole, or left out of a `latest` answer that overlaps the one before (the upstream says nothing of them
 *    changed since), so a fixture whose prices rest costs no call to stay fresh. Judged at every step, whatever
 *    became of its calls (refused by the budget, failed, or odds turned off), and no pause outlasts the next
 *    fixture's 30 s: a starved budget waits for its reset, but its odds go stale on time all the same;
 *  - its claim on the InplayOdd bucket (claim.ts, budget/share.ts): its pace times the time left, plus one
 *    whole fetch per fixture it follows, which the passthrough's odds calls leave it.
 * A 403 (the upstream token's plan has no odds) or a 404 (no odds paths) turns the poller off, said once in
 * the log, and it asks again every FORBIDDEN_RETRY_MS in case the plan changes. Nothing here throws out of the loop.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import { backoffDelay } from '@touchline/core'
import { pollerFloor } from '../budget/share.ts'
import type { BudgetLedger } from '../budget/index.ts'
import { LATEST_WINDOW_MS } from '@touchline/upstream-contract/livescores'
import { diffOdds } from '../odds/diff.ts'
import { marketsOf, mergeMarkets } from '../odds/normalize.ts'
import type { ApplyFence, LiveStore } from '../store/index.ts'
import { UpstreamError, type UpstreamClient } from '../upstream/index.ts'
import { parseOdds, type OddRow } from '../upstream/odds-schemas.ts'
import type { FixtureOdds, LiveFixture } from '../wire-model/model.ts'
import { createClaimKeeper, type ClaimKeeper } from './claim.ts'
import { claimOf, nextPace, pauseLeft, type PollLoad } from './pacing.ts'

/** The upstream's budget entity of in-play odds. */
export const ODDS_ENTITY = 'InplayOdd'
/** Odds not confirmed this long, while the match goes on, are stale. */
export const STALE_AFTER_MS = 30_000
/**
 * A fixture not fetched whole for this long is fetched again, in case `latest` missed a change: the safety
 * net, not the way odds stay fresh (overlapping `latest` answers confirm them).
 */
export const RECHECK_AFTER_MS = 5 * 60_000
/** Whole fetches are counted in the pace over this much of the recent past. */
const FETCH_RATE_WINDOW_MS = 60_000
/** Whole fixtures fetched at most per step: the rest wait for the next steps, inside the budget. */
const FETCHES_PER_STEP = 3
/**
 * The shortest pause that waits for a fixture's odds to go stale: when a write of `odds_stale` failed (the
 * store down), the next try is this late, not at once and again.
 */
const STALE_WAKE_MIN_MS = 1000
/** After a 403 (no odds in the plan), how long before asking again. */
export const FORBIDDEN_RETRY_MS = 10 * 60_000
/** The includes that name markets and bookmakers (depth 1 is all the odds endpoints allow). */
const INCLUDE = { include: 'market;bookmaker' }

export interface OddsPollerDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  log: Logger
  /** As the livescore poller's: writes only while this instance holds the poller lease. */
  fence?: ApplyFence
  now?: () => number
}

export interface OddsPollerOptions {
  /** Share of the InplayOdd bucket kept for the passthrough's odds calls. @default 0.2 */
  reserve?: number
  /** Shortest pause between two `latest` calls, ms. @default 1000 */
  floorMs?: number
}

export interface OddsPollerStatus {
  running: boolean
  /** False while the upstream's plan has no odds (a 403). */
  enabled: boolean
  tracked: number
  lastError: string | null
  /** When `latest` last answered, epoch ms; null before its first answer (none while no fixture is followed). */
  lastPollAt: number | null
}

export interface OddsPoller {
  start: () => void
  stop: () => Promise<void>
  /** One step now: `latest`, then the whole fixtures due. Resolves with the pause before the next. */
  step: () => Promise<number>
  status: () => OddsPollerStatus
}

/** What the poller knows of each fixture it follows. */
interface Tracked {
  /** The image as stored (undefined until the first whole answer). */
  image: FixtureOdds | undefined
  /** When the upstream last confirmed this fixture's odds (see above), ms. */
  confirmedAt: number
  /** When the poller last fetched (or found stored) the fixture's whole odds, ms. */
  fetchedAt: number
}

export function createOddsPoller (deps: OddsPollerDeps, opts: OddsPollerOptions = {}): OddsPoller {
  const poller = new OddsPollerLoop(deps, opts)
  return {
    start: () => poller.start(),
    stop: async () => { await poller.stop() },
    step: async () => await poller.step(),
    status: () => poller.status()
  }
}

class OddsPollerLoop {
  private readonly now: () => number
  private readonly pacing: { reserve: number, floorMs: number, ceilingMs: number }
  private readonly tracked = new Map<number, Tracked>()
  /** Fixtures to fetch whole, in the order they became due. */
  private readonly due = new Set<number>()
  /** When each recent whole fetch was made, ms, oldest first: their rate is taken out of the `latest` pace. */
  private readonly fetches: number[] = []
  private lastLatestAt = -Infinity
  private disabledUntil = 0
  private failures = 0
  private lastError: string | null = null
  private abort = new AbortController()
  private loop: Promise<void> | undefined
  /** The fixtures followed at the last step, for the pause before the next one goes stale. */
  private followed = new Map<number, LiveFixture>()
  private readonly claim: ClaimKeeper

  constructor (private readonly deps: OddsPollerDeps, opts: OddsPollerOptions) {
    this.now = deps.now ?? Date.now
    this.pacing = { reserve: opts.reserve ?? 0.2, floorMs: opts.floorMs ?? 1000, ceilingMs: LATEST_WINDOW_MS - 2000 }
    this.claim = createClaimKeeper(deps.ledger, ODDS_ENTITY, 'odds', this.now)
  }

  start (): void {
    if (this.loop !== undefined) return
    this.abort = new AbortController()
    this.claim.forget()
    this.loop = this.run()
  }

  async stop (): Promise<void> {
    this.abort.abort()
    await this.loop
    this.loop = undefined
    this.tracked.clear()
    this.due.clear()
    this.fetches.length = 0
    this.followed.clear()
    this.lastLatestAt = -Infinity
  }

  status (): OddsPollerStatus {
    const lastPollAt = Number.isFinite(this.lastLatestAt) ? this.lastLatestAt : null
    return { running: this.loop !== undefined, enabled: this.disabledUntil === 0, tracked: this.tracked.size, lastError: this.lastError, lastPollAt }
  }

  private async run (): Promise<void> {
    while (!this.abort.signal.aborted) {
      const delay = await this.step()
      // timers/promises takes its abort listener off again when the pause ends (one per pause would pile up).
      await sleep(delay, undefined, { signal: this.abort.signal }).catch(() => undefined)
    }
  }

  async step (): Promise<number> {
    const pause = await this.stepOnce()
    // Claimed while it polls; with odds off (a plan without them) the claim lapses and the passthrough has the bucket.
    if (this.disabledUntil === 0) await this.claim.keep(claimOf(this.pacing, this.load()), pause)
    return pause
  }

  private async stepOnce (): Promise<number> {
    const off = this.now() < this.disabledUntil
    const startedAt = this.now()
    try {
      const fixtures = this.followed = await this.follow()
      if (!off && fixtures.size > 0 && await this.latest(fixtures)) await this.fetchDue(fixtures)
      await this.markStale(fixtures)
    } catch (err) {
      // The odds the upstream could not confirm go stale all the same: a failing upstream is the first reason.
      await this.markStale(this.followed).catch(() => undefined)
      return this.untilStale(this.failed(err))
    }
    if (off) return this.untilStale(this.disabledUntil - this.now())
    this.failures = 0
    this.lastError = null
    if (this.disabledUntil !== 0) this.deps.log.info({ entity: ODDS_ENTITY }, 'in-play odds answered again: odds polling is on')
    this.disabledUntil = 0
    const bucket = await this.deps.ledger.get(ODDS_ENTITY).catch(() => undefined)
    const pace = nextPace(bucket, this.now(), this.pacing, this.load())
    // The pace runs from the start of one `latest` to the next: the step's own time (a `latest` and up to three
    // whole fetches) comes out of it, else polls come every pace plus that time and the poller spends less than
    // its share; the floor still holds after the step. A wait for the reset is to an instant, counted from now.
    // Either way no longer than until the next fixture's odds go stale: a starved budget must not keep them fresh.
    if (pace.kind === 'exhausted') return this.untilStale(pace.delayMs)
    return this.untilStale(pauseLeft(pace.delayMs, this.now() - startedAt, this.pacing.floorMs))
  }

  /** What the pace and the claim count: `latest` polls, the recent whole fetches, one whole fetch per fixture kept. */
  private load (): PollLoad {
    return { reconcileCalls: 1, reconcileEveryMs: Infinity, otherCallsPerMs: this.fetchRate(), lumps: Math.max(1, this.tracked.size) }
  }

  /** `pauseMs`, or less: until the odds of a fixture in play, fresh now, are STALE_AFTER_MS unconfirmed. */
  private untilStale (pauseMs: number): number {
    let due = Infinity
    for (const [id, t] of this.tracked) {
      const phase = this.followed.get(id)?.state.phase
      if (t.image === undefined || t.image.stale || phase === undefined || phase === 'finished') continue
      due = Math.min(due, t.confirmedAt + STALE_AFTER_MS + 1 - this.now())
    }
    return Math.min(pauseMs, Math.max(STALE_WAKE_MIN_MS, due))
  }

  /** Whole fetches per ms over the recent past: the calls each `latest` pause must leave room for. */
  private fetchRate (): number {
    const since = this.now() - FETCH_RATE_WINDOW_MS
    while (this.fetches.length > 0 && (this.fetches[0] as number) <= since) this.fetches.shift()
    return this.fetches.length / FETCH_RATE_WINDOW_MS
  }

  /**
   * The pause after a failed step: a 403 (a plan without odds) or a 404 (an upstream without the odds paths)
   * turns odds off for a while, said once; anything else backs off.
   */
  private failed (err: unknown): number {
    if (err instanceof UpstreamError && (err.status === 403 || err.status === 404)) {
      const why = err.status === 403 ? 'the upstream plan has no in-play odds' : 'the upstream has no in-play odds paths'
      if (this.disabledUntil === 0) this.deps.log.warn({ entity: ODDS_ENTITY, status: err.status }, `${why}: odds polling is off`)
      this.disabledUntil = this.now() + FORBIDDEN_RETRY_MS
      this.lastError = err.code
      return FORBIDDEN_RETRY_MS
    }
    this.failures++
    this.lastError = err instanceof UpstreamError ? err.code : (err as Error).name
    if (!this.abort.signal.aborted) this.deps.log.warn({ err, failures: this.failures }, 'odds poll failed')
    return Math.max(this.pacing.floorMs, backoffDelay(this.failures, { baseMs: this.pacing.floorMs, capMs: 30_000 }))
  }

  /** Reserves one InplayOdd call, leaving the passthrough its share; false when the budget says no. */
  private async reserve (): Promise<boolean> {
    const bucket = await this.deps.ledger.get(ODDS_ENTITY)
    return await this.deps.ledger.reserve(ODDS_ENTITY, 1, { by: 'pollers', floor: pollerFloor(bucket, this.pacing.reserve) })
  }

  private async fetchRows (path: string): Promise<OddRow[] | undefined> {
    if (!await this.reserve()) return undefined
    const res = await this.deps.upstream.get(path, INCLUDE, { signal: this.abort.signal })
    return parseOdds(res.envelope)
  }

  /** The fixtures the poller follows: in the live set and in play or just ended (their markets settle then). */
  private async follow (): Promise<Map<number, LiveFixture>> {
    const live = await this.deps.store.liveFixtures()
    const followed = new Map(live.filter((f) => FOLLOWED.has(f.state.phase)).map((f) => [f.id, f]))
    for (const id of this.tracked.keys()) {
      if (!followed.has(id)) { this.tracked.delete(id); this.due.delete(id) }
    }
    const unknown = [...followed.keys()].filter((id) => !this.tracked.has(id))
    // Images already stored (by this instance before, or another leader) are the base of the next diff.
    const stored = new Map((await this.deps.store.getOdds(unknown)).map((o) => [o.fixture_id, o]))
    for (const id of unknown) {
      this.tracked.set(id, { image: stored.get(id), confirmedAt: this.now(), fetchedAt: this.now() })
      if (stored.get(id) === undefined) this.due.add(id)
    }
    return followed
  }

  /** Writes a fixture's next image, with the odds changes from the one held; nothing when nothing changed. */
  private async write (fixture: LiveFixture, markets: FixtureOdds['markets'], stale: boolean): Promise<void> {
    const t = this.tracked.get(fixture.id)
    if (t === undefined) return
    const at = new Date(this.now()).toISOString()
    const expectedVersion = t.image?.version ?? 0
    const next: FixtureOdds = {
      fixture_id: fixture.id, league_id: fixture.league_id, home_id: fixture.home.id, away_id: fixture.away.id, markets, stale, updated_at: at, version: expectedVersion + 1
    }
    const changes = diffOdds(t.image, next, new Date(t.confirmedAt).toISOString())
    if (changes.length === 0) return
    const fence = this.deps.fence === undefined ? {} : { fence: this.deps.fence }
    const result = await this.deps.store.applyOdds({ odds: next, changes, expectedVersion, at, ...fence })
    if (result.ok) {
      t.image = result.record.odds
    } else if (!('fenced' in result)) {
      // Written by someone else meanwhile: read it again, and fetch the fixture whole at the next step.
      t.image = (await this.deps.store.getOdds([fixture.id]))[0]
      this.due.add(fixture.id)
    }
  }

  /** `latest`'s rows merged into the images held; fixtures without one are fetched whole instead. */
  private async latest (fixtures: Map<number, LiveFixture>): Promise<boolean> {
    const rows = await this.fetchRows('/football/odds/inplay/latest')
    if (rows === undefined) return false
    // A gap longer than the window: `latest` missed changes, so every fixture is fetched whole. Else this answer
    // overlaps the one before: what it does not list did not change, and is confirmed as it is.
    const overlaps = this.now() - this.lastLatestAt <= LATEST_WINDOW_MS - 1000
    if (!overlaps) for (const id of fixtures.keys()) this.due.add(id)
    this.lastLatestAt = this.now()
    if (overlaps) for (const [id, t] of this.tracked) if (t.image !== undefined && !this.due.has(id)) t.confirmedAt = this.now()
    const byFixture = new Map<number, OddRow[]>()
    for (const row of rows) byFixture.set(row.fixture_id, [...byFixture.get(row.fixture_id) ?? [], row])
    for (const [id, fixtureRows] of byFixture) {
      const fixture = fixtures.get(id)
      const t = this.tracked.get(id)
      if (fixture === undefined || t === undefined) continue
      t.confirmedAt = this.now()
      if (t.image === undefined) this.due.add(id)
      else await this.write(fixture, mergeMarkets(t.image.markets, fixtureRows), false)
    }
    return true
  }

  /** A few due fixtures fetched whole: those without an image, after a gap, and at the recheck. */
  private async fetchDue (fixtures: Map<number, LiveFixture>): Promise<void> {
    for (const [id, t] of this.tracked) {
      if (fixtures.get(id)?.state.phase !== 'finished' && this.now() - t.fetchedAt > RECHECK_AFTER_MS) this.due.add(id)
    }
    for (const id of [...this.due].slice(0, FETCHES_PER_STEP)) {
      const fixture = fixtures.get(id)
      const t = this.tracked.get(id)
      this.due.delete(id)
      if (fixture === undefined || t === undefined) continue
      const rows = await this.fetchRows(`/football/odds/inplay/fixtures/${id}`)
      if (rows === undefined) { this.due.add(id); break }
      this.fetches.push(this.now())
      t.fetchedAt = this.now()
      if (rows.length > 0) t.confirmedAt = this.now()
      if (rows.length > 0) await this.write(fixture, marketsOf(rows, t.image?.markets), false)
    }
  }

  /**
   * The odds of fixtures in play unconfirmed for STALE_AFTER_MS marked stale (and fresh again once confirmed),
   * at every step: whether `latest` answered, was refused by the budget or failed.
   */
  private async markStale (fixtures: Map<number, LiveFixture>): Promise<void> {
    for (const [id, t] of this.tracked) {
      const fixture = fixtures.get(id)
      if (fixture === undefined || t.image === undefined) continue
      const stale = fixture.state.phase !== 'finished' && this.now() - t.confirmedAt > STALE_AFTER_MS
      if (t.image.stale !== stale) await this.write(fixture, t.image.markets, stale)
    }
  }
}

/** Phases whose odds the poller follows: in play, at a break, and just ended (markets settle at full time). */
const FOLLOWED: ReadonlySet<string> = new Set(['live', 'break', 'finished'])
