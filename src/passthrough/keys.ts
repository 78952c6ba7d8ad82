/**
 * Identifiers the passthrough derives from what clients send; the Redis keys themselves are built in
 * src/store/keys.ts (one module for every key, STYLE rule 4).
 */
import { createHash } from 'node:crypto'

/** Digest of a normalized request, for the cache key: a request key can be kilobytes long (includes, filters). */
export const requestDigest = (requestKey: string): string => createHash('sha256').update(requestKey).digest('base64url').slice(0, 32)

/** Quota owner id of a client key: a quota key in Redis must not hold the client key itself. */
export const keyIdOf = (key: string): string => createHash('sha256').update(`touchline-quota:${key}`).digest('base64url').slice(0, 22)
