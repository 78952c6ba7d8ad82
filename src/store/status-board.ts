/**
 * Notices one instance leaves for the others to read, each for a short while: the process that polls puts
 * its poller's state here every second (status/poller-view.ts), so every worker and instance shows the same
 * poller on `/v1/status` and the status page, not one that does not run. A notice lapses after its ttl, so
 * one left by a process that died goes away by itself. In memory for a gateway of one process, in Redis
 * (one string key per notice, `<prefix>status:<name>`) for several.
 */
import type { Redis } from 'ioredis'
import { redisKeys } from './redis-keys.ts'
import { guarded } from './unavailable.ts'

export interface StatusBoard {
  /** Puts `value` under `name` for `ttlMs`, in place of what was there. */
  put: (name: string, value: string, ttlMs: number) => Promise<void>
  /** What is under `name`, undefined when nothing is or it lapsed. Rejects while the store cannot be read. */
  get: (name: string) => Promise<string | undefined>
}

export type StatusBoardOptions =
  /** `now` is injectable for tests. @default Date.now */
  | { kind: 'memory', now?: () => number }
  /** `redis` is the command connection (not closed here); `prefix` as for the store. @default prefix 'tl:' */
  | { kind: 'redis', redis: Redis, prefix?: string }

export function createStatusBoard (opts: StatusBoardOptions): StatusBoard {
  return opts.kind === 'memory' ? memoryBoard(opts.now ?? Date.now) : redisBoard(opts.redis, opts.prefix)
}

function redisBoard (redis: Redis, prefix?: string): StatusBoard {
  const keys = redisKeys(prefix)
  return {
    async put (name, value, ttlMs) {
      await guarded(redis.set(keys.status(name), value, 'PX', ttlMs))
    },
    async get (name) {
      return await guarded(redis.get(keys.status(name))) ?? undefined
    }
  }
}

function memoryBoard (now: () => number): StatusBoard {
  const notices = new Map<string, { value: string, until: number }>()
  return {
    async put (name, value, ttlMs) {
      notices.set(name, { value, until: now() + ttlMs })
    },
    async get (name) {
      const notice = notices.get(name)
      return notice !== undefined && notice.until > now() ? notice.value : undefined
    }
  }
}
