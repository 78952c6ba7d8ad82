/**
 * The differ (docs/architecture.md): two successive LiveFixtures → the list of typed changes between them.
 * Pure: no IO, no clock, no store. `updated_at` and `version` are the store's and are never compared.
 *
 * Order of the changes within one diff, fixed so that clients and tests can rely on it:
 *   1. state_changed
 *   2. period_changed
 *   3. score_changed (CURRENT), then score_changed with score_type 'penalty_shootout', each with the goal
 *      events added with it (`goals`)
 *   4. event_removed, event_updated, event_added (each in the fixture's event order)
 *   5. clock
 *   6. statistics_changed (the types that moved)
 *   7. lineups_changed (published or changed: the whole new value)
 *   8. fixture_updated (every other field, in one change; a statistic type that disappeared goes here,
 *      with the whole `statistics`)
 * A client that applies them in this order to its copy of the events list ends up with `fixture.events`.
 *
 * Nothing here treats FT as final: FT → BREAK → INPLAY_ET, a score going down (correction, VAR) or an event
 * changing type are plain changes like any other.
 */
import type { Change, LiveEvent, LiveFixture, LiveTeam } from '../wire-model/model.ts'
import { EventType } from '@touchline/upstream-contract/types'
import { sameValue } from '../util/same-value.ts'
import { CURRENT_SCORE, SHOOTOUT_SCORE } from './normalize.ts'

type Goals = { home: number, away: number }

const NO_GOALS: Goals = { home: 0, away: 0 }

function stateChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  // The name is left out on purpose: for an id our table does not know it comes from the include, and a
  // translated name ("Después de penales") must not look like a state change.
  const same = prev.state.id === next.state.id && prev.state.code === next.state.code && prev.state.phase === next.state.phase
  return same ? [] : [{ kind: 'state_changed', state: next.state, previous: prev.state }]
}

function periodChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  return prev.period === next.period ? [] : [{ kind: 'period_changed', period: next.period, previous: prev.period }]
}

/** Event types that count toward the current score, and toward the shoot-out's. */
const GOAL_TYPES: ReadonlySet<number> = new Set([EventType.GOAL, EventType.OWNGOAL, EventType.PENALTY])
const SHOOTOUT_GOAL_TYPES: ReadonlySet<number> = new Set([EventType.PENALTY_SHOOTOUT_GOAL])

/**
 * The goal events added between the two versions, when a score went up: a `score_changed` carries the goals
 * that made it (scorer, minute, penalty or own goal), so following `score_changed` alone is enough for a
 * goals ticker. A score that went down (a goal disallowed) carries none: its `event_removed` says which.
 */
function goalsFor (types: ReadonlySet<number>, prev: LiveFixture, next: LiveFixture, before: Goals, after: Goals): { goals?: LiveEvent[] } {
  if (after.home <= before.home && after.away <= before.away) return {}
  const known = new Set(prev.events.map((e) => e.id))
  const goals = next.events.filter((e) => types.has(e.type_id) && !known.has(e.id))
  return goals.length > 0 ? { goals } : {}
}

function scoreChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  const changes: Change[] = []
  const before = { home: prev.home.score, away: prev.away.score }
  const after = { home: next.home.score, away: next.away.score }
  if (!sameValue(before, after)) {
    const up = goalsFor(GOAL_TYPES, prev, next, { home: before.home ?? 0, away: before.away ?? 0 }, { home: after.home ?? 0, away: after.away ?? 0 })
    changes.push({ kind: 'score_changed', ...after, previous: before, ...up })
  }
  // The shoot-out is not part of CURRENT (docs/upstream.md, "Score types"). Its rows appear at 0-0 when the
  // shoot-out starts, which is not a change worth a message: missing counts as 0-0.
  const shootBefore = prev.scores[SHOOTOUT_SCORE] ?? NO_GOALS
  const shootAfter = next.scores[SHOOTOUT_SCORE] ?? NO_GOALS
  if (!sameValue(shootBefore, shootAfter)) {
    const up = goalsFor(SHOOTOUT_GOAL_TYPES, prev, next, shootBefore, shootAfter)
    changes.push({ kind: 'score_changed', ...shootAfter, previous: { ...shootBefore }, score_type: SHOOTOUT_SCORE, ...up })
  }
  return changes
}

function eventChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  const before = new Map(prev.events.map((e) => [e.id, e]))
  const after = new Set(next.events.map((e) => e.id))
  const removed: Change[] = prev.events.filter((e) => !after.has(e.id)).map((event) => ({ kind: 'event_removed', event }))
  const updated: Change[] = []
  const added: Change[] = []
  for (const event of next.events) {
    const previous: LiveEvent | undefined = before.get(event.id)
    if (previous === undefined) added.push({ kind: 'event_added', event })
    else if (!sameValue(previous, event)) updated.push({ kind: 'event_updated', event, previous })
  }
  return [...removed, ...updated, ...added]
}

/** The minute, and the running clock (src/protocol/clock.ts) when it changed, in one change. */
function clockChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  const clockMoved = !sameValue(prev.clock ?? null, next.clock ?? null)
  if (prev.minute === next.minute && !clockMoved) return []
  return [clockMoved ? { kind: 'clock', minute: next.minute, previous: prev.minute, clock: next.clock ?? null } : { kind: 'clock', minute: next.minute, previous: prev.minute }]
}

const NO_STAT = { home: null, away: null }

/**
 * The statistics that moved or appeared. A type that disappeared (the upstream stopped sending it) is no
 * statistic moving: fixtureUpdated reports the whole `statistics` then.
 */
function statisticsChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  const before = prev.statistics ?? {}
  const after = next.statistics ?? {}
  const moved = Object.keys(after).filter((type) => !sameValue(before[type], after[type]))
  if (moved.length === 0) return []
  return [{
    kind: 'statistics_changed',
    statistics: Object.fromEntries(moved.map((type) => [type, after[type] ?? NO_STAT])),
    previous: Object.fromEntries(moved.map((type) => [type, before[type] ?? NO_STAT]))
  }]
}

/** Line-ups published, corrected or withdrawn: the whole new value. */
function lineupsChanges (prev: LiveFixture, next: LiveFixture): Change[] {
  const before = prev.lineups ?? null
  const after = next.lineups ?? null
  return sameValue(before, after) ? [] : [{ kind: 'lineups_changed', lineups: after, previous: before }]
}

/** Whether a statistic type the fixture had is gone (then `statistics` is reported whole by fixtureUpdated). */
const statisticDropped = (prev: LiveFixture, next: LiveFixture): boolean => Object.keys(prev.statistics ?? {}).some((type) => !(type in (next.statistics ?? {})))

/** Fields with their own change kind, or owned by the store. */
const OWN_KIND = new Set(['state', 'period', 'minute', 'clock', 'events', 'lineups', 'updated_at', 'version'])

function withoutScore (team: LiveTeam): Omit<LiveTeam, 'score'> {
  const { score: _score, ...rest } = team
  return rest
}

function withoutOwnScores (scores: LiveFixture['scores']): LiveFixture['scores'] {
  const { [CURRENT_SCORE]: _current, [SHOOTOUT_SCORE]: _shootout, ...rest } = scores
  return rest
}

/**
 * Every other field: name, starting_at, result_info, length, round_id, ..., team details (`home`/`away`
 * without their score) and the score types other than CURRENT and the shoot-out (`scores`, reported whole).
 * Generic over the keys, so a field added to LiveFixture later is reported without touching this code.
 */
function fixtureUpdated (prev: LiveFixture, next: LiveFixture): Change[] {
  const fields: Record<string, { value: unknown, previous: unknown }> = {}
  const a = prev as unknown as Record<string, unknown>
  const b = next as unknown as Record<string, unknown>
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => !OWN_KIND.has(k) && (k !== 'statistics' || statisticDropped(prev, next)))
  for (const key of keys) {
    const project = key === 'home' || key === 'away'
      ? (v: unknown) => withoutScore(v as LiveTeam)
      : key === 'scores' ? (v: unknown) => withoutOwnScores(v as LiveFixture['scores']) : (v: unknown) => v
    const previous = a[key] === undefined ? undefined : project(a[key])
    const value = b[key] === undefined ? undefined : project(b[key])
    if (!sameValue(previous, value)) fields[key] = { value, previous }
  }
  return Object.keys(fields).length === 0 ? [] : [{ kind: 'fixture_updated', fields }]
}

/**
 * Changes from `prev` to `next`, in the order documented above; [] when nothing a client sees changed.
 * Without `prev` the fixture is new: the result is `[{ kind: 'fixture_added' }]` alone, since the
 * record carries the whole fixture anyway.
 */
export function diffFixtures (prev: LiveFixture | undefined, next: LiveFixture): Change[] {
  if (prev === undefined) return [{ kind: 'fixture_added' }]
  return [
    ...stateChanges(prev, next),
    ...periodChanges(prev, next),
    ...scoreChanges(prev, next),
    ...eventChanges(prev, next),
    ...clockChanges(prev, next),
    ...statisticsChanges(prev, next),
    ...lineupsChanges(prev, next),
    ...fixtureUpdated(prev, next)
  ]
}

/**
 * The change for a fixture that left the live feed (or was deleted upstream). `prev` is the last known
 * state; it is not part of the change (the record carries it) but keeps the call symmetric with diffFixtures.
 */
export function fixtureRemoved (_prev: LiveFixture): Change[] {
  return [{ kind: 'fixture_removed' }]
}
