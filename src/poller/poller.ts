/**
 * The budget-paced poller (DESIGN §3). One request at a time:
 *  - `livescores/latest` at the pace the Fixture budget allows (pacing.ts);
 *  - a full `livescores` snapshot (reconcile) at start, every `reconcileIntervalMs`, and at once after any
 *    gap longer than the `latest` window (an error, a 429, a pause forced by the budget, a restart), since
 *    `latest` only reports the last 10 s and the real one ignores include-only changes;
 *  - fixtures that left the feed while live in the store are fetched by id (`fixtures/multi`) at each
 *    reconcile until they are final, so a final score is never missed (upstream-facts §0.6).
 * When the Fixture budget is down to the passthrough's reserve, polling slows to one call per 8 s (the
 * slowest that still overlaps the 10 s window) instead of stopping.
 * Failures are logged and retried with backoff; nothing here throws out of the loop.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import type { Change } from '../live/types.ts'
import type { Metrics } from '../metrics.ts'
import type { LiveStore } from '../store/index.ts'
import { parseFixtures, type UpstreamFixture } from '../upstream/schemas.ts'
import { createAnomalyReporter, UpstreamError, UpstreamRateLimitedError, type UpstreamClient } from '../upstream/index.ts'
import { LIVE_STATE_IDS } from '../contract/states.ts'
import { ingestFixture, type IngestResult } from './ingest.ts'
import { nextPace, pollerFloor, SLOWEST_POLL_MS, type PacingOptions } from './pacing.ts'

/** Includes the live model needs (DESIGN §4 LiveFixture). */
export const LIVE_INCLUDES = 'participants;scores;events;periods;state'
/** The upstream's fixed `latest` window. */
export const LATEST_WINDOW_MS = 10_000
/** `fixtures/multi` takes at most 50 ids (upstream-facts §6). */
const MULTI_MAX = 50

export interface PollerOptions extends Partial<PacingOptions> {
  /** Full reconciliation at least this often. @default 30_000 */
  reconcileIntervalMs?: number
  /** Only these leagues (`fixtureLeagues` filter); all when unset. */
  leagues?: readonly number[]
  /** Longest backoff after repeated failures. @default 30_000 */
  maxBackoffMs?: number
}

export interface PollerDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  log: Logger
  metrics?: Metrics
  now?: () => number
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
  /** Runs one step now (tests and benchmarks drive the loop by hand with this). */
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
  const pause = deps.sleep ?? (async (ms: number, signal: AbortSignal) => { await sleep(ms, undefined, { signal }) })
  const pacing: PacingOptions = { reserve: opts.reserve ?? 0.2, floorMs: opts.floorMs ?? 1000, ceilingMs: opts.ceilingMs ?? SLOWEST_POLL_MS }
  const reconcileEvery = opts.reconcileIntervalMs ?? 30_000
  const maxBackoff = opts.maxBackoffMs ?? 30_000
  const log = deps.log
  const anomalies = createAnomalyReporter({ log, counter: deps.metrics?.upstreamAnomalies })
  const query: Record<string, string> = { include: LIVE_INCLUDES }
  if (opts.leagues !== undefined && opts.leagues.length > 0) query.filters = `fixtureLeagues:${opts.leagues.join(',')}`

  /** Fixtures that left the feed while still live in the store: fetched by id at each reconcile until final. */
  const pendingFinal = new Set<number>()
  /** Start of the last successful `latest` or reconcile: what the next `latest` must overlap. */
  let lastPollAt: number | null = null
  let lastReconcileAt: number | null = null
  let needReconcile = true
  let failures = 0
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
   *   the next one reconciles, so the changes are picked up again.
   */
  async function ingest (fixtures: readonly UpstreamFixture[], leftFeed = false): Promise<void> {
    const at = new Date(now()).toISOString()
    let failed = 0
    for (const fixture of fixtures) {
      const final = leftFeed && !LIVE_STATE_IDS.has(fixture.state_id)
      try {
        const result = await ingestFixture(deps.store, fixture, at, final ? { live: false, removed: true } : {})
        if (final) pendingFinal.delete(fixture.id)
        if (result !== undefined) observe(result)
      } catch (err) {
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

  async function call (path: string): Promise<UpstreamFixture[]> {
    const res = await deps.upstream.get(path, query, { signal: abort.signal })
    return parseFixtures(res.envelope, { anomalies, source: path })
  }

  /**
   * The full feed, then every fixture still live in the store that is no longer in it, by id (50 per call):
   * such a fixture may have changed after our last look, and its final state must not be missed. These
   * extra calls come once per reconcile, so they never push two `latest` polls more than the window apart.
   */
  async function reconcile (): Promise<void> {
    const fixtures = await call('/football/livescores')
    const inFeed = new Set(fixtures.map((f) => f.id))
    await ingest(fixtures)
    const live = await deps.store.liveFixtures()
    for (const f of live) if (!inFeed.has(f.id)) pendingFinal.add(f.id)
    for (const id of pendingFinal) if (inFeed.has(id)) pendingFinal.delete(id)
    const ids = [...pendingFinal]
    for (let i = 0; i < ids.length; i += MULTI_MAX) {
      const batch = ids.slice(i, i + MULTI_MAX)
      const found = await call(`/football/fixtures/multi/${batch.join(',')}`)
      await ingest(found, true)
      // An id the upstream no longer knows (deleted) is not asked for again.
      for (const id of batch) if (!found.some((f) => f.id === id)) pendingFinal.delete(id)
    }
    tracked = live.length
    lastReconcileAt = now()
    needReconcile = false
    deps.metrics?.liveFixtures.set(tracked)
  }

  /** Reconcile when asked to, every `reconcileEvery`, and whenever `latest` could no longer overlap the last poll. */
  function nextAction (): 'reconcile' | 'latest' {
    const t = now()
    const gap = lastPollAt === null || t - lastPollAt > LATEST_WINDOW_MS - 1000
    return needReconcile || gap || lastReconcileAt === null || t - lastReconcileAt >= reconcileEvery ? 'reconcile' : 'latest'
  }

  async function step (): Promise<void> {
    const action = nextAction()
    const startedAt = now()
    try {
      if (action === 'reconcile') await reconcile()
      else await ingest(await call('/football/livescores/latest'))
      lastPollAt = startedAt
      failures = 0
      lastError = null
      deps.metrics?.polls.inc({ kind: action, outcome: 'ok' })
    } catch (err) {
      failures++
      needReconcile = true
      lastError = err instanceof UpstreamError ? err.code : (err as Error).name
      deps.metrics?.polls.inc({ kind: action, outcome: 'error' })
      if (!abort.signal.aborted) log.warn({ err, action, failures }, 'poll failed; will reconcile')
      throw err
    }
  }

  async function delayAfter (err: unknown): Promise<number> {
    if (err instanceof UpstreamRateLimitedError) return Math.max(1000, (err.retryAfterSeconds ?? 60) * 1000)
    if (err !== undefined) return Math.min(maxBackoff, pacing.floorMs * 2 ** Math.min(failures, 10)) * (0.5 + Math.random() / 2)
    const pace = nextPace(await deps.ledger.get('Fixture'), now(), pacing)
    if (pace.kind === 'exhausted') {
      needReconcile = true
      log.warn({ resumeInMs: pace.delayMs }, 'Fixture budget used up; pausing until it resets')
    }
    return pace.delayMs
  }

  async function run (): Promise<void> {
    while (!abort.signal.aborted) {
      let failure: unknown
      const bucket = await deps.ledger.get('Fixture').catch(() => undefined)
      const allowed = await deps.ledger.reserve('Fixture', 1, pollerFloor(bucket, pacing.reserve)).catch(() => true)
      if (allowed) {
        try { await step() } catch (err) { failure = err }
        intervalMs = await delayAfter(failure).catch(() => pacing.floorMs)
      } else {
        needReconcile = true
        intervalMs = Math.max(pacing.floorMs, (bucket?.resetsAt ?? now()) - now())
      }
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
      loop = undefined
      // A stopped poller can still be stepped by hand.
      abort = new AbortController()
    },
    step,
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
