/** Server time minus local time, at least (a frame's `at` is never later than its arrival). */
let offsetMs = -Infinity;
/** Learns the server's time from a timestamp it just sent (a change frame's `at`). */
export function observeServerTime(at) {
    const t = Date.parse(at);
    if (Number.isFinite(t))
        offsetMs = Math.max(offsetMs, t - Date.now());
}
/** The server's time now, as well as this client can tell. */
export const serverNow = () => Date.now() + (Number.isFinite(offsetMs) ? offsetMs : 0);
/**
 * The minute the clock shows at `atMs` (the server's time, by default now): the running clock's while it
 * ticks, else the fixture's own `minute`.
 */
export function runningMinute(f, atMs = serverNow()) {
    const c = f.clock;
    if (c === undefined || c === null || !c.ticking)
        return f.minute;
    const started = Date.parse(c.period_started_at);
    if (!Number.isFinite(started))
        return f.minute;
    return c.counts_from + Math.max(0, Math.floor((atMs - started) * c.rate / 60_000));
}
//# sourceMappingURL=clock.js.map