/**
 * The odds of simulated matches (packages/provider/src/odds/book.ts), over 300 scripted matches: none before
 * kick-off, prices that drift with the clock and jump on a goal, every market suspended around a goal, a
 * penalty award and a VAR review, settlement by the final regular-time score, and determinism.
 */
import { describe, expect, it } from 'vitest'
import { EventType, ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import { State } from '../../../packages/upstream-contract/src/states.ts'
import { inplayOdds, preMatchOdds, type PlacedLine } from '../../../packages/provider/src/odds/book.ts'
import { lineOfScript, standingGoals, suspensions, SUSPEND } from '../../../packages/provider/src/odds/line.ts'
import { Market } from '../../../packages/provider/src/odds/markets.ts'
import { ratesOf } from '../../../packages/provider/src/odds/pricing.ts'
import { realMsAt } from '../../../packages/provider/src/sim/clock.ts'
import type { MatchScript } from '../../../packages/provider/src/sim/model.ts'
import { KICKOFF, row, SCRIPTS, SPEED, viewAt } from '../sim/helpers.ts'

type Row = Record<string, any>
const SEED = 7

const placed = (script: MatchScript, seed = SEED): PlacedLine => {
  const line = lineOfScript(script)
  return { line, kickoff: KICKOFF, speed: SPEED, seed, rates: ratesOf(seed, line.home.id, line.away.id) }
}
const ms = (t: number): number => realMsAt(KICKOFF, SPEED, t)
const inplay = (p: PlacedLine, t: number): Row[] => inplayOdds(p, ms(t)).map((o) => o.row)
const market = (rows: Row[], id: number, bookmaker = 2): Row[] => rows.filter((r) => r.market_id === id && r.bookmaker_id === bookmaker)
const values = (rows: Row[]): string[] => rows.map((r) => r.value)

const PLAYED = SCRIPTS.filter((s) => s.periods.some((p) => p.key === 'second') && s.states.at(-1)?.state_id !== State.ABANDONED)
const secondHalfEnd = (s: MatchScript): number => s.periods.find((p) => p.key === 'second')?.end ?? 0
/** Whether `t` is inside a suspension of the line, or within `margin` seconds of one. */
const nearAlarm = (p: PlacedLine, t: number, margin = 0): boolean => suspensions(p.line).some((w) => t >= w.from - margin && t < w.to + margin)

describe('odds of a simulated match', () => {
  it('none in play before kick-off; from kick-off two bookmakers price five markets; pre-match rows carry the kick-off prices', () => {
    for (const script of PLAYED.slice(0, 40)) {
      const p = placed(script)
      const start = p.line.start as number
      expect(inplay(p, start - 1)).toEqual([])
      const open = inplay(p, start + 1)
      expect(new Set(open.map((r) => r.bookmaker_id))).toEqual(new Set([2, 34]))
      expect(new Set(open.map((r) => r.market_id))).toEqual(new Set([1, 2, 14, 57, 80]))
      expect(open.length).toBe(2 * 13)
      const pre = preMatchOdds(p, ms(start - 600)).map((o) => o.row)
      if (nearAlarm(p, start)) continue
      const atKickoff = inplay(p, start)
      expect(pre.map((r) => [r.market_id, r.bookmaker_id, r.label, r.value])).toEqual(atKickoff.map((r) => [r.market_id, r.bookmaker_id, r.label, r.value]))
      for (const r of pre) expect(r).not.toHaveProperty('suspended')
      expect(preMatchOdds(p, ms(start + 1)).every((o) => o.row.stopped === true)).toBe(true)
    }
  })

  it('prices drift with the clock: in any three minutes of open play the bookmaker re-prices and some price moves', () => {
    for (const script of PLAYED.slice(0, 60)) {
      const p = placed(script)
      const first = script.periods[0]
      if (first === undefined || first.pauses.length > 0) continue
      for (let t = first.start; t + 180 < first.start + 2700; t += 180) {
        if (nearAlarm(p, t, 1) || nearAlarm(p, t + 180, 1) || suspensions(p.line).some((w) => w.from >= t && w.from < t + 180)) continue
        const [a, b] = [market(inplay(p, t), Market.FULLTIME_RESULT), market(inplay(p, t + 180), Market.FULLTIME_RESULT)]
        expect(b[0]?.latest_bookmaker_update > a[0]?.latest_bookmaker_update, `${script.fixtureId} at ${t}`).toBe(true)
        expect([...values(a), ...values(market(inplay(p, t), 80))]).not.toEqual([...values(b), ...values(market(inplay(p, t + 180), 80))])
      }
    }
  })

  it('a goal suspends every market for a spell, shows the last prices meanwhile, and reopens at new prices', () => {
    let goals = 0
    for (const script of PLAYED) {
      const p = placed(script)
      const [goal] = standingGoals(p.line)
      if (goal === undefined || nearAlarm(p, goal.at - 1)) continue
      const window = suspensions(p.line).find((w) => w.from === goal.at)
      // Only a goal alone in its suspension (no second goal, penalty or review right after it) and before the end.
      if (window === undefined || window.to >= (p.line.end ?? 0) || p.line.alarms.filter((a) => a.from < window.to && a.to > window.from).length > 1) continue
      goals++
      expect(window.to - window.from).toBeGreaterThanOrEqual(SUSPEND.goal)
      const before = inplay(p, goal.at - 0.5)
      const during = inplay(p, goal.at + 30)
      expect(during.every((r) => r.suspended === true && r.stopped === false)).toBe(true)
      expect(values(during)).toEqual(values(before))
      const after = inplay(p, window.to + 0.5)
      const open = after.filter((r) => !r.stopped)
      expect(open.length).toBeGreaterThan(0)
      expect(open.every((r) => r.suspended === false)).toBe(true)
      // The first goal moves the result prices: the scorer's win shortens, the other side's lengthens.
      const [scorer, other] = goal.side === 'home' ? [0, 2] : [2, 0]
      for (const bookmaker of [2, 34]) {
        const [b, a] = [market(before, 1, bookmaker), market(after, 1, bookmaker)]
        expect(Number(a[scorer]?.value)).toBeLessThan(Number(b[scorer]?.value))
        expect(Number(a[other]?.value)).toBeGreaterThan(Number(b[other]?.value))
      }
    }
    expect(goals).toBeGreaterThan(100)
  })

  it('a penalty award suspends the markets before the kick, a VAR review until its decision', () => {
    let [penalties, reviews] = [0, 0]
    for (const script of PLAYED) {
      const p = placed(script)
      for (const h of script.happenings.filter((x) => x.bucket === 'first' || x.bucket === 'second')) {
        if (h.event.type_id === EventType.PENALTY || h.event.type_id === EventType.MISSED_PENALTY) {
          if (h.at - 30 < (p.line.start ?? 0)) continue
          penalties++
          expect(inplay(p, h.at - 30).every((r) => r.suspended === true || r.stopped === true)).toBe(true)
        }
        if (h.cancelledAt !== undefined) {
          reviews++
          for (const t of [h.at + 1, (h.at + h.cancelledAt) / 2, h.cancelledAt + SUSPEND.afterDisallowed - 1]) {
            expect(inplay(p, t).every((r) => r.suspended === true || r.stopped === true), `${script.fixtureId} at ${t}`).toBe(true)
          }
        }
      }
    }
    expect(penalties).toBeGreaterThan(10)
    expect(reviews).toBeGreaterThan(0)
  })

  it('at the end of regular time every market is stopped and settled by the score after 90 minutes', () => {
    for (const script of PLAYED) {
      const p = placed(script)
      const end = secondHalfEnd(script)
      const score = row(viewAt(script, end).scores, ScoreType.SECOND_HALF) ?? { home: 0, away: 0 }
      const rows = inplay(p, end + 1)
      expect(rows.every((r) => r.stopped === true && r.suspended === false)).toBe(true)
      const winners = (id: number, bookmaker = 2): string[] => market(rows, id, bookmaker).filter((r) => r.winning).map((r) => r.label)
      for (const bookmaker of [2, 34]) {
        expect(winners(Market.FULLTIME_RESULT, bookmaker)).toEqual([score.home > score.away ? '1' : score.home === score.away ? 'X' : '2'])
        expect(winners(Market.DOUBLE_CHANCE, bookmaker)).toHaveLength(2)
        expect(winners(Market.OVER_UNDER, bookmaker)).toEqual([score.home + score.away > 2.5 ? 'Over' : 'Under'])
        expect(winners(Market.BOTH_TEAMS_TO_SCORE, bookmaker)).toEqual([score.home > 0 && score.away > 0 ? 'Yes' : 'No'])
        // One next-goal market per goal, each won by the goal's scorer, and one after the last, won by "No Goal",
        // unless the markets were still suspended after the last goal when regular time ended.
        const nextGoal = market(rows, Market.NEXT_GOAL, bookmaker)
        const goals = standingGoals(p.line)
        const last = goals.at(-1)
        const afterLast = last === undefined || suspensions(p.line).every((w) => !(w.from <= last.at && w.to >= end)) ? ['No Goal'] : []
        expect(nextGoal.length).toBe(3 * (goals.length + afterLast.length))
        expect(nextGoal.filter((r) => r.winning).map((r) => r.label)).toEqual([...goals.map((g) => g.side === 'home' ? '1' : '2'), ...afterLast])
      }
      // Extra time, penalties and the time after: the settled rows stay as they are.
      expect(inplay(p, script.endAt + 600)).toEqual(rows)
    }
  })

  it('a match called off settles what is still open as void (no winner); what a goal had decided stands', () => {
    const script = PLAYED.find((s) => standingGoals(lineOfScript(s)).length >= 4) as MatchScript
    const p = placed(script)
    const goals = standingGoals(p.line)
    // Abandoned a minute after the third goal's suspension: over 2.5 was decided, nothing else was.
    const end = (suspensions(p.line).find((w) => w.from <= (goals[2]?.at ?? 0) && (goals[2]?.at ?? 0) < w.to)?.to ?? 0) + 60
    const calledOff: PlacedLine = { ...p, line: { ...p.line, end, void: true } }
    const rows = inplay(calledOff, end + 1)
    expect(rows.every((r) => r.stopped === true)).toBe(true)
    for (const id of [Market.FULLTIME_RESULT, Market.DOUBLE_CHANCE, Market.BOTH_TEAMS_TO_SCORE]) {
      if (id === Market.BOTH_TEAMS_TO_SCORE && new Set(goals.slice(0, 3).map((g) => g.side)).size === 2) continue
      expect(market(rows, id).some((r) => r.winning), `market ${id}`).toBe(false)
    }
    expect(market(rows, Market.OVER_UNDER).filter((r) => r.winning).map((r) => r.label)).toEqual(['Over'])
    expect(market(rows, Market.NEXT_GOAL).filter((r) => r.winning).map((r) => r.label)).toEqual(goals.slice(0, 3).map((g) => g.side === 'home' ? '1' : '2'))
  })

  it('is deterministic: the same seed gives the same rows, another seed other prices', () => {
    for (const script of PLAYED.slice(0, 20)) {
      const t = (script.periods[0]?.start ?? 0) + 1234
      expect(inplay(placed(script), t)).toEqual(inplay(placed(script), t))
      expect(values(inplay(placed(script, SEED + 1), t))).not.toEqual(values(inplay(placed(script), t)))
    }
  })

  it('every change of a row moves its last update: a poller of the latest window sees them all', () => {
    const content = (r: Row): string => JSON.stringify([r.value, r.suspended, r.stopped, r.winning])
    let changes = 0
    for (const script of PLAYED.slice(0, 6)) {
      const p = placed(script)
      let before = new Map<number, Row>()
      for (let t = p.line.start as number; t < script.endAt + 60; t += 7) {
        const rows = inplay(p, t)
        for (const r of rows) {
          const old = before.get(r.id)
          if (old === undefined || content(old) === content(r)) continue
          changes++
          expect(r.latest_bookmaker_update > old.latest_bookmaker_update || Date.parse(`${(r.latest_bookmaker_update as string).replace(' ', 'T')}Z`) > ms(t - 7) - 1000,
            `${script.fixtureId} row ${r.id as number} changed by ${t} without a new update time`).toBe(true)
        }
        before = new Map(rows.map((r) => [r.id, r]))
      }
    }
    expect(changes).toBeGreaterThan(500)
  })

  it('rows keep their ids, and their last update never goes back nor ahead of the clock', () => {
    for (const script of PLAYED.slice(0, 8)) {
      const p = placed(script)
      const last = new Map<number, string>()
      for (let t = p.line.start as number; t < script.endAt + 60; t += 37) {
        const rows = inplay(p, t)
        expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
        for (const r of rows) {
          const update = r.latest_bookmaker_update as string
          expect(Date.parse(`${update.replace(' ', 'T')}Z`)).toBeLessThanOrEqual(ms(t))
          expect(update >= (last.get(r.id) ?? '')).toBe(true)
          last.set(r.id, update)
        }
      }
    }
  })
})
