/**
 * Days as the client follows them (the gateway's docs/protocol.md, "Days"): a date in a time zone is the
 * range of kick-offs from its midnight to the next one there. `today`, `tomorrow` and `yesterday` are read
 * off the client's clock when asked.
 */
/** Days a subscription may follow at once (the gateway's limit). */
export const MAX_DAYS = 14;
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RELATIVE = { yesterday: -1, today: 0, tomorrow: 1 };
/** The environment's time zone (the browser's, the process's), UTC when it names none. */
export function localTimeZone() {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}
/** What the wall clock of `timeZone` reads at `ms`, as if it were UTC, minus `ms`. */
function offsetAt(ms, timeZone) {
    const parts = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit'
    }).formatToParts(new Date(ms));
    const get = (type) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(ms / 1000) * 1000;
}
/** The date (`YYYY-MM-DD`) the clock of `timeZone` reads at `ms`. */
export function dateIn(ms, timeZone) {
    return new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 10);
}
/** The kick-offs of `date` in `timeZone`: from its midnight (included) to the next one (excluded), epoch ms. */
export function dayRange(date, timeZone) {
    const at = (d) => {
        const wall = Date.parse(`${d}T00:00:00Z`);
        return wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone);
    };
    return { from: at(date), to: at(new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)) };
}
/** Whether `timeZone` is one the runtime knows. */
export function isTimeZone(timeZone) {
    if (typeof timeZone !== 'string' || timeZone === '')
        return false;
    try {
        new Intl.DateTimeFormat('en', { timeZone }).format(0);
        return true;
    }
    catch {
        return false;
    }
}
/**
 * Days as a subscribe names them, as dates in `timeZone` (`today` read off `now`).
 * @throws TypeError for a list that is not one, or an entry that is neither a date that exists nor a word above
 */
export function dateList(dates, timeZone, now = Date.now()) {
    if (!Array.isArray(dates))
        throw new TypeError(`dates must be an array of dates, YYYY-MM-DD, or 'today', 'tomorrow', 'yesterday' (got ${JSON.stringify(dates)})`);
    return [...new Set(dates.map((d) => {
            if (typeof d === 'string' && d in RELATIVE)
                return dateIn(now + RELATIVE[d] * DAY_MS, timeZone);
            if (typeof d === 'string' && DATE.test(d) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d))
                return d;
            throw new TypeError(`dates holds ${JSON.stringify(d)}, which is not a date (YYYY-MM-DD) nor 'today', 'tomorrow', 'yesterday'`);
        }))];
}
//# sourceMappingURL=days.js.map