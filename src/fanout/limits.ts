/**
 * The hub's limits (docs/protocol.md, "Limits"), each with the reason for its default, and the token buckets behind the
 * per-IP connection rate and the per-connection operation rate.
 */
import { MAX_CLIENT_FRAME_BYTES } from '../wire-model/model.ts'

export interface HubLimits {
  /** Largest client frame answered; larger ones get `invalid_message`. @default 16_384 */
  maxFrameBytes: number
  /**
   * ws `maxPayload`: frames above it make ws close the connection with 1009 instead of answering. Set
   * above `maxFrameBytes` so an oversize frame up to this size still gets an error frame and the connection
   * stays up, while a client cannot make us buffer megabytes of a frame we will refuse anyway.
   * @default 65_536
   */
  maxPayloadBytes: number
  /** Leagues plus fixtures per connection; more gets `limit_exceeded`. @default 100 */
  maxSubscriptions: number
  /**
   * Bytes queued to one client before it is dropped as a slow consumer (close 4008). soketi caps
   * backpressure at 1 MiB too: a few seconds of a busy Saturday's changes, far beyond a healthy client's lag.
   * @default 1_048_576
   */
  maxBufferedBytes: number
  /** Changes replayed after `since`; more means `recovered:false` and a snapshot (docs/protocol.md, "Resume"). @default 1000 */
  replayCap: number
  /**
   * WebSocket ping interval; a peer that has not answered the previous ping is terminated. 25 s stays under
   * the 30-60 s idle timeouts of common proxies and load balancers. @default 25_000
   */
  heartbeatMs: number
  /**
   * How long a WebSocket opened with no credential may take to send its `auth` frame (auth.ts) before it is
   * closed with 4403. @default 10_000
   */
  authTimeoutMs: number
  /** SSE comment interval, to keep proxies from closing an idle stream. @default 15_000 */
  sseHeartbeatMs: number
  /**
   * New connections per second per client IP (token bucket refill rate); over it, HTTP 429 before the
   * upgrade. Stops a reconnect storm from one buggy client while leaving room for a page of widgets.
   * @default 20
   */
  connectionsPerSecondPerIp: number
  /** Bucket size of the per-IP limiter: connections a client may open at once. @default 40 */
  connectionBurstPerIp: number
  /**
   * Client operations (frames) per second per WebSocket connection, as a token bucket refill rate; a frame
   * over it gets `limit_exceeded` and is otherwise ignored, and the connection stays up. A subscribe with a
   * snapshot makes the server read and serialize every matching live fixture, so a client looping on it
   * must not get to do that thousands of times a second. A real client sends a handful of operations when
   * it connects and then one now and then (a page changing its filter, an app-level ping), far below 10/s.
   * @default 10
   */
  opsPerSecond: number
  /**
   * Bucket size of the per-connection operation limiter: operations a client may send at once. 20 covers
   * a client that opens with one subscribe per widget on a page, plus an unsubscribe and a ping or two.
   * @default 20
   */
  opsBurst: number
  /** Client operations queued behind a running subscribe before `limit_exceeded`. @default 32 */
  maxQueuedOps: number
  /**
   * How long a serialized live snapshot is reused by later subscribes and `GET /v1/fixtures/live` with the
   * same filter and scope. Any change the hub routes retires it at once, so this only bounds staleness when
   * the tail is stuck; what it buys is that a reconnect storm (every client of a restarted instance
   * subscribing within a second or two) costs one store read per distinct filter, not one per client.
   * @default 1000
   */
  snapshotCacheMs: number
  /**
   * Bytes of serialized snapshots kept at most (oldest dropped first). A whole Saturday's live snapshot
   * is about 1 MB (300 fixtures of a few KB); filters are client-chosen, so the total must be capped.
   * @default 33_554_432
   */
  snapshotCacheBytes: number
  /**
   * Records the hub keeps after routing them, so that a resume from a recent cursor is answered without a
   * store read (recent.ts): a reconnect storm after an instance stops would otherwise be hundreds of log
   * reads at once, each from a cursor a second or two old. 1024 records are minutes of a busy Saturday, and
   * about 18 MB (a fixture record holds the fixture's whole image: about 8 KB of JSON, kept parsed too).
   * @default 1024
   */
  recentRecords: number
  /** How long `close()` waits for clients to finish the close handshake before cutting them. @default 2000 */
  closeGraceMs: number
}

export const DEFAULT_LIMITS: Readonly<HubLimits> = {
  maxFrameBytes: MAX_CLIENT_FRAME_BYTES,
  maxPayloadBytes: 64 * 1024,
  maxSubscriptions: 100,
  maxBufferedBytes: 1024 * 1024,
  replayCap: 1000,
  recentRecords: 1024,
  heartbeatMs: 25_000,
  authTimeoutMs: 10_000,
  sseHeartbeatMs: 15_000,
  connectionsPerSecondPerIp: 20,
  connectionBurstPerIp: 40,
  opsPerSecond: 10,
  opsBurst: 20,
  maxQueuedOps: 32,
  closeGraceMs: 2000,
  snapshotCacheMs: 1000,
  snapshotCacheBytes: 32 * 1024 * 1024
}

export function resolveLimits (limits: Partial<HubLimits> = {}): HubLimits {
  const merged = { ...DEFAULT_LIMITS, ...limits }
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`hub limit ${name} must be a positive number, got ${value}`)
  }
  return merged
}

/** A token bucket's state: tokens left at time `at` (ms). Two numbers, so one per connection is cheap. */
export interface Bucket { tokens: number, at: number }

/** Refills `bucket` for the time since its last use, then takes one token; false when it has none. */
export function takeToken (bucket: Bucket, now: number, ratePerSecond: number, burst: number): boolean {
  bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * ratePerSecond / 1000)
  bucket.at = now
  if (bucket.tokens < 1) return false
  bucket.tokens -= 1
  return true
}

/** Token bucket per key (client IP). Memory is bounded by `sweep`, which forgets buckets that are full again. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor (
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now
  ) {}

  /** Takes one token for `key`; false when its bucket is empty. */
  take (key: string): boolean {
    const now = this.now()
    let bucket = this.buckets.get(key)
    if (bucket === undefined) this.buckets.set(key, bucket = { tokens: this.burst, at: now })
    return takeToken(bucket, now, this.ratePerSecond, this.burst)
  }

  /** Drops buckets that have refilled: they hold no information a fresh bucket would not. */
  sweep (): void {
    const now = this.now()
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.ratePerSecond / 1000 >= this.burst) this.buckets.delete(key)
    }
  }

  get size (): number {
    return this.buckets.size
  }
}
