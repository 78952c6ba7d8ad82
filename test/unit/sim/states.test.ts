import { describe, expect, it } from 'vitest'
import { LIVE_STATE_IDS, State } from '../../../packages/upstream-contract/src/states.ts'
import { scriptMatch } from '../../../packages/provider/src/sim/script.ts'
import type { MatchScript } from '../../../packages/provider/src/sim/model.ts'
import { fixtures, LEGAL, SCRIPTS, samplePoints, viewAt } from './helpers.ts'

const FINAL: ReadonlySet<number> = new Set([State.FT, State.AET, State.FT_PEN, State.POSTPONED, State.ABANDONED])
const PLAYING: ReadonlySet<number> = new Set([State.INPLAY_1ST_HALF, State.INPLAY_2ND_HALF, State.INPLAY_ET, State.INPLAY_ET_2ND_HALF, State.INPLAY_PENALTIES])
/** Many more matches, cheap to script, to meet the rare disruptions. */
const MANY: readonly MatchScript[] = fixtures(3000, 30_000_000).map((f) => scriptMatch(f, 11))
const finalState = (s: MatchScript): number => s.states[s.states.length - 1]?.state_id ?? NaN

describe('match states', () => {
  it('moves only along legal transitions, in the script and in the views', () => {
    for (const script of [...SCRIPTS, ...MANY]) {
      const sequence = script.states.map((s) => s.state_id)
      sequence.slice(1).forEach((to, i) => expect(LEGAL[sequence[i] ?? 0], `${script.fixtureId}: ${sequence[i]} → ${to}`).toContain(to))
      expect(FINAL).toContain(finalState(script))
    }
    for (const script of SCRIPTS) {
      const seen = samplePoints(script).map((at) => viewAt(script, at).state_id).filter((s, i, all) => s !== all[i - 1])
      seen.slice(1).forEach((to, i) => expect(LEGAL[seen[i] ?? 0]).toContain(to))
    }
  })

  it('resumes a stopped match in the half it stopped', () => {
    const stopped = MANY.filter((s) => s.states.some((x) => x.state_id === State.SUSPENDED || x.state_id === State.INTERRUPTED))
    expect(stopped.length).toBeGreaterThan(0)
    for (const script of stopped) {
      script.states.forEach((step, i) => {
        if (step.state_id !== State.SUSPENDED && step.state_id !== State.INTERRUPTED) return
        const after = script.states[i + 1]?.state_id
        if (after !== State.ABANDONED) expect(after).toBe(script.states[i - 1]?.state_id)
      })
    }
  })

  it('plays league matches to FT and cup ties level after 90 minutes on through extra time', () => {
    for (const script of SCRIPTS) {
      const states = script.states.map((s) => s.state_id)
      if (script.kind === 'league') expect(states.some((s) => s === State.BREAK || s === State.INPLAY_ET)).toBe(false)
      if (states.includes(State.INPLAY_ET)) {
        expect(script.kind).toBe('cup')
        expect(states.slice(states.indexOf(State.FT), states.indexOf(State.FT) + 3)).toEqual([State.FT, State.BREAK, State.INPLAY_ET])
      }
    }
    const finals = new Set(SCRIPTS.map(finalState))
    expect(finals).toContain(State.AET)
    expect(finals).toContain(State.FT_PEN)
  })

  it('disrupts about one match in 25: delays, stoppages, abandonments and postponements', () => {
    const has = (s: MatchScript, id: number): boolean => s.states.some((x) => x.state_id === id)
    const disrupted = MANY.filter((s) => [State.DELAYED, State.SUSPENDED, State.INTERRUPTED, State.POSTPONED].some((id) => has(s, id)))
    expect(disrupted.length / MANY.length).toBeGreaterThan(1 / 60)
    expect(disrupted.length / MANY.length).toBeLessThan(1 / 12)
    const postponed = MANY.filter((s) => finalState(s) === State.POSTPONED)
    const abandoned = MANY.filter((s) => finalState(s) === State.ABANDONED)
    expect(postponed.length).toBeGreaterThan(0)
    expect(abandoned.length).toBeGreaterThan(0)
    for (const s of postponed) {
      expect(s.periods).toEqual([])
      expect(s.endAt).toBeLessThan(0)
    }
    for (const s of abandoned) {
      const end = viewAt(s, s.endAt + 60)
      expect(end.result_info).toBeNull()
      expect(end.participantsMeta.home.winner).toBeNull()
      expect(end.currentperiod).toBeNull()
    }
    const delayed = MANY.find((s) => has(s, State.DELAYED))
    expect(delayed?.periods[0]?.start).toBeGreaterThan(0)
  })

  it('ticks a period exactly while its half is being played', () => {
    for (const script of SCRIPTS.slice(0, 100)) {
      for (const at of samplePoints(script)) {
        const view = viewAt(script, at)
        expect(view.currentperiod !== null, `${script.fixtureId} at ${at}`).toBe(PLAYING.has(view.state_id))
        if (view.currentperiod !== null) expect(LIVE_STATE_IDS).toContain(view.state_id)
      }
    }
  })

  it('sets length 120 once extra time starts, and result_info and winners only at the end', () => {
    for (const script of SCRIPTS) {
      const et = script.periods.find((p) => p.key === 'et1')
      expect(viewAt(script, (et?.start ?? script.endAt) - 1).length).toBe(90)
      if (et !== undefined) expect(viewAt(script, et.start).length).toBe(120)
      const before = viewAt(script, script.endAt - 1)
      expect(before.result_info).toBeNull()
      expect(before.participantsMeta.home.winner).toBeNull()
    }
  })
})
