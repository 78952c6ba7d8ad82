/** Reconnection pauses: exponential, capped, then jittered. */

export interface BackoffOptions {
  /** First pause, ms. @default 500 */
  baseMs?: number
  /** Longest pause, ms: the cap applies before the jitter. @default 15000 */
  capMs?: number
  /** `equal`: between half the capped value and all of it; `full`: between 0 and all. @default 'equal' */
  jitter?: 'equal' | 'full'
}

/**
 * The pause before reconnection attempt `attempt` (1, 2, ...): `min(cap, base * 2^(attempt-1))`, then
 * jittered, so clients dropped together do not come back together, and the cap bounds every pause.
 */
export function backoffDelay (attempt: number, opts: BackoffOptions & { random?: () => number } = {}): number {
  const { baseMs = 500, capMs = 15_000, jitter = 'equal', random = Math.random } = opts
  const capped = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(jitter === 'full' ? random() * capped : capped / 2 + random() * capped / 2)
}
