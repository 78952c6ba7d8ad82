/**
 * The budget-paced poller (DESIGN §3). One request at a time:
 *  - `livescores/latest` at the pace the Fixture budget allows (pacing.ts);
 *  - a full `livescores` snapshot (reconcile) at start, every `reconcileIntervalMs`, and at once after any
 *    gap longer than the `latest` window (an error, a 429, a pause forced by the budget, a restart), since
 *    `latest` only reports the last 10 s and the real one ignores include-only changes;
 *  - a reconcile also at the first poll after an upcoming fixture enters the feed (kick-off minus
 *    `feedLeadMs`) and, if it was not found then, after its kick-off: `latest` does not list a fixture that
 *    enters the feed unchanged. The kick-offs come from a list call about once an hour, started after a
 *    `latest` poll while polls overlap (kickoffs.ts) and run beside the polls, so a slow or hung list never
 *    holds one up; with a bucket too small for that every poll is a reconcile anyway;
 *  - fixtures that left the feed while live in the store, or while in the feed at the previous reconcile
 *    (the poller's own memory, which outlives a store that lost its data or cannot be read), are fetched
 *    by id (`fixtures/multi`) at each reconcile until they are final, so a final score is never missed
 *    (upstream-facts §0.6). One the upstream no longer returns by id (a 404, or a 200 "No result(s)")
 *    at RETIRE_AFTER_MISSES reconciles in a row is retired with `fixture_removed`.
 * Budget: every upstream call, each `fixtures/multi` batch, kick-off list page and client retry included,
 * is reserved in the ledger first; a refused reservation ends the step (or, for the kick-off list, the
 * list), and a ledger that cannot be read means no call at all (status `last_error`: `budget_refused`,
 * `budget_ledger_unavailable`). The pace comes from pacing.ts.
 * Hung calls: every call has a deadline that follows the upstream's own pace (deadline.ts: four times the
 * slowest recent call of its kind, at least LATEST_TIMEOUT_MS), so a hung one is abandoned after about that
 * instead of the client's 10 s, and hedged (hedge.ts): one still unanswered well past the upstream's usual
 * time is sent once more beside it (up to HEDGES times), first answer wins, and one that fails with an
 * error answer sends the next hedge at once. `latest` polls keep their own pace apart from the reconciles'
 * (a full `livescores` is far slower than `latest`, and would make every hung poll cost its pace). A
 * `latest` poll retries an error answer once, never a hung attempt.
 * Failures are logged and retried with a short backoff: at the floor while failures are sporadic (a bad
 * night's error answers and hangs are no sign of overload), growing after FAILURES_AT_FLOOR in a row, to
 * at most MAX_BACKOFF_MS, so the first poll after an outage goes out within seconds of its end; nothing
 * here throws out of the loop.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import { AppError, ErrorCodes } from '../errors.ts'
import type { Change } from '../live/types.ts'
import type { Metrics } from '../metrics.ts'
import type { ApplyFence, LiveStore } from '../store/index.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import { LIVE_INCLUDES, parseFixtures, type UpstreamFixture } from '../upstream/schemas.ts'
import { createAnomalyReporter, UpstreamError, UpstreamErrorCode, UpstreamRateLimitedError, type UpstreamClient } from '../upstream/index.ts'
import { LIVE_STATE_IDS } from '../contract/states.ts'
import { createCallDeadline } from './deadline.ts'
import { hedged } from './hedge.ts'
import { ingestFixture, LeaseLostError, retireFixture, type IngestResult } from './ingest.ts'
import { createKickoffSchedule, KICKOFF_LIST_EVERY_MS, KICKOFF_LIST_RETRY_MS, KICKOFF_LIST_TIMEOUT_MS, kickoffListRequest, upcomingKickoffs, type Kickoff } from './kickoffs.ts'
import { nextPace, type PacingOptions } from './pacing.ts'
import { pollerFloor, SLOWEST_POLL_MS } from '../budget/share.ts'
import { FEED_LEAD_MS, LATEST_WINDOW_MS } from '../contract/livescores.ts'
import { backoffDelay } from '../util/backoff.ts'

/** `fixtures/multi` takes at most 50 ids (upstream-facts §6). */
const MULTI_MAX = 50
/**
 * Deadline of one `latest` attempt: a healthy answer takes well under a second, and 2.5 s plus the pause
 * keeps two polls within the 10 s window even when one hangs.
 */
export const LATEST_TIMEOUT_MS = 2500
/**
 * Longest pause after failures in a row. Short on purpose: while the upstream is down a poll costs a failed
 * call (which the upstream does not count), and once it is back the next poll is at most this late.
 */
export const MAX_BACKOFF_MS = 4000
/**
 * Pause while the budget ledger cannot be read: it lives in our own Redis, so asking it again costs no
 * upstream call, and a Redis that restarts is back within moments; a growing backoff would only delay the
 * first poll after it.
 */
export const LEDGER_RETRY_MS = 500
/**
 * A `latest` poll retries an error answer once at once (one in three answers is an error on a bad night,
 * and each failed poll is a second of silence), but not a hung attempt: a hedge already went out beside it,
 * and the next poll is its retry.
 */
const LATEST_RETRIES = { retries: 1, retryTimeouts: false }
/** Hedges a call may send beside it: with two, a poll is lost only when three requests in a row fail. */
const HEDGES = 2
/** Which failures send the next hedge at once: error answers, hangs and network errors, not refusals (429, 4xx). */
const worthHedging = (err: unknown): boolean => err instanceof UpstreamError && err.retryable
/**
 * Failures in a row retried at the floor before the backoff grows: on a bad night one poll in thirty or so
 * fails even with its hedges, and waiting longer after it only lengthens the silence; an outage still
 * backs off within a few polls.
 */
export const FAILURES_AT_FLOOR = 2
/**
 * Reconciles in a row at which the upstream must fail to return a fixture by id before it is retired: a
 * single empty answer may be a glitch, three (about 90 s at the default reconcile interval) are not.
 */
export const RETIRE_AFTER_MISSES = 3

/** Why a step made no (further) upstream call: the budget refused, or the ledger could not be read. */
export class PollSkipped extends AppError {
  override name = 'PollSkipped'
  constructor (readonly reason: 'budget_refused' | 'budget_ledger_unavailable', options?: { cause?: unknown }) {
    super(
      reason === 'budget_refused' ? ErrorCodes.BUDGET_REFUSED : ErrorCodes.BUDGET_LEDGER_UNAVAILABLE,
      reason === 'budget_refused' ? 'the Fixture budget refused the call' : 'the budget ledger cannot be read', options)
  }
}

export interface PollerOptions extends Partial<PacingOptions> {
  /** Full reconciliation at least this often. @default 30_000 */
  reconcileIntervalMs?: number
  /** Only these leagues (`fixtureLeagues` filter); all when unset. */
  leagues?: readonly number[]
  /** Longest backoff after repeated failures. @default MAX_BACKOFF_MS */
  maxBackoffMs?: number
  /** Shortest deadline of one call (deadline.ts). @default LATEST_TIMEOUT_MS */
  latestTimeoutMs?: number
  /**
   * How long before kick-off a fixture enters the `livescores` feed: 15 minutes on the real API; the
   * embedded provider's 15 match minutes at its simulator speed. @default FEED_LEAD_MS
   */
  feedLeadMs?: number
  /** How often the upcoming kick-offs are listed; 0 turns the kick-off reconciles off. @default KICKOFF_LIST_EVERY_MS */
  kickoffListEveryMs?: number
  /** Match seconds per real second of the upstream's match clock: the embedded simulator's speed. @default 1 */
  clockRate?: number
  /**
   * Store every clock tick, even those a client running the clock shows anyway (the behaviour before
   * issue 17; bench:bandwidth measures the difference). @default false
   */
  everyTick?: boolean
}

export interface PollerDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  log: Logger
  metrics?: Metrics
  /** The leadership lease its writes are fenced by (over Redis: see ApplyFence). */
  fence?: ApplyFence
  now?: () => number
  /**
   * Times the intervals (the gap `latest` must not exceed, the periodic reconcile, the kick-off list): a
   * wall clock stepped back an hour would otherwise stop every reconcile for that hour.
   * @default performance.now, or `now` when that is given (a virtual clock drives both)
   */
  monotonic?: () => number
  /** When the provider made the change a record reports (for the detection-latency metric), if known. */
  changedAt?: (fixtureId: number, detectedAt: number) => number | undefined
  onRecord?: (r: IngestResult) => void
  /** Waits between polls; a benchmark replaces it to run an hour of virtual time in seconds. @default timers' setTimeout */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export interface PollerStatus {
  running: boolean
  intervalMs: number
  lastPollAt: number | null
  lastReconcileAt: number | null
  lastError: string | null
  consecutiveFailures: number
  tracked: number
  pendingFinal: number
}

export interface Poller {
  start: () => void
  /** Stops after the call in flight; resolves when the loop has ended. */
  stop: () => Promise<void>
  status: () => PollerStatus
  /**
   * Runs one step now, and waits for the kick-off list it may have started (tests and benchmarks drive the
   * loop by hand with this; the loop itself does not wait for the list).
   */
  step: () => Promise<void>
  /** Makes the next step a full reconciliation (after a leadership change, or on an operator's request). */
  forceReconcile: () => void
}

/**
 * Whether a change set has a moment at the provider to measure detection latency against: a clock tick
 * alone does not (it ticks every match second), nor do the first sighting of a fixture and its removal
 * from the live set (touchline's own bookkeeping).
 */
export function isTimedChange (changes: readonly Change[]): boolean {
  return changes.some((c) => c.kind !== 'clock' && c.kind !== 'fixture_added' && c.kind !== 'fixture_removed')
}

export function createPoller (deps: PollerDeps, opts: PollerOptions = {}): Poller {
  const now = deps.now ?? Date.now
  const ticks = deps.monotonic ?? deps.now ?? (() => performance.now())
  const pause = deps.sleep ?? (async (ms: number, signal: AbortSignal) => { await sleep(ms, undefined, { signal }) })
  const pacing: PacingOptions = { reserve: opts.reserve ?? 0.2, floorMs: opts.floorMs ?? 1000, ceilingMs: opts.ceilingMs ?? SLOWEST_POLL_MS }
  const reconcileEvery = opts.reconcileIntervalMs ?? 30_000
  const maxBackoff = opts.maxBackoffMs ?? MAX_BACKOFF_MS
  /** Deadlines and hedge delays: one for `latest` polls, one for the reconciles' calls (livescores, multi). */
  const reconcileDeadline = createCallDeadline({ floorMs: opts.latestTimeoutMs ?? LATEST_TIMEOUT_MS })
  const deadlines = {
    latest: createCallDeadline({ floorMs: opts.latestTimeoutMs ?? LATEST_TIMEOUT_MS, fallback: reconcileDeadline }),
    reconcile: reconcileDeadline
  }
  const feedLeadMs = opts.feedLeadMs ?? FEED_LEAD_MS
  const listEvery = opts.kickoffListEveryMs ?? KICKOFF_LIST_EVERY_MS
  const ingestOpts = { clockRate: opts.clockRate ?? 1, everyTick: opts.everyTick ?? false, ...(deps.fence !== undefined ? { fence: deps.fence } : {}) }
  const log = deps.log
  const anomalies = createAnomalyReporter({ log, counter: deps.metrics?.upstreamAnomalies })
  const query: Record<string, string> = { include: LIVE_INCLUDES }
  if (opts.leagues !== undefined && opts.leagues.length > 0) query.filters = `fixtureLeagues:${opts.leagues.join(',')}`

  /** Fixtures that left the feed while still live (in the store, or in the last feed): fetched by id at each reconcile until final. */
  const pendingFinal = new Set<number>()
  /** Ids in the feed at the last reconcile: what the poller knew as live, whatever the store still holds. */
  let lastFeed = new Set<number>()
  /** Reconciles in a row at which the upstream returned no fixture for a pending id. */
  const misses = new Map<number, number>()
  /** Calls of the last reconcile (livescores plus multi batches), for pacing. */
  let reconcileCalls = 1
  /** Upcoming fixtures, due for a reconcile when they enter the feed. */
  const kickoffs = createKickoffSchedule(feedLeadMs)
  /** When the kick-off list is next fetched, and the pages the last one took (for pacing). */
  let nextListAt = 0
  let listPages = 1
  /** The kick-off list running beside the polls, if one is. */
  let listing: Promise<void> | undefined
  /** Whether the last pace let `latest` polls overlap: only then is the kick-off list worth its calls. */
  let overlapping = true
  /** Start of the last successful `latest` or reconcile: what the next `latest` must overlap (wall clock, for the status). */
  let lastPollAt: number | null = null
  let lastReconcileAt: number | null = null
  /** The same two on the interval clock. */
  let lastPollTick: number | null = null
  let lastReconcileTick: number | null = null
  let needReconcile = true
  let failures = 0
  /** Steps in a row that found the budget ledger unreadable. */
  let ledgerOutages = 0
  let tracked = 0
  let lastError: string | null = null
  let intervalMs = pacing.floorMs
  let loop: Promise<void> | undefined
  let abort = new AbortController()

  /**
   * Applies fixtures to the store. `leftFeed`: they were fetched by id after leaving the livescores feed. The
   * upstream drops a fixture from the feed 15 minutes after its end, so one no longer in play is final then,
   * FT included (a cup tie bound for extra time stays in the feed), and leaves the live index.
   * @throws after trying every fixture, when any could not be stored: the step then counts as failed and
   *   the next one reconciles, so the changes are picked up again. At once when the store cannot be reached
   *   (each further write would only wait out the same command timeout: a step of ten fixtures would hold
   *   the loop, and a deposed leader's stop, for twenty seconds), when the poller lease is not held
   *   (LeaseLostError), or when the poller is stopping.
   */
  async function ingest (fixtures: readonly UpstreamFixture[], leftFeed = false): Promise<void> {
    const at = new Date(now()).toISOString()
    let failed = 0
    for (const fixture of fixtures) {
      if (abort.signal.aborted) throw new Error('the poller stopped before every fixture was stored')
      const final = leftFeed && !LIVE_STATE_IDS.has(fixture.state_id)
      try {
        const result = await ingestFixture(deps.store, fixture, at, final ? { live: false, removed: true, ...ingestOpts } : ingestOpts)
        if (final) pendingFinal.delete(fixture.id)
        if (result !== undefined) observe(result)
      } catch (err) {
        // Every further write would fail the same way; the fixture stays pending (its final state included).
        if (isStoreUnavailable(err) || err instanceof LeaseLostError) throw err
        failed++
        log.error({ err, fixtureId: fixture.id }, 'fixture could not be applied')
      }
    }
    if (failed > 0) throw new Error(`${failed} of ${fixtures.length} fixtures could not be stored`)
  }

  function observe (result: IngestResult): void {
    const detectedAt = now()
    for (const change of result.record.changes) deps.metrics?.changes.inc({ kind: change.kind })
    const madeAt = isTimedChange(result.record.changes) ? deps.changedAt?.(result.record.fixture_id, detectedAt) : undefined
    if (madeAt !== undefined && madeAt > 0 && madeAt <= detectedAt) deps.metrics?.detectionLatency.observe((detectedAt - madeAt) / 1000)
    deps.onRecord?.(result)
  }

  /** Reserves one Fixture call in the ledger, or throws PollSkipped: no call goes out unreserved. */
  async function reserveCall (): Promise<void> {
    let allowed: boolean
    try {
      const bucket = await deps.ledger.get('Fixture')
      allowed = await deps.ledger.reserve('Fixture', 1, pollerFloor(bucket, pacing.reserve))
    } catch (err) {
      throw new PollSkipped('budget_ledger_unavailable', { cause: err })
    }
    if (!allowed) throw new PollSkipped('budget_refused')
  }

  /** One poll call. `latest` is never retried: the next poll, moments later, is its retry. */
  async function call (path: string, latest = false): Promise<UpstreamFixture[]> {
    const deadline = latest ? deadlines.latest : deadlines.reconcile
    const timeoutMs = deadline.current()
    // After FAILURES_AT_FLOOR failed polls in a row the upstream is likely down: a failure then ends the
    // call when no request can still answer, without sending the next hedge at once.
    const onFailure = failures < FAILURES_AT_FLOOR ? worthHedging : undefined
    const res = await hedged(async (signal) => await deps.upstream.get(path, query, { signal, beforeAttempt: reserveCall, timeoutMs, ...(latest ? LATEST_RETRIES : {}) }), deadline.hedgeAfter(), abort.signal, HEDGES, onFailure)
    // The answering attempt's own time: retries and their pauses say nothing of how fast the upstream is.
    deadline.succeeded(res.durationMs)
    return parseFixtures(res.envelope, { anomalies, source: path })
  }

  /** Fixtures by id; an id the upstream does not know gives a 404 on the real API (nothing found, not an error). */
  async function byIds (ids: readonly number[]): Promise<UpstreamFixture[]> {
    try {
      return await call(`/football/fixtures/multi/${ids.join(',')}`)
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return []
      throw err
    }
  }

  /** The store's live set; when it cannot be read, the poller's own memory stands in for it. */
  async function storedLive (): Promise<number[] | undefined> {
    try {
      return (await deps.store.liveFixtures()).map((f) => f.id)
    } catch (err) {
      log.warn({ err }, 'live set could not be read; fetching the fixtures last seen live by id')
      return undefined
    }
  }

  /** Counts a miss for each id; those missed RETIRE_AFTER_MISSES times are retired and no longer asked for. */
  async function missed (ids: readonly number[]): Promise<void> {
    const at = new Date(now()).toISOString()
    for (const id of ids) {
      const count = (misses.get(id) ?? 0) + 1
      misses.set(id, count)
      if (count < RETIRE_AFTER_MISSES) continue
      const result = await retireFixture(deps.store, id, at, deps.fence)
      log.warn({ fixtureId: id, reconciles: count }, 'upstream no longer returns this fixture; retired')
      pendingFinal.delete(id)
      misses.delete(id)
      if (result !== undefined) observe(result)
    }
  }

  /**
   * The full feed, then every fixture still live in the store or the last feed that is no longer in it,
   * by id (50 per call): such a fixture may have changed after our last look, and its final state must not
   * be missed. These extra calls come once per reconcile, so they never push two `latest` polls more than
   * the window apart.
   */
  async function reconcile (startedAt: number): Promise<void> {
    const fixtures = await call('/football/livescores')
    const inFeed = new Set(fixtures.map((f) => f.id))
    kickoffs.reconciled(startedAt, inFeed)
    // Before anything is stored: what was in the feed last time and left it is pending even if the store
    // lost it (flushed, restarted empty) or the apply below fails.
    for (const id of lastFeed) if (!inFeed.has(id)) pendingFinal.add(id)
    lastFeed = inFeed
    await ingest(fixtures)
    const live = await storedLive()
    for (const id of live ?? []) if (!inFeed.has(id)) pendingFinal.add(id)
    for (const id of pendingFinal) {
      if (inFeed.has(id)) { pendingFinal.delete(id); misses.delete(id) }
    }
    const ids = [...pendingFinal]
    reconcileCalls = 1 + Math.ceil(ids.length / MULTI_MAX)
    for (let i = 0; i < ids.length; i += MULTI_MAX) {
      const batch = ids.slice(i, i + MULTI_MAX)
      const found = await byIds(batch)
      await ingest(found, true)
      const returned = new Set(found.map((f) => f.id))
      for (const id of batch) if (returned.has(id)) misses.delete(id)
      await missed(batch.filter((id) => !returned.has(id)))
    }
    tracked = live?.length ?? inFeed.size + pendingFinal.size
    lastReconcileAt = now()
    lastReconcileTick = ticks()
    needReconcile = false
    deps.metrics?.liveFixtures.set(tracked)
  }

  /**
   * Reconcile when asked to, every `reconcileEvery`, whenever `latest` could no longer overlap the last
   * poll, and when an upcoming fixture is due to enter the feed.
   */
  function nextAction (): 'reconcile' | 'latest' {
    const tick = ticks()
    const gap = lastPollTick === null || tick - lastPollTick > LATEST_WINDOW_MS - 1000
    const periodic = lastReconcileTick === null || tick - lastReconcileTick >= reconcileEvery
    return needReconcile || gap || periodic || kickoffs.due(now()) ? 'reconcile' : 'latest'
  }

  /**
   * Lists the upcoming kick-offs, page by page, each page reserved like every call. Best effort: a failed
   * or refused list keeps the schedule it had and is tried again later; the poll it follows still counts.
   * Never throws. It runs beside the polls: a fixture a `latest` poll lists meanwhile may be scheduled
   * again, which costs at most one reconcile that finds it in the feed.
   */
  async function listKickoffs (): Promise<void> {
    const t = now()
    const request = kickoffListRequest(t, { ...(opts.leagues !== undefined ? { leagues: opts.leagues } : {}), spanMs: listEvery + feedLeadMs })
    const found: Kickoff[] = []
    let pages = 0
    try {
      for await (const page of deps.upstream.paginate(request.path, request.query, { signal: abort.signal, beforeAttempt: reserveCall, timeoutMs: KICKOFF_LIST_TIMEOUT_MS, retries: 0 })) {
        pages++
        found.push(...upcomingKickoffs(page.data, t, opts.leagues))
      }
    } catch (err) {
      nextListAt = ticks() + Math.min(listEvery, KICKOFF_LIST_RETRY_MS)
      deps.metrics?.polls.inc({ kind: 'kickoffs', outcome: err instanceof PollSkipped ? 'skipped' : 'error' })
      if (!abort.signal.aborted) log.warn({ err }, 'upcoming kick-offs could not be listed; reconciling on the interval only')
      return
    }
    kickoffs.replace(found, lastFeed)
    listPages = Math.max(1, pages)
    nextListAt = ticks() + listEvery
    deps.metrics?.polls.inc({ kind: 'kickoffs', outcome: 'ok' })
  }

  /** After a `latest` poll: the fixtures it listed are in the feed, and the kick-off list may be due (not awaited). */
  function afterLatest (fixtures: readonly UpstreamFixture[]): void {
    kickoffs.seen(fixtures.map((f) => f.id))
    if (listEvery > 0 && overlapping && listing === undefined && ticks() >= nextListAt) {
      listing = listKickoffs().finally(() => { listing = undefined })
    }
  }

  async function step (): Promise<void> {
    const action = nextAction()
    const startedAt = now()
    const startedTick = ticks()
    try {
      if (action === 'reconcile') await reconcile(startedAt)
      else {
        const fixtures = await call('/football/livescores/latest', true)
        await ingest(fixtures)
        afterLatest(fixtures)
      }
      lastPollAt = startedAt
      lastPollTick = startedTick
      failures = 0
      lastError = null
      deps.metrics?.polls.inc({ kind: action, outcome: 'ok' })
    } catch (err) {
      // A `latest` the upstream failed lost nothing: the next one still overlaps the last good poll (else
      // nextAction's gap check reconciles). Anything else (a reconcile, a store write) reconciles next.
      if (action !== 'latest' || !(err instanceof UpstreamError)) needReconcile = true
      if (err instanceof PollSkipped) {
        // Not an upstream failure: nothing (more) was called.
        lastError = err.reason
        deps.metrics?.polls.inc({ kind: action, outcome: 'skipped' })
        throw err
      }
      failures++
      lastError = err instanceof UpstreamError ? err.code : (err as Error).name
      deps.metrics?.polls.inc({ kind: action, outcome: 'error' })
      if (!abort.signal.aborted) log.warn({ err, action, failures, reconcileNext: needReconcile }, 'poll failed')
      throw err
    }
  }

  /** Exponential backoff with jitter, from the failures in a row: the floor up to FAILURES_AT_FLOOR. */
  function backoff (count: number): number {
    return backoffDelay(Math.min(Math.max(0, count - FAILURES_AT_FLOOR), 10) + 1, { baseMs: pacing.floorMs, capMs: maxBackoff })
  }

  /**
   * Calls per ms besides the polls: the kick-off list, and the `fixtures/multi` batches of the reconciles
   * the schedule adds in the next hour (each one takes the place of a `latest` poll, so its `livescores`
   * call costs nothing extra).
   */
  function otherCallsPerMs (): number {
    if (listEvery <= 0) return 0
    const t = now()
    return listPages / listEvery + (reconcileCalls - 1) * kickoffs.entriesBetween(t, t + KICKOFF_LIST_EVERY_MS) / KICKOFF_LIST_EVERY_MS
  }

  async function delayAfter (err: unknown): Promise<number> {
    if (err instanceof UpstreamRateLimitedError) return Math.max(1000, (err.retryAfterSeconds ?? 60) * 1000)
    if (err instanceof PollSkipped && err.reason === 'budget_ledger_unavailable') {
      if (ledgerOutages++ === 0) log.warn({ err: err.cause }, 'budget ledger cannot be read; polling nothing until it can')
      return LEDGER_RETRY_MS
    }
    ledgerOutages = 0
    if (err instanceof PollSkipped) {
      const bucket = await deps.ledger.get('Fixture')
      return Math.max(pacing.floorMs, (bucket?.resetsAt ?? now()) - now())
    }
    // A hung call is no sign of overload (its hedges went out already): the next poll goes at the floor.
    if (err instanceof UpstreamError && err.code === UpstreamErrorCode.Timeout) return backoff(1)
    if (err !== undefined) return backoff(failures)
    const pace = nextPace(await deps.ledger.get('Fixture'), now(), pacing, { reconcileCalls, reconcileEveryMs: reconcileEvery, otherCallsPerMs: otherCallsPerMs() })
    overlapping = pace.kind === 'poll'
    if (pace.kind === 'exhausted') {
      needReconcile = true
      log.warn({ resumeInMs: pace.delayMs }, 'Fixture budget used up; pausing until it resets')
    }
    return pace.delayMs
  }

  async function run (): Promise<void> {
    while (!abort.signal.aborted) {
      let failure: unknown
      try { await step() } catch (err) { failure = err }
      intervalMs = await delayAfter(failure).catch(() => backoff(failures))
      deps.metrics?.pollInterval.set(intervalMs / 1000)
      await pause(intervalMs, abort.signal).catch(() => {})
    }
  }

  return {
    start () {
      if (loop !== undefined) return
      abort = new AbortController()
      needReconcile = true
      loop = run().catch((err: unknown) => { log.error({ err }, 'poller loop ended unexpectedly') })
    },
    async stop () {
      abort.abort()
      await loop
      await listing
      loop = undefined
      // A stopped poller can still be stepped by hand.
      abort = new AbortController()
    },
    async step () {
      try {
        await step()
      } finally {
        await listing
      }
    },
    forceReconcile () { needReconcile = true },
    status: () => ({
      running: loop !== undefined,
      intervalMs,
      lastPollAt,
      lastReconcileAt,
      lastError,
      consecutiveFailures: failures,
      tracked,
      pendingFinal: pendingFinal.size
    })
  }
}
