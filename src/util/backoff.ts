/**
 * Exponential backoff with jitter, the one schedule every retry loop of the gateway uses (the poller after
 * failed polls, the upstream client between attempts, the webhook workers between deliveries). Pure and
 * free of Node imports, so a browser client can use the same function.
 */

export interface BackoffOptions {
  /** The pause before the first retry, before jitter. */
  baseMs: number
  /** Longest pause, before jitter: the cap applies first, so it bounds every pause. */
  capMs: number
  /**
   * `equal` (default) waits between half the capped value and all of it, so a retry never comes at once;
   * `full` between 0 and all of it, which spreads callers that failed together the most.
   */
  jitter?: 'equal' | 'full'
  /** Source of randomness in [0, 1); tests pin it. @default Math.random */
  random?: () => number
}

/**
 * The pause before retry `attempt` (1 = after the first failure): `baseMs` doubled per attempt, capped at
 * `capMs`, then jittered, so callers that failed together do not come back together. Whole milliseconds,
 * rounded up: a pause is never shorter than the jittered value, so every lower bound of the schedule holds.
 */
export function backoffDelay (attempt: number, opts: BackoffOptions): number {
  const { baseMs, capMs, jitter = 'equal', random = Math.random } = opts
  // The exponent stops at 30: past it every base this code uses is far over any cap, and 2 ** n stays finite.
  const capped = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(0, attempt - 1), 30))
  return Math.ceil(jitter === 'full' ? random() * capped : capped / 2 + random() * capped / 2)
}
