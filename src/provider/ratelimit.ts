/**
 * Per-token, per-entity hourly buckets (spec 8.2). A bucket's window opens at its first request and the
 * counter resets to the full limit one hour later (not a sliding window, upstream-facts §0.2).
 */
export const WINDOW_MS = 60 * 60 * 1000

interface Bucket {
  windowStart: number
  used: number
}

export interface BucketState {
  entity: string
  limit: number
  used: number
  remaining: number
  resetsInSeconds: number
  windowStart: number
}

export interface ChargeResult {
  allowed: boolean
  state: BucketState
}

export class RateLimiter {
  readonly #buckets = new Map<string, Map<string, Bucket>>()

  constructor (private readonly now: () => number) {}

  #bucket (token: string, entity: string): Bucket {
    let byEntity = this.#buckets.get(token)
    if (byEntity === undefined) this.#buckets.set(token, byEntity = new Map())
    const now = this.now()
    let bucket = byEntity.get(entity)
    if (bucket === undefined || now - bucket.windowStart >= WINDOW_MS) {
      bucket = { windowStart: now, used: 0 }
      byEntity.set(entity, bucket)
    }
    return bucket
  }

  #state (entity: string, bucket: Bucket, limit: number): BucketState {
    const resetsInSeconds = Math.max(0, Math.ceil((bucket.windowStart + WINDOW_MS - this.now()) / 1000))
    return { entity, limit, used: bucket.used, remaining: Math.max(0, limit - bucket.used), resetsInSeconds, windowStart: bucket.windowStart }
  }

  /**
   * Counts one request against the bucket if `used < limit + burst`. `burst` is the Enterprise buffer:
   * requests beyond the hourly limit that still pass (spec 8.2 rule 9); `remaining` stays 0 meanwhile.
   */
  charge (token: string, entity: string, limit: number, burst = 0): ChargeResult {
    const bucket = this.#bucket(token, entity)
    if (bucket.used >= limit + burst) return { allowed: false, state: this.#state(entity, bucket, limit) }
    bucket.used++
    return { allowed: true, state: this.#state(entity, bucket, limit) }
  }

  /** Every bucket of a token whose window is still open, for `/my/usage`. */
  usage (token: string, limit: number): BucketState[] {
    const byEntity = this.#buckets.get(token)
    if (byEntity === undefined) return []
    const now = this.now()
    return [...byEntity.entries()]
      .filter(([, b]) => now - b.windowStart < WINDOW_MS)
      .map(([entity, b]) => this.#state(entity, b, limit))
  }
}
