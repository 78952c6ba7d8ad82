/**
 * How each upstream bucket is shared between the pollers and the REST passthrough (docs/architecture.md,
 * "Pacing"; docs/passthrough.md, "When the budget runs low"). Pure, so the arithmetic is tested on its own; the
 * ledger's engines run it (memory) or mirror it (Redis, scripts/reserve-2.lua) inside one atomic step.
 *
 * The pollers come first. Each one claims its bucket (ledger.claim): the calls an hour it spends at its fastest
 * pace, and a few calls for the lumps the pace does not smooth. Its need until the reset is that pace times the
 * time left plus the lumps, never more than the limit less the passthrough's reserve (TOUCHLINE_POLL_RESERVE):
 * on a bucket smaller than the pollers' pace (120 an hour, say) they slow down to their share and the
 * passthrough keeps its reserve. The passthrough may spend only what lies above the claims' need, whatever
 * the mix of paths it is asked for; the pollers spend down to the passthrough's reserve (`pollerFloor`), and
 * into it once it is all that is left.
 */
import { WINDOW_MS } from '@touchline/upstream-contract/hourly-window'
import { LATEST_WINDOW_MS } from '@touchline/upstream-contract/livescores'
import type { BucketView, PollerClaim } from './types.ts'

/**
 * The slowest the poller ever polls while the budget allows: the upstream's 10 s `latest` window minus
 * 2 s for latency, so that two successive polls always overlap.
 */
export const SLOWEST_POLL_MS = LATEST_WINDOW_MS - 2000
/** Share of the hourly limit kept for the REST passthrough (TOUCHLINE_POLL_RESERVE's default). */
export const DEFAULT_POLL_RESERVE = 0.2
/**
 * How long a claim outlives the pause its poller takes after making it: a leader change takes about 11 s
 * (lease ttl plus a follower's retry), so the next leader claims again long before the old claim lapses, and
 * the claim of a poller that stopped for good (a plan without odds) lapses within a minute or so.
 */
export const CLAIM_TTL_MS = 60_000

/** A claim as the ledger holds it: `until` on the ledger's clock instead of a time to live. */
export interface StoredClaim extends Omit<PollerClaim, 'ttlMs'> {
  until: number
}

/** Requests of a bucket the poller must leave to the passthrough. */
export function reserveCount (limit: number | undefined, reserve: number): number {
  return limit === undefined ? 0 : Math.ceil(limit * reserve)
}

/** The floor the poller passes to `ledger.reserve`: the passthrough's share, unless already down to it. */
export function pollerFloor (bucket: BucketView | undefined, reserve: number): number {
  if (bucket === undefined || bucket.expired) return 0
  const keep = reserveCount(bucket.limit, reserve)
  return bucket.remaining > keep ? keep : 0
}

/**
 * What one claim keeps of a bucket with `msLeft` until the reset: its pace times the time left (prorated to
 * the hour), plus its lumps, capped by the limit less the passthrough's reserve. Whole calls, so that the
 * sum of several claims does not depend on their order (the Redis script adds them in its own order).
 * Without a known limit the pace alone (a poller without a floor then keeps everything).
 */
export function claimNeed (claim: Omit<PollerClaim, 'ttlMs'>, limit: number | undefined, msLeft: number): number {
  const cap = limit === undefined ? Infinity : limit - reserveCount(limit, claim.reserve)
  const perHour = Math.min(claim.perHour, cap)
  return Math.max(0, Math.min(cap, Math.ceil(perHour * msLeft / WINDOW_MS) + claim.lumps))
}

/**
 * What the claims still in force at `now` keep of a bucket that resets at `resetsAt`: the sum of their
 * needs. The time left is at most a window (a reset estimated a little beyond it).
 */
export function claimsNeed (claims: Iterable<StoredClaim>, limit: number | undefined, resetsAt: number, now: number): number {
  const msLeft = Math.max(0, Math.min(WINDOW_MS, resetsAt - now))
  let need = 0
  for (const claim of claims) if (claim.until > now) need += claimNeed(claim, limit, msLeft)
  return need
}
