/**
 * Redis keys of the passthrough (cache entries and client-key quotas), built here and nowhere else (STYLE
 * rule 4), under the deployment's prefix like src/budget/keys.ts. Each operation touches one key, so there
 * is no hash tag: cache entries spread over every slot of a cluster.
 */
import { createHash } from 'node:crypto'

export interface PassthroughKeys {
  /** String holding one cached answer (see entry.ts#serializeEntry). */
  cache: (requestKey: string) => string
  /** Hash of one client key's quota windows: `<entity>:s` (window start, epoch ms) and `<entity>:n` (used). */
  quota: (keyId: string) => string
  /** SCAN MATCH pattern covering every passthrough key under this prefix (tests and tooling clean up with it). */
  readonly pattern: string
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 32)

export function passthroughKeys (prefix = 'tl:'): PassthroughKeys {
  if (/[*?[\]\\{}]/.test(prefix)) throw new TypeError(`redis prefix must not contain glob characters or braces: ${prefix}`)
  // Hashed: a request key can be kilobytes long (includes, filters), and a quota key must not hold the client key.
  return {
    cache: (requestKey) => `${prefix}pt:cache:${digest(requestKey)}`,
    quota: (keyId) => `${prefix}pt:quota:${keyId}`,
    pattern: `${prefix}pt:*`
  }
}

/**
 * Stable id of a client key for quota storage: a digest, so the key itself never sits in Redis, and not the
 * `name`, which the keys file does not require to be unique.
 */
export const keyIdOf = (key: string): string => createHash('sha256').update(`touchline-quota:${key}`).digest('base64url').slice(0, 22)
