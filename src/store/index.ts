/**
 * The store's public surface: `createStore` picks the engine (memory without TOUCHLINE_REDIS_URL, Redis
 * with it) behind the one LiveStore interface.
 */
import type { Redis } from 'ioredis'
import { createMemoryStore } from './memory-store.ts'
import { createRedisStore } from './redis-store.ts'
import type { LiveStore } from './types.ts'

export type StoreOptions =
  | { kind: 'memory', maxLength?: number, retainFinishedMs?: number }
  | { kind: 'redis', redis: Redis, prefix?: string, maxLength?: number, tailBlockMs?: number, retainFinishedMs?: number }

export function createStore (opts: StoreOptions): LiveStore {
  if (opts.kind === 'memory') return createMemoryStore(opts)
  return createRedisStore(opts)
}

export { createLease, type Lease } from './lease.ts'
export { createStatusBoard, type StatusBoard } from './status-board.ts'
export { parseCursor } from './record.ts'
export * from './types.ts'
