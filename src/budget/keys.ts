/**
 * Redis keys of the budget ledger, built in this one function (STYLE rule 4). Kept apart from
 * src/store/keys.ts, which another module owns; the two may be merged later. Same prefix rules as there.
 *
 * Every key carries the hash tag `{budget}`, so the record script, which touches a bucket and the entity
 * index together, stays within one slot on Redis Cluster.
 */

/** Prefix used when none is configured. @default 'tl:' */
export const DEFAULT_BUDGET_PREFIX = 'tl:'

export interface BudgetKeys {
  /** Hash of one entity's bucket: `remaining`, `resetsAt`, `limit` (absent when unknown), `updatedAt`, `estimated`. */
  bucket: (entity: string) => string
  /** Set of every entity with a bucket, for `all()`. */
  readonly entities: string
  /** SCAN MATCH pattern covering every ledger key under this prefix (tests and tooling clean up with it). */
  readonly pattern: string
}

export function budgetKeys (prefix: string = DEFAULT_BUDGET_PREFIX): BudgetKeys {
  if (/[{}]/.test(prefix)) throw new TypeError(`redis prefix must not contain braces: ${prefix}`)
  if (/[*?[\]\\]/.test(prefix)) throw new TypeError(`redis prefix must not contain glob characters: ${prefix}`)
  const tagged = `${prefix}{budget}:`
  return {
    bucket: (entity) => `${tagged}bucket:${entity}`,
    entities: `${tagged}entities`,
    pattern: `${tagged}*`
  }
}
