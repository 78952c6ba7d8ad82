/**
 * The budget-paced poller (docs/architecture.md, "The pipeline"). One request at a time:
 *  - `livescores/latest` at the pace the Fixture budget allows (pacing.ts);
 *  - a full `livescores` snapshot (reconcile) at start, every `reconcileIntervalMs`, and at once after any
 *    gap longer than the `latest` window (an error, a 429, a pause forced by the budget, a restart), since
 *    `latest` only reports the last 10 s and the real one ignores include-only changes;
 *  - a reconcile also at the first poll after an upcoming fixture enters the feed (kick-off minus
 *    `feedLeadMs`) and, if it was not found then, after its kick-off: `latest` does not list a fixture that
 *    enters the feed unchanged. The kick-offs come from the read of the days around today about once an
 *    hour, started after a `latest` poll while polls overlap and run beside the polls, so a slow or hung
 *    read never holds one up; with a bucket too small for that every poll is a reconcile anyway (days.ts);
 *  - while polls overlap, `fixtures/latest` every 6 s (what changed before kick-off or after the end of any
 *    fixture: a kick-off moved, a postponement) and `livescores/inplay` every 10 s and at most one poll in
 *    ten (the statistics of every match in play, which alone do not make `latest` list a fixture). With
 *    budget to spare beyond the floor they go beside a `latest` poll, in the same step, and the live feed
 *    keeps its pace; on a tighter budget one takes the place of a `latest` poll (no extra call), never two in
 *    a row, so the next `livescores/latest` still overlaps the last one;
 *  - fixtures that left the feed while live in the store, or while in the feed at the previous reconcile
 *    (the poller's own memory, which outlives a store that lost its data or cannot be read), are fetched
 *    by id (`fixtures/multi`) at each reconcile until they are final, so a final score is never missed
 *    (the upstream drops a fixture from the feed some minutes after it ends, final score or not: see
 *    docs/upstream.md, "Livescores"). One the upstream no longer returns by id (a 404, or a 200 "No
 *    result(s)") at RETIRE_AFTER_MISSES reconciles in a row is retired with `fixture_removed` (tracking.ts).
 * Budget: every upstream call, each `fixtures/multi` batch, kick-off list page and client retry included,
 * is reserved in the ledger first; a refused reservation ends the step (or, for the kick-off list, the
 * list), and a ledger that cannot be read means no call at all (status `last_error`: `budget_refused`,
 * `budget_ledger_unavailable`). The pace comes from pacing.ts. The poller claims the Fixture bucket (claim.ts,
 * budget/share.ts) at each step and before each long pause: its pace times the time left, which the
 * passthrough's calls must leave it, on every instance.
 * Hung calls (calls.ts): every call has a deadline that follows the upstream's own pace (deadline.ts: four times the
 * slowest recent call of its kind, at least LATEST_TIMEOUT_MS), so a hung one is abandoned after about that
 * instead of the client's 10 s, and hedged over it (hedge.ts, deadline.ts hedgePlan): while no request has
 * answered, one more goes out every four times the upstream's usual time (up to MAX_HEDGES), each given what
 * is left of the call's deadline, first answer wins, and one that fails with an error answer sends the next
 * hedge at once. `latest` polls keep their own pace apart from the reconciles' (a full `livescores` is far
 * slower than `latest`, and would make every hung poll cost its pace). A `latest` poll retries an error
 * answer once, never a hung attempt.
 * Failures are logged and retried with a short backoff: at the floor while failures are sporadic (a bad
 * night's error answers and hangs are no sign of overload), growing after FAILURES_AT_FLOOR in a row, to
 * at most MAX_BACKOFF_MS, so the first poll after an outage goes out within seconds of its end; a poll lost
 * alone to hung calls is followed by the next at once (its deadline was its pause); nothing here throws out
 * of the loop.
 */
import { ErrorCodes } from '../errors.ts'
import { LATEST_WINDOW_MS } from '@touchline/upstream-contract/livescores'
import { LIVE_STATE_IDS } from '@touchline/upstream-contract/states'
import { UpstreamError, UpstreamRateLimitedError } from '../upstream/index.ts'
import { backoffDelay } from '@touchline/core'
import { FAILURES_AT_FLOOR, PollSkipped, pollCall } from './calls.ts'
import { createPollerContext, type PollerContext } from './context.ts'
import { afterLatest, afterScheduleLatest, otherCallsPerMs, wantDays } from './days.ts'
import { claimOf, nextPace, pauseLeft, type PollLoad } from './pacing.ts'
import { ingest, reconcile } from './tracking.ts'
import { LeaseLostError } from './ingest.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import { LIVESCORES_ENTITY, type Poller, type PollerDeps, type PollerOptions } from './types.ts'

export { LIVESCORES_ENTITY, type Poller, type PollerDeps, type PollerOptions, type PollerStatus } from './types.ts'

/**
 * Pause while the budget ledger cannot be read: it lives in our own Redis, so asking it again costs no
 * upstream call, and a Redis that restarts is back within moments; a growing backoff would only delay the
 * first poll after it.
 */
export const LEDGER_RETRY_MS = 500

export function createPoller (deps: PollerDeps, opts: PollerOptions = {}): Poller {
  const p = createPollerContext(deps, opts)
  let loop: Promise<void> | undefined

  async function run (): Promise<void> {
    while (!p.abort.signal.aborted) {
      const began = p.ticks()
      let failure: unknown
      try { await step(p) } catch (err) { failure = err }
      const pause = await delayAfter(p, failure).catch(() => backoff(p, p.failures))
      // A long pause (a slow pace, a wait for the reset) is covered by the claim, so the passthrough cannot
      // spend the poller's need meanwhile (at the reset, of the next window).
      await p.claim.keep(claimOf(p.pacing, load(p)), pause)
      // What the status and the metric show is the interval a reader means: from this step's start to the
      // next's (the step's own time, a slow answer, plus the pause left after it).
      p.intervalMs = p.ticks() - began + pause
      deps.metrics?.pollInterval.set(p.intervalMs / 1000)
      await p.pause(pause, p.abort.signal).catch(() => {})
    }
  }

  return {
    start () {
      if (loop !== undefined) return
      p.abort = new AbortController()
      p.claim.forget()
      p.needReconcile = true
      loop = run().catch((err: unknown) => { p.log.error({ err }, 'poller loop ended unexpectedly') })
    },
    async stop () {
      p.abort.abort()
      await loop
      await p.listing
      loop = undefined
      // A stopped poller can still be stepped by hand.
      p.abort = new AbortController()
    },
    async step () {
      try {
        await step(p)
      } finally {
        await p.listing
      }
    },
    forceReconcile (opts = {}) {
      p.needReconcile = true
      // The store lost the days with its log: every day of the window is read again.
      if (opts.days === true) wantDays(p, { whole: true })
    },
    status: () => ({
      running: loop !== undefined,
      intervalMs: p.intervalMs,
      lastPollAt: p.lastPollAt,
      lastReconcileAt: p.lastReconcileAt,
      lastError: p.lastError,
      consecutiveFailures: p.failures,
      tracked: p.tracked,
      pendingFinal: p.pendingFinal.size
    })
  }
}

/**
 * Reconcile when asked to, every `reconcileEvery`, whenever `latest` could no longer overlap the last
 * poll, and when an upcoming fixture is due to enter the feed.
 */
type Action = 'reconcile' | 'latest' | 'schedule' | 'statistics'

/**
 * How often `fixtures/latest` goes (beside or in the place of a `latest` poll): within its 10 s window, with 4 s
 * to spare, so that a reconcile or a statistics read due at the same step (it waits a step, 1.5 s at the Pro
 * plan's pace) still leaves the next one overlapping the last: a gap re-reads the days (days.ts).
 */
export const SCHEDULE_EVERY_MS = LATEST_WINDOW_MS - 4000
/** How often `livescores/inplay` does (the statistics of the matches in play), and in how many polls at most one. */
export const STATISTICS_EVERY_MS = 10_000
export const STATISTICS_SHARE = 10

function nextAction (p: PollerContext): Action {
  const tick = p.ticks()
  const gap = p.lastPollTick === null || tick - p.lastPollTick > LATEST_WINDOW_MS - 1000
  const periodic = p.lastReconcileTick === null || tick - p.lastReconcileTick >= p.reconcileEvery
  if (p.needReconcile || gap || periodic || p.kickoffs.due(p.now())) return 'reconcile'
  // With budget to spare they go beside a `latest` poll (step); else in its place, when the next `latest`
  // will still overlap the last.
  if (p.spare || !p.feedCovered || 2 * p.intervalMs >= LATEST_WINDOW_MS - 1000) return 'latest'
  return alternateDue(p) ?? 'latest'
}

/** `fixtures/latest` or `livescores/inplay`, when one is due and polls overlap. */
function alternateDue (p: PollerContext): 'schedule' | 'statistics' | undefined {
  if (!p.overlapping) return undefined
  const tick = p.ticks()
  if (p.lastScheduleTick === null || tick - p.lastScheduleTick >= SCHEDULE_EVERY_MS) return 'schedule'
  const statisticsDue = p.lastStatisticsTick === null || tick - p.lastStatisticsTick >= STATISTICS_EVERY_MS
  return statisticsDue && p.pollsSinceStatistics >= STATISTICS_SHARE - 1 ? 'statistics' : undefined
}

/**
 * With budget to spare, the `fixtures/latest` or `livescores/inplay` due goes right after the `latest` poll,
 * in the same step: the live feed keeps its pace. Best effort: its failure is the next one's to make good.
 */
async function besideLatest (p: PollerContext): Promise<void> {
  const extra = p.spare ? alternateDue(p) : undefined
  if (extra === undefined) return
  try {
    if (extra === 'schedule') await scheduleLatest(p)
    else await statisticsRead(p)
    p.deps.metrics?.polls.inc({ kind: extra, outcome: 'ok' })
  } catch (err) {
    if (isStoreUnavailable(err) || err instanceof LeaseLostError) throw err
    p.deps.metrics?.polls.inc({ kind: extra, outcome: err instanceof PollSkipped ? 'skipped' : 'error' })
    if (!p.abort.signal.aborted) p.log.warn({ err, action: extra }, 'poll beside latest failed')
  }
}

/**
 * `fixtures/latest`: every fixture whose base fields changed in the last 10 s, any date. Each keeps its
 * place: the live ones stay live, the others are fixtures of a day. One in play that the live set does not
 * hold yet is reconciled into it next.
 */
async function scheduleLatest (p: PollerContext): Promise<void> {
  const fixtures = await pollCall(p, '/football/fixtures/latest', true)
  await ingest(p, fixtures, { live: 'keep' })
  const inPlay = fixtures.filter((f) => LIVE_STATE_IDS.has(f.state_id) && !p.lastFeed.has(f.id))
  if (inPlay.length > 0) p.needReconcile = true
  const previous = p.lastScheduleTick
  p.lastScheduleTick = p.stepStartedTick
  p.pollsSinceStatistics++
  afterScheduleLatest(p, previous, p.stepStartedTick)
}

/** `livescores/inplay`: every match in play, whole: their statistics, which alone do not make `latest` list them. */
async function statisticsRead (p: PollerContext): Promise<void> {
  const fixtures = await pollCall(p, '/football/livescores/inplay', true)
  await ingest(p, fixtures)
  p.lastStatisticsTick = p.stepStartedTick
  p.pollsSinceStatistics = 0
}

async function step (p: PollerContext): Promise<void> {
  // The claim first: the passthrough leaves the poller its need from the first poll on (budget/share.ts).
  await p.claim.keep(claimOf(p.pacing, load(p)))
  const action = nextAction(p)
  const startedAt = p.now()
  const startedTick = p.stepStartedTick = p.ticks()
  try {
    if (action === 'reconcile') await reconcile(p, startedAt)
    else if (action === 'schedule') await scheduleLatest(p)
    else if (action === 'statistics') await statisticsRead(p)
    else {
      const fixtures = await pollCall(p, '/football/livescores/latest', true)
      await ingest(p, fixtures)
      afterLatest(p, fixtures.map((f) => f.id))
      p.pollsSinceStatistics++
      await besideLatest(p)
    }
    // Only a livescores poll covers the feed's last 10 s: what the next `latest` must overlap.
    p.feedCovered = action === 'latest' || action === 'reconcile'
    if (p.feedCovered) {
      p.lastPollAt = startedAt
      p.lastPollTick = startedTick
    }
    p.failures = 0
    p.lastError = null
    p.deps.metrics?.polls.inc({ kind: action, outcome: 'ok' })
  } catch (err) {
    // A `latest` (or its alternate) the upstream failed lost nothing: the next one still overlaps the last good
    // poll (else nextAction's gap check reconciles). Anything else (a reconcile, a store write) reconciles next.
    p.feedCovered = false
    if (action === 'reconcile' || !(err instanceof UpstreamError)) p.needReconcile = true
    if (err instanceof PollSkipped) {
      // Not an upstream failure: nothing (more) was called.
      p.lastError = err.reason
      p.deps.metrics?.polls.inc({ kind: action, outcome: 'skipped' })
      throw err
    }
    p.failures++
    p.lastError = err instanceof UpstreamError ? err.code : (err as Error).name
    p.deps.metrics?.polls.inc({ kind: action, outcome: 'error' })
    if (!p.abort.signal.aborted) p.log.warn({ err, action, failures: p.failures, reconcileNext: p.needReconcile }, 'poll failed')
    throw err
  }
}

/** What the reconciles and the kick-off list add to the polls, for the pace. */
function load (p: PollerContext): PollLoad {
  return { reconcileCalls: p.reconcileCalls, reconcileEveryMs: p.reconcileEvery, otherCallsPerMs: otherCallsPerMs(p) }
}

/** Exponential backoff with jitter, from the failures in a row: the floor up to FAILURES_AT_FLOOR. */
function backoff (p: PollerContext, count: number): number {
  return backoffDelay(Math.min(Math.max(0, count - FAILURES_AT_FLOOR), 10) + 1, { baseMs: p.pacing.floorMs, capMs: p.maxBackoff })
}

/** The pause before the next step: after a failure, what the failure calls for; else the budget's pace. */
async function delayAfter (p: PollerContext, err: unknown): Promise<number> {
  if (err instanceof UpstreamRateLimitedError) return Math.max(1000, (err.retryAfterSeconds ?? 60) * 1000)
  if (err instanceof PollSkipped && err.reason === 'budget_ledger_unavailable') {
    if (p.ledgerOutages++ === 0) p.log.warn({ err: err.cause }, 'budget ledger cannot be read; polling nothing until it can')
    return LEDGER_RETRY_MS
  }
  p.ledgerOutages = 0
  if (err instanceof PollSkipped) {
    const bucket = await p.deps.ledger.get(LIVESCORES_ENTITY)
    return Math.max(p.pacing.floorMs, (bucket?.resetsAt ?? p.now()) - p.now())
  }
  // A hung call is no sign of overload (its hedges went out already). A poll lost to one, on its own, is
  // bad luck: the next goes when the pace says counting from the lost poll's start, which its deadline
  // (2.5 s or more) has usually passed: at once, rather than after another pause of silence. Lost in a row:
  // at the floor.
  if (err instanceof UpstreamError && err.code === ErrorCodes.UPSTREAM_TIMEOUT) {
    if (p.failures > 1) return backoff(p, 1)
    const elapsed = p.ticks() - p.stepStartedTick
    return pauseLeft(nextPace(await p.deps.ledger.get(LIVESCORES_ENTITY), p.now(), p.pacing, load(p)).delayMs, elapsed, 0)
  }
  if (err !== undefined) return backoff(p, p.failures)
  const pace = nextPace(await p.deps.ledger.get(LIVESCORES_ENTITY), p.now(), p.pacing, load(p))
  p.overlapping = pace.kind === 'poll'
  p.spare = pace.kind === 'poll' && pace.spare === true
  if (pace.kind === 'exhausted') {
    p.needReconcile = true
    p.log.warn({ resumeInMs: pace.delayMs }, 'Fixture budget used up; pausing until it resets')
    return pace.delayMs
  }
  // The pace runs from the start of one step to the next, as the odds poller's: the step's own time (a slow
  // answer, a reconcile's batches) comes out of the pause, else polls come every pace plus that time, later
  // than the budget allows. The floor still holds after the step.
  return pauseLeft(pace.delayMs, p.ticks() - p.stepStartedTick, p.pacing.floorMs)
}
