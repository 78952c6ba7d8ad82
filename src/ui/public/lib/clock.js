/**
 * The match clock, run in the browser (issue 17): the gateway sends no tick that a running clock shows
 * anyway, so the page and the widget work the minute out from the fixture's `clock` (src/live/clock.ts is
 * the server's copy of `runningMinute`). Times are the server's: the offset of this machine's clock is
 * learned from the change frames' `at`.
 *
 * @typedef {{ period_started_at: string, counts_from: number, rate: number, ticking: boolean }} MatchClock
 */

/** Server time minus local time, at least (a frame's `at` is never later than its arrival). */
let offsetMs = -Infinity

/** @param {string} at a server timestamp just received (a change frame's `at`) */
export function observeServerTime (at) {
  const t = Date.parse(at)
  if (Number.isFinite(t)) offsetMs = Math.max(offsetMs, t - Date.now())
}

/** The server's time now, as well as this page can tell. */
export const serverNow = () => Date.now() + (Number.isFinite(offsetMs) ? offsetMs : 0)

/**
 * The minute the clock shows at `atMs`: the running clock's, else the fixture's own `minute`.
 * @param {{ minute: number | null, clock?: MatchClock | null }} f
 * @param {number} [atMs]
 * @returns {number | null}
 */
export function runningMinute (f, atMs = serverNow()) {
  const c = f.clock
  if (c === undefined || c === null || !c.ticking) return f.minute
  const started = Date.parse(c.period_started_at)
  if (!Number.isFinite(started)) return f.minute
  return c.counts_from + Math.max(0, Math.floor((atMs - started) * c.rate / 60_000))
}
