/**
 * Leadership leases (docs/architecture.md, "Scale-out"): exactly one instance polls upstream. The holder renews well within the
 * ttl; when it dies the lease expires and another instance takes over within one ttl. Every transition is
 * a compare-and-set on the holder id (Lua in Redis), so a stalled ex-holder can neither renew nor release
 * its successor's lease.
 */
import type { Redis } from 'ioredis'
import { redisKeys } from './redis-keys.ts'
import { defineStoreCommands } from './scripts.ts'

export interface Lease {
  /** Takes `name` if free or expired, or extends it if `holderId` already holds it. True when held. */
  acquire: (name: string, holderId: string, ttlMs: number) => Promise<boolean>
  /** Extends the lease only if `holderId` still holds it. False means leadership was lost: stop leading. */
  renew: (name: string, holderId: string, ttlMs: number) => Promise<boolean>
  /** Frees the lease if `holderId` holds it (on graceful shutdown, so a successor need not wait the ttl). */
  release: (name: string, holderId: string) => Promise<boolean>
  /** Current holder, or undefined when free. */
  holder: (name: string) => Promise<string | undefined>
}

export type LeaseOptions =
  /** `now` is injectable so unit tests can drive expiry with a fake clock. @default Date.now */
  | { kind: 'memory', now?: () => number }
  /** `redis` is the command connection (not closed here); `prefix` as for the store. @default prefix 'tl:' */
  | { kind: 'redis', redis: Redis, prefix?: string }

export function createLease (opts: LeaseOptions): Lease {
  return opts.kind === 'memory' ? memoryLease(opts.now ?? Date.now) : redisLease(opts.redis, opts.prefix)
}

function checkTtl (ttlMs: number): number {
  // PX needs a positive integer; a fractional ttl would be an error from Redis, so fail the same way in memory.
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`lease ttl must be a positive integer of ms, got ${ttlMs}`)
  return ttlMs
}

function redisLease (conn: Redis, prefix?: string): Lease {
  const redis = defineStoreCommands(conn)
  const keys = redisKeys(prefix)
  return {
    async acquire (name, holderId, ttlMs) {
      return await redis.tlLeaseAcquire(keys.lease(name), holderId, checkTtl(ttlMs)) === 1
    },
    async renew (name, holderId, ttlMs) {
      return await redis.tlLeaseRenew(keys.lease(name), holderId, checkTtl(ttlMs)) === 1
    },
    async release (name, holderId) {
      return await redis.tlLeaseRelease(keys.lease(name), holderId) === 1
    },
    async holder (name) {
      return await redis.get(keys.lease(name)) ?? undefined
    }
  }
}

function memoryLease (now: () => number): Lease {
  const leases = new Map<string, { holderId: string, expiresAt: number }>()
  const current = (name: string): string | undefined => {
    const lease = leases.get(name)
    if (lease === undefined) return undefined
    if (lease.expiresAt > now()) return lease.holderId
    leases.delete(name)
    return undefined
  }
  return {
    async acquire (name, holderId, ttlMs) {
      checkTtl(ttlMs)
      const holder = current(name)
      if (holder !== undefined && holder !== holderId) return false
      leases.set(name, { holderId, expiresAt: now() + ttlMs })
      return true
    },
    async renew (name, holderId, ttlMs) {
      checkTtl(ttlMs)
      if (current(name) !== holderId) return false
      leases.set(name, { holderId, expiresAt: now() + ttlMs })
      return true
    },
    async release (name, holderId) {
      if (current(name) !== holderId) return false
      leases.delete(name)
      return true
    },
    async holder (name) {
      return current(name)
    }
  }
}
