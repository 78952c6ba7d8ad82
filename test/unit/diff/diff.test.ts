import { describe, expect, it } from 'vitest'
import { EventType, ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import { diffFixtures, fixtureRemoved } from '../../../src/diff/diff.ts'
import { sameValue } from '../../../src/util/same-value.ts'
import type { Change } from '../../../src/wire-model/model.ts'
import { event, live, scoreRows, ticking } from './builders.ts'

const kinds = (changes: Change[]): string[] => changes.map((c) => c.kind)
const goal = event(501, EventType.GOAL, 23, 'home', { result: '1-0' })

describe('diffFixtures', () => {
  it('reports a new fixture as fixture_added alone', () => {
    expect(diffFixtures(undefined, live({ scores: scoreRows(ScoreType.CURRENT, 2, 1), events: [goal] }))).toEqual([{ kind: 'fixture_added' }])
  })

  it('returns [] for identical input, and ignores updated_at and version', () => {
    const prev = live()
    expect(diffFixtures(prev, live())).toEqual([])
    expect(diffFixtures(prev, { ...live(), updated_at: '2030-01-01T00:00:00.000Z', version: 42 })).toEqual([])
  })

  it('returns [] when only the translated state name differs', () => {
    const english = live({ state: { id: 2, state: 'INPLAY_1ST_HALF', name: '1st Half', developer_name: 'INPLAY_1ST_HALF' } })
    const spanish = live({ state: { id: 2, state: 'INPLAY_1ST_HALF', name: 'Primer tiempo', developer_name: 'INPLAY_1ST_HALF' } })
    expect(diffFixtures(english, spanish)).toEqual([])
  })

  it('reports state_changed with the previous state', () => {
    const changes = diffFixtures(live({ state_id: 1, currentperiod: null }), live({ state_id: 2, currentperiod: null }))
    expect(changes).toEqual([{
      kind: 'state_changed',
      state: { id: 2, code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' },
      previous: { id: 1, code: 'NS', name: 'Not Started', phase: 'scheduled' }
    }])
  })

  it('walks FT → BREAK → INPLAY_ET without treating FT as final', () => {
    const ft = live({ state_id: 5, currentperiod: null })
    const brk = live({ state_id: 4, currentperiod: null })
    const et = live({ state_id: 6, currentperiod: ticking('extra-time', 91, 3), length: 120 })
    expect(diffFixtures(ft, brk)).toEqual([expect.objectContaining({ kind: 'state_changed', state: expect.objectContaining({ code: 'BREAK' }) })])
    expect(diffFixtures(brk, et)).toEqual([
      expect.objectContaining({ kind: 'state_changed', state: expect.objectContaining({ code: 'INPLAY_ET', phase: 'live' }) }),
      { kind: 'period_changed', period: 'extra-time', previous: null },
      { kind: 'clock', minute: 91, previous: null },
      { kind: 'fixture_updated', fields: { length: { value: 120, previous: 90 } } }
    ])
  })

  it('reports score_changed (CURRENT) with the previous score and the goal that made it', () => {
    const changes = diffFixtures(live(), live({ scores: scoreRows(ScoreType.CURRENT, 1, 0), events: [goal] }))
    expect(changes).toEqual([
      { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 }, goals: [expect.objectContaining({ id: 501, type: 'GOAL', side: 'home', minute: 23, player: { id: 5010, name: 'Player 501' } })] },
      { kind: 'event_added', event: expect.objectContaining({ id: 501, type: 'GOAL', side: 'home' }) }
    ])
  })

  it('carries every goal added since the last poll, an own goal and a penalty among them, and none that was there', () => {
    const own = event(502, EventType.OWNGOAL, 30, 'away', { result: '2-0' })
    const pen = event(503, EventType.PENALTY, 31, 'away', { result: '2-1' })
    const card = event(504, EventType.YELLOWCARD, 31, 'home')
    const before = live({ scores: scoreRows(ScoreType.CURRENT, 1, 0), events: [goal] })
    const after = live({ scores: scoreRows(ScoreType.CURRENT, 2, 1), events: [goal, own, pen, card] })
    const [score] = diffFixtures(before, after)
    expect(score).toMatchObject({ kind: 'score_changed', home: 2, away: 1 })
    expect(score?.kind === 'score_changed' ? score.goals?.map((e) => [e.id, e.type]) : undefined).toEqual([[502, 'OWNGOAL'], [503, 'PENALTY']])
  })

  it('carries no goals when the score went down, or moved with no goal event added', () => {
    const withGoal = live({ scores: scoreRows(ScoreType.CURRENT, 1, 0), events: [goal] })
    const disallowed = diffFixtures(withGoal, live({ scores: scoreRows(ScoreType.CURRENT, 0, 0) }))
    expect(disallowed[0]).toEqual({ kind: 'score_changed', home: 0, away: 0, previous: { home: 1, away: 0 } })
    const scoreFirst = diffFixtures(live(), live({ scores: scoreRows(ScoreType.CURRENT, 1, 0) }))
    expect(scoreFirst).toEqual([{ kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }])
  })

  it('reports a score correction downwards without any removed event', () => {
    const changes = diffFixtures(live({ scores: scoreRows(ScoreType.CURRENT, 2, 0) }), live({ scores: scoreRows(ScoreType.CURRENT, 1, 0) }))
    expect(changes).toEqual([{ kind: 'score_changed', home: 1, away: 0, previous: { home: 2, away: 0 } }])
  })

  it('reports the shoot-out score with score_type, but not the 0-0 rows that open it', () => {
    const base = { state_id: 9, currentperiod: ticking('penalties', null, 5), scores: scoreRows(ScoreType.CURRENT, 1, 1) }
    const before = live(base)
    const opened = live({ ...base, scores: [...base.scores, ...scoreRows(ScoreType.PENALTY_SHOOTOUT, 0, 0)] })
    const kick = event(601, EventType.PENALTY_SHOOTOUT_GOAL, 1, 'home', { result: '1-0' })
    const scored = live({ ...base, scores: [...base.scores, ...scoreRows(ScoreType.PENALTY_SHOOTOUT, 1, 0)], events: [kick] })
    expect(diffFixtures(before, opened)).toEqual([])
    expect(diffFixtures(opened, scored)).toEqual([
      { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 }, score_type: 'penalty_shootout', goals: [expect.objectContaining({ id: 601, type: 'PENALTY_SHOOTOUT_GOAL' })] },
      { kind: 'event_added', event: expect.objectContaining({ type: 'PENALTY_SHOOTOUT_GOAL' }) }
    ])
  })

  it('reports event_updated when a goal turns into a VAR event or its minute changes', () => {
    const prev = live({ events: [goal] })
    const asVar = live({ events: [{ ...goal, type_id: EventType.VAR, info: 'Goal Disallowed' }] })
    const moved = live({ events: [{ ...goal, minute: 24 }] })
    expect(diffFixtures(prev, asVar)).toEqual([{
      kind: 'event_updated',
      event: expect.objectContaining({ id: 501, type: 'VAR', info: 'Goal Disallowed' }),
      previous: expect.objectContaining({ id: 501, type: 'GOAL', info: null })
    }])
    expect(diffFixtures(prev, moved)).toEqual([
      expect.objectContaining({ kind: 'event_updated', event: expect.objectContaining({ minute: 24 }) })
    ])
  })

  it('reports a goal cancelled by VAR as event_removed and the score going back', () => {
    const before = live()
    const scored = live({ scores: scoreRows(ScoreType.CURRENT, 1, 0), events: [goal] })
    const cancelled = live()
    expect(kinds(diffFixtures(before, scored))).toEqual(['score_changed', 'event_added'])
    expect(diffFixtures(scored, cancelled)).toEqual([
      { kind: 'score_changed', home: 0, away: 0, previous: { home: 1, away: 0 } },
      { kind: 'event_removed', event: expect.objectContaining({ id: 501, type: 'GOAL' }) }
    ])
  })

  it('reports period_changed and clock', () => {
    const first = live({ currentperiod: ticking('1st-half', 44) })
    const ht = live({ state_id: 3, currentperiod: null })
    expect(diffFixtures(first, live({ currentperiod: ticking('1st-half', 45) }))).toEqual([{ kind: 'clock', minute: 45, previous: 44 }])
    expect(diffFixtures(first, ht)).toEqual([
      expect.objectContaining({ kind: 'state_changed' }),
      { kind: 'period_changed', period: null, previous: '1st-half' },
      { kind: 'clock', minute: null, previous: 44 }
    ])
  })

  it('reports other base fields in one fixture_updated', () => {
    const prev = live()
    const next = live({
      name: 'Home FC II vs Away FC',
      starting_at_timestamp: 1795291500,
      result_info: 'Home FC won after full-time.',
      round_id: 340000,
      participants: [{ id: 100, name: 'Home FC II', short_code: 'HOM', image_path: 'https://img/100.png', meta: { location: 'home' } }, { id: 200, name: 'Away FC', short_code: 'AWA', image_path: 'https://img/200.png', meta: { location: 'away' } }]
    })
    const [change] = diffFixtures(prev, next)
    expect(change).toEqual({
      kind: 'fixture_updated',
      fields: {
        name: { value: 'Home FC II vs Away FC', previous: 'Home FC vs Away FC' },
        starting_at: { value: '2026-11-21T20:05:00.000Z', previous: '2026-11-21T20:00:00.000Z' },
        result_info: { value: 'Home FC won after full-time.', previous: null },
        round_id: { value: 340000, previous: 339999 },
        home: { value: expect.objectContaining({ name: 'Home FC II' }), previous: expect.objectContaining({ name: 'Home FC' }) }
      }
    })
  })

  it('reports score types other than CURRENT and the shoot-out as fixture_updated scores', () => {
    const prev = live({ scores: [...scoreRows(ScoreType.CURRENT, 1, 0), ...scoreRows(ScoreType.FIRST_HALF, 1, 0)] })
    const next = live({ scores: [...scoreRows(ScoreType.CURRENT, 1, 0), ...scoreRows(ScoreType.FIRST_HALF, 0, 0)] })
    expect(diffFixtures(prev, next)).toEqual([{
      kind: 'fixture_updated',
      fields: { scores: { value: { '1st_half': { home: 0, away: 0 } }, previous: { '1st_half': { home: 1, away: 0 } } } }
    }])
  })

  it('orders changes: state, period, score, events (removed, updated, added), clock, fixture_updated', () => {
    const card = event(502, EventType.YELLOWCARD, 30, 'away')
    const sub = event(503, EventType.SUBSTITUTION, 31, 'away')
    const prev = live({ events: [goal, card], currentperiod: ticking('1st-half', 44) })
    const next = live({
      state_id: 22,
      currentperiod: ticking('2nd-half', 46, 2),
      scores: scoreRows(ScoreType.CURRENT, 0, 1),
      events: [{ ...card, info: 'Foul' }, sub, event(504, EventType.GOAL, 46, 'away')],
      result_info: 'x'
    })
    expect(kinds(diffFixtures(prev, next))).toEqual([
      'state_changed', 'period_changed', 'score_changed', 'event_removed', 'event_updated', 'event_added', 'event_added', 'clock', 'fixture_updated'
    ])
  })

  it('is deterministic and does not mutate its inputs', () => {
    const prev = live({ events: [goal] })
    const next = live({ scores: scoreRows(ScoreType.CURRENT, 0, 1) })
    const copies = [structuredClone(prev), structuredClone(next)]
    expect(diffFixtures(prev, next)).toEqual(diffFixtures(prev, next))
    expect([prev, next]).toEqual(copies)
  })
})

describe('fixtureRemoved', () => {
  it('yields a single fixture_removed', () => {
    expect(fixtureRemoved(live())).toEqual([{ kind: 'fixture_removed' }])
  })
})

describe('sameValue', () => {
  it('compares structurally, ignoring key order', () => {
    expect(sameValue({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true)
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true)
    expect(sameValue([1], { 0: 1 })).toBe(false)
    expect(sameValue({ a: null }, { a: 0 })).toBe(false)
  })
})
