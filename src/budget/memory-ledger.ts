/**
 * In-process ledger (one gateway, no Redis). Every operation is synchronous inside, so each one is atomic
 * with respect to the others without any locking.
 */
import type { StoredClaim } from './share.ts'
import type { BucketView, BudgetLedger, LedgerOptions } from './types.ts'
import { checkClaim, checkCount, checkObservation, mergeObservation, reserveFrom, viewOf, type StoredBucket } from './window.ts'

export function createMemoryLedger (opts: LedgerOptions = {}): BudgetLedger {
  const now = opts.now ?? Date.now
  const floorOf = opts.floor ?? (() => 0)
  const configured = opts.limit
  const buckets = new Map<string, StoredBucket>()
  /** Claims by entity, then by claimant. */
  const claims = new Map<string, Map<string, StoredClaim>>()
  const claimsOf = (entity: string): Iterable<StoredClaim> => claims.get(entity)?.values() ?? []

  return {
    async record (entity, obs, atMs = now()) {
      checkObservation(obs, atMs)
      const next = mergeObservation(buckets.get(entity), obs, atMs)
      if (next !== undefined) buckets.set(entity, next)
    },

    async get (entity) {
      const stored = buckets.get(entity)
      return stored === undefined ? undefined : viewOf(entity, stored, now(), configured, claimsOf(entity))
    },

    async all () {
      const at = now()
      const views: BucketView[] = []
      for (const [entity, stored] of buckets) views.push(viewOf(entity, stored, at, configured, claimsOf(entity)))
      return views.sort((a, b) => a.entity.localeCompare(b.entity))
    },

    async reserve (entity, n = 1, { by = 'pollers', floor = floorOf(entity) } = {}) {
      const outcome = reserveFrom(buckets.get(entity), checkCount(n), { by, floor }, now(), configured, claimsOf(entity))
      if (outcome.kind === 'taken') buckets.set(entity, outcome.next)
      return outcome.kind !== 'refused'
    },

    async claim (entity, claimant, claim) {
      const { ttlMs, ...rest } = checkClaim(claim)
      let held = claims.get(entity)
      if (held === undefined) claims.set(entity, held = new Map())
      held.set(claimant, { ...rest, until: Math.round(now() + ttlMs) })
    },

    async close () {
      buckets.clear()
      claims.clear()
    }
  }
}
