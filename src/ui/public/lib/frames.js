/**
 * Change frames as touchline/client takes them (pure, no IO): whether a frame applies to the fixture held,
 * and the `goal` and `state` events it makes. client.js re-exports nextFixture; typed in client.d.ts.
 */

import { applyDelta, fullEvent } from './delta.js'

const GOAL_TYPES = ['GOAL', 'PENALTY', 'OWNGOAL']

/**
 * What a change frame does to the fixture held: a full frame replaces it unless it is not newer; a delta
 * applies to exactly the previous version, is `stale` when not newer, and is a `gap` (a lost frame) when
 * it skips a version or the fixture is not held.
 * @param {any} held the fixture held, or undefined
 * @param {any} frame a change frame, full (`fixture`) or delta (`version`)
 * @returns {{ status: 'applied', fixture: any } | { status: 'stale' } | { status: 'gap' }}
 */
export function nextFixture (held, frame) {
  if (frame.fixture !== undefined && frame.fixture !== null) {
    if (held !== undefined && frame.fixture.version <= held.version) return { status: 'stale' }
    return { status: 'applied', fixture: frame.fixture }
  }
  if (held !== undefined && frame.version <= held.version) return { status: 'stale' }
  if (held === undefined || frame.version !== held.version + 1) return { status: 'gap' }
  return { status: 'applied', fixture: applyDelta(held, frame) }
}

/**
 * The `state` and `goal` events of an applied change: a goal is a side's main score going up (a score with
 * `score_type` is another count, e.g. the shoot-out), with the goal event added in the same change when
 * there is one (an own goal counts for the other side).
 * @param {any} frame the change frame @param {any} fixture the fixture after it
 * @param {any} previous the fixture before it, if held @param {boolean} replayed
 * @returns {Array<['state' | 'goal', object]>}
 */
export function eventsOf (frame, fixture, previous, replayed) {
  /** @type {Array<['state' | 'goal', object]>} */
  const out = []
  for (const c of frame.changes) {
    if (c.kind === 'state_changed') out.push(['state', { fixture, state: c.state, previous: c.previous ?? previous?.state, replayed }])
    if (c.kind !== 'score_changed' || c.score_type !== undefined) continue
    for (const side of /** @type {const} */ (['home', 'away'])) {
      if ((c[side] ?? 0) <= (c.previous?.[side] ?? 0)) continue
      const event = frame.changes.find((/** @type {any} */ e) => e.kind === 'event_added' && GOAL_TYPES.includes(e.event.type) &&
        (e.event.type === 'OWNGOAL' ? e.event.side !== side : e.event.side === side))?.event
      out.push(['goal', { fixture, side, score: { home: c.home, away: c.away }, event, replayed }])
    }
  }
  return out
}

/**
 * A delta frame's changes as a full frame gives them, from the fixtures before and after it: the `previous`
 * values the wire left out, the minute the clock shows, events with their null details. So an app reads
 * `c.previous.state`, `c.minute` or `c.event.extra_minute` whatever the format it subscribed with (client.d.ts
 * `Change`). Score types other than the current one and the shoot-out's come one by one, as the delta sends
 * them, each with its previous value.
 * @param {any[]} changes a delta frame's changes
 * @param {any} before the fixture before the frame @param {any} after the fixture after it
 * @returns {any[]}
 */
export function completeChanges (changes, before, after) {
  const events = new Map(before.events.map((/** @type {any} */ e) => [e.id, e]))
  return changes.map((c) => {
    switch (c.kind) {
      case 'state_changed': return { ...c, previous: before.state }
      case 'period_changed': return { ...c, previous: before.period }
      case 'clock': return { ...c, minute: after.minute, previous: before.minute }
      case 'score_changed':
        if (c.previous !== undefined) return c
        return { ...c, previous: c.score_type === undefined ? { home: before.home.score, away: before.away.score } : before.scores[c.score_type] ?? { home: 0, away: 0 } }
      case 'event_added': return { ...c, event: fullEvent(c.event) }
      case 'event_updated': return { ...c, event: fullEvent(c.event), previous: events.get(c.event.id) }
      case 'event_removed': return { ...c, event: events.get(c.event.id) ?? fullEvent(c.event) }
      case 'fixture_updated':
        return { ...c, fields: Object.fromEntries(Object.entries(c.fields).map(([k, f]) => [k, { value: /** @type {any} */ (f).value, previous: before[k] ?? null }])) }
      default: return c
    }
  })
}
