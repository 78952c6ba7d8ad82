import { describe, expect, it } from 'vitest'
import { applyDelta } from '@touchline/client'
import { completeChanges } from '@touchline/client'
import { deltaChanges } from '../../../src/protocol/delta.ts'
import { EVENT_DETAILS, type Change, type ChangeRecord, type DeltaChangeFrame as DeltaFrame, type LiveFixture } from '../../../src/wire-model/model.ts'
import { isChangeRecord } from '../../../src/store/types.ts'
import { createStore } from '../../../src/store/index.ts'
import { runMatchDay } from '../../helpers/match-day.ts'

/** Every record of twenty hours of simulated matches (at 60x), in log order. */
async function matchDay (): Promise<ChangeRecord[]> {
  const store = createStore({ kind: 'memory' })
  const records: ChangeRecord[] = []
  await store.subscribe((r) => { if (isChangeRecord(r)) records.push(r) })
  await runMatchDay(store, { minutes: 20 })
  return records
}

/** A record with the fixture's version before it (none for a fixture's first record) and the delta built on it. */
interface Step { r: ChangeRecord, prev: LiveFixture | undefined, changes: DeltaFrame['changes'] | undefined }
type DeltaStep = Step & { prev: LiveFixture, changes: DeltaFrame['changes'] }

/** Every record's step, in log order: each delta built once for all the tests below. */
function stepsOf (records: ChangeRecord[]): Step[] {
  const held = new Map<number, LiveFixture>()
  return records.map((r) => {
    const prev = held.get(r.fixture_id)
    held.set(r.fixture_id, r.fixture)
    return { r, prev, changes: deltaChanges(prev, r) }
  })
}

const frameOf = (r: ChangeRecord, changes: DeltaFrame['changes']): DeltaFrame =>
  ({ type: 'change', cursor: r.cursor, fixture_id: r.fixture_id, league_id: r.league_id, version: r.fixture.version, at: r.at, changes })

describe('delta frames over a simulated match day', async () => {
  const records = await matchDay()
  const steps = stepsOf(records)
  const deltas = steps.filter((s): s is DeltaStep => s.changes !== undefined && s.prev !== undefined)
  const kinds = new Set(records.flatMap((r) => r.changes.map((c) => c.kind === 'event_removed' || c.kind === 'event_added' ? `${c.kind}:${c.event.type}` : c.kind)))

  it('is a day with goals, VAR-cancelled goals, cards, extra time and penalties', () => {
    for (const kind of ['event_added:GOAL', 'event_removed:GOAL', 'event_added:YELLOWCARD', 'event_added:REDCARD', 'period_changed']) expect(kinds).toContain(kind)
    const states = new Set(records.map((r) => r.fixture.state.code))
    expect(states).toContain('INPLAY_ET')
    expect(states).toContain('INPLAY_PENALTIES')
    expect(records.some((r) => r.changes.some((c) => c.kind === 'score_changed' && c.score_type === 'penalty_shootout'))).toBe(true)
  })

  it('rebuilds every stored version from the one before, from the frame as it goes over the wire', () => {
    for (const { prev, changes } of steps) if (prev === undefined) expect(changes).toBeUndefined()
    for (const { r, prev, changes } of deltas) {
      const frame = frameOf(r, changes)
      expect(applyDelta(prev, JSON.parse(JSON.stringify(frame)) as DeltaFrame)).toEqual(r.fixture)
    }
    // Every record with a previous version gets a delta, but those that bring the fixture into the live set
    // (fixture_added after a read of its day): the first one of each fixture, and those, come whole.
    const joins = (r: ChangeRecord): boolean => r.changes.some((c) => c.kind === 'fixture_added' || c.kind === 'fixture_scheduled')
    for (const { r, prev, changes } of steps) if (prev !== undefined && joins(r)) expect(changes).toBeUndefined()
    expect(deltas.length).toBe(steps.filter((s) => s.prev !== undefined && !joins(s.r)).length)
    expect(deltas.length).toBeGreaterThan(1000)
  }, 30_000) // a whole day of records: slow on a loaded 2-core machine

  it('leaves out what the client holds or works out: previous values, the minute the clock shows, null event details', () => {
    let ticks = 0
    let minutesGiven = 0
    for (const { r, changes } of deltas) {
      if (r.changes.some((c) => c.kind === 'clock' && c.clock === undefined)) ticks++
      for (const c of changes) {
        if (c.kind !== 'score_changed') expect(c).not.toHaveProperty('previous')
        if (c.kind === 'clock' && c.minute !== undefined) minutesGiven++
        if (c.kind === 'event_added' || c.kind === 'event_updated' || c.kind === 'event_removed') {
          for (const detail of EVENT_DETAILS) expect(c.event[detail]).not.toBeNull()
        }
        // Score types go one by one, not as the whole `scores`.
        if (c.kind === 'fixture_updated') expect(c.fields).not.toHaveProperty('scores')
      }
    }
    // Most records move the minute; a client running the clock needs it for almost none of them.
    expect(ticks).toBeGreaterThan(50)
    expect(minutesGiven).toBeLessThan(ticks / 4)
  }, 30_000)

  it('sends a goal once: a score_changed names the goals its frame adds (goal_ids) instead of repeating them', () => {
    let named = 0
    for (const { r, changes } of deltas) {
      const added = new Set(r.changes.flatMap((c) => c.kind === 'event_added' ? [c.event.id] : []))
      for (const [i, c] of changes.entries()) {
        if (c.kind !== 'score_changed') continue
        const full = r.changes.find((f) => f.kind === 'score_changed' && f.score_type === c.score_type)
        const goals = full?.kind === 'score_changed' ? full.goals : undefined
        if (goals === undefined) {
          expect(c, `${r.cursor} #${i}`).not.toHaveProperty('goal_ids')
          expect(c).not.toHaveProperty('goals')
        } else if (goals.every((g) => added.has(g.id))) {
          named++
          expect(c.goal_ids).toEqual(goals.map((g) => g.id))
          expect(c).not.toHaveProperty('goals')
        } else {
          expect(c.goals?.map((g) => g.id)).toEqual(goals.map((g) => g.id))
        }
      }
    }
    expect(named).toBeGreaterThan(5)
  })

  it('places an added event by index instead of resending the event list when it does not go last', () => {
    let placed = 0
    for (const { r, changes } of deltas) {
      const onlyAdded = r.changes.every((c) => c.kind !== 'event_removed' && c.kind !== 'event_updated')
      if (onlyAdded) expect(changes.filter((c) => c.kind === 'fixture_updated' && 'events' in c.fields)).toEqual([])
      for (const c of changes) {
        if (c.kind !== 'event_added' || c.index === undefined) continue
        placed++
        expect(c.index).toBeLessThan(r.fixture.events.length - 1)
        expect(r.fixture.events[c.index]?.id).toBe(c.event.id)
      }
    }
    // Same-minute events come out of order often enough on a day of matches for this to be exercised.
    expect(placed).toBeGreaterThan(0)
  })

  it('is handed out by the client library as the full frame gives it: previous values, the minute, whole events', () => {
    const seen = new Set<string>()
    for (const { r, prev, changes } of deltas) {
      for (const c of completeChanges(JSON.parse(JSON.stringify(changes)) as DeltaFrame['changes'], prev, r.fixture)) {
        seen.add(c.kind)
        if (c.kind === 'clock') {
          expect(c).toMatchObject({ minute: r.fixture.minute, previous: prev.minute })
        } else if (c.kind === 'score_changed' && c.score_type !== undefined) {
          // Score types go one by one in a delta (a full frame has them in fixture_updated.scores, and says
          // nothing of a shoot-out row appearing at 0-0): the previous value is the one held.
          expect(c.previous).toEqual(prev.scores[c.score_type] ?? { home: 0, away: 0 })
          const full = r.changes.find((f) => f.kind === 'score_changed' && f.score_type === c.score_type)
          if (full !== undefined) expect(c).toEqual(full)
        } else if (c.kind !== 'fixture_updated') {
          const { index: _index, ...same } = c as Change & { index?: number }
          expect(r.changes).toContainEqual(same)
        }
      }
    }
    for (const kind of ['state_changed', 'period_changed', 'score_changed', 'event_added', 'event_removed', 'clock']) expect(seen).toContain(kind)
  }, 30_000)

  it('carries no fixture and keeps clock ticks small', () => {
    for (const { r, changes } of deltas) {
      const json = JSON.stringify(frameOf(r, changes))
      expect(json).not.toContain('"fixture":')
      // A clock correction carries the clock it sets, and still no fixture.
      if (r.changes.every((c) => c.kind === 'clock')) expect(json.length).toBeLessThan(450)
    }
  })

  it('refuses a base that is not the previous version', () => {
    const [a, , c] = records.filter((r) => r.fixture_id === records[0]?.fixture_id)
    expect(a).toBeDefined()
    expect(deltaChanges(a?.fixture, c as ChangeRecord)).toBeUndefined()
    expect(deltaChanges(undefined, a as ChangeRecord)).toBeUndefined()
  })
})
