/**
 * The poller's public surface: what it needs, how it is tuned, what it reports (poller.ts builds it).
 */
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import type { Metrics } from '../metrics.ts'
import type { ApplyFence, LiveStore } from '../store/index.ts'
import type { UpstreamClient } from '../upstream/index.ts'
import type { IngestResult } from './ingest.ts'
import type { PacingOptions } from './pacing.ts'

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
  /** How often the days around today are read (with the upcoming kick-offs); 0 turns both off. @default KICKOFF_LIST_EVERY_MS */
  kickoffListEveryMs?: number
  /** Days before today (UTC) held in the store and read at start (TOUCHLINE_DAYS_BACK). @default 3 */
  daysBack?: number
  /** Days after today (UTC) held in the store and read every hour (TOUCHLINE_DAYS_AHEAD). @default 3 */
  daysAhead?: number
  /** Match seconds per real second of the upstream's match clock (TOUCHLINE_UPSTREAM_CLOCK_RATE, or the embedded simulator's speed). @default 1 */
  clockRate?: number
  /**
   * Store every clock tick, even those a client running the clock shows anyway (the gateway's behaviour
   * before clients ran the clock; bench:bandwidth measures the difference). @default false
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

/** The upstream's budget entity of the livescore poller's calls (livescores and fixtures by id). */
export const LIVESCORES_ENTITY = 'Fixture'

export interface PollerStatus {
  running: boolean
  /** From the last step's start to the next's: the polling interval, whatever the answers took. */
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
  /**
   * Makes the next step a full reconciliation (after a leadership change, or on an operator's request); with
   * `days`, the days are read again too at the first chance (the store lost them with its log).
   */
  forceReconcile: (opts?: { days?: boolean }) => void
}
