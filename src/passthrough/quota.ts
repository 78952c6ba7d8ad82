/**
 * Per client key, per entity hourly quotas (docs/passthrough.md, "Quotas"), counted like the upstream's plans: the window of
 * an entity opens at its first request and resets one hour later (fixed, not sliding), and every request
 * counts, cache hits included. One interface, two engines, like fastify-rate-limit's LocalStore/RedisStore:
 * memory for one instance, Redis so that every instance shares one count.
 *
 * Unlike fastify-rate-limit's INCR + PEXPIRE, the Redis script stores the window start and takes `now`
 * from the caller: the window must be reported (`resets_in_seconds`, `/my/usage` periods), listed per key
 * for `/my/usage`, and follow the gateway's clock, which tests move.
 */
import type { Redis, RedisKey, Result } from 'ioredis'
import { HourlyWindows, WINDOW_MS, windowState, type WindowState } from '@touchline/upstream-contract/hourly-window'
import { passthroughKeys } from '../store/redis-keys.ts'
import { scriptLoader } from '../util/redis-scripts.ts'

export type QuotaState = WindowState

export interface QuotaStore {
  /**
   * Counts one request if the key has quota left for `entity`; `state` is after the count. `offline`: counted
   * locally because the shared store is down (fallback.ts); such a request must not reach the upstream.
   */
  take: (keyId: string, entity: string, limit: number, now: number) => Promise<{ allowed: boolean, state: QuotaState, offline?: boolean }>
  /**
   * Gives back a request that produced no answer worth counting (an error). Only within the same window:
   * a refund that arrives after a reset must not raise the new window's count.
   */
  refund: (keyId: string, entity: string, windowStart: number) => Promise<void>
  /** Every open window of a key, by entity, for `/my/usage`. */
  usage: (keyId: string, limit: number, now: number) => Promise<QuotaState[]>
  close: () => Promise<void>
}

export function createMemoryQuota (): QuotaStore {
  const windows = new HourlyWindows()
  return {
    async take (keyId, entity, limit, now) { return windows.take(keyId, entity, limit, now) },
    async refund (keyId, entity, windowStart) { windows.refund(keyId, entity, windowStart) },
    async usage (keyId, limit, now) { return windows.usage(keyId, limit, now) },
    async close () { windows.clear() }
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tlQuotaTake: (key: RedisKey, entity: string, now: number, windowMs: number, limit: number, ttlMs: number) => Result<[number, number, number], Context>
    tlQuotaRefund: (key: RedisKey, entity: string, windowStart: string) => Result<number, Context>
  }
}

/** Idle quota hashes are collected after two windows (the clock may have been moved in tests; harmless). */
const HASH_TTL_MS = 2 * WINDOW_MS
const defineQuotaCommands = scriptLoader(new URL('./scripts/', import.meta.url), { tlQuotaTake: 'quotaTake-1', tlQuotaRefund: 'quotaRefund-1' })

export interface RedisQuotaOptions {
  /** Command connection, owned by the caller. */
  redis: Redis
  /** @default 'tl:' */
  prefix?: string
}

export function createRedisQuota (opts: RedisQuotaOptions): QuotaStore {
  const redis = defineQuotaCommands(opts.redis)
  const keys = passthroughKeys(opts.prefix)
  return {
    async take (keyId, entity, limit, now) {
      const at = Math.floor(now)
      const [allowed, used, start] = await redis.tlQuotaTake(keys.quota(keyId), entity, at, WINDOW_MS, limit, HASH_TTL_MS)
      return { allowed: allowed === 1, state: windowState(entity, limit, used, start, at) }
    },
    async refund (keyId, entity, windowStart) {
      await redis.tlQuotaRefund(keys.quota(keyId), entity, String(windowStart))
    },
    async usage (keyId, limit, now) {
      const hash = await redis.hgetall(keys.quota(keyId))
      const out: QuotaState[] = []
      for (const [field, value] of Object.entries(hash)) {
        if (!field.endsWith(':s')) continue
        const entity = field.slice(0, -2)
        const start = Number(value)
        if (now - start < WINDOW_MS) out.push(windowState(entity, limit, Number(hash[`${entity}:n`] ?? 0), start, now))
      }
      return out.sort((a, b) => a.entity.localeCompare(b.entity))
    },
    async close () {}
  }
}
