import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Score } from '../../../packages/upstream-contract/src/football.ts'
import { State } from '../../../packages/upstream-contract/src/states.ts'
import { ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import { materialize } from '../../../packages/provider/src/sim/materialize.ts'
import type { MatchScript } from '../../../packages/provider/src/sim/model.ts'
import { scriptFromRecording } from '../../../packages/provider/src/sim/replay.ts'
import { goalsFromEvents, row, samplePoints } from './helpers.ts'

const RECORDED = new URL('../../fixtures/upstream/recorded/', import.meta.url)
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, RECORDED), 'utf8'))
const fixtureOf = (raw: unknown): Record<string, unknown> & { events: Array<Record<string, unknown>>, scores: Score[] } =>
  ((raw as { data?: unknown }).data ?? raw) as never

const KICKOFF = 1_800_000_000
const RECORDINGS = ['fixture-19135043-manutd-villa.json', 'fixture-19683241-psg-arsenal-penalties.json']
/** Nested includes of the recorded events; everything else is an event field. */
const INCLUDES = new Set(['player', 'type', 'period'])

const scoreKey = (s: Score) => ({ type_id: s.type_id, participant_id: s.participant_id, goals: s.score.goals, participant: s.score.participant })
const byKey = (a: { type_id: number, participant_id: number }, b: { type_id: number, participant_id: number }) =>
  a.type_id - b.type_id || a.participant_id - b.participant_id
const viewAt = (script: MatchScript, seconds: number, speed = 1) => materialize(script, { kickoff: KICKOFF, speed, seconds })

describe.each(RECORDINGS)('replaying %s', (name) => {
  const raw = load(name)
  const recorded = fixtureOf(raw)
  const { script, base, input } = scriptFromRecording(raw, KICKOFF)
  const end = viewAt(script, script.endAt)

  it('ends on the recorded state, result_info, scores and events', () => {
    expect(end.state_id).toBe(recorded.state_id)
    expect(end.result_info).toBe(recorded.result_info)
    expect(end.scores.map(scoreKey).sort(byKey)).toEqual(recorded.scores.map(scoreKey).sort(byKey))
    const expected = recorded.events
      .map((e) => Object.fromEntries(Object.entries(e).filter(([key]) => !INCLUDES.has(key))))
      .sort((a, b) => Number(a.id) - Number(b.id))
    expect([...end.events].sort((a, b) => a.id - b.id)).toEqual(expected)
  })

  it('shows each event from its recorded minute on', () => {
    for (const h of script.happenings) {
      expect(viewAt(script, h.at - 1).events.map((e) => e.id)).not.toContain(h.event.id)
      const view = viewAt(script, h.at)
      expect(view.events.map((e) => e.id)).toContain(h.event.id)
      if (h.bucket === 'pens') continue
      // The clock reads the event's minute: minute 76 happens while the clock shows 75:xx.
      const clockMinute = view.detailedperiods.find((p) => p.id === h.event.detailed_period_id || p.type_id === script.periods.find((x) => x.key === h.bucket)?.type_id)?.minutes
      const { minute, extra_minute: extra } = h.event
      expect(clockMinute).toBe(extra === null ? minute - 1 : minute + extra - 1)
    }
  })

  it('moves the score consistently with the goals on show', () => {
    let previous = { home: 0, away: 0 }
    for (const at of samplePoints(script)) {
      const view = viewAt(script, at)
      const current = row(view.scores, ScoreType.CURRENT)
      if (current === undefined) continue
      expect(current).toEqual(goalsFromEvents(script, view.events))
      expect(current.home).toBeGreaterThanOrEqual(previous.home)
      expect(current.away).toBeGreaterThanOrEqual(previous.away)
      previous = current
    }
  })

  it('places the match at the new kick-off, starting from NS', () => {
    expect(base.starting_at_timestamp).toBe(KICKOFF)
    expect(base.state_id).toBe(State.NS)
    expect(base.id).toBe(recorded.id)
    expect(input.kickoff).toBe(KICKOFF)
    expect(viewAt(script, -1).state_id).toBe(State.NS)
    expect(end.participantsMeta.home.winner).toBe(true)
  })
})

describe('replay periods', () => {
  it('infers the halves of a recording without a periods include from its events', () => {
    const { script } = scriptFromRecording(load(RECORDINGS[0] ?? ''), KICKOFF)
    const end = viewAt(script, script.endAt)
    expect(end.periods.map((p) => [p.id, p.description, p.time_added])).toEqual([[6092158, '1st-half', 2], [6092418, '2nd-half', 8]])
    expect(end.periods.map((p) => p.minutes)).toEqual([50, 98])
  })

  it('splits recorded extra time into halves and keeps the legacy period in periods', () => {
    const { script } = scriptFromRecording(load(RECORDINGS[1] ?? ''), KICKOFF)
    const end = viewAt(script, script.endAt)
    expect(end.periods.map((p) => p.type_id)).toEqual([1, 2, 3, 5])
    expect(end.detailedperiods.map((p) => p.type_id)).toEqual([1, 2, 5314, 39, 5])
    expect(end.detailedperiods.map((p) => p.id).slice(2, 4)).toEqual([6979580, 6979610])
    expect(script.states.map((s) => s.state_id)).toEqual([1, 2, 3, 22, 5, 4, 6, 21, 23, 25, 9, 8])
  })

  it('accepts bare and enveloped recordings and rejects what is not a fixture', () => {
    const raw = load(RECORDINGS[1] ?? '')
    expect(scriptFromRecording(fixtureOf(raw), KICKOFF).script).toEqual(scriptFromRecording(raw, KICKOFF).script)
    expect(() => scriptFromRecording({ data: { id: 'x' } }, KICKOFF)).toThrow(/invalid fixture recording/)
  })
})
