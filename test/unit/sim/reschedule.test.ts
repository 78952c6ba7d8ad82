/**
 * Schedule changes before the day (packages/provider/src/sim/reschedule.ts, timetable.ts): which fixtures the seed
 * moves or postpones, how the rolling schedule keeps its live target with them, and what the simulator shows
 * before and after each announcement, drawn or forced.
 */
import { describe, expect, it } from 'vitest'
import { LIVE_STATE_IDS, State } from '../../../packages/upstream-contract/src/states.ts'
import { createSimulator, LATEST_WINDOW_MS } from '../../../packages/provider/src/sim/engine.ts'
import { changeFrom, drawChange, type ScheduleChange } from '../../../packages/provider/src/sim/reschedule.ts'
import { planDay, planSchedule } from '../../../packages/provider/src/sim/schedule.ts'
import { fixtures, KICKOFF, SPEED } from './helpers.ts'

const START_MS = KICKOFF * 1000
const CANDIDATES = fixtures(800, 60_000_000)
const MINUTE = 60

/** A simulator over a day planned with schedule changes, more of them than by default so that each kind shows. */
function simulated (rates = { move: 0.1, postpone: 0.05 }): { sim: ReturnType<typeof createSimulator>, changes: ScheduleChange[], kickoffs: Map<number, number> } {
  const day = planDay({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 3, liveTarget: 6, changes: rates })
  const inputs = CANDIDATES.map((f) => ({ ...f, kickoff: day.kickoffs.get(f.id) ?? f.kickoff }))
  return { sim: createSimulator({ fixtures: inputs, seed: 3, speed: SPEED, startMs: START_MS, changes: day.changes }), changes: day.changes, kickoffs: day.kickoffs }
}

const DAY = simulated()
const upcoming = (kind: 'move' | 'postpone'): ScheduleChange[] => DAY.changes.filter((c) => c.kind === kind && c.atMs > START_MS + 10_000)

describe('drawn schedule changes', () => {
  it('move about 3 % of fixtures by 15 to 120 minutes and postpone about 1 %, announced 24 h to 30 min before', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => 70_000_000 + i)
    const drawn = ids.map((id) => ({ id, change: drawChange(9, id) }))
    const moves = drawn.filter((d) => d.change?.kind === 'move')
    const postponements = drawn.filter((d) => d.change?.kind === 'postpone')
    expect(moves.length / ids.length).toBeGreaterThan(0.025)
    expect(moves.length / ids.length).toBeLessThan(0.035)
    expect(postponements.length / ids.length).toBeGreaterThan(0.007)
    expect(postponements.length / ids.length).toBeLessThan(0.013)
    // At speed 1, match time is real time.
    for (const { id, change } of [...moves, ...postponements]) {
      if (change === undefined) continue
      const c = changeFrom(id, KICKOFF, change, 1)
      const lead = c.from - c.atMs / 1000
      expect(lead).toBeGreaterThanOrEqual(30 * MINUTE)
      expect(lead).toBeLessThanOrEqual(24 * 3600)
      expect(c.to * 1000 - c.atMs, 'the new kick-off comes at least 30 minutes after the announcement').toBeGreaterThanOrEqual(30 * MINUTE * 1000)
      if (c.kind === 'postpone') expect(c.to).toBe(c.from)
      else expect(Math.abs(c.to - c.from)).toBeGreaterThanOrEqual(15 * MINUTE)
      if (c.kind === 'move') expect(Math.abs(c.to - c.from)).toBeLessThanOrEqual(120 * MINUTE)
    }
    expect(moves.some((m) => m.change?.kind === 'move' && m.change.shift < 0)).toBe(true)
    expect(drawChange(9, 70_000_001)).toEqual(drawChange(9, 70_000_001))
  })

  it('scale with the speed: at speed 60 a move of 15 to 120 match minutes is 15 to 120 real seconds', () => {
    for (const c of DAY.changes) {
      expect(c.from - c.atMs / 1000).toBeGreaterThanOrEqual(30)
      expect(c.from - c.atMs / 1000).toBeLessThanOrEqual(24 * MINUTE)
      if (c.kind === 'move') expect(Math.abs(c.to - c.from)).toBeGreaterThanOrEqual(15)
      if (c.kind === 'move') expect(Math.abs(c.to - c.from)).toBeLessThanOrEqual(120)
    }
  })

  it('leave the rolling schedule as it was without them, and keep the live target through 3 hours', () => {
    const plain = planSchedule({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 3, liveTarget: 6 })
    expect(planDay({ candidates: CANDIDATES, startMs: START_MS, speed: SPEED, seed: 3, liveTarget: 6 }).kickoffs).toEqual(plain)
    // A moved fixture is played when its slot is free: its kick-off after the move is the plan's.
    for (const c of DAY.changes) if (c.kind === 'move') expect(c.to).toBe(DAY.kickoffs.get(c.fixtureId))
    for (let t = START_MS; t < START_MS + 3 * 3600_000; t += 5_000) {
      const n = DAY.sim.inplay(t).length
      expect(n, `at +${(t - START_MS) / 1000} s`).toBeGreaterThanOrEqual(4)
      expect(n).toBeLessThanOrEqual(8)
    }
  })
})

describe('a moved kick-off', () => {
  it('shows the old kick-off until the announcement and the new one from it, and is played at the new one', () => {
    const moves = upcoming('move')
    expect(moves.length).toBeGreaterThan(10)
    let played = 0
    for (const c of moves) {
      expect(DAY.sim.kickoffAt(c.fixtureId, c.atMs - 1)).toBe(c.from)
      expect(DAY.sim.kickoffAt(c.fixtureId, c.atMs)).toBe(c.to)
      expect(DAY.sim.stateAt(c.fixtureId, c.atMs)).toBe(State.NS)
      expect(DAY.sim.lastBaseChangedAt(c.fixtureId, c.atMs + 1_000)).toBe(c.atMs)
      // Not yet started at the old kick-off (when that comes first); in play a minute after the new one.
      if (c.from < c.to) expect(DAY.sim.stateAt(c.fixtureId, c.from * 1000 + 1_000)).toBe(State.NS)
      if (LIVE_STATE_IDS.has(DAY.sim.stateAt(c.fixtureId, c.to * 1000 + 60_000))) played++
      expect(DAY.sim.endsAt(c.fixtureId)).toBeGreaterThan(c.to * 1000)
    }
    expect(played / moves.length).toBeGreaterThan(0.85)
  })

  it('is listed by latestFixtures for 10 s from the announcement, and not by latest (it is far from its kick-off)', () => {
    for (const c of upcoming('move').slice(0, 20)) {
      expect(DAY.sim.latestFixtures(c.atMs - 1)).not.toContain(c.fixtureId)
      expect(DAY.sim.latestFixtures(c.atMs)).toContain(c.fixtureId)
      expect(DAY.sim.latestFixtures(c.atMs + LATEST_WINDOW_MS - 1)).toContain(c.fixtureId)
      expect(DAY.sim.latestFixtures(c.atMs + LATEST_WINDOW_MS)).not.toContain(c.fixtureId)
      expect(DAY.sim.latest(c.atMs)).not.toContain(c.fixtureId)
      expect(DAY.sim.livescores(c.atMs)).not.toContain(c.fixtureId)
    }
  })
})

describe('a postponed match', () => {
  it('is POSTPONED from the announcement on, keeps its kick-off and is never played', () => {
    const postponed = upcoming('postpone')
    expect(postponed.length).toBeGreaterThan(5)
    for (const c of postponed.slice(0, 12)) {
      const id = c.fixtureId
      expect(DAY.sim.stateAt(id, c.atMs - 1)).toBe(State.NS)
      expect(DAY.sim.view(id, c.atMs - 1)?.state_id).toBe(State.NS)
      expect(DAY.sim.stateAt(id, c.atMs)).toBe(State.POSTPONED)
      expect(DAY.sim.kickoffAt(id, c.atMs)).toBe(c.from)
      expect(DAY.sim.latestFixtures(c.atMs + 5_000)).toContain(id)
      // Around the kick-off it had and for the two hours a match takes at most at speed 60 and more.
      for (let t = c.from * 1000 - 30_000; t < c.from * 1000 + 2 * 3600_000; t += 9_000) {
        expect(DAY.sim.inplay(t)).not.toContain(id)
        expect(DAY.sim.livescores(t)).not.toContain(id)
      }
      const view = DAY.sim.view(id, c.from * 1000 + 3600_000)
      expect(view).toMatchObject({ state_id: State.POSTPONED, events: [], scores: [], statistics: [], result_info: null })
      expect(DAY.sim.scoreAt(id, c.from * 1000 + 3600_000)).toEqual({ state_id: State.POSTPONED, home: 0, away: 0 })
    }
  })
})

describe('forced changes', () => {
  const { sim } = simulated({ move: 0, postpone: 0 })
  const later = CANDIDATES.map((f) => f.id).filter((id) => (sim.kickoffAt(id, START_MS) ?? 0) * 1000 > START_MS + 600_000)

  it('move a kick-off at the given instant, and are listed as forced', () => {
    const id = later[0] as number
    const from = sim.kickoffAt(id, START_MS) as number
    const at = START_MS + 100_000
    const change = sim.reschedule({ fixtureId: id, kind: 'move', atMs: at, to: from + 300 })
    expect(change).toEqual({ fixtureId: id, kind: 'move', atMs: at, from, to: from + 300, source: 'forced' })
    expect(sim.changes(id)).toEqual([change])
    expect(sim.kickoffAt(id, at - 1)).toBe(from)
    expect(sim.kickoffAt(id, at)).toBe(from + 300)
    expect(sim.latestFixtures(at)).toContain(id)
    expect(sim.stateAt(id, (from + 60) * 1000)).toBe(State.NS)
    // A later change replaces what came after it: postponed from then on.
    sim.reschedule({ fixtureId: id, kind: 'postpone', atMs: at + 50_000 })
    expect(sim.stateAt(id, at + 49_999)).toBe(State.NS)
    expect(sim.stateAt(id, at + 50_000)).toBe(State.POSTPONED)
    expect(sim.changes(id).map((c) => c.kind)).toEqual(['move', 'postpone'])
  })

  it('postpone a match inside the livescores window: it shows POSTPONED there, then leaves 15 match minutes later', () => {
    const id = later[1] as number
    const kickoffMs = (sim.kickoffAt(id, START_MS) as number) * 1000
    const at = kickoffMs - 12_000
    expect(sim.livescores(at)).toContain(id)
    sim.reschedule({ fixtureId: id, kind: 'postpone', atMs: at })
    expect(sim.view(id, at)?.state_id).toBe(State.POSTPONED)
    expect(sim.livescores(at + 14_000)).toContain(id)
    expect(sim.livescores(at + 15_100)).not.toContain(id)
    expect(sim.latest(at)).toContain(id)
    expect(sim.inplay(kickoffMs + 30_000)).not.toContain(id)
  })

  it('are refused for a match that has kicked off or is postponed, a kick-off not after the announcement, an unknown fixture', () => {
    const id = later[2] as number
    const kickoff = sim.kickoffAt(id, START_MS) as number
    expect(() => sim.reschedule({ fixtureId: id, kind: 'move', atMs: kickoff * 1000, to: kickoff + 600 })).toThrow(RangeError)
    expect(() => sim.reschedule({ fixtureId: id, kind: 'move', atMs: START_MS, to: START_MS / 1000 })).toThrow(RangeError)
    expect(() => sim.reschedule({ fixtureId: 1, kind: 'postpone', atMs: START_MS })).toThrow(RangeError)
    sim.reschedule({ fixtureId: id, kind: 'postpone', atMs: START_MS })
    expect(() => sim.reschedule({ fixtureId: id, kind: 'move', atMs: START_MS + 1, to: kickoff + 600 })).toThrow(RangeError)
  })
})
