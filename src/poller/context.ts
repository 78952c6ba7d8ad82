/**
 * One poller's working state, shared by the parts of its loop (poller.ts the loop, calls.ts the upstream
 * calls, tracking.ts the fixtures it follows, days.ts the days around today and the upcoming kick-offs): its dependencies and
 * options with their defaults filled in, what it remembers from one step to the next, and the abort
 * controller of the running loop.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import { SLOWEST_POLL_MS } from '../budget/share.ts'
import { FEED_LEAD_MS } from '@touchline/upstream-contract/livescores'
import type { ApplyFence } from '../store/index.ts'
import { createAnomalyReporter, type AnomalySink } from '../upstream/index.ts'
import { LIVE_INCLUDES } from '../upstream/schemas.ts'
import { createClaimKeeper, type ClaimKeeper } from './claim.ts'
import { createCallDeadline, type CallDeadline } from './deadline.ts'
import { createKickoffSchedule, KICKOFF_LIST_EVERY_MS, type Kickoff, type KickoffSchedule } from './kickoffs.ts'
import type { PacingOptions } from './pacing.ts'
import { LIVESCORES_ENTITY, type PollerDeps, type PollerOptions } from './types.ts'

/**
 * Deadline of one `latest` attempt: a healthy answer takes well under a second, and 2.5 s plus the pause
 * keeps two polls within the 10 s window even when one hangs.
 */
const LATEST_TIMEOUT_MS = 2500
/**
 * Longest pause after failures in a row. Short on purpose: while the upstream is down a poll costs a failed
 * call (which the upstream does not count), and once it is back the next poll is at most this late.
 */
const MAX_BACKOFF_MS = 4000

/** Days read before and after today (UTC). */
export interface DayWindow {
  back: number
  ahead: number
}

/** A read of the days under way: its request, the next page to read, the kick-offs of the pages read. */
export interface DaysProgress {
  path: string
  query: Record<string, string>
  page: number
  found: Kickoff[]
  /** When it started: the time the kick-offs are judged against. */
  startedAt: number
}

/** How each fixture is applied (ingest.ts ingestFixture). */
interface IngestOptions { clockRate: number, everyTick: boolean, fence?: ApplyFence }

export interface PollerContext {
  readonly deps: PollerDeps
  readonly log: Logger
  /** The wall clock: timestamps of records and of the status. */
  readonly now: () => number
  /** The interval clock (PollerDeps.monotonic). */
  readonly ticks: () => number
  readonly pause: (ms: number, signal: AbortSignal) => Promise<void>
  readonly pacing: PacingOptions
  readonly reconcileEvery: number
  readonly maxBackoff: number
  /** Deadlines and hedge delays: one for `latest` polls, one for the reconciles' calls (livescores, multi). */
  readonly deadlines: { latest: CallDeadline, reconcile: CallDeadline }
  readonly feedLeadMs: number
  /** How often the days are read (and the kick-offs with them); 0: never. */
  readonly listEvery: number
  /** The days read around today. */
  readonly days: DayWindow
  /** Whether the whole window was read once: later reads start at yesterday. */
  daysRead: boolean
  /**
   * A read of the days that stopped at a failed page: it goes on from that page when next due (days.ts), so
   * the pages already stored are not paid for again.
   */
  daysProgress: DaysProgress | undefined
  /** When the last read of the days started (interval clock): a gap re-reads them at most every GAP_READ_EVERY_MS. */
  lastDaysReadTick: number
  /**
   * Counts the asks for a new read of the days (wantDays): a read under way when one came (its pages may have
   * gone to a store that lost them) is followed by another at once.
   */
  daysWanted: number
  /** The next read of the days is of the whole window (the store lost the days it held), not from yesterday. */
  daysWhole: boolean
  /** When `fixtures/latest` and `livescores/inplay` last took the place of a `latest` poll (interval clock). */
  lastScheduleTick: number | null
  lastStatisticsTick: number | null
  /** `latest` polls since the last `livescores/inplay` (a tenth of the polls at most go to statistics). */
  pollsSinceStatistics: number
  /** Whether the last step was a livescores `latest` or a reconcile: the feed's last 10 s are covered. */
  feedCovered: boolean
  /** Only these leagues; all when undefined. */
  readonly leagues: readonly number[] | undefined
  readonly ingestOpts: IngestOptions
  readonly anomalies: AnomalySink
  /** The query of every poll: the live includes, and the leagues filter if any. */
  readonly query: Record<string, string>
  /** Upcoming fixtures, due for a reconcile when they enter the feed. */
  readonly kickoffs: KickoffSchedule
  /** Fixtures that left the feed while still live (in the store, or in the last feed): fetched by id at each reconcile until final. */
  readonly pendingFinal: Set<number>
  /** Reconciles in a row at which the upstream returned no fixture for a pending id. */
  readonly misses: Map<number, number>
  /** Ids in the feed at the last reconcile: what the poller knew as live, whatever the store still holds. */
  lastFeed: Set<number>
  /** Calls of the last reconcile (livescores plus multi batches), for pacing. */
  reconcileCalls: number
  /** When the days are next read (interval clock), and the pages the last read took (for pacing). */
  nextListAt: number
  listPages: number
  /** The read of the days (or of the line-ups to come) running beside the polls, if one is. */
  listing: Promise<void> | undefined
  /** When the fixtures about to kick off are next read for their line-ups (interval clock), and the calls the last read took. */
  nextLineupsAt: number
  lineupCalls: number
  /** Whether the last pace let `latest` polls overlap: only then are the days and the alternate polls worth their calls. */
  overlapping: boolean
  /** Whether the last pace had budget to spare beyond the floor: `fixtures/latest` and `livescores/inplay` then go beside a poll, not in its place. */
  spare: boolean
  /** Start of the last successful `latest` or reconcile: what the next `latest` must overlap (wall clock, for the status). */
  lastPollAt: number | null
  lastReconcileAt: number | null
  /** The same two on the interval clock. */
  lastPollTick: number | null
  lastReconcileTick: number | null
  /** When the step running (or the last one) started, on the interval clock. */
  stepStartedTick: number
  needReconcile: boolean
  /** Failed steps in a row. */
  failures: number
  /** Steps in a row that found the budget ledger unreadable. */
  ledgerOutages: number
  tracked: number
  lastError: string | null
  /** From the last step's start to the next's (the step's time and the pause after it). */
  intervalMs: number
  /** Aborts the running loop's calls and pauses; replaced by a fresh one when the loop starts or stops. */
  abort: AbortController
  /** The poller's claim on the Fixture bucket (budget/share.ts): what the passthrough leaves it. */
  readonly claim: ClaimKeeper
}

export function createPollerContext (deps: PollerDeps, opts: PollerOptions): PollerContext {
  const pacing: PacingOptions = { reserve: opts.reserve ?? 0.2, floorMs: opts.floorMs ?? 1000, ceilingMs: opts.ceilingMs ?? SLOWEST_POLL_MS }
  const reconcileDeadline = createCallDeadline({ floorMs: opts.latestTimeoutMs ?? LATEST_TIMEOUT_MS })
  const feedLeadMs = opts.feedLeadMs ?? FEED_LEAD_MS
  const query: Record<string, string> = { include: LIVE_INCLUDES }
  if (opts.leagues !== undefined && opts.leagues.length > 0) query.filters = `fixtureLeagues:${opts.leagues.join(',')}`
  return {
    deps,
    log: deps.log,
    now: deps.now ?? Date.now,
    ticks: deps.monotonic ?? deps.now ?? (() => performance.now()),
    pause: deps.sleep ?? (async (ms: number, signal: AbortSignal) => { await sleep(ms, undefined, { signal }) }),
    pacing,
    reconcileEvery: opts.reconcileIntervalMs ?? 30_000,
    maxBackoff: opts.maxBackoffMs ?? MAX_BACKOFF_MS,
    deadlines: {
      latest: createCallDeadline({ floorMs: opts.latestTimeoutMs ?? LATEST_TIMEOUT_MS, fallback: reconcileDeadline }),
      reconcile: reconcileDeadline
    },
    feedLeadMs,
    listEvery: opts.kickoffListEveryMs ?? KICKOFF_LIST_EVERY_MS,
    days: { back: opts.daysBack ?? 3, ahead: opts.daysAhead ?? 3 },
    daysRead: false,
    daysProgress: undefined,
    lastDaysReadTick: -Infinity,
    daysWanted: 0,
    daysWhole: false,
    lastScheduleTick: null,
    lastStatisticsTick: null,
    pollsSinceStatistics: 0,
    feedCovered: false,
    leagues: opts.leagues,
    ingestOpts: { clockRate: opts.clockRate ?? 1, everyTick: opts.everyTick ?? false, ...(deps.fence !== undefined ? { fence: deps.fence } : {}) },
    anomalies: createAnomalyReporter({ log: deps.log, counter: deps.metrics?.upstreamAnomalies }),
    query,
    kickoffs: createKickoffSchedule(feedLeadMs),
    pendingFinal: new Set(),
    misses: new Map(),
    lastFeed: new Set(),
    reconcileCalls: 1,
    nextListAt: 0,
    nextLineupsAt: 0,
    lineupCalls: 0,
    listPages: 1,
    listing: undefined,
    overlapping: true,
    spare: false,
    lastPollAt: null,
    lastReconcileAt: null,
    lastPollTick: null,
    lastReconcileTick: null,
    stepStartedTick: 0,
    needReconcile: true,
    failures: 0,
    ledgerOutages: 0,
    tracked: 0,
    lastError: null,
    intervalMs: pacing.floorMs,
    abort: new AbortController(),
    claim: createClaimKeeper(deps.ledger, LIVESCORES_ENTITY, 'livescores', deps.now ?? Date.now)
  }
}
