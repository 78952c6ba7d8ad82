/**
 * Exponential backoff with jitter: the one schedule of every retry loop, the client's reconnections and the
 * gateway's own (the poller after failed polls, the upstream client between attempts, the webhook workers),
 * which imports it from this package. Pure, free of Node and browser APIs.
 */
/**
 * The pause before retry `attempt` (1 = after the first failure): `baseMs` doubled per attempt, capped at
 * `capMs`, then jittered, so callers that failed together do not come back together. Whole milliseconds,
 * rounded up: a pause is never shorter than the jittered value. `random` (in [0, 1)) is for tests.
 */
export function backoffDelay(attempt, opts = {}) {
    const { baseMs = 500, capMs = 15_000, jitter = 'equal', random = Math.random } = opts;
    // The exponent stops at 30: past it every base is far over any cap, and 2 ** n stays finite.
    const capped = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(0, attempt - 1), 30));
    return Math.ceil(jitter === 'full' ? random() * capped : capped / 2 + random() * capped / 2);
}
//# sourceMappingURL=backoff.js.map