/**
 * Redis ledger: one hash per entity bucket, shared by every gateway instance, so the poller on one node
 * and the passthrough on another spend from the same count. Writes go through two small Lua scripts
 * (scripts/record-2.lua, scripts/reserve-1.lua) that mirror src/budget/window.ts, registered by the shared
 * loader (util/redis-scripts.ts: EVALSHA with EVAL fallback).
 *
 * Clock: the caller's (`now` option), not Redis TIME, because `record` is given arrival times from the
 * caller's clock and both must agree; cross-instance skew is covered by SAME_WINDOW_SLACK_MS.
 * No TTL: a deployment has a few dozen entity hashes at most, and keeping them lets the last known limit
 * survive idle hours (a view past its reset extrapolates to that limit).
 */
import type { Redis, RedisKey, Result } from 'ioredis'
import { budgetKeys } from '../store/redis-keys.ts'
import { scriptLoader } from '../util/redis-scripts.ts'
import type { BucketView, BudgetLedger, LedgerOptions } from './types.ts'
import { checkCount, checkObservation, resetsAtOf, SAME_WINDOW_SLACK_MS, viewOf, type StoredBucket } from './window.ts'
import { WINDOW_MS } from '../contract/hourly-window.ts'

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tlBudgetRecord: (
      bucket: RedisKey, entities: RedisKey, entity: string, remaining: number, resetsAt: number,
      limit: number | '', atMs: number, slackMs: number, calls: number
    ) => Result<0 | 1 | 2, Context>
    tlBudgetReserve: (bucket: RedisKey, n: number, floor: number, now: number, windowMs: number, configured: number | '') => Result<-1 | 0 | 1, Context>
  }
}

export interface RedisLedgerOptions extends LedgerOptions {
  /** Command connection, owned by the caller: the ledger never quits it. */
  redis: Redis
  /** Key prefix of this deployment. @default 'tl:' */
  prefix?: string
}

const defineBudgetCommands = scriptLoader(new URL('./scripts/', import.meta.url), { tlBudgetRecord: 'record-2', tlBudgetReserve: 'reserve-1' })

const HASH_FIELDS = ['remaining', 'resetsAt', 'limit', 'updatedAt', 'estimated', 'low', 'calls', 'learned'] as const

/** Reads an HMGET reply of HASH_FIELDS; undefined when the hash does not exist. */
function fromHash (values: Array<string | null>): StoredBucket | undefined {
  const [remaining, resetsAt, limit, updatedAt, estimated, low, calls, learned] = values
  if (remaining === null || remaining === undefined || resetsAt === null || resetsAt === undefined) return undefined
  const bucket: StoredBucket = {
    remaining: Number(remaining),
    resetsAt: Number(resetsAt),
    updatedAt: Number(updatedAt ?? resetsAt),
    estimated: estimated === '1'
  }
  if (limit !== null && limit !== undefined) bucket.limit = Number(limit)
  if (low !== null && low !== undefined) bucket.low = Number(low)
  if (calls !== null && calls !== undefined) bucket.calls = Number(calls)
  if (learned !== null && learned !== undefined) bucket.learned = Number(learned)
  return bucket
}

export function createRedisLedger (opts: RedisLedgerOptions): BudgetLedger {
  const redis = defineBudgetCommands(opts.redis)
  const keys = budgetKeys(opts.prefix)
  const now = opts.now ?? Date.now
  const floorOf = opts.floor ?? (() => 0)
  const configured = opts.limit

  return {
    async record (entity, obs, atMs = now()) {
      checkObservation(obs, atMs)
      const at = Math.round(atMs)
      await redis.tlBudgetRecord(
        keys.bucket(entity), keys.entities, entity,
        Math.max(0, Math.floor(obs.remaining)), resetsAtOf(obs, at),
        obs.limit === undefined ? '' : Math.floor(obs.limit), at, SAME_WINDOW_SLACK_MS, Math.max(0, Math.floor(obs.calls ?? 1))
      )
    },

    async get (entity) {
      const stored = fromHash(await redis.hmget(keys.bucket(entity), ...HASH_FIELDS))
      return stored === undefined ? undefined : viewOf(entity, stored, now(), configured)
    },

    async all () {
      const entities = (await redis.smembers(keys.entities)).sort((a, b) => a.localeCompare(b))
      if (entities.length === 0) return []
      const pipeline = redis.pipeline()
      for (const entity of entities) pipeline.hmget(keys.bucket(entity), ...HASH_FIELDS)
      const replies = (await pipeline.exec()) ?? []
      const at = now()
      const views: BucketView[] = []
      entities.forEach((entity, i) => {
        const [err, values] = replies[i] ?? [null, null]
        if (err !== null) throw err
        const stored = fromHash((values ?? []) as Array<string | null>)
        if (stored !== undefined) views.push(viewOf(entity, stored, at, configured))
      })
      return views
    },

    async reserve (entity, n = 1, floor = floorOf(entity)) {
      const reply = await redis.tlBudgetReserve(keys.bucket(entity), checkCount(n), floor, Math.round(now()), WINDOW_MS, configured ?? '')
      return reply !== 0
    },

    async close () {
      // The connection belongs to the caller; nothing else to release.
    }
  }
}
