/**
 * Digests the passthrough derives from what clients send, so that neither a long request nor a client key
 * is written into a Redis key as it is. The Redis keys themselves are built in src/store/redis-keys.ts,
 * the one module that writes key strings.
 */
import { createHash } from 'node:crypto'

/** Digest of a normalized request, for the cache key: a request key can be kilobytes long (includes, filters). */
export const requestDigest = (requestKey: string): string => createHash('sha256').update(requestKey).digest('base64url').slice(0, 32)

/** Quota owner id of a client key: a quota key in Redis must not hold the client key itself. */
export const keyIdOf = (key: string): string => createHash('sha256').update(`touchline-quota:${key}`).digest('base64url').slice(0, 22)
