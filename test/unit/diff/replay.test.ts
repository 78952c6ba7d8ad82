import { describe, expect, it } from 'vitest'
import { EventType } from '../../../packages/upstream-contract/src/types.ts'
import { diffFixtures } from '../../../src/diff/diff.ts'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Change, LiveFixture } from '../../../src/wire-model/model.ts'
import { recordedFixture } from '../upstream/recordings.ts'
import type { RecordingName } from '../upstream/recordings.ts'
import { NOW } from './builders.ts'
import { SCORING, replaySnapshots } from './replay.ts'

type Of<K extends Change['kind']> = Extract<Change, { kind: K }>

/** Replays a recording through normalize + diff, as the poller would, and collects every diff. */
function replay (name: RecordingName, walk: number[]): { diffs: Change[][], last: LiveFixture, expected: LiveFixture } {
  const recording = recordedFixture(name)
  let prev: LiveFixture | undefined
  const diffs: Change[][] = []
  for (const snapshot of replaySnapshots(recording, walk)) {
    const next = normalizeFixture(snapshot, { now: NOW })
    diffs.push(diffFixtures(prev, next))
    prev = next
  }
  return { diffs, last: prev!, expected: normalizeFixture(recording, { now: NOW }) }
}

const all = <K extends Change['kind']>(diffs: Change[][], kind: K): Array<Of<K>> =>
  diffs.flat().filter((c): c is Of<K> => c.kind === kind)
const current = (diffs: Change[][]) => all(diffs, 'score_changed').filter((c) => c.score_type === undefined)
const shootout = (diffs: Change[][]) => all(diffs, 'score_changed').filter((c) => c.score_type === 'penalty_shootout')
const pair = (c: { home: number | null, away: number | null }): string => `${c.home}-${c.away}`

describe('replaying Manchester United vs Aston Villa (NS → 1st half → HT → 2nd half → FT)', () => {
  const walk = [1, 2, 3, 22, 5]
  const { diffs, last, expected } = replay('manutdVilla', walk)
  const recording = recordedFixture('manutdVilla')

  it('ends on the normalized recording', () => {
    expect(last).toEqual(expected)
  })

  it('starts with fixture_added alone and then changes something on every step', () => {
    expect(diffs[0]).toEqual([{ kind: 'fixture_added' }])
    expect(diffs.slice(1).every((d) => d.length > 0)).toBe(true)
  })

  it('gives one CURRENT score_changed per goal, in the diff that adds the goal', () => {
    expect(recording.events?.some((e) => e.type_id === EventType.OWNGOAL)).toBe(false)
    const goals = recording.events?.filter((e) => SCORING.has(e.type_id)) ?? []
    expect(current(diffs).map(pair)).toEqual(['1-0', '2-0'])
    expect(current(diffs)).toHaveLength(goals.length)
    for (const diff of diffs.filter((d) => d.some((c) => c.kind === 'score_changed'))) {
      expect(diff.some((c) => c.kind === 'event_added' && SCORING.has(c.event.type_id))).toBe(true)
    }
    expect(current(diffs)[1]?.previous).toEqual({ home: 1, away: 0 })
  })

  it('walks the states and periods once each, adds every event and removes none', () => {
    expect(all(diffs, 'state_changed').map((c) => c.state.id)).toEqual(walk.slice(1))
    expect(all(diffs, 'period_changed').map((c) => c.period)).toEqual(['1st-half', null, '2nd-half', null])
    expect(all(diffs, 'event_added')).toHaveLength(17)
    expect(all(diffs, 'event_removed')).toHaveLength(0)
    expect(all(diffs, 'event_updated')).toHaveLength(0)
    expect(shootout(diffs)).toHaveLength(0)
  })

  it('reports the result text at the end as fixture_updated', () => {
    const updates = all(diffs, 'fixture_updated').filter((c) => 'result_info' in c.fields)
    expect(updates.map((c) => c.fields.result_info?.value)).toEqual(['Manchester United won after full-time.'])
  })
})

describe('replaying Paris Saint Germain vs Arsenal (extra time, then penalties)', () => {
  const walk = [1, 2, 3, 22, 5, 4, 6, 21, 23, 25, 9, 8]
  const { diffs, last, expected } = replay('psgArsenal', walk)

  it('ends on the normalized recording, translated state name included', () => {
    expect(last).toEqual(expected)
    expect(last.state.name).toBe('After Penalties')
  })

  it('goes on after FT: BREAK, extra time, penalties', () => {
    expect(all(diffs, 'state_changed').map((c) => c.state.code)).toEqual([
      'INPLAY_1ST_HALF', 'HT', 'INPLAY_2ND_HALF', 'FT', 'BREAK', 'INPLAY_ET', 'EXTRA_TIME_BREAK',
      'INPLAY_ET_2ND_HALF', 'PEN_BREAK', 'INPLAY_PENALTIES', 'FT_PEN'
    ])
    expect(all(diffs, 'period_changed').map((c) => c.period)).toEqual([
      '1st-half', null, '2nd-half', null, 'extra-time', null, 'extra-time', null, 'penalties', null
    ])
  })

  it('gives one CURRENT score_changed per goal and leaves the shoot-out out of CURRENT', () => {
    expect(current(diffs).map(pair)).toEqual(['0-1', '1-1'])
    expect(last.home.score).toBe(1)
    expect(last.away.score).toBe(1)
  })

  it('shows every shoot-out goal as a penalty_shootout score change, and misses as events only', () => {
    const changes = shootout(diffs)
    expect(changes.map(pair)).toEqual(['1-0', '1-1', '2-1', '2-2', '3-2', '3-3', '4-3'])
    changes.forEach((c, i) => expect(c.previous).toEqual(i === 0 ? { home: 0, away: 0 } : { home: changes[i - 1]!.home, away: changes[i - 1]!.away }))
    const misses = all(diffs, 'event_added').filter((c) => c.event.type === 'PENALTY_SHOOTOUT_MISS')
    expect(misses).toHaveLength(3)
    expect(last.scores.penalty_shootout).toEqual({ home: 4, away: 3 })
  })

  it('adds all 30 events exactly once', () => {
    const added = all(diffs, 'event_added').map((c) => c.event.id)
    expect(added).toHaveLength(30)
    expect(new Set(added).size).toBe(30)
    expect(all(diffs, 'event_removed')).toHaveLength(0)
  })

  it('keeps the clock null in breaks and during the shoot-out', () => {
    const clocks = all(diffs, 'clock').map((c) => c.minute)
    expect(clocks).toContain(96)
    expect(clocks.filter((m) => m === null)).toHaveLength(4)
    expect(last.minute).toBeNull()
  })
})
