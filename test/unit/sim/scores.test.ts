import { describe, expect, it } from 'vitest'
import { State } from '../../../packages/upstream-contract/src/states.ts'
import { ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import type { MatchScript } from '../../../packages/provider/src/sim/model.ts'
import { scriptMatch } from '../../../packages/provider/src/sim/script.ts'
import { fixtures, goalsFromEvents, MATCHES, row, samplePoints, SCRIPTS, sideOf, viewAt } from './helpers.ts'

const endOf = (s: MatchScript, key: string): number | undefined => s.periods.find((p) => p.key === key)?.end
const startOf = (s: MatchScript, key: string): number | undefined => s.periods.find((p) => p.key === key)?.start
const played = SCRIPTS.filter((s) => s.periods.length > 0)

describe('scores', () => {
  it('keeps CURRENT equal to the goals on show at every sampled clock (own goals count for the other side)', () => {
    for (const script of played) {
      for (const at of samplePoints(script)) {
        const view = viewAt(script, at)
        const current = row(view.scores, ScoreType.CURRENT)
        if (current === undefined) {
          expect(at).toBeLessThan(script.periods[0]?.start ?? Infinity)
          continue
        }
        expect(current, `${script.fixtureId} at ${at}`).toEqual(goalsFromEvents(script, view.events))
        // The latest goal on show carries the running score.
        const last = view.events.filter((e) => [14, 15, 16].includes(e.type_id)).at(-1)
        if (last !== undefined) expect(last.result).toBe(`${current.home}-${current.away}`)
      }
    }
  })

  it('has one row per team per type, appearing as each period starts, and consistent half rows', () => {
    for (const script of played) {
      const rowsAt = (key: string): number[] => [...new Set(viewAt(script, startOf(script, key) ?? NaN).scores.map((s) => s.type_id))]
      expect(rowsAt('first').sort((a, b) => a - b)).toEqual([1, 2, 1525])
      if (startOf(script, 'second') !== undefined) expect(rowsAt('second')).toContain(ScoreType.SECOND_HALF_ONLY)
      if (startOf(script, 'et1') !== undefined) expect(rowsAt('et1')).toEqual(expect.arrayContaining([3, 5314]))
      if (startOf(script, 'et2') !== undefined) expect(rowsAt('et2')).toContain(39)
      const end = viewAt(script, script.endAt + 1)
      expect(end.scores.length).toBe(new Set(end.scores.map((s) => `${s.type_id}:${s.participant_id}`)).size)
      for (const at of samplePoints(script)) {
        const { scores } = viewAt(script, at)
        const first = row(scores, ScoreType.FIRST_HALF)
        const second = row(scores, ScoreType.SECOND_HALF)
        const secondOnly = row(scores, ScoreType.SECOND_HALF_ONLY)
        if (second !== undefined && first !== undefined) {
          expect(second.home).toBe(first.home + (secondOnly?.home ?? 0))
          expect(second.away).toBe(first.away + (secondOnly?.away ?? 0))
        }
      }
      const ht = endOf(script, 'first')
      if (ht !== undefined) expect(row(end.scores, ScoreType.FIRST_HALF)).toEqual(row(viewAt(script, ht).scores, ScoreType.CURRENT))
    }
  })

  it('scores about 2.7 goals a match, more at home', () => {
    const totals = played.map((s) => goalsFromEvents(s, viewAt(s, s.endAt + 1).events))
    const home = totals.reduce((a, t) => a + t.home, 0) / totals.length
    const away = totals.reduce((a, t) => a + t.away, 0) / totals.length
    expect(home + away).toBeGreaterThan(2.3)
    expect(home + away).toBeLessThan(3.1)
    expect(home).toBeGreaterThan(away)
  })

  it('takes a cup tie level after extra time to penalties with a winner and matching shoot-out rows', () => {
    const shootouts = SCRIPTS.filter((s) => s.states.at(-1)?.state_id === State.FT_PEN)
    expect(shootouts.length).toBeGreaterThan(3)
    for (const script of shootouts) {
      const end = viewAt(script, script.endAt)
      const current = row(end.scores, ScoreType.CURRENT)
      expect(current?.home).toBe(current?.away)
      const kicks = end.events.filter((e) => e.type_id === 22 || e.type_id === 23)
      const scored = (side: string): number => kicks.filter((e) => e.type_id === 23 && sideOf(script, e) === side).length
      const pens = row(end.scores, ScoreType.PENALTY_SHOOTOUT)
      expect(pens).toEqual({ home: scored('home'), away: scored('away') })
      expect(pens?.home).not.toBe(pens?.away)
      expect(kicks.at(-1)?.result).toBe(`${pens?.home}-${pens?.away}`)
      kicks.forEach((k, i) => {
        expect(k.minute).toBe(i + 1)
        // Teams alternate kicks.
        if (i > 0) expect(k.participant_id).not.toBe(kicks[i - 1]?.participant_id)
      })
      const winner = (pens?.home ?? 0) > (pens?.away ?? 0) ? 'home' : 'away'
      expect(end.participantsMeta[winner].winner).toBe(true)
      expect(end.result_info).toBe(`${script[winner].name} won after penalties.`)
    }
  })

  it('decides other ties after extra time, and describes every result', () => {
    for (const script of played) {
      const end = viewAt(script, script.endAt)
      const current = row(end.scores, ScoreType.CURRENT) ?? { home: 0, away: 0 }
      const winner = current.home > current.away ? script.home : current.away > current.home ? script.away : null
      switch (end.state_id) {
        case State.AET: expect(end.result_info).toBe(`${winner?.name} won after extra time.`); break
        case State.FT: expect(end.result_info).toBe(winner === null ? 'Game ended in draw.' : `${winner.name} won after full-time.`); break
      }
      if (end.state_id === State.FT && script.kind === 'cup') expect(winner).not.toBeNull()
    }
  })

  it('shows a goal VAR disallows, then takes it and the score back', () => {
    const withVar = played.filter((s) => s.happenings.some((h) => h.cancelledAt !== undefined))
    // About one match in 12.
    expect(withVar.length).toBeGreaterThan(played.length / 40)
    expect(withVar.length).toBeLessThan(played.length / 5)
    for (const script of withVar) {
      for (const h of script.happenings.filter((x) => x.cancelledAt !== undefined)) {
        const cancelledAt = h.cancelledAt ?? NaN
        const during = viewAt(script, h.at)
        const before = viewAt(script, h.at - 1)
        const after = viewAt(script, cancelledAt)
        expect(during.events.map((e) => e.id)).toContain(h.event.id)
        expect(after.events.map((e) => e.id)).not.toContain(h.event.id)
        expect(row(after.scores, ScoreType.CURRENT)).toEqual(row(before.scores, ScoreType.CURRENT))
        const side = h.credit ?? 'home'
        expect(row(during.scores, ScoreType.CURRENT)?.[side]).toBe((row(before.scores, ScoreType.CURRENT)?.[side] ?? 0) + 1)
        expect(cancelledAt - h.at).toBeGreaterThanOrEqual(30)
        expect(cancelledAt - h.at).toBeLessThanOrEqual(180)
        const varEvent = after.events.find((e) => e.type_id === 10)
        if (varEvent !== undefined) expect(varEvent.info).toBe('Goal Disallowed')
      }
    }
  })
})

describe('events', () => {
  const FIELDS = ['id', 'fixture_id', 'period_id', 'participant_id', 'type_id', 'section', 'player_id', 'related_player_id', 'player_name',
    'related_player_name', 'result', 'info', 'addition', 'minute', 'extra_minute', 'injured', 'on_bench', 'coach_id', 'sub_type_id',
    'detailed_period_id', 'rescinded', 'sort_order']

  it('carry the real field set, stable unique ids and minutes that match their period', () => {
    for (const script of played) {
      const events = viewAt(script, script.endAt).events
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
      for (const e of events) {
        expect(Object.keys(e)).toEqual(FIELDS)
        expect(Number.isSafeInteger(e.id)).toBe(true)
        const period = script.periods.find((p) => p.id === e.detailed_period_id)
        expect(period).toBeDefined()
        if (period === undefined || period.key === 'pens') continue
        expect(e.minute).toBeGreaterThan(period.counts_from)
        expect(e.minute).toBeLessThanOrEqual(period.counts_from + period.period_length)
        if (e.extra_minute !== null) expect(e.minute).toBe(period.counts_from + period.period_length)
      }
    }
  })

  it('substitute at most five players a team, the player coming on first, mostly after 55 minutes', () => {
    let late = 0
    let all = 0
    for (const script of played) {
      const subs = viewAt(script, script.endAt).events.filter((e) => e.type_id === 18)
      for (const side of ['home', 'away'] as const) expect(subs.filter((e) => sideOf(script, e) === side).length).toBeLessThanOrEqual(5)
      for (const sub of subs) {
        expect(sub.related_player_id).not.toBeNull()
        expect(sub.player_id).not.toBe(sub.related_player_id)
      }
      all += subs.length
      late += subs.filter((e) => e.minute > 55).length
    }
    expect(late / all).toBeGreaterThan(0.75)
  })

  it('number additions and sort orders per type as the real feed does', () => {
    for (const script of played) {
      const events = viewAt(script, script.endAt).events
      const yellows = events.filter((e) => e.type_id === 19)
      yellows.forEach((e, i) => {
        expect(e.sort_order).toBe(i + 1)
        expect(e.addition).toMatch(new RegExp(`^${i + 1}(st|nd|rd|th) Yellowcard$`))
      })
      const goals = events.filter((e) => [14, 15, 16].includes(e.type_id))
      goals.forEach((e, i) => expect(e.sort_order).toBe(i + 1))
    }
  })

  it('are deterministic: the same seed gives the same match, another seed another', () => {
    const again = MATCHES.slice(0, 50).map((f) => scriptMatch(f, 7))
    expect(again).toEqual(SCRIPTS.slice(0, 50))
    const other = fixtures(50).map((f) => scriptMatch(f, 8))
    expect(other).not.toEqual(SCRIPTS.slice(0, 50))
  })
})

describe('required winners', () => {
  it('lets the team a bracket needs win its tie', () => {
    const ties = fixtures(60, 60_000_000).filter((f) => f.kind === 'cup').map((f) => ({ ...f, winnerId: f.away.id }))
    for (const tie of ties) {
      const script = scriptMatch(tie, 3)
      const end = viewAt(script, script.endAt)
      expect(end.participantsMeta.away.winner).toBe(true)
      expect(end.result_info).toMatch(new RegExp(`^${tie.away.name} won after`))
    }
  })
})
