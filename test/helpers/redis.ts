import type { Redis } from 'ioredis'

/**
 * Deletes every key matching `pattern` (a test's unique prefix). SCAN, not KEYS or FLUSHALL: other tests
 * and tools share this Redis, and KEYS blocks it.
 */
export async function deleteMatching (redis: Redis, pattern: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
    if (found.length > 0) await redis.unlink(...found)
    cursor = next
  } while (cursor !== '0')
}
