/**
 * What the senders remember (docs/push.md, "Exactly once"), in memory for one instance or in Redis for
 * several (store/redis-keys.ts pushKeys):
 *  - per device, each alert id's state, kept for a match day (36 h): an alert is claimed before it is sent
 *    (pushClaim-2.lua), so across restarts, failover and replays a device gets an alert id at most once;
 *    the claim also counts it in the device's hourly window and drops it past its kind's ceiling;
 *  - per shard, the log cursor before which every alert was handled (written only by the shard's lease
 *    holder, webhookSave-2.lua, the script that fences webhook cursors);
 *  - per shard, the alerts to send again (429, 5xx, no answer), by when.
 */
import type { Redis } from 'ioredis'
import { pushKeys, redisKeys } from '../store/redis-keys.ts'
import { defineStoreCommands } from '../store/scripts.ts'
import { guarded } from '../store/unavailable.ts'
import type { Alert } from './alerts.ts'
import { deviceId } from './devices.ts'

/** How long a device's alert states are kept: a match day, with extra time and a late final whistle. */
export const KEEP_SENT_MS = 36 * 3600_000
const HOUR_MS = 3600_000

/** `send`: claimed, send it now; `done`: handled before (sent, in flight, failed or dropped); `capped`: dropped now. */
export type Claim = 'send' | 'done' | 'capped'
/** d delivered, r to send again, x failed for good (4xx, given up). */
export type FinalState = 'd' | 'r' | 'x'

export interface RetryEntry {
  endpoint: string
  alert: Alert
  /** Attempts made so far. */
  attempt: number
  /** When the alert was first sent (ms): past its TTL it is not sent any more. */
  firstAt: number
}

export interface AlertLedger {
  claim: (endpoint: string, alertId: string, ceiling: number, now: number) => Promise<Claim>
  mark: (endpoint: string, alertId: string, state: FinalState) => Promise<void>
  cursor: (shard: number) => Promise<string | undefined>
  /** Stores the shard's cursor if `holderId` holds its lease (always in memory). False: not written. */
  saveCursor: (shard: number, holderId: string, cursor: string) => Promise<boolean>
  leaseName: (shard: number) => string
  schedule: (shard: number, entry: RetryEntry, dueAt: number) => Promise<void>
  /** The entries due by `now`, oldest first (they stay queued until `unschedule`). */
  due: (shard: number, now: number, limit: number) => Promise<RetryEntry[]>
  unschedule: (shard: number, entry: RetryEntry) => Promise<void>
  /** Entries queued for a retry over the shards. */
  queued: (shards: number) => Promise<number>
  /** Says this instance is alive; resolves to how many instances said so within `aliveMs` (this one included). */
  heartbeat: (holderId: string, now: number, aliveMs: number) => Promise<number>
  /** This instance stops sending (its heartbeat is taken back). */
  leave: (holderId: string) => Promise<void>
}

export type AlertLedgerOptions = { kind: 'memory' } | { kind: 'redis', redis: Redis, prefix?: string }

export function createAlertLedger (opts: AlertLedgerOptions): AlertLedger {
  return opts.kind === 'memory' ? memoryLedger() : redisLedger(opts.redis, opts.prefix)
}

const member = (e: RetryEntry): string => `${deviceId(e.endpoint)}|${e.alert.id}`

function redisLedger (conn: Redis, prefix?: string): AlertLedger {
  const redis = defineStoreCommands(conn)
  const keys = pushKeys(prefix)
  const leases = redisKeys(prefix)
  const data = keys.retryData
  return {
    async claim (endpoint, alertId, ceiling, now) {
      const dev = deviceId(endpoint)
      const r = await guarded(redis.tlPushClaim(keys.sent(dev), keys.recent(dev), alertId, now, HOUR_MS, ceiling, KEEP_SENT_MS))
      return r === 1 ? 'send' : r === 2 ? 'capped' : 'done'
    },
    async mark (endpoint, alertId, state) {
      await guarded(redis.hset(keys.sent(deviceId(endpoint)), alertId, state))
    },
    async cursor (shard) {
      return await guarded(redis.hget(keys.shard(shard), 'cursor')) ?? undefined
    },
    async saveCursor (shard, holderId, cursor) {
      return await guarded(redis.tlWebhookSave(leases.lease(keys.leaseName(shard)), keys.shard(shard), holderId, 'cursor', cursor)) === 1
    },
    leaseName: keys.leaseName,
    async schedule (shard, entry, dueAt) {
      const m = member(entry)
      await guarded(redis.multi().hset(data(shard), m, JSON.stringify(entry)).zadd(keys.retries(shard), dueAt, m).exec())
    },
    async due (shard, now, limit) {
      const members = await guarded(redis.zrangebyscore(keys.retries(shard), '-inf', now, 'LIMIT', 0, limit))
      if (members.length === 0) return []
      const values = await guarded(redis.hmget(data(shard), ...members))
      return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as RetryEntry)
    },
    async unschedule (shard, entry) {
      const m = member(entry)
      await guarded(redis.multi().zrem(keys.retries(shard), m).hdel(data(shard), m).exec())
    },
    async queued (shards) {
      const p = redis.pipeline()
      for (let s = 0; s < shards; s++) p.zcard(keys.retries(s))
      return (await guarded(p.exec()) ?? []).reduce((n, [, c]) => n + Number(c ?? 0), 0)
    },
    async heartbeat (holderId, now, aliveMs) {
      const r = await guarded(redis.multi().zadd(keys.instances, now, holderId).zremrangebyscore(keys.instances, '-inf', now - aliveMs).zcard(keys.instances).exec())
      return Number(r?.[2]?.[1] ?? 1)
    },
    async leave (holderId) {
      await guarded(redis.zrem(keys.instances, holderId))
    }
  }
}

function memoryLedger (): AlertLedger {
  const sent = new Map<string, Map<string, { state: string, at: number }>>()
  const cursors = new Map<number, string>()
  const retries = new Map<number, Map<string, { entry: RetryEntry, dueAt: number }>>()
  const queue = (shard: number): Map<string, { entry: RetryEntry, dueAt: number }> => retries.get(shard) ?? retries.set(shard, new Map()).get(shard) as Map<string, { entry: RetryEntry, dueAt: number }>
  return {
    async claim (endpoint, alertId, ceiling, now) {
      const dev = deviceId(endpoint)
      const mine = sent.get(dev) ?? sent.set(dev, new Map()).get(dev) as Map<string, { state: string, at: number }>
      for (const [id, s] of mine) if (now - s.at > KEEP_SENT_MS) mine.delete(id)
      const state = mine.get(alertId)
      if (state !== undefined && state.state !== 'r') return 'done'
      if (state === undefined) {
        const recent = [...mine.values()].filter((s) => s.state !== 'c' && now - s.at < HOUR_MS).length
        if (recent >= ceiling) {
          mine.set(alertId, { state: 'c', at: now })
          return 'capped'
        }
      }
      mine.set(alertId, { state: 'i', at: state?.at ?? now })
      return 'send'
    },
    async mark (endpoint, alertId, state) {
      const s = sent.get(deviceId(endpoint))?.get(alertId)
      if (s !== undefined) s.state = state
    },
    async cursor (shard) {
      return cursors.get(shard)
    },
    async saveCursor (shard, _holderId, cursor) {
      cursors.set(shard, cursor)
      return true
    },
    leaseName: (shard) => pushKeys().leaseName(shard),
    async schedule (shard, entry, dueAt) {
      queue(shard).set(member(entry), { entry: structuredClone(entry), dueAt })
    },
    async due (shard, now, limit) {
      return [...queue(shard).values()].filter((q) => q.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt).slice(0, limit).map((q) => structuredClone(q.entry))
    },
    async unschedule (shard, entry) {
      queue(shard).delete(member(entry))
    },
    async queued () {
      return [...retries.values()].reduce((n, q) => n + q.size, 0)
    },
    async heartbeat () {
      return 1
    },
    async leave () {}
  }
}
