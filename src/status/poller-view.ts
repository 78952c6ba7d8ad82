/**
 * The poller as every process reports it on `/v1/status` (docs/operations.md, "Status page"). Exactly one
 * process polls: the only one without Redis, the holder of the poller lease over Redis. Each worker of
 * `--workers` and each instance used to report its own poller, which on all but one did not run, so the
 * status page flipped between a poller and none as requests reached different workers. So the process that
 * polls puts its poller's state on the store's status board every second (kept 3 s), and every other
 * process reports that state and names the process it came from; when none polls (at start, between a
 * leader's death and its successor's election, or with the store unreadable for 3 s) there is none to report.
 *
 * Domain code: reads the pollers' status and the board, never fastify.
 */
import cluster from 'node:cluster'
import { hostname } from 'node:os'
import type { Logger } from 'pino'
import { z } from 'zod'
import type { StatusBoard } from '../store/status-board.ts'
import type { DetectionWindow } from './detection.ts'

/** How often the polling process publishes its poller's state, and a follower reads it. */
export const PUBLISH_EVERY_MS = 1000
/** A published state lapses after three periods without a new one: its process stopped polling or died. */
const LAPSES_AFTER_PERIODS = 3
/** The board's notice of the poller's state. */
const NOTICE = 'poller'

/** The process that answers or polls: under `--workers` its worker id; over Redis its host tells instances apart. */
const ProcessIdSchema = z.object({ host: z.string(), pid: z.number().int(), worker: z.number().int().nullable() })
export type ProcessId = z.infer<typeof ProcessIdSchema>

/** The state the poller publishes (poller/types.ts PollerStatus; times are epoch ms). */
const PollerFactsSchema = z.object({
  running: z.boolean(),
  intervalMs: z.number(),
  lastPollAt: z.number().nullable(),
  lastReconcileAt: z.number().nullable(),
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  tracked: z.number().int(),
  pendingFinal: z.number().int()
})
export type PollerFacts = z.infer<typeof PollerFactsSchema>

/**
 * The odds poller's (poller/odds.ts OddsPollerStatus), running beside the poller. Fields added since the
 * first version default, so a process of the version before (mid-upgrade) is still read.
 */
const OddsFactsSchema = z.object({
  running: z.boolean(),
  enabled: z.boolean(),
  tracked: z.number().int(),
  lastError: z.string().nullable(),
  lastPollAt: z.number().nullable().default(null)
})
export type OddsFacts = z.infer<typeof OddsFactsSchema>

/** The detection latency measured where the poller runs (detection.ts DetectionLatency). */
const DetectionSchema = z.object({ p50: z.number().nullable(), p95: z.number().nullable(), changes: z.number().int(), windowMs: z.number() })

/** What the polling process publishes: its pollers' state, who it is, and when it took them (epoch ms). */
const ReportSchema = z.object({
  poller: PollerFactsSchema,
  odds: OddsFactsSchema.nullable(),
  detection: DetectionSchema.nullable().default(null),
  by: ProcessIdSchema,
  at: z.number()
})
export type PollerReport = z.infer<typeof ReportSchema> & {
  /** True on the process that polls (its own state, taken now); false on the others (as published). */
  here: boolean
}

/** The process this code runs in. */
export function processIdentity (): ProcessId {
  return { host: hostname(), pid: process.pid, worker: cluster.worker?.id ?? null }
}

export interface PollerView {
  /** The poller's state as this process reports it; undefined when no process polls. */
  current: () => PollerReport | undefined
  /** Publishes (while polling here) or reads (otherwise) every period until stopped. */
  start: () => void
  stop: () => Promise<void>
  /** Publishes or reads once now (the timer calls this; tests call it directly). Rejects while the store cannot be reached. */
  refresh: () => Promise<void>
}

/** What the view reads of a poller (poller/poller.ts Poller, poller/odds.ts OddsPoller). */
interface HasStatus<T> { status: () => T }

export interface PollerViewDeps {
  board: StatusBoard
  poller: () => HasStatus<PollerFacts> | undefined
  odds?: () => HasStatus<OddsFacts> | undefined
  /** The detection latency, read here while this process polls and published with the poller's state. */
  detection?: DetectionWindow
  log: Logger
  /** @default processIdentity() */
  self?: ProcessId
  /** @default PUBLISH_EVERY_MS */
  periodMs?: number
  /** @default Date.now */
  now?: () => number
}

/** This process's own pollers, when the poller runs here: the report it publishes. */
function localReport (deps: Pick<PollerViewDeps, 'poller' | 'odds' | 'detection'>, self: ProcessId, at: number): PollerReport | undefined {
  const p = deps.poller()?.status()
  if (p?.running !== true) return undefined
  const o = deps.odds?.()?.status()
  return {
    poller: { running: p.running, intervalMs: p.intervalMs, lastPollAt: p.lastPollAt, lastReconcileAt: p.lastReconcileAt, lastError: p.lastError, consecutiveFailures: p.consecutiveFailures, tracked: p.tracked, pendingFinal: p.pendingFinal },
    odds: o === undefined ? null : { running: o.running, enabled: o.enabled, tracked: o.tracked, lastError: o.lastError, lastPollAt: o.lastPollAt },
    detection: deps.detection?.current() ?? null,
    by: self,
    at,
    here: true
  }
}

/**
 * A view of this process's pollers alone (a gateway without a board: tests that build the routes by hand).
 * With `detection`, its latency as of its last refresh (which `refresh` takes).
 */
export function localPollerView (poller: PollerViewDeps['poller'], odds?: PollerViewDeps['odds'], detection?: DetectionWindow): PollerView {
  const self = processIdentity()
  return {
    current: () => localReport({ poller, odds, detection }, self, Date.now()),
    start: () => {},
    stop: async () => {},
    refresh: async () => { await detection?.refresh() }
  }
}

/** The view every process of a deployment shares through the board: see the module's comment. */
export function createPollerView (deps: PollerViewDeps): PollerView {
  const self = deps.self ?? processIdentity()
  const periodMs = deps.periodMs ?? PUBLISH_EVERY_MS
  const lapseMs = periodMs * LAPSES_AFTER_PERIODS
  const now = deps.now ?? Date.now
  /** The last state read from the board, and when it was read (this process's clock). */
  let seen: { report: PollerReport, readAt: number } | undefined
  let timer: NodeJS.Timeout | undefined
  let ticking: Promise<void> | undefined
  let stopped = true
  /** A state this version cannot read (another version's, mid-upgrade) is said once, not every period. */
  let saidUnreadable = false

  async function refresh (): Promise<void> {
    // The latency is observed where the poller runs: read there, published with its state.
    if (deps.poller()?.status().running === true) await deps.detection?.refresh()
    const mine = localReport(deps, self, now())
    if (mine !== undefined) {
      const { here: _here, ...published } = mine
      await deps.board.put(NOTICE, JSON.stringify(published), lapseMs)
      return
    }
    const text = await deps.board.get(NOTICE)
    const parsed = text === undefined ? undefined : ReportSchema.safeParse(safeJson(text))
    if (parsed?.success === false && !saidUnreadable) {
      saidUnreadable = true
      deps.log.warn({ issues: parsed.error.issues.length }, 'the poller\'s published state could not be read; ignored')
    }
    seen = parsed?.success === true ? { report: { ...parsed.data, here: false }, readAt: now() } : undefined
  }

  function schedule (): void {
    if (stopped) return
    // A store that does not answer is the store's outage, logged where it matters: here the state lapses.
    ticking = refresh().catch((err: unknown) => deps.log.debug({ err }, 'poller state not published or read'))
      .finally(() => { if (!stopped) timer = setTimeout(schedule, periodMs) })
  }

  return {
    current () {
      const mine = localReport(deps, self, now())
      if (mine !== undefined) return mine
      return seen !== undefined && now() - seen.readAt <= lapseMs ? seen.report : undefined
    },
    start () {
      if (!stopped) return
      stopped = false
      schedule()
    },
    async stop () {
      stopped = true
      clearTimeout(timer)
      await ticking
    },
    refresh
  }
}

function safeJson (text: string): unknown {
  try { return JSON.parse(text) } catch { return undefined }
}
