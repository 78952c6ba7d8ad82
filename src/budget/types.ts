/**
 * The budget ledger (docs/architecture.md): what the gateway knows of each upstream rate-limit bucket, shared by the
 * poller and the REST passthrough (and, over Redis, by every instance). One interface, two engines, like
 * fastify-rate-limit's LocalStore / RedisStore.
 */

/** What one upstream response says about its entity's bucket (`rate_limit` body, `x-ratelimit-*` headers). */
export interface BucketObservation {
  /** Requests left in the current window. */
  remaining: number
  /** Seconds until the window resets (`resets_in_seconds`, or `retry_after` on a 429). */
  resetsInSeconds: number
  /** The hourly limit of the entity (`x-ratelimit-limit` header, or `rate_limit.total` on a 429). */
  limit?: number
  /**
   * Calls the upstream counted for this response: 1 for an answer, 0 for a 429 (refused calls are not
   * counted). Used to learn the limit when no response reports it. @default 1
   */
  calls?: number
}

/**
 * Where a bucket's limit comes from: the operator's `TOUCHLINE_UPSTREAM_HOURLY_LIMIT`, the upstream's own
 * report (`rate_limit.total`, `x-ratelimit-limit`), or learned from the responses (the real `rate_limit`
 * has no total): the highest lowest-remaining plus calls counted seen in one window.
 */
export type LimitSource = 'configured' | 'reported' | 'learned'

/** The ledger's view of one entity bucket. */
export interface BucketView {
  /** Entity name as the upstream spells it (`Fixture`, `League`, ...). */
  entity: string
  /**
   * Requests left, minus the reservations made since the last response. Once `resetsAt` has passed it is
   * extrapolated to `limit` when the limit is known (the upstream resets the counter to the full limit).
   */
  remaining: number
  limit?: number
  /** With `limit`: where it comes from. */
  limitSource?: LimitSource
  /** When the window resets, epoch ms. */
  resetsAt: number
  /** When the last response for this entity was recorded (or a reservation opened a new window), epoch ms. */
  updatedAt: number
  /** True when `resetsAt` has passed and no response from the new window has been recorded yet. */
  expired: boolean
}

export interface BudgetLedger {
  /**
   * Records what a response said about `entity`'s bucket, received at `atMs`. Within one window the lowest
   * remaining wins, so out-of-order responses never raise the count back up; a later window replaces it.
   * @param atMs when the response arrived. @default now()
   */
  record: (entity: string, obs: BucketObservation, atMs?: number) => Promise<void>
  /** The bucket of one entity, or undefined when no response has reported it yet. */
  get: (entity: string) => Promise<BucketView | undefined>
  /** Every known bucket, sorted by entity. */
  all: () => Promise<BucketView[]>
  /**
   * Atomically takes `n` requests out of `entity`'s remaining before a call. Returns false (and takes
   * nothing) when remaining would fall below the floor. Returns true without counting when the ledger
   * knows too little to count (no bucket yet, or a window that ended with no known limit): the response
   * to that call fills the ledger in, so an empty ledger never blocks the first call.
   * @param n @default 1
   * @param floor overrides the ledger's `floor(entity)` for this call (e.g. the passthrough may dig into
   *   the reserve the poller keeps for it). @default options.floor(entity)
   */
  reserve: (entity: string, n?: number, floor?: number) => Promise<boolean>
  /** Releases what the ledger owns (never a Redis connection it was given). */
  close: () => Promise<void>
}

export interface LedgerOptions {
  /**
   * Requests per entity that `reserve` keeps back: a reservation that would leave fewer is refused.
   * @default () => 0
   */
  floor?: (entity: string) => number
  /** Clock in epoch ms; tests move it to cross windows. @default Date.now */
  now?: () => number
  /**
   * The plan's hourly limit per entity (`TOUCHLINE_UPSTREAM_HOURLY_LIMIT`): wins over a reported or learned
   * one. Unset: the ledger uses the reported limit, else learns it.
   */
  limit?: number
}
