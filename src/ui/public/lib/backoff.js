/**
 * Reconnection pauses for touchline/client (client.js re-exports backoffDelay; typed in client.d.ts).
 */

/**
 * The pause before reconnection attempt `attempt` (1, 2, ...): exponential from `baseMs`, capped at `capMs`
 * first, then jittered, so clients dropped together do not come back together and the cap bounds every
 * pause. `equal` jitter (default) waits between half the capped value and all of it; `full` between 0 and all.
 * @param {number} attempt
 * @param {{ baseMs?: number, capMs?: number, jitter?: 'equal' | 'full', random?: () => number }} [opts]
 * @returns {number} milliseconds
 */
export function backoffDelay (attempt, opts = {}) {
  const { baseMs = 500, capMs = 15_000, jitter = 'equal', random = Math.random } = opts
  const capped = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(jitter === 'full' ? random() * capped : capped / 2 + random() * capped / 2)
}
