/**
 * Change frames as touchline/client takes them (pure, no IO): whether a frame applies to the fixture held,
 * and the `goal` and `state` events it makes. client.js re-exports nextFixture; typed in client.d.ts.
 */

import { applyDelta } from './delta.js'

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
