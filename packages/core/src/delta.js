/**
 * Applying a compact change frame (`format: "delta"`) to the fixture a client holds. The gateway builds each
 * delta by applying it with this same function and adding whatever still differs, so a client that applies
 * every delta in version order holds exactly the stored fixture.
 *
 * A frame whose changes give no `minute` sets the minute the fixture's clock shows at the frame's `at`; an
 * event's null details are left out of the frame and filled in here; an added event goes at its `index` when
 * the frame gives one, else at the end.
 */
import { runningMinute } from "./clock.js";
/** Event fields a delta leaves out when they are null. */
export const EVENT_DETAILS = ['extra_minute', 'related_player', 'result', 'info', 'addition'];
const NO_DETAILS = { extra_minute: null, related_player: null, result: null, info: null, addition: null };
/** The event a delta carries, with the details it left out as null. */
export function fullEvent(event) {
    return { ...NO_DETAILS, ...event };
}
/** `events` with `event` inserted at `index`, or appended. */
function withEvent(events, event, index) {
    if (index === undefined || index >= events.length)
        return [...events, event];
    return [...events.slice(0, index), event, ...events.slice(index)];
}
/**
 * The fixture after one delta. `fixture` must be at `frame.version - 1` (the caller checks: a jump means a
 * lost frame). Returns a new object; `fixture` is not modified.
 */
export function applyDelta(fixture, frame) {
    const next = { ...fixture, version: frame.version, updated_at: frame.at };
    let minuteGiven = false;
    for (const c of frame.changes) {
        switch (c.kind) {
            case 'state_changed':
                next.state = c.state;
                break;
            case 'period_changed':
                next.period = c.period;
                break;
            case 'clock':
                if (c.minute !== undefined) {
                    next.minute = c.minute;
                    minuteGiven = true;
                }
                if (c.clock !== undefined)
                    next.clock = c.clock;
                break;
            case 'score_changed':
                if (c.score_type !== undefined) {
                    next.scores = { ...next.scores, [c.score_type]: { home: c.home ?? 0, away: c.away ?? 0 } };
                }
                else {
                    next.home = { ...next.home, score: c.home };
                    next.away = { ...next.away, score: c.away };
                    if (next.scores.current !== undefined && c.home !== null && c.away !== null)
                        next.scores = { ...next.scores, current: { home: c.home, away: c.away } };
                }
                break;
            case 'event_removed':
                next.events = next.events.filter((e) => e.id !== c.event.id);
                break;
            case 'event_updated':
                next.events = next.events.map((e) => e.id === c.event.id ? fullEvent(c.event) : e);
                break;
            case 'event_added':
                next.events = withEvent(next.events, fullEvent(c.event), c.index);
                break;
            case 'statistics_changed':
                next.statistics = { ...(next.statistics ?? {}), ...c.statistics };
                break;
            case 'lineups_changed':
                next.lineups = c.lineups;
                break;
            case 'fixture_updated':
                for (const [key, { value }] of Object.entries(c.fields))
                    next[key] = value;
                if ('minute' in c.fields)
                    minuteGiven = true;
                break;
            default: break; // fixture_added, fixture_removed: nothing to set
        }
    }
    if (!minuteGiven)
        next.minute = runningMinute(next, Date.parse(frame.at));
    return next;
}
//# sourceMappingURL=delta.js.map