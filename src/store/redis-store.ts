/**
 * Redis engine: state, live index, schedule, odds images and event log in one hash slot (see redis-keys.ts),
 * written only by apply-11.lua and applyImage-5.lua (odds images and league tables).
 *
 * Offsets: an explicit counter in the meta hash (HINCRBY), used as the stream entry id `<offset>-0`, as
 * centrifuge does. Cursors stay short integers that both engines produce alike, "strictly after" is an
 * XRANGE from `offset + 1`, and a trimmed reader is detected by comparing with the oldest entry id.
 * Auto ids (`<ms>-<seq>`) would tie cursors to the server clock and gain nothing.
 *
 * Trimming: exact `MAXLEN n`, not `~`. Approximate trimming only drops whole macro nodes (100 entries by
 * default), so how far back a cursor recovers would depend on node layout; exact trimming gives both
 * engines the same answer, and at a few appends per second its extra cost is negligible.
 *
 * Failover (a primary with replicas under Sentinel): replication is asynchronous, so a replica promoted
 * after its primary died may lack the last writes the primary acknowledged. Its log then stands at an
 * offset below one already handed out, and the next appends would reuse cursors readers hold, with other
 * records. So the store remembers the highest offset it saw acknowledged in the current epoch (`Seen`: the
 * appends, the reads, the tails), hands it to every script that may append or open the log, and a log of
 * that epoch standing below it is taken for lost: a new epoch begins, as after a flush.
 *
 * Subscribe: XREAD BLOCK on a dedicated connection per tail, starting at the head. Pub/sub is at-most-once
 * (a reconnect loses messages); the stream is the log itself, so a tail sees every record in order and
 * resumes where it stopped after a reconnect. apply still PUBLISHes each new cursor for cheap watchers.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type { FixtureOdds, LeagueStandings, LiveFixture, Phase } from '../wire-model/model.ts'
import { redisKeys, type RedisKeys } from './redis-keys.ts'
import {
  appliedAt, buildOddsRecord, buildRecord, buildStandingsRecord, checkLimit, checkMaxLength, encodeApply, encodeOddsApply,
  encodeStandingsApply, formatCursor, newEpoch, NO_FIXTURE, oddsRecordJson, parseCursor, recordJson, standingsRecordJson
} from './record.ts'
import { defineStoreCommands } from './scripts.ts'
import { guarded } from './unavailable.ts'
import {
  DEFAULT_MAX_LENGTH, DEFAULT_RETAIN_FINISHED_MS, FORGET_BATCH, forgetAt, kickoffMs, READ_SCAN_LIMIT, bySchedule,
  type LiveStore, type LogRecord, type ReadSinceOptions, type ReadSinceResult, type RecordListener, type ResetListener, type StoreFilter
} from './types.ts'

export interface RedisStoreOptions {
  /** Command connection, owned by the caller: the store never quits it. */
  redis: Redis
  /** Key prefix of this deployment. @default 'tl:' */
  prefix?: string
  /** Log length in records; see DEFAULT_MAX_LENGTH for the reasoning. @default 10_000 */
  maxLength?: number
  /** How long fixtures that left the live index stay readable by id. @default DEFAULT_RETAIN_FINISHED_MS */
  retainFinishedMs?: number
  /**
   * How long one XREAD of a tail blocks before it checks whether the epoch changed under it (a flush
   * restarts offsets at 1, below the tail's position). Bounds how late a tail notices a lost log.
   * @default 2000
   */
  tailBlockMs?: number
}

/** Records per XREAD: large enough to catch up after a hiccup in a few round trips. */
const TAIL_BATCH = 500
/** Pause after a failed XREAD (connection lost), so a dead Redis is not hammered. */
const TAIL_RETRY_MS = 250
/**
 * How long stopping a tail waits for its loop to end. A read queued while the connection was down (Redis
 * refusing, restarting) is not failed by the disconnect, and would hold the stop for its whole command
 * timeout (the block plus 2 s): a shutdown with Redis down would wait that out per tail.
 */
const TAIL_STOP_WAIT_MS = 300

/** The highest offset of `epoch` this process saw a primary acknowledge (an append, a read, a tail). */
interface Seen { epoch: string, offset: number, note: (epoch: string, offset: number) => void }

function seenTracker (): Seen {
  const seen: Seen = {
    epoch: '',
    offset: 0,
    note (epoch, offset) {
      // Another epoch replaces the mark: offsets of different logs are not comparable.
      if (epoch !== seen.epoch) {
        seen.epoch = epoch
        seen.offset = offset
      } else if (offset > seen.offset) seen.offset = offset
    }
  }
  return seen
}

type EnsureEpoch = (conn?: Redis) => Promise<{ epoch: string, offset: number }>

/** The values of an EXEC reply; throws its first error (or when the transaction was aborted). */
function execValues (replies: Array<[Error | null, unknown]> | null): unknown[] {
  if (replies === null) throw new Error('redis transaction aborted')
  return replies.map(([err, value]) => {
    if (err !== null) throw err
    return value
  })
}

export function createRedisStore (opts: RedisStoreOptions): LiveStore {
  // ioredis' keyPrefix rewrites KEYS but not the league-set prefix the scripts get in ARGV; use `prefix`.
  if (opts.redis.options.keyPrefix) throw new TypeError('use the store prefix option, not the ioredis keyPrefix')
  const redis = defineStoreCommands(opts.redis)
  const keys = redisKeys(opts.prefix)
  const maxLength = checkMaxLength(opts.maxLength ?? DEFAULT_MAX_LENGTH)
  const retainMs = opts.retainFinishedMs ?? DEFAULT_RETAIN_FINISHED_MS
  const tails = new Set<() => Promise<void>>()
  const seen = seenTracker()

  /** The log's epoch and head, opening a new epoch when there is none or the log lost acknowledged writes. */
  const ensureEpoch: EnsureEpoch = async (conn = redis) => {
    const [epoch, offset] = await guarded(defineStoreCommands(conn).tlEnsureEpoch(keys.meta, keys.log, newEpoch(), seen.epoch, seen.offset))
    seen.note(epoch, offset)
    return { epoch, offset }
  }

  const fixturesFrom = (jsons: ReadonlyArray<string | null>): LiveFixture[] =>
    jsons.flatMap((json) => json === null ? [] : [JSON.parse(json) as LiveFixture])

  const store: LiveStore = {
    engine: 'redis',
    async apply (input) {
      const enc = encodeApply(input)
      const { id, league_id: leagueId } = enc.fixture
      const at = appliedAt(input)
      const reply = await guarded(redis.tlApply(
        keys.meta, keys.log, keys.versions, keys.fixtures, keys.live, keys.liveLeague(leagueId), keys.retired,
        keys.lease(input.fence?.lease ?? 'poller'), keys.oddsVersions, keys.odds, keys.schedule, id, leagueId, input.expectedVersion, input.live ? 1 : 0,
        enc.fixtureJson, enc.head, newEpoch(), maxLength, keys.changesChannel, keys.liveLeaguePrefix, at, forgetAt(enc.fixture, at, retainMs),
        FORGET_BATCH, input.fence?.holder ?? '', seen.epoch, seen.offset, kickoffMs(enc.fixture) ?? ''
      ))
      if (reply[0] === 2) return { ok: false, fenced: true }
      if (reply[0] === 0) return { ok: false, currentVersion: reply[1] }
      seen.note(reply[1], reply[2])
      const cursor = formatCursor(reply[1], reply[2])
      return { ok: true, record: buildRecord(cursor, input, enc), json: recordJson(cursor, enc) }
    },

    async applyOdds (input) {
      const enc = encodeOddsApply(input)
      const { fixture_id: id, league_id: leagueId } = enc.odds
      const reply = await guarded(redis.tlApplyImage(
        keys.meta, keys.log, keys.oddsVersions, keys.odds, keys.lease(input.fence?.lease ?? 'poller'), id, leagueId, input.expectedVersion,
        enc.oddsJson, enc.head, newEpoch(), maxLength, keys.changesChannel, input.fence?.holder ?? '', seen.epoch, seen.offset, id
      ))
      if (reply[0] === 2) return { ok: false, fenced: true }
      if (reply[0] === 0) return { ok: false, currentVersion: reply[1] }
      seen.note(reply[1], reply[2])
      const cursor = formatCursor(reply[1], reply[2])
      return { ok: true, record: buildOddsRecord(cursor, input, enc), json: oddsRecordJson(cursor, enc) }
    },

    async applyStandings (input) {
      const enc = encodeStandingsApply(input)
      const leagueId = enc.standings.league_id
      const reply = await guarded(redis.tlApplyImage(
        keys.meta, keys.log, keys.standingsVersions, keys.standings, keys.lease(input.fence?.lease ?? 'poller'), leagueId, leagueId,
        input.expectedVersion, enc.standingsJson, enc.head, newEpoch(), maxLength, keys.changesChannel, input.fence?.holder ?? '',
        seen.epoch, seen.offset, NO_FIXTURE
      ))
      if (reply[0] === 2) return { ok: false, fenced: true }
      if (reply[0] === 0) return { ok: false, currentVersion: reply[1] }
      seen.note(reply[1], reply[2])
      const cursor = formatCursor(reply[1], reply[2])
      return { ok: true, record: buildStandingsRecord(cursor, input, enc), json: standingsRecordJson(cursor, enc) }
    },

    async getStandings (leagues) {
      if (leagues === undefined) {
        const all = await guarded(redis.hgetall(keys.standings))
        return Object.keys(all).map(Number).sort((a, b) => a - b).map((id) => JSON.parse(all[String(id)] as string) as LeagueStandings)
      }
      if (leagues.length === 0) return []
      const jsons = await guarded(redis.hmget(keys.standings, ...leagues.map(String)))
      return jsons.flatMap((json) => json === null ? [] : [JSON.parse(json) as LeagueStandings])
    },

    async getOdds (ids) {
      if (ids.length === 0) return []
      const jsons = await guarded(redis.hmget(keys.odds, ...ids.map(String)))
      return jsons.flatMap((json) => json === null ? [] : [JSON.parse(json) as FixtureOdds])
    },

    async getFixture (id) {
      const json = await guarded(redis.hget(keys.fixtures, String(id)))
      return json === null ? undefined : JSON.parse(json) as LiveFixture
    },

    async getEntry (id) {
      // MULTI: the fixture and its membership of the live index as of one moment.
      const replies = await guarded(redis.multi().hget(keys.fixtures, String(id)).hexists(keys.live, String(id)).exec())
      const [json, live] = execValues(replies) as [string | null, number]
      return json === null ? undefined : { fixture: JSON.parse(json) as LiveFixture, live: live === 1 }
    },

    async scheduled (fromMs, toMs) {
      return fixturesFrom(await guarded(redis.tlScheduled(keys.schedule, keys.fixtures, Math.floor(fromMs), Math.ceil(toMs)))).sort(bySchedule)
    },

    async getFixtures (ids) {
      if (ids.length === 0) return []
      return fixturesFrom(await guarded(redis.hmget(keys.fixtures, ...ids.map(String))))
    },

    async liveFixtures (filter?: StoreFilter) {
      const all = filter?.leagues === undefined && filter?.fixtures === undefined
      const jsons = await guarded(redis.tlLiveFixtures(
        keys.fixtures, keys.live, all ? 1 : 0, (filter?.leagues ?? []).join(','), (filter?.fixtures ?? []).join(','),
        keys.liveLeaguePrefix
      ))
      return fixturesFrom(jsons).sort((a, b) => a.id - b.id)
    },

    async liveCount () {
      return await guarded(redis.hlen(keys.live))
    },

    async summary () {
      const [logLength, ...pairs] = await guarded(redis.tlLiveSummary(keys.live, keys.fixtures, keys.log))
      const liveByPhase: Partial<Record<Phase, number>> = {}
      for (let i = 0; i + 1 < pairs.length; i += 2) liveByPhase[pairs[i] as Phase] = Number(pairs[i + 1])
      return { liveByPhase, logLength: Number(logLength), maxLength }
    },

    async trackedFixtureIds () {
      return (await guarded(redis.hkeys(keys.versions))).map(Number).sort((a, b) => a - b)
    },

    async readSince (cursor, opts) {
      return await readLog(redis, keys, seen, async () => await store.head(), cursor, opts)
    },

    async head () {
      const { epoch, offset } = await ensureEpoch()
      return formatCursor(epoch, offset)
    },

    async epoch () {
      return (await ensureEpoch()).epoch
    },

    async subscribe (onRecord, onError, onReset) {
      const start = await ensureEpoch()
      const stop = startTail(redis, keys, start, ensureEpoch, seen, { onRecord, onError, onReset }, opts.tailBlockMs ?? 2000)
      const unsubscribe = async (): Promise<void> => {
        tails.delete(unsubscribe)
        await stop()
      }
      tails.add(unsubscribe)
      return unsubscribe
    },

    async close () {
      await Promise.all([...tails].map((stop) => stop()))
    }
  }
  return store
}

/**
 * The records after `cursor` matching the options, up to `limit` (readSince-2.lua), or recovered:false for
 * a cursor the log no longer holds or of another epoch. `head` opens the epoch when there is none.
 */
async function readLog (
  redis: ReturnType<typeof defineStoreCommands>, keys: RedisKeys, seen: Seen, head: () => Promise<string>, cursor: string | undefined, opts: ReadSinceOptions
): Promise<ReadSinceResult> {
  checkLimit(opts.limit)
  const parsed = cursor === undefined ? { epoch: '', offset: 0 } : parseCursor(cursor)
  if (parsed === undefined) return { records: [], json: [], cursor: await head(), recovered: false, more: false }
  const all = opts.leagues === undefined && opts.fixtures === undefined
  const reply = await guarded(redis.tlReadSince(
    keys.meta, keys.log, parsed.epoch, parsed.offset, opts.limit, READ_SCAN_LIMIT,
    all ? 1 : 0, (opts.leagues ?? []).join(','), (opts.fixtures ?? []).join(',')
  ))
  if (reply[0] === 0) {
    // No epoch at all: nothing written yet, or the log was lost. Open the epoch; a reader without a
    // cursor has lost nothing, so only a reader with one gets recovered:false.
    const current = reply[1] === '' ? await head() : formatCursor(reply[1], reply[2])
    return { records: [], json: [], cursor: current, recovered: reply[1] === '' && cursor === undefined, more: false }
  }
  const [, epoch, logHead, last, ...json] = reply
  seen.note(epoch, logHead)
  return {
    records: json.map((text) => JSON.parse(text) as LogRecord),
    // The script returns each record's JSON as apply stored it; handed on so readers need not re-serialize.
    json,
    cursor: formatCursor(epoch, last),
    recovered: true,
    more: last < logHead
  }
}

/** Tails the log from `start` on a duplicate connection until the returned function is called. */
function startTail (
  redis: Redis, keys: RedisKeys, start: { epoch: string, offset: number }, ensureEpoch: EnsureEpoch, seen: Seen,
  listeners: { onRecord: RecordListener, onError: ((err: unknown) => void) | undefined, onReset: ResetListener | undefined },
  blockMs: number
): () => Promise<void> {
  const { onRecord, onError, onReset } = listeners
  // Blocking reads need their own connection; the command connection must stay free for everyone else.
  // Its command timeout must outlast the XREAD's own BLOCK, or every idle read would time out. It queues
  // commands until it is connected (its first XREAD is sent at once), whatever the command connection does.
  // A read the connection loses fails at once (no retries per request) rather than being sent again after
  // the reconnection, where it would block a whole `blockMs` on a restarted Redis before the epoch is checked.
  const timeout = redis.options.commandTimeout
  const conn = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: 0, ...(timeout === undefined ? {} : { commandTimeout: timeout + blockMs }) })
  // Connection errors also fail the pending XREAD, which reports them; this only keeps ioredis from printing them.
  conn.on('error', () => {})
  // An object, not a `let`: the loop condition reads it while the stop function flips it.
  const state = { closed: false }
  let epoch = start.epoch
  let lastId = `${start.offset}-0`
  /**
   * Whether the log may have been lost since the last read: after a failed read (a restart drops the
   * connection) the epoch is checked before waiting on XREAD, so a reset does not wait for an idle read.
   */
  let suspect = false

  /** The log was lost: follow the new one from its start, and tell the listener before its first record. */
  const reset = (next: string): void => {
    epoch = next
    lastId = '0-0'
    if (!state.closed) onReset?.(next)
  }

  /**
   * Resets when the epoch changed. A missing epoch is a lost log nobody has written to yet, and a log that
   * stands below what this process saw acknowledged lost writes in a failover: the script opens the new one.
   */
  const checkEpoch = async (): Promise<boolean> => {
    const current = (await ensureEpoch(conn)).epoch
    suspect = false
    if (current === epoch) return false
    reset(current)
    return true
  }

  const step = async (): Promise<void> => {
    if (suspect && await checkEpoch()) return
    const reply = await conn.xread('COUNT', TAIL_BATCH, 'BLOCK', blockMs, 'STREAMS', keys.log, lastId)
    if (reply === null) {
      // Idle: a flush may have restarted offsets below lastId, where XREAD would never look.
      await checkEpoch()
      return
    }
    for (const [id, fields] of reply[0]?.[1] ?? []) {
      const json = fields[5] as string // fields: f, <id>, l, <league>, r, <json>
      const record = JSON.parse(json) as LogRecord
      const recordEpoch = parseCursor(record.cursor)?.epoch ?? epoch
      if (recordEpoch !== epoch) {
        // A new epoch whose offsets already passed lastId: re-read the new log from its start.
        reset(recordEpoch)
        return
      }
      lastId = id
      seen.note(recordEpoch, Number(id.slice(0, id.indexOf('-'))))
      if (state.closed) return
      try {
        onRecord(record, json)
      } catch (err) {
        onError?.(err)
      }
    }
  }

  const loop = (async () => {
    while (!state.closed) {
      try {
        await step()
      } catch (err) {
        if (state.closed) break
        suspect = true
        onError?.(err)
        await new Promise((resolve) => setTimeout(resolve, TAIL_RETRY_MS))
      }
    }
  })()

  return async () => {
    if (state.closed) return
    state.closed = true
    // Rejects the pending blocking XREAD at once instead of waiting for its timeout (on a frozen link,
    // once ioredis gives up waiting for Redis to close its side: disconnectTimeout).
    conn.disconnect()
    // The loop checks `closed` after every await: one that ends later delivers nothing more.
    await Promise.race([loop, sleep(TAIL_STOP_WAIT_MS)])
  }
}
