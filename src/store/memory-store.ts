/**
 * In-process engine: the default when no Redis is configured (TOUCHLINE_REDIS_URL unset, docs/settings.md). Every method runs synchronously
 * inside one tick, which is what makes `apply` atomic here. The epoch is created at construction, so a
 * restart is a lost log and old cursors get recovered:false, exactly as after a Redis flush.
 *
 * State and log are kept as the JSON built at apply time and parsed on every read, as Redis does: readers
 * and listeners get their own objects, and a caller that later mutates the fixture it applied (or one it
 * read) cannot change what the store holds.
 */
import type { FixtureOdds, LeagueStandings, LiveFixture, Phase } from '../wire-model/model.ts'
import {
  appliedAt, buildOddsRecord, buildRecord, buildStandingsRecord, checkLimit, checkMaxLength, encodeApply, encodeOddsApply,
  encodeStandingsApply, formatCursor, matcher, newEpoch, NO_FIXTURE, oddsRecordJson, parseCursor, recordJson, standingsRecordJson
} from './record.ts'
import {
  bySchedule, DEFAULT_MAX_LENGTH, DEFAULT_RETAIN_FINISHED_MS, FORGET_BATCH, forgetAt, kickoffMs, READ_SCAN_LIMIT,
  type ApplyInput, type ApplyResult, type LiveStore, type LogRecord, type OddsApplyInput, type OddsApplyResult, type ReadSinceOptions,
  type ReadSinceResult, type RecordListener, type StoreFilter
} from './types.ts'

export interface MemoryStoreOptions {
  /** Log length in records; see DEFAULT_MAX_LENGTH for the reasoning. @default 10_000 */
  maxLength?: number
  /** How long fixtures that left the live index stay readable by id. @default DEFAULT_RETAIN_FINISHED_MS */
  retainFinishedMs?: number
}

interface Stored { version: number, leagueId: number, phase: Phase, json: string }
interface Entry { offset: number, fixtureId: number, leagueId: number, json: string }
interface Listener { onRecord: RecordListener, onError: ((err: unknown) => void) | undefined }

export function createMemoryStore (opts: MemoryStoreOptions = {}): LiveStore {
  const maxLength = checkMaxLength(opts.maxLength ?? DEFAULT_MAX_LENGTH)
  const epoch = newEpoch()
  const fixtures = new Map<number, Stored>()
  /** Each fixture's odds image, with its own version. */
  const odds = new Map<number, { version: number, json: string }>()
  /** Each league's table, with its own version. */
  const standings = new Map<number, { version: number, json: string }>()
  const live = new Set<number>()
  /** Fixtures out of the live index, with when each may be forgotten (forgetAt). */
  const retired = new Map<number, number>()
  /** Every stored fixture with a kick-off, by id: the days' index. */
  const schedule = new Map<number, number>()
  const retainMs = opts.retainFinishedMs ?? DEFAULT_RETAIN_FINISHED_MS
  // Contiguous offsets: log[i].offset === log[0].offset + i, so a cursor maps to an index by subtraction.
  const log: Entry[] = []
  let offset = 0
  const listeners = createListeners()

  function append (input: ApplyInput): ApplyResult & { ok: true } {
    const enc = encodeApply(input)
    fixtures.set(enc.fixture.id, { version: enc.fixture.version, leagueId: enc.fixture.league_id, phase: enc.fixture.state.phase, json: enc.fixtureJson })
    const at = appliedAt(input)
    retired.delete(enc.fixture.id)
    if (input.live) {
      live.add(enc.fixture.id)
    } else {
      live.delete(enc.fixture.id)
      retired.set(enc.fixture.id, forgetAt(enc.fixture, at, retainMs))
    }
    const kickoff = kickoffMs(enc.fixture)
    if (kickoff === undefined) schedule.delete(enc.fixture.id)
    else schedule.set(enc.fixture.id, kickoff)
    forget(at)
    const cursor = push(enc.fixture.id, enc.fixture.league_id, (c) => recordJson(c, enc))
    return { ok: true, record: buildRecord(cursor, input, enc), json: recordJson(cursor, enc) }
  }

  function appendOdds (input: OddsApplyInput): OddsApplyResult & { ok: true } {
    const enc = encodeOddsApply(input)
    odds.set(enc.odds.fixture_id, { version: enc.odds.version, json: enc.oddsJson })
    const cursor = push(enc.odds.fixture_id, enc.odds.league_id, (c) => oddsRecordJson(c, enc))
    return { ok: true, record: buildOddsRecord(cursor, input, enc), json: oddsRecordJson(cursor, enc) }
  }

  /** Appends one entry to the log; returns its cursor. */
  function push (fixtureId: number, leagueId: number, json: (cursor: string) => string): string {
    offset += 1
    const cursor = formatCursor(epoch, offset)
    log.push({ offset, fixtureId, leagueId, json: json(cursor) })
    // Exact trim, like the Redis engine's exact MAXLEN, so both engines recover the same cursors.
    if (log.length > maxLength) log.splice(0, log.length - maxLength)
    return cursor
  }

  /**
   * Drops a few fixtures whose time to be forgotten has come (as apply-11.lua does). Their times are not in
   * the order they were retired (a fixture of a day ahead is kept until its day has passed), so every one is
   * looked at: a few thousand at most, the days held.
   */
  function forget (now: number): void {
    let n = 0
    for (const [id, after] of retired) {
      if (n >= FORGET_BATCH) break
      if (after >= now) continue
      retired.delete(id)
      fixtures.delete(id)
      odds.delete(id)
      schedule.delete(id)
      n++
    }
  }

  return {
    engine: 'memory',
    async apply (input) {
      const current = fixtures.get(input.fixture.id)?.version ?? 0
      if (current !== input.expectedVersion) return { ok: false, currentVersion: current }
      const result = append(input)
      listeners.notify(result.json)
      return result
    },
    async applyOdds (input) {
      const current = odds.get(input.odds.fixture_id)?.version ?? 0
      if (current !== input.expectedVersion) return { ok: false, currentVersion: current }
      const result = appendOdds(input)
      listeners.notify(result.json)
      return result
    },
    async applyStandings (input) {
      const current = standings.get(input.standings.league_id)?.version ?? 0
      if (current !== input.expectedVersion) return { ok: false, currentVersion: current }
      const enc = encodeStandingsApply(input)
      standings.set(enc.standings.league_id, { version: enc.standings.version, json: enc.standingsJson })
      const cursor = push(NO_FIXTURE, enc.standings.league_id, (c) => standingsRecordJson(c, enc))
      const result = { ok: true as const, record: buildStandingsRecord(cursor, input, enc), json: standingsRecordJson(cursor, enc) }
      listeners.notify(result.json)
      return result
    },
    async getStandings (leagues) {
      const ids = leagues ?? [...standings.keys()].sort((a, b) => a - b)
      return ids.flatMap((id) => {
        const stored = standings.get(id)
        return stored === undefined ? [] : [JSON.parse(stored.json) as LeagueStandings]
      })
    },
    async getOdds (ids) {
      return ids.flatMap((id) => {
        const stored = odds.get(id)
        return stored === undefined ? [] : [JSON.parse(stored.json) as FixtureOdds]
      })
    },
    async getFixture (id) {
      return parse(fixtures.get(id))
    },
    async getFixtures (ids) {
      return ids.flatMap((id) => parse(fixtures.get(id)) ?? [])
    },
    async getEntry (id) {
      const fixture = parse(fixtures.get(id))
      return fixture === undefined ? undefined : { fixture, live: live.has(id) }
    },
    async scheduled (fromMs, toMs) {
      const ids = [...schedule].filter(([, at]) => at >= fromMs && at < toMs).map(([id]) => id)
      return ids.map((id) => parse(fixtures.get(id)) as LiveFixture).sort(bySchedule)
    },
    async liveFixtures (filter?: StoreFilter) {
      const matches = matcher(filter)
      return [...live].sort((a, b) => a - b)
        .filter((id) => matches(id, (fixtures.get(id) as Stored).leagueId))
        .map((id) => parse(fixtures.get(id)) as LiveFixture)
    },
    async liveCount () {
      return live.size
    },
    async summary () {
      const liveByPhase: Partial<Record<Phase, number>> = {}
      for (const id of live) {
        const phase = (fixtures.get(id) as Stored).phase
        liveByPhase[phase] = (liveByPhase[phase] ?? 0) + 1
      }
      return { liveByPhase, logLength: log.length, maxLength }
    },
    async trackedFixtureIds () {
      return [...fixtures.keys()].sort((a, b) => a - b)
    },
    async readSince (cursor, opts) {
      return readLog(log, formatCursor(epoch, offset), cursor, opts)
    },
    async head () {
      return formatCursor(epoch, offset)
    },
    async epoch () {
      return epoch
    },
    async subscribe (onRecord, onError) {
      const listener: Listener = { onRecord, onError }
      listeners.set.add(listener)
      return async () => { listeners.set.delete(listener) }
    },
    async close () {
      listeners.set.clear()
    }
  }
}

/**
 * The records after `cursor` (from the log's start without one) matching the options, up to `limit`, or
 * recovered:false for a cursor the log no longer holds, of another epoch, or ahead of `head`. Scans at most
 * READ_SCAN_LIMIT entries per call, as the Redis script does.
 */
function readLog (log: readonly Entry[], head: string, cursor: string | undefined, opts: ReadSinceOptions): ReadSinceResult {
  checkLimit(opts.limit)
  const { epoch, offset } = parseCursor(head) as { epoch: string, offset: number }
  const first = log[0]?.offset ?? offset + 1
  let from = first - 1
  if (cursor !== undefined) {
    const parsed = parseCursor(cursor)
    if (parsed === undefined || parsed.epoch !== epoch || parsed.offset > offset || parsed.offset < first - 1) {
      return { records: [], json: [], cursor: head, recovered: false, more: false }
    }
    from = parsed.offset
  }
  const matches = matcher(opts)
  const json: string[] = []
  let last = from
  const end = Math.min(log.length, from - first + 1 + READ_SCAN_LIMIT)
  for (let i = from - first + 1; i < end && json.length < opts.limit; i++) {
    const entry = log[i] as Entry
    last = entry.offset
    if (matches(entry.fixtureId, entry.leagueId)) json.push(entry.json)
  }
  const records = json.map((text) => JSON.parse(text) as LogRecord)
  return { records, json, cursor: formatCursor(epoch, last), recovered: true, more: last < offset }
}

function parse (stored: Stored | undefined): LiveFixture | undefined {
  return stored === undefined ? undefined : JSON.parse(stored.json) as LiveFixture
}

/**
 * The store's subscribers, and the delivery of each appended record to all of them in log order. A
 * listener may apply again while being notified: the records it appends are queued behind the one being
 * delivered, so every listener still sees them in log order.
 */
function createListeners (): { set: Set<Listener>, notify: (json: string) => void } {
  const set = new Set<Listener>()
  const pending: string[] = []
  let draining = false

  function deliver (json: string): void {
    const record = JSON.parse(json) as LogRecord
    for (const l of set) {
      try {
        l.onRecord(record, json)
      } catch (err) {
        l.onError?.(err)
      }
    }
  }

  return {
    set,
    notify (json) {
      if (set.size === 0) return
      pending.push(json)
      if (draining) return
      draining = true
      try {
        for (let next = pending.shift(); next !== undefined; next = pending.shift()) deliver(next)
      } finally {
        draining = false
      }
    }
  }
}
