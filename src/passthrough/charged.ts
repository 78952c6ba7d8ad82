/**
 * The upstream bucket a passthrough request is charged to, as the upstream's own answers name it
 * (`rate_limit.requested_entity`). The catalogue's entity is a guess for a path it does not know (route.ts:
 * `entityOf`, else `Unknown`) and may differ from the upstream's naming for one it knows; a call reserved
 * against the wrong bucket would not be held to the Fixture floor, and the passthrough could spend the part
 * of the Fixture bucket the poller needs (budget/share.ts). So the first answer that names a bucket for a kind of
 * request (its charge key) decides where later ones of that kind are reserved. Calls made before that answer
 * came back are reserved against the guess.
 */
import type { Endpoint } from '@touchline/upstream-contract/endpoints'

/** Charge keys remembered: one per catalogue endpoint and one per path family (`/football/<family>`) forwarded. */
const MAX_KEYS = 1024

export interface ChargedEntities {
  /** The bucket the upstream charged for `key`, or `guess` while no answer has named one. */
  of: (key: string, guess: string) => string
  /** Records the bucket an answer for `key` named. */
  learn: (key: string, entity: string) => void
}

export function createChargedEntities (): ChargedEntities {
  const named = new Map<string, string>()
  return {
    of: (key, guess) => named.get(key) ?? guess,
    learn (key, entity) {
      if (named.get(key) === entity || (!named.has(key) && named.size >= MAX_KEYS)) return
      named.set(key, entity)
    }
  }
}

/**
 * The kind of request an answer speaks for: the catalogue endpoint, or for a path the catalogue does not know,
 * its root and family (`/football/momentum` for `/football/momentum/fixtures/1`): the upstream names buckets
 * after the resource a family serves, not after ids or search terms.
 */
export function chargeKeyOf (endpoint: Endpoint, path: string): string {
  if (endpoint.id !== 'forward:path') return endpoint.id
  return `${endpoint.id}:${path.split('/').slice(0, 3).join('/')}`
}

/** `rate_limit.requested_entity` of a parsed body, when it names one. */
export function requestedEntity (json: unknown): string | undefined {
  if (json === null || typeof json !== 'object') return undefined
  const rl = (json as { rate_limit?: unknown }).rate_limit
  if (rl === null || typeof rl !== 'object') return undefined
  const entity = (rl as { requested_entity?: unknown }).requested_entity
  return typeof entity === 'string' && entity !== '' ? entity : undefined
}
