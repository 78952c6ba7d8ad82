import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { LIVE_STATE_IDS } from '../../../packages/upstream-contract/src/states.ts'
import { realMsAt } from '../../../packages/provider/src/sim/clock.ts'
import { changePoints, createSimulator, LATEST_WINDOW_MS, MAX_SCRIPT_SECONDS, type Simulator } from '../../../packages/provider/src/sim/engine.ts'
import { planSchedule } from '../../../packages/provider/src/sim/schedule.ts'
import { fixtures, KICKOFF, SCRIPTS, SPEED, viewAt, withoutClock } from './helpers.ts'

const START_MS = KICKOFF * 1000
const CANDIDATES = fixtures(800, 40_000_000)
const options = { fixtures: CANDIDATES, seed: 5, speed: SPEED, startMs: START_MS, liveTarget: 6 }
const SIM = createSimulator(options)
const changed = (sim: Simulator, id: number, a: number, b: number): boolean =>
  !isDeepStrictEqual(withoutClock(sim.view(id, a)), withoutClock(sim.view(id, b)))

describe('clock', () => {
  it('plays a 90-minute match in about 105 real seconds at speed 60, with real period times', () => {
    const league = SCRIPTS.find((s) => s.kind === 'league' && s.states.length === 5)
    if (league === undefined) throw new Error('no plain league match')
    const seconds = (realMsAt(KICKOFF, SPEED, league.endAt) - START_MS) / 1000
    expect(seconds).toBeGreaterThan(100)
    expect(seconds).toBeLessThan(120)
    const end = viewAt(league, league.endAt)
    const second = league.periods[1]
    expect(end.periods[1]?.started).toBe(KICKOFF + Math.floor((second?.start ?? NaN) / SPEED))
    expect(end.periods[1]?.ended).toBe(KICKOFF + Math.floor((second?.end ?? NaN) / SPEED))
    expect(end.periods[1]?.minutes).toBeGreaterThanOrEqual(90)
  })

  it('ends every generated match within MAX_SCRIPT_SECONDS of its kick-off', () => {
    for (const s of SCRIPTS) expect(s.endAt).toBeLessThan(MAX_SCRIPT_SECONDS)
  })
})

describe('changes', () => {
  it('happen exactly at the change points: the view (clock aside) differs at each and holds between them', () => {
    for (const script of SCRIPTS.slice(0, 60)) {
      const points = changePoints(script).all
      points.forEach((at, i) => {
        const here = withoutClock(viewAt(script, at))
        expect(here, `${script.fixtureId} at ${at}`).not.toEqual(withoutClock(viewAt(script, at - 0.5)))
        const next = points[i + 1] ?? at + 600
        expect(withoutClock(viewAt(script, (at + next) / 2))).toEqual(here)
        expect(withoutClock(viewAt(script, next - 0.5))).toEqual(here)
      })
    }
  })

  it('lists in latest exactly the fixtures whose view changed in the last 10 s', () => {
    // latest(t) = { f : some change of f's view (clock aside) happened at a real time in (t - 10 s, t] }.
    for (let t = START_MS - 20_000; t < START_MS + 15 * 60_000; t += 1_337) {
      const latest = new Set(SIM.latest(t))
      const candidates = new Set([...SIM.livescores(t), ...SIM.livescores(t - LATEST_WINDOW_MS), ...latest])
      for (const id of candidates) {
        const last = SIM.lastChangedAt(id, t)
        expect(latest.has(id), `${id} at ${t}`).toBe(last > t - LATEST_WINDOW_MS)
        if (changed(SIM, id, t, t - LATEST_WINDOW_MS)) expect(latest.has(id)).toBe(true)
        if (last === 0) continue
        expect(last).toBeLessThanOrEqual(t)
        expect(changed(SIM, id, last, last - 1)).toBe(true)
        expect(changed(SIM, id, last, t)).toBe(false)
      }
    }
  })

  it('lists base-field changes (state_id, result_info, length) in latestBase, a subset of latest', () => {
    let seen = 0
    for (let t = START_MS; t < START_MS + 10 * 60_000; t += 2_000) {
      const latest = SIM.latest(t)
      for (const id of SIM.latestBase(t)) {
        seen++
        expect(latest).toContain(id)
        const at = SIM.lastBaseChangedAt(id, t)
        const [now, before] = [SIM.view(id, at), SIM.view(id, at - 1)]
        expect([now?.state_id, now?.result_info, now?.length]).not.toEqual([before?.state_id, before?.result_info, before?.length])
      }
    }
    expect(seen).toBeGreaterThan(0)
  })
})

describe('livescores and inplay', () => {
  it('holds a fixture from 15 match minutes before kick-off to 15 after the end (15 s each at speed 60)', () => {
    for (const id of CANDIDATES.slice(10, 30).map((f) => f.id)) {
      const kickoffMs = (SIM.fixture(id)?.kickoff ?? NaN) * 1000
      const endMs = SIM.endsAt(id) ?? NaN
      expect(SIM.livescores(kickoffMs - 15_000)).toContain(id)
      expect(SIM.livescores(kickoffMs - 15_001)).not.toContain(id)
      expect(SIM.livescores(endMs + 15_000)).toContain(id)
      expect(SIM.livescores(endMs + 15_001)).not.toContain(id)
    }
  })

  it('counts as in play only live states, all within livescores', () => {
    for (let t = START_MS; t < START_MS + 20 * 60_000; t += 3_100) {
      const livescores = SIM.livescores(t)
      for (const id of SIM.inplay(t)) {
        expect(livescores).toContain(id)
        expect(LIVE_STATE_IDS).toContain(SIM.view(id, t)?.state_id)
      }
    }
  })

  it('is deterministic and survives dropping scripts from its cache', () => {
    const again = createSimulator({ ...options, cacheSize: 1 })
    for (let t = START_MS; t < START_MS + 5 * 60_000; t += 7_000) {
      expect(again.inplay(t)).toEqual(SIM.inplay(t))
      expect(again.latest(t)).toEqual(SIM.latest(t))
      for (const id of SIM.livescores(t)) expect(again.view(id, t)).toEqual(SIM.view(id, t))
    }
  })
})

describe('rolling schedule', () => {
  it('keeps liveTarget ± 2 fixtures in play through the first 3 hours', () => {
    for (let t = START_MS; t < START_MS + 3 * 3600_000; t += 5_000) {
      const n = SIM.inplay(t).length
      expect(n, `at +${(t - START_MS) / 1000} s`).toBeGreaterThanOrEqual(4)
      expect(n).toBeLessThanOrEqual(8)
    }
  })

  it('starts with matches already in progress and kicks off the rest within the first minute', () => {
    const plan = planSchedule({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 5 })
    const first = [...plan.values()].sort((a, b) => a - b).slice(0, 6)
    expect(first.filter((k) => k * 1000 < START_MS).length).toBeGreaterThanOrEqual(3)
    expect(first.every((k) => k * 1000 <= START_MS + 60_000)).toBe(true)
    expect(SIM.inplay(START_MS).length).toBeGreaterThanOrEqual(4)
  })

  it('mixes leagues and is a pure function of its options', () => {
    const plan = planSchedule({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 5, liveTarget: 6 })
    expect(planSchedule({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 5, liveTarget: 6 })).toEqual(plan)
    const byKickoff = [...plan].sort((a, b) => a[1] - b[1]).slice(0, 6)
    const leagues = new Set(byKickoff.map(([id]) => CANDIDATES.find((c) => c.id === id)?.league_id))
    expect(leagues.size).toBeGreaterThanOrEqual(4)
  })

  it('covers 24 real hours at speed 60 when there are enough candidates', () => {
    const plan = planSchedule({ candidates: fixtures(5000, 50_000_000), startMs: START_MS, speed: 60, seed: 1 })
    expect(Math.max(...plan.values()) * 1000 - START_MS).toBeGreaterThan(24 * 3600_000)
  })
})
