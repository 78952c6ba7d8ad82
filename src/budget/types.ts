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
  /**
   * What the pollers' claims keep of the bucket until it resets (share.ts `claimsNeed`): the passthrough may
   * spend only `remaining - pollersNeed`. Past the reset, the need of a window opening now. 0 without a claim.
   */
  pollersNeed: number
  /** Calls reserved in this window by the pollers and by the passthrough (none yet past the reset). */
  spent: { pollers: number, passthrough: number }
}

/**
 * What a poller says it will spend of a bucket, so that the passthrough leaves it that (docs/architecture.md,
 * "Pacing"). Its need until the reset is its pace times the time left plus its lumps, never more than the
 * limit less the passthrough's reserve (share.ts `claimNeed`).
 */
export interface PollerClaim {
  /**
   * Calls an hour at its fastest pace (its floor), the steady extras included (a reconcile's extra batches,
   * the recheck's whole fetches). Number.MAX_SAFE_INTEGER for a poller without a floor: the limit bounds it.
   */
  perHour: number
  /** Share of the limit it leaves the passthrough (TOUCHLINE_POLL_RESERVE): it never claims the rest of it. */
  reserve: number
  /** Calls kept on top of the pace until the reset, for what the pace does not smooth (a reconcile after a gap, whole fetches). */
  lumps: number
  /** The claim lapses this long after it is made, unless made again: a poller that stopped stops claiming. */
  ttlMs: number
}

/** Who spends a reservation: the pollers (the live feed) or the REST passthrough (clients). */
export type Spender = 'pollers' | 'passthrough'

/** How `reserve` judges one reservation. */
export interface ReserveOptions {
  /** @default 'pollers' */
  by?: Spender
  /**
   * Requests that must stay after it. For the passthrough, the pollers' need is the floor when higher.
   * @default options.floor(entity)
   */
  floor?: number
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
   * nothing) when remaining would fall below the floor: for the passthrough (`by: 'passthrough'`) at least the
   * pollers' need until the reset, judged in the same atomic step (over Redis, inside the script), after
   * opening the next window when the last one ended. Returns true without counting when the ledger knows too
   * little to count (no bucket yet, or a window that ended with no configured or reported limit): the
   * response to that call fills the ledger in, so an empty ledger never blocks the first call.
   * @param n @default 1
   */
  reserve: (entity: string, n?: number, opts?: ReserveOptions) => Promise<boolean>
  /**
   * Records a poller's claim on `entity`'s bucket under `claimant` (one claim per claimant: a new leader's
   * replaces the old one's), until `claim.ttlMs` from now on the ledger's clock.
   */
  claim: (entity: string, claimant: string, claim: PollerClaim) => Promise<void>
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
