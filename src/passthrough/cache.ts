/**
 * The response cache: one interface, two engines (docs/passthrough.md, "Cache"). Memory is an LRU bounded in bytes and
 * entries; Redis shares entries between gateway instances. Entries carry their own `expiresAt` on the
 * caller's clock, checked on every read, so tests that move the clock expire them; Redis' own PX expiry only
 * collects the garbage.
 *
 * A cache failure is never a client failure: the passthrough logs it and calls the upstream instead.
 */
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import { deserializeEntry, entrySize, serializeEntry, type CachedEntry } from './entry.ts'
import { passthroughKeys } from '../store/redis-keys.ts'
import { requestDigest } from './digest.ts'

export interface ResponseCache {
  /** The live entry for a request key, or undefined (absent or expired at `now`). */
  get: (key: string, now: number) => Promise<CachedEntry | undefined>
  /** Stores an entry until its `expiresAt`. */
  set: (key: string, entry: CachedEntry, now: number) => Promise<void>
  close: () => Promise<void>
}

export interface MemoryCacheOptions {
  /**
   * Bound on the bytes held (the `data` text of each entry plus a fixed overhead). 64 MiB holds thousands of
   * typical pages (5 to 50 KB) and a few `populate` pages of 1000 fixtures. @default 64 MiB
   */
  maxBytes?: number
  /** Bound on the number of entries, whatever their size. @default 10_000 */
  maxEntries?: number
}

export function createMemoryCache (opts: MemoryCacheOptions = {}): ResponseCache {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024
  // Least recently used first out, bounded in entries and in bytes. Expiry is the entries' own `expiresAt`
  // on the caller's clock (checked on read), not the library's timer.
  const entries = new LRUCache<string, CachedEntry>({ max: opts.maxEntries ?? 10_000, maxSize: maxBytes, sizeCalculation: entrySize })

  return {
    async get (key, now) {
      const found = entries.get(key)
      if (found === undefined) return undefined
      if (found.expiresAt <= now) {
        entries.delete(key)
        return undefined
      }
      return found
    },
    async set (key, entry, now) {
      // An entry too big to hold, or already expired, replaces the one before it with nothing.
      if (entrySize(entry) > maxBytes || entry.expiresAt <= now) {
        entries.delete(key)
        return
      }
      entries.set(key, entry)
    },
    async close () {
      entries.clear()
    }
  }
}

export interface RedisCacheOptions {
  /** Command connection, owned by the caller (never quit here). */
  redis: Redis
  /** @default 'tl:' */
  prefix?: string
  /** Entries above this size are not stored: one huge page should not evict a thousand small ones. @default 4 MiB */
  maxEntryBytes?: number
}

export function createRedisCache (opts: RedisCacheOptions): ResponseCache {
  const keys = passthroughKeys(opts.prefix)
  const maxEntryBytes = opts.maxEntryBytes ?? 4 * 1024 * 1024
  return {
    async get (key, now) {
      const text = await opts.redis.get(keys.cache(requestDigest(key)))
      if (text === null) return undefined
      const entry = deserializeEntry(text)
      return entry === undefined || entry.expiresAt <= now ? undefined : entry
    },
    async set (key, entry, now) {
      const ttlMs = Math.ceil(entry.expiresAt - now)
      if (ttlMs <= 0 || entrySize(entry) > maxEntryBytes) return
      await opts.redis.set(keys.cache(requestDigest(key)), serializeEntry(entry), 'PX', ttlMs)
    },
    async close () {}
  }
}
