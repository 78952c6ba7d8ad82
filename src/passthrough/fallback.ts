/**
 * The passthrough over Redis when Redis is down (degrade, don't fail: docs/operations.md).
 *
 * Cache: every entry is also kept in a small local LRU, and a read that Redis cannot answer is answered
 * from it, so what this instance served recently is still served during an outage.
 *
 * Quota: fail closed for the upstream. While Redis cannot count a request, it is counted in local windows
 * instead and marked `offline`: the service then answers it only from what needs no upstream call (the
 * live mirror, the local cache) and with 503 and `retry-after` otherwise, so a key never gets free upstream
 * calls while its shared count is out of reach. The local counts are dropped when Redis is back (requests
 * answered locally during an outage are not charged to the shared window afterwards).
 */
import type { Logger } from 'pino'
import { serverErrorBody } from '@touchline/upstream-contract/error-bodies'
import { isRedisOutage, OUTAGE_RETRY_AFTER_S, StoreUnavailableError } from '../store/unavailable.ts'
import { createMemoryCache, type ResponseCache } from './cache.ts'
import { createMemoryQuota, type QuotaStore } from './quota.ts'
import { reply, type Reply } from './replies.ts'

/** The 503 for a request that needs the shared store (Redis) while it is down: the upstream's 5xx shape, with `retry-after`. */
export function storeUnavailable (errorId: string): Reply {
  return reply(503, serverErrorBody('Service Unavailable', 'The gateway cannot reach its shared store right now, so it cannot count this request against your quota. Try again in a few seconds.', errorId), { 'retry-after': String(OUTAGE_RETRY_AFTER_S) })
}

/**
 * Bytes of the local copy of the Redis cache: enough for the pages one instance serves most (a few
 * thousand typical pages), small next to the 64 MiB of the memory engine, since it only bridges outages.
 * @default 16 MiB
 */
const LOCAL_CACHE_BYTES = 16 * 1024 * 1024

/** Runs `primary`; on a Redis outage, runs `local` instead (logging the first failure of a run of them). */
function fallback (log: Logger, what: string, onBack?: () => void): <T>(primary: () => Promise<T>, local: () => Promise<T>) => Promise<T> {
  let down = false
  return async (primary, local) => {
    try {
      const out = await primary()
      if (down) {
        log.info({ what }, 'redis back: passthrough uses it again')
        onBack?.()
      }
      down = false
      return out
    } catch (err) {
      if (!isRedisOutage(err)) throw err
      if (!down) log.warn({ err, what }, 'redis unreachable: passthrough falls back to local state')
      down = true
      return await local()
    }
  }
}

export function createFallbackCache (primary: ResponseCache, log: Logger, local: ResponseCache = createMemoryCache({ maxBytes: LOCAL_CACHE_BYTES })): ResponseCache {
  const run = fallback(log, 'cache')
  return {
    get: async (key, now) => await run(async () => await primary.get(key, now), async () => await local.get(key, now)),
    async set (key, entry, now) {
      await local.set(key, entry, now)
      await run(async () => await primary.set(key, entry, now), async () => {})
    },
    async close () {
      await Promise.all([primary.close(), local.close()])
    }
  }
}

export function createFallbackQuota (primary: QuotaStore, log: Logger): QuotaStore {
  let local = createMemoryQuota()
  // Local windows only bridge one outage; the next one starts from zero, as Redis' count is out of reach again.
  const run = fallback(log, 'quota', () => { local = createMemoryQuota() })
  return {
    take: async (keyId, entity, limit, now) => await run(
      async () => await primary.take(keyId, entity, limit, now),
      async () => ({ ...await local.take(keyId, entity, limit, now), offline: true })
    ),
    refund: async (keyId, entity, windowStart) => await run(
      async () => { await primary.refund(keyId, entity, windowStart) },
      async () => { await local.refund(keyId, entity, windowStart) }
    ),
    usage: async (keyId, limit, now) => await run(
      async () => await primary.usage(keyId, limit, now),
      async () => { throw new StoreUnavailableError(new Error('quota usage needs Redis')) }
    ),
    async close () {
      await Promise.all([primary.close(), local.close()])
    }
  }
}
