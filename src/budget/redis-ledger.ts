/**
 * Redis ledger: one hash per entity bucket, shared by every gateway instance, so the poller on one node
 * and the passthrough on another spend from the same count. Writes go through two small Lua scripts
 * (scripts/record-2.lua, scripts/reserve-2.lua) that mirror src/budget/window.ts and share.ts, registered
 * by the shared loader (util/redis-scripts.ts: EVALSHA with EVAL fallback). The pollers' claims live in a
 * hash per entity beside its bucket, read by the reserve script in the same step as the count.
 *
 * Clock: the caller's (`now` option), not Redis TIME, because `record` is given arrival times from the
 * caller's clock and both must agree; cross-instance skew is covered by SAME_WINDOW_SLACK_MS.
 * No TTL: a deployment has a few dozen entity hashes at most, and keeping them lets the last known limit
 * survive idle hours (a view past its reset extrapolates to that limit).
 */
import type { Redis, RedisKey, Result } from 'ioredis'
import { budgetKeys } from '../store/redis-keys.ts'
import { scriptLoader } from '../util/redis-scripts.ts'
import type { StoredClaim } from './share.ts'
import type { BucketView, BudgetLedger, LedgerOptions, Spender } from './types.ts'
import { checkClaim, checkCount, checkObservation, resetsAtOf, SAME_WINDOW_SLACK_MS, viewOf, type StoredBucket } from './window.ts'
import { WINDOW_MS } from '@touchline/upstream-contract/hourly-window'

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tlBudgetRecord: (
      bucket: RedisKey, entities: RedisKey, entity: string, remaining: number, resetsAt: number,
      limit: number | '', atMs: number, slackMs: number, calls: number
    ) => Result<0 | 1 | 2, Context>
    tlBudgetReserve: (
      bucket: RedisKey, claims: RedisKey, n: number, floor: number, now: number, windowMs: number, configured: number | '', by: Spender
    ) => Result<-1 | 0 | 1, Context>
  }
}

export interface RedisLedgerOptions extends LedgerOptions {
  /** Command connection, owned by the caller: the ledger never quits it. */
  redis: Redis
  /** Key prefix of this deployment. @default 'tl:' */
  prefix?: string
}

const defineBudgetCommands = scriptLoader(new URL('./scripts/', import.meta.url), { tlBudgetRecord: 'record-2', tlBudgetReserve: 'reserve-2' })

const HASH_FIELDS = ['remaining', 'resetsAt', 'limit', 'updatedAt', 'estimated', 'low', 'calls', 'learned', 'spentPollers', 'spentPassthrough'] as const
/**
 * The claims hash is kept this long after the last claim (Redis's clock): a claim's own `until` decides
 * whether it is in force; this only clears the hash of a deployment whose pollers stopped for good.
 */
const CLAIMS_KEY_TTL_MS = 2 * 3_600_000

/** Reads an HMGET reply of HASH_FIELDS; undefined when the hash does not exist. */
function fromHash (values: Array<string | null>): StoredBucket | undefined {
  const [remaining, resetsAt, limit, updatedAt, estimated, low, calls, learned, spentPollers, spentPassthrough] = values
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
  if (spentPollers !== null && spentPollers !== undefined) bucket.spentPollers = Number(spentPollers)
  if (spentPassthrough !== null && spentPassthrough !== undefined) bucket.spentPassthrough = Number(spentPassthrough)
  return bucket
}

/** Reads an HGETALL reply of a claims hash (what claim() wrote; anything else is skipped). */
function claimsFrom (hash: Record<string, string>): StoredClaim[] {
  const out: StoredClaim[] = []
  for (const json of Object.values(hash)) {
    try {
      const c = JSON.parse(json) as StoredClaim
      if ([c.perHour, c.reserve, c.lumps, c.until].every((x) => typeof x === 'number')) out.push(c)
    } catch {}
  }
  return out
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
      const [bucket, claims] = await Promise.all([redis.hmget(keys.bucket(entity), ...HASH_FIELDS), redis.hgetall(keys.claims(entity))])
      const stored = fromHash(bucket)
      return stored === undefined ? undefined : viewOf(entity, stored, now(), configured, claimsFrom(claims))
    },

    async all () {
      const entities = (await redis.smembers(keys.entities)).sort((a, b) => a.localeCompare(b))
      if (entities.length === 0) return []
      const pipeline = redis.pipeline()
      for (const entity of entities) pipeline.hmget(keys.bucket(entity), ...HASH_FIELDS).hgetall(keys.claims(entity))
      const replies = (await pipeline.exec()) ?? []
      const at = now()
      const views: BucketView[] = []
      entities.forEach((entity, i) => {
        const [err, values] = replies[2 * i] ?? [null, null]
        const [claimsErr, claims] = replies[2 * i + 1] ?? [null, {}]
        if (err !== null) throw err
        if (claimsErr !== null) throw claimsErr
        const stored = fromHash((values ?? []) as Array<string | null>)
        if (stored !== undefined) views.push(viewOf(entity, stored, at, configured, claimsFrom((claims ?? {}) as Record<string, string>)))
      })
      return views
    },

    async reserve (entity, n = 1, { by = 'pollers', floor = floorOf(entity) } = {}) {
      const reply = await redis.tlBudgetReserve(keys.bucket(entity), keys.claims(entity), checkCount(n), floor, Math.round(now()), WINDOW_MS, configured ?? '', by)
      return reply !== 0
    },

    async claim (entity, claimant, claim) {
      const { ttlMs, ...rest } = checkClaim(claim)
      const stored: StoredClaim = { ...rest, until: Math.round(now() + ttlMs) }
      await redis.multi().hset(keys.claims(entity), claimant, JSON.stringify(stored)).pexpire(keys.claims(entity), CLAIMS_KEY_TTL_MS).exec()
    },

    async close () {
      // The connection belongs to the caller; nothing else to release.
    }
  }
}
