/**
 * The store contract (docs/architecture.md, "The pipeline"): current state of every tracked fixture, the live index, and the capped
 * event log with epoch-scoped cursors. Two engines implement it (memory-store.ts, redis-store.ts) and one
 * contract suite (test/integration/store/contract.ts) runs against both.
 */
import type { Change, ChangeRecord, FixtureOdds, LeagueStandings, LiveFixture, OddsChange, OddsRecord, Phase, StandingsChanged, StandingsRecord } from '../wire-model/model.ts'

/**
 * An entry of the event log: a fixture's changes, its odds', or a league's table (told apart by
 * `isChangeRecord`, `isOddsRecord` and `isStandingsRecord`).
 */
export type LogRecord = ChangeRecord | OddsRecord | StandingsRecord

/** Whether a log entry is a fixture's change set (it carries the fixture). */
export const isChangeRecord = (record: LogRecord): record is ChangeRecord => 'fixture' in record

/** Whether a log entry is an odds record (it carries the odds image, not the fixture). */
export const isOddsRecord = (record: LogRecord): record is OddsRecord => 'odds' in record

/** Whether a log entry is a league's table changed (it carries the table, and no fixture). */
export const isStandingsRecord = (record: LogRecord): record is StandingsRecord => 'standings' in record

/** The fixture a log entry belongs to: its own, its odds', or none (NO_FIXTURE, 0) for a league's table. */
export const fixtureIdOf = (record: LogRecord): number => isStandingsRecord(record) ? 0 : record.fixture_id

/** The fixtures' records among log entries (the odds and standings records left out). */
export const changeRecords = (records: readonly LogRecord[]): ChangeRecord[] => records.filter(isChangeRecord)

/**
 * Default length of the event log, in records. The WebSocket replay is capped at 1000 matching changes
 * (docs/protocol.md, "Resume"), so the log must hold well over that to serve a filtered replay. On a busy Saturday, about
 * 300 live fixtures each tick the clock once a minute, so 10,000 records cover roughly 30 minutes at peak
 * and hours off-peak: enough for reconnects after network drops or a rolling deploy. Each record carries
 * the full fixture (a few KB), so the log costs at most tens of MB in Redis.
 * @default 10_000
 */
export const DEFAULT_MAX_LENGTH = 10_000

/**
 * How long a fixture that left the live index stays readable by id (`getFixture`, the poller's diff base)
 * before the store forgets it: long enough for late corrections and for clients that look a final score
 * up, short enough that a gateway running for weeks does not keep every fixture it ever saw. Forgetting
 * is spread over later applies, a few fixtures at a time.
 * @default 6 hours
 */
export const DEFAULT_RETAIN_FINISHED_MS = 6 * 3600_000
/**
 * How long after its kick-off a fixture out of the live index is kept at least: the days a client may ask for
 * back (three, docs/protocol.md "Days") and one to spare. A fixture is forgotten once both this and the
 * retention after leaving the live index have passed (forgetAt).
 */
export const DAY_RETAIN_MS = 4 * 86_400_000

/** When a fixture out of the live index may be forgotten: past both retentions. */
export function forgetAt (fixture: Pick<LiveFixture, 'starting_at'>, atMs: number, retainFinishedMs: number): number {
  const kickoff = kickoffMs(fixture)
  return Math.max(atMs + retainFinishedMs, kickoff === undefined ? 0 : kickoff + DAY_RETAIN_MS)
}

/** A fixture's kick-off, epoch ms; undefined when it has none. */
export function kickoffMs (fixture: Pick<LiveFixture, 'starting_at'>): number | undefined {
  const ms = fixture.starting_at === null ? NaN : Date.parse(fixture.starting_at)
  return Number.isFinite(ms) ? ms : undefined
}

/** The days' order: by kick-off (none last), then by id. */
export function bySchedule (a: LiveFixture, b: LiveFixture): number {
  return (kickoffMs(a) ?? Infinity) - (kickoffMs(b) ?? Infinity) || a.id - b.id
}

/** Fixtures forgotten per apply at most, so an apply never does unbounded work. */
export const FORGET_BATCH = 20

/**
 * How many log entries one `readSince` call examines at most. With a narrow filter, a reader may have to
 * skip thousands of unrelated records; bounding the scan keeps the Redis script short (it blocks the
 * server while it runs) and lets the caller page with `more`.
 */
export const READ_SCAN_LIMIT = 2000

export interface ApplyInput {
  /** The new normalized fixture; its `version` is overwritten with `expectedVersion + 1`. */
  fixture: LiveFixture
  changes: Change[]
  /** Version the caller based its diff on; 0 means "not stored yet". */
  expectedVersion: number
  /** Whether the fixture belongs in the live index (live, break, suspended, or scheduled within the window). */
  live: boolean
  /** ISO 8601 time the change was detected. */
  at: string
  /**
   * Written only while the lease `lease` is held by `holder` (Redis): a leader that stalled past its lease
   * and wakes with an old answer must not write over its successor's newer state. The memory store, which
   * only one process uses, has no leases and ignores it.
   */
  fence?: ApplyFence
}

export interface ApplyFence {
  lease: string
  holder: string
}

export type ApplyResult =
  | { ok: true, record: ChangeRecord, json: string }
  | { ok: false, currentVersion: number }
  /** The fence's lease is not (any more) the writer's: nothing written. */
  | { ok: false, fenced: true }

export interface OddsApplyInput {
  /** The fixture's new odds image; its `version` is overwritten with `expectedVersion + 1`. */
  odds: FixtureOdds
  changes: OddsChange[]
  /** Version of the odds image the caller based its diff on; 0 means "none stored yet". */
  expectedVersion: number
  /** ISO 8601 time the change was detected. */
  at: string
  /** As for `apply`: written only while the poller's lease is the writer's. */
  fence?: ApplyFence
}

export type OddsApplyResult =
  | { ok: true, record: OddsRecord, json: string }
  | { ok: false, currentVersion: number }
  | { ok: false, fenced: true }

export interface StandingsApplyInput {
  /** The league's new table; its `version` is overwritten with `expectedVersion + 1`. */
  standings: LeagueStandings
  changes: StandingsChanged[]
  /** Version of the table the caller based its diff on; 0 means "none stored yet". */
  expectedVersion: number
  /** ISO 8601 time the change was detected. */
  at: string
  /** As for `apply`: written only while the poller's lease is the writer's. */
  fence?: ApplyFence
}

export type StandingsApplyResult =
  | { ok: true, record: StandingsRecord, json: string }
  | { ok: false, currentVersion: number }
  | { ok: false, fenced: true }

/**
 * Fixture/league filter. A change or fixture matches if its league OR its id is listed. Without
 * either list everything matches; with empty lists nothing does (an empty subscription receives nothing).
 */
export interface StoreFilter {
  leagues?: readonly number[]
  fixtures?: readonly number[]
}

export interface ReadSinceOptions extends StoreFilter {
  /** Maximum number of records returned. */
  limit: number
}

export interface ReadSinceResult {
  records: LogRecord[]
  /**
   * `json[i]` is `records[i]` as the store serialized it at append time (the same text a RecordListener
   * receives), so readers that forward records (replays, the changes feed) need not serialize them again.
   * Both engines return it (empty when nothing matched or the cursor is lost); optional so a wrapper or a
   * future engine may leave it out, and readers must fall back to serializing `records`.
   */
  json?: string[]
  /** Resume point: the last entry examined (or the head when `recovered` is false). */
  cursor: string
  /** False when the cursor is malformed, from another epoch, ahead of the log, or older than its start. */
  recovered: boolean
  /** True when entries exist after `cursor` (they may or may not match the filter). */
  more: boolean
}

/** Receives each appended record and its JSON, serialized once by the store so fan-out need not redo it. */
export type RecordListener = (record: LogRecord, json: string) => void

/** Receives the epoch of a new log that replaced a lost one. */
export type ResetListener = (epoch: string) => void

/** What the status page shows of the store (`LiveStore.summary`): counts, never fixtures. */
export interface StoreSummary {
  /** Fixtures of the live index by their state's phase; phases with none are left out. */
  liveByPhase: Partial<Record<Phase, number>>
  /** Records the event log holds now (at most `maxLength`). */
  logLength: number
  /** The most records the log keeps: older ones are trimmed. */
  maxLength: number
}

/** Which engine holds the state: this process's memory, or Redis (TOUCHLINE_REDIS_URL). */
export type StoreEngine = 'memory' | 'redis'

export interface LiveStore {
  readonly engine: StoreEngine
  /**
   * Applies `fixture` if `expectedVersion` matches the stored version (0 = absent): stores it with version+1,
   * adds it to or removes it from the live index according to `live`, appends one ChangeRecord. Atomic.
   */
  apply: (input: ApplyInput) => Promise<ApplyResult>
  /**
   * Applies a fixture's odds image if `expectedVersion` matches the stored odds version: stores it with
   * version+1 and appends one OddsRecord to the same log. Atomic. The image lives as long as its fixture's
   * state (it is forgotten with it).
   */
  applyOdds: (input: OddsApplyInput) => Promise<OddsApplyResult>
  /** The stored odds images among `ids`, in the order asked; fixtures without odds are skipped. */
  getOdds: (ids: readonly number[]) => Promise<FixtureOdds[]>
  /**
   * Applies a league's table if `expectedVersion` matches the stored table's version: stores it with
   * version+1 and appends one StandingsRecord to the same log. Atomic. Tables are kept (one per league).
   */
  applyStandings: (input: StandingsApplyInput) => Promise<StandingsApplyResult>
  /** The stored tables of `leagues` (every one stored without it), by league id; leagues without one are skipped. */
  getStandings: (leagues?: readonly number[]) => Promise<LeagueStandings[]>
  getFixture: (id: number) => Promise<LiveFixture | undefined>
  /** A stored fixture and whether it is in the live index; undefined when not stored. */
  getEntry: (id: number) => Promise<{ fixture: LiveFixture, live: boolean } | undefined>
  /**
   * Every stored fixture whose kick-off falls in `[fromMs, toMs)`, live or not, by kick-off then id: the
   * days' read (docs/protocol.md, "Days"). At most a few days are asked at once.
   */
  scheduled: (fromMs: number, toMs: number) => Promise<LiveFixture[]>
  /** The stored fixtures among `ids`, in the order asked; unknown ids are skipped. */
  getFixtures: (ids: readonly number[]) => Promise<LiveFixture[]>
  /** Current live snapshot matching the filter, sorted by fixture id. */
  liveFixtures: (filter?: StoreFilter) => Promise<LiveFixture[]>
  /**
   * How many fixtures the live index holds: what `liveFixtures()` would return, counted without reading
   * them (the status page asks on every refresh, on every instance).
   */
  liveCount: () => Promise<number>
  /**
   * The live index counted by phase, and the log's length, in one read that returns counts only (the status
   * page asks on every refresh, on every instance).
   */
  summary: () => Promise<StoreSummary>
  /** Ids of every fixture with stored state (live or not), ascending. */
  trackedFixtureIds: () => Promise<number[]>
  /**
   * Log entries strictly after `cursor` that match the filter. An undefined cursor reads from the oldest
   * retained entry. See ReadSinceResult for `recovered` and `more`.
   */
  readSince: (cursor: string | undefined, opts: ReadSinceOptions) => Promise<ReadSinceResult>
  /** Cursor of the latest entry, or `<epoch>:0` when the log is empty. */
  head: () => Promise<string>
  epoch: () => Promise<string>
  /**
   * Calls `onRecord` for every record appended after the returned promise resolves, in log order (for
   * Redis, across processes). Listener and transport errors go to `onError`; the tail keeps going.
   * Resolves to a function that stops the tail.
   *
   * `onReset` is called when the tail finds that the log it followed was lost and a new epoch began (Redis
   * flushed or restarted without persistence), before any record of the new epoch: readers must drop what
   * they built from the old log. The memory engine's log lives as long as the process, so it never calls it.
   */
  subscribe: (onRecord: RecordListener, onError?: (err: unknown) => void, onReset?: ResetListener) => Promise<() => Promise<void>>
  /** Stops every tail. Does not close the Redis connection passed in: its owner does. */
  close: () => Promise<void>
}
