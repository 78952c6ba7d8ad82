/**
 * The statistics of a generated match agree with its events and with each other at every instant
 * (packages/provider/src/sim/stats.ts): every change point of 120 matches, half of them cup ties, is checked.
 */
import { describe, expect, it } from 'vitest'
import type { FixtureLive } from '../../../packages/provider/src/sim/model.ts'
import type { HomeAway } from '../../../packages/upstream-contract/src/football.ts'
import { ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import { StatType, STAT_TYPES } from '../../../packages/provider/src/sim/stats.ts'
import { timelineAt } from '../../../packages/provider/src/sim/timeline-rows.ts'
import type { MatchScript } from '../../../packages/provider/src/sim/model.ts'
import { row, samplePoints, SCRIPTS, sideOf, viewAt } from './helpers.ts'

const PLAYED = SCRIPTS.filter((s) => s.periods.length > 0).slice(0, 120)
const SIDES: readonly HomeAway[] = ['home', 'away']
const other = (side: HomeAway): HomeAway => side === 'home' ? 'away' : 'home'

type Stats = Record<HomeAway, Map<number, number>>

function statsOf (view: FixtureLive): Stats {
  const out: Stats = { home: new Map(), away: new Map() }
  for (const s of view.statistics) out[s.location].set(s.type_id, s.data.value)
  return out
}

/** Events of the view per side and type, the shoot-out left out (it has no statistics). */
function eventCount (script: MatchScript, view: FixtureLive, side: HomeAway, ...types: number[]): number {
  const shootout = script.periods.find((p) => p.key === 'pens')?.id
  return view.events.filter((e) => sideOf(script, e) === side && types.includes(e.type_id) && e.detailed_period_id !== shootout).length
}

/** Each match's views at every change point (statistics included), in time order. */
function * instants (): Generator<{ script: MatchScript, at: number, view: FixtureLive, stats: Stats }> {
  for (const script of PLAYED) {
    for (const at of samplePoints(script, true)) {
      const view = viewAt(script, at)
      yield { script, at, view, stats: statsOf(view) }
    }
  }
}

/** Failures as text, so that one assertion reports the first few of thousands of checks. */
function check (test: (i: { script: MatchScript, at: number, view: FixtureLive, stats: Stats }) => string | undefined): string[] {
  const failures: string[] = []
  for (const i of instants()) {
    const failure = test(i)
    if (failure !== undefined && failures.length < 5) failures.push(`${i.script.fixtureId} at ${i.at}: ${failure}`)
  }
  return failures
}

describe('statistics', () => {
  it('have every type on both sides from kick-off, none before, with stable ids', () => {
    for (const script of PLAYED) {
      const start = script.periods[0]?.start ?? NaN
      expect(viewAt(script, start - 0.5).statistics).toEqual([])
      const rows = viewAt(script, start).statistics
      expect(rows.map((r) => `${r.type_id}:${r.location}`)).toEqual(STAT_TYPES.flatMap((t) => [`${t}:home`, `${t}:away`]))
      expect(rows.every((r) => r.data.value === (r.type_id === StatType.POSSESSION ? 50 : 0))).toBe(true)
      const end = viewAt(script, script.endAt + 60).statistics
      expect(end.map((r) => r.id)).toEqual(rows.map((r) => r.id))
      expect(new Set(end.map((r) => r.id)).size).toBe(end.length)
      for (const r of end) expect(r.participant_id).toBe(script[r.location].id)
    }
  })

  it('keep ball possession at home + away = 100 at every instant', () => {
    expect(check(({ stats }) => {
      if (stats.home.size === 0) return undefined
      const sum = (stats.home.get(StatType.POSSESSION) ?? NaN) + (stats.away.get(StatType.POSSESSION) ?? NaN)
      return sum === 100 ? undefined : `possession sums to ${sum}`
    })).toEqual([])
  })

  it('count as goals (52) the CURRENT score, and as shots on target at least the goals of the side\'s own players', () => {
    // The sample has own goals and goals VAR disallows, the cases where goals and shots part ways.
    expect(PLAYED.some((s) => s.happenings.some((h) => h.event.type_id === 15))).toBe(true)
    expect(PLAYED.some((s) => s.happenings.some((h) => h.cancelledAt !== undefined))).toBe(true)
    expect(check(({ script, view, stats }) => {
      const current = row(view.scores, ScoreType.CURRENT)
      for (const side of SIDES) {
        const goals = stats[side].get(StatType.GOALS)
        if (goals === undefined) continue
        if (goals !== current?.[side]) return `${side} goals ${goals}, score ${current?.[side]}`
        const own = eventCount(script, view, side, 14, 16)
        if ((stats[side].get(StatType.SHOTS_ON_TARGET) ?? -1) < own) return `${side} on target ${stats[side].get(StatType.SHOTS_ON_TARGET)} < ${own} goals`
      }
      return undefined
    })).toEqual([])
  })

  it('count each side\'s yellow cards (84) and red cards with second yellows (83) as its card events', () => {
    expect(check(({ script, view, stats }) => {
      for (const side of SIDES) {
        if (stats[side].size === 0) continue
        const [yellow, red] = [eventCount(script, view, side, 19), eventCount(script, view, side, 20, 21)]
        if (stats[side].get(StatType.YELLOWCARDS) !== yellow) return `${side} yellow ${stats[side].get(StatType.YELLOWCARDS)} vs ${yellow} events`
        if (stats[side].get(StatType.REDCARDS) !== red) return `${side} red ${stats[side].get(StatType.REDCARDS)} vs ${red} events`
      }
      return undefined
    })).toEqual([])
  })

  it('add up: total = on + off target, blocked within off target, dangerous within attacks, saves = the other side\'s saved shots', () => {
    expect(check(({ script, at, stats }) => {
      for (const side of SIDES) {
        const s = (type: number): number => stats[side].get(type) ?? NaN
        if (stats[side].size === 0) continue
        if (s(StatType.SHOTS_TOTAL) !== s(StatType.SHOTS_ON_TARGET) + s(StatType.SHOTS_OFF_TARGET)) return `${side} total ${s(StatType.SHOTS_TOTAL)}`
        if (s(StatType.SHOTS_BLOCKED) > s(StatType.SHOTS_OFF_TARGET)) return `${side} blocked ${s(StatType.SHOTS_BLOCKED)}`
        if (s(StatType.DANGEROUS_ATTACKS) > s(StatType.ATTACKS)) return `${side} dangerous ${s(StatType.DANGEROUS_ATTACKS)} > ${s(StatType.ATTACKS)}`
        // A side's saves are the other side's shots on target that were not goals of its players (disallowed ones included).
        const shotGoals = script.happenings.filter((h) => h.at <= at && h.bucket !== 'pens' && sideOf(script, h.event) === other(side) && [14, 16].includes(h.event.type_id)).length
        const saves = s(StatType.SAVES)
        if (saves !== (stats[other(side)].get(StatType.SHOTS_ON_TARGET) ?? NaN) - shotGoals || saves < 0) return `${side} saves ${saves}`
      }
      return undefined
    })).toEqual([])
  })

  it('only grow, but possession, and goals when VAR takes one back; xG is a 2-decimal figure that grows', () => {
    let before: { id: number, stats: Stats } | undefined
    expect(check(({ script, at, stats }) => {
      const was = before?.id === script.fixtureId ? before.stats : undefined
      before = { id: script.fixtureId, stats }
      for (const side of SIDES) {
        for (const [type, value] of stats[side]) {
          if (type === StatType.EXPECTED_GOALS && Math.round(value * 100) / 100 !== value) return `xG ${value}`
          const previous = was?.[side].get(type)
          if (previous === undefined || type === StatType.POSSESSION || value >= previous) continue
          const disallowed = type === StatType.GOALS && script.happenings.some((h) => h.cancelledAt !== undefined && h.cancelledAt <= at && h.cancelledAt > at - 1)
          if (!disallowed) return `${type} ${side} went down from ${previous} to ${value}`
        }
      }
      return undefined
    })).toEqual([])
  })

  it('look like a football match on average, and show each corner and shot in the timeline', () => {
    const totals = new Map<number, number>()
    for (const script of PLAYED) {
      const view = viewAt(script, script.endAt + 60)
      for (const s of view.statistics) totals.set(s.type_id, (totals.get(s.type_id) ?? 0) + s.data.value / PLAYED.length / 2)
      const stats = statsOf(view)
      const timeline = timelineAt(script, script.endAt + 60)
      const want = SIDES.reduce((n, side) => n + [StatType.CORNERS, StatType.SHOTS_ON_TARGET, StatType.SHOTS_OFF_TARGET].reduce((m, t) => m + (stats[side].get(t) ?? 0), 0), 0)
      expect(timeline.length).toBe(want)
    }
    const avg = (type: number): number => totals.get(type) ?? NaN
    expect(avg(StatType.CORNERS)).toBeGreaterThan(3)
    expect(avg(StatType.SHOTS_TOTAL)).toBeGreaterThan(8)
    expect(avg(StatType.SHOTS_TOTAL)).toBeLessThan(20)
    expect(avg(StatType.ATTACKS)).toBeGreaterThan(70)
    expect(avg(StatType.DANGEROUS_ATTACKS)).toBeGreaterThan(25)
    expect(avg(StatType.FOULS)).toBeGreaterThan(8)
    expect(avg(StatType.EXPECTED_GOALS)).toBeGreaterThan(0.8)
    expect(avg(StatType.EXPECTED_GOALS)).toBeLessThan(2.5)
  })
})
