/**
 * Change frames as the client takes them (pure, no IO): whether a frame applies to the fixture held, the
 * full form of a delta's changes, and the `goal` and `state` events a change makes.
 */
import { applyDelta, fullEvent, scoringSide } from '@touchline/core';
/**
 * A full frame replaces the fixture held unless it is not newer; a delta applies to exactly the previous
 * version, is `stale` when not newer, and is a `gap` (a lost frame) when it skips a version or the fixture
 * is not held.
 */
export function nextFixture(held, frame) {
    if ('fixture' in frame) {
        if (held !== undefined && frame.fixture.version <= held.version)
            return { status: 'stale' };
        return { status: 'applied', fixture: frame.fixture };
    }
    if (held !== undefined && frame.version <= held.version)
        return { status: 'stale' };
    if (held === undefined || frame.version !== held.version + 1)
        return { status: 'gap' };
    return { status: 'applied', fixture: applyDelta(held, frame) };
}
/**
 * The `state` and `goal` events of an applied change. A goal is a side's main score going up (a score with
 * `score_type` is another count, e.g. the shoot-out): one `goal` per goal event the change carries (its
 * scorer, minute and kind), and one without an event for a side whose score went up with none.
 */
export function eventsOf(changes, fixture, previous, replayed) {
    const out = [];
    for (const c of changes) {
        if (c.kind === 'state_changed')
            out.push(['state', { fixture, state: c.state, previous: c.previous ?? previous?.state, replayed }]);
        if (c.kind !== 'score_changed' || c.score_type !== undefined)
            continue;
        const score = { home: c.home, away: c.away };
        // The goals the change carries; from a server that does not send them, the goal events added beside it.
        const goals = c.goals ?? changes.flatMap((e) => e.kind === 'event_added' && scoringSide(e.event) !== null ? [e.event] : []);
        for (const event of goals) {
            const side = scoringSide(event);
            if (side !== null)
                out.push(['goal', { fixture, side, score, event, replayed }]);
        }
        for (const side of ['home', 'away']) {
            if ((c[side] ?? 0) <= (c.previous[side] ?? 0) || goals.some((e) => scoringSide(e) === side))
                continue;
            out.push(['goal', { fixture, side, score, event: undefined, replayed }]);
        }
    }
    return out;
}
/**
 * A delta frame's changes as a full frame gives them, from the fixtures before and after it: the `previous`
 * values the wire left out, the minute the clock shows, events with their null details. So an app reads
 * `c.previous.state`, `c.minute` or `c.event.extra_minute` whatever the format it subscribed with. Score
 * types other than the current one and the shoot-out's come one by one, as the delta sends them.
 */
export function completeChanges(changes, before, after) {
    const events = new Map(before.events.map((e) => [e.id, e]));
    // The events the frame adds, which a `score_changed` names by id (`goal_ids`) instead of sending them again.
    const added = new Map(changes.flatMap((c) => c.kind === 'event_added' ? [[c.event.id, c.event]] : []));
    return changes.map((c) => {
        switch (c.kind) {
            case 'state_changed': return { ...c, previous: before.state };
            case 'period_changed': return { ...c, previous: before.period };
            case 'clock': return { kind: 'clock', minute: after.minute, previous: before.minute, ...(c.clock !== undefined ? { clock: c.clock } : {}) };
            case 'score_changed': {
                const previous = c.previous ?? (c.score_type === undefined ? { home: before.home.score, away: before.away.score } : before.scores[c.score_type] ?? { home: 0, away: 0 });
                const { goals: sent, goal_ids: ids, ...rest } = c;
                const goals = sent ?? ids?.flatMap((id) => { const e = added.get(id); return e === undefined ? [] : [e]; });
                return { ...rest, previous, ...(goals !== undefined && goals.length > 0 ? { goals: goals.map(fullEvent) } : {}) };
            }
            case 'event_added': return { kind: c.kind, event: fullEvent(c.event) };
            case 'event_updated': return { kind: c.kind, event: fullEvent(c.event), previous: events.get(c.event.id) ?? fullEvent(c.event) };
            case 'event_removed': return { kind: c.kind, event: events.get(c.event.id) ?? fullEvent(c.event) };
            case 'statistics_changed': {
                const held = before.statistics ?? {};
                return { ...c, previous: Object.fromEntries(Object.keys(c.statistics).map((type) => [type, held[type] ?? { home: null, away: null }])) };
            }
            case 'lineups_changed': return { ...c, previous: before.lineups ?? null };
            case 'fixture_updated': {
                const held = before;
                return { kind: c.kind, fields: Object.fromEntries(Object.entries(c.fields).map(([k, f]) => [k, { value: f.value, previous: held[k] ?? null }])) };
            }
            default: return c;
        }
    });
}
//# sourceMappingURL=frames.js.map