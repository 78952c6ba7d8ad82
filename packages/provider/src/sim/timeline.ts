/**
 * The frame of a match shared by generated and replayed scripts: period definitions, ids, the mapping between
 * time played in a period and match seconds, the state sequence implied by the periods, and the score rows.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { State } from '@touchline/upstream-contract/states'
import { PeriodType, ScoreType } from '@touchline/upstream-contract/types'
import type { PeriodKey, PeriodPlan, ScoreRowPlan, StateStep, TeamRef } from './model.ts'

export const SIDES: readonly HomeAway[] = ['home', 'away']
export const otherSide = (side: HomeAway): HomeAway => side === 'home' ? 'away' : 'home'

/**
 * Ids are derived from the fixture id so that they are stable across calls and processes:
 * fixtureId * 1000 + n, with disjoint ranges per kind (events 1..899, scores 900.., periods 950.., statistics
 * 970..). Fixture ids up to 9e12 keep every id a safe integer.
 */
export const eventId = (fixtureId: number, n: number): number => fixtureId * 1000 + n
const scoreId = (fixtureId: number, k: number): number => fixtureId * 1000 + 900 + k
export const periodId = (fixtureId: number, k: number): number => fixtureId * 1000 + 950 + k
export const statId = (fixtureId: number, k: number): number => fixtureId * 1000 + 970 + k
export const MAX_EVENTS = 899

/** Rates are given per 90 minutes of play. */
export const SECONDS_PER_90 = 5400

export interface PeriodDef {
  type_id: number
  description: string
  counts_from: number
  period_length: number
  sort_order: number
  /** State while the period is being played. */
  playing: number
}

export const PERIOD_DEFS: Readonly<Record<PeriodKey, PeriodDef>> = {
  first: { type_id: PeriodType.FIRST_HALF, description: '1st-half', counts_from: 0, period_length: 45, sort_order: 1, playing: State.INPLAY_1ST_HALF },
  second: { type_id: PeriodType.SECOND_HALF, description: '2nd-half', counts_from: 45, period_length: 45, sort_order: 2, playing: State.INPLAY_2ND_HALF },
  et1: { type_id: PeriodType.ET_1ST_HALF, description: 'extra-time-1st-half', counts_from: 90, period_length: 15, sort_order: 3, playing: State.INPLAY_ET },
  et2: { type_id: PeriodType.ET_2ND_HALF, description: 'extra-time-2nd-half', counts_from: 105, period_length: 15, sort_order: 4, playing: State.INPLAY_ET_2ND_HALF },
  pens: { type_id: PeriodType.PENALTIES, description: 'penalties', counts_from: 120, period_length: 0, sort_order: 5, playing: State.INPLAY_PENALTIES }
}

/** The legacy `periods` include shows extra time as one period of 30 minutes. */
export const LEGACY_ET = { type_id: PeriodType.EXTRA_TIME, description: 'extra-time', counts_from: 90, period_length: 30, sort_order: 3 } as const

/** How long FT shows before BREAK when a tie goes to extra time: the real API shows FT briefly there (docs/upstream.md, "Fixture states"). */
const FT_BRIEF_SECONDS = 60

/** Seconds of play in `period` at match second `at` (the clock stops while the period is paused). */
export function playedAt (period: PeriodPlan, at: number): number {
  const until = Math.min(Math.max(at, period.start), period.end)
  let stopped = 0
  for (const pause of period.pauses) {
    if (pause.from < until) stopped += Math.min(pause.to, until) - pause.from
  }
  return until - period.start - stopped
}

/** Match second at which `play` seconds have been played in `period` (inverse of `playedAt`). */
export function matchSecondOf (period: PeriodPlan, play: number): number {
  let at = period.start + play
  for (const pause of period.pauses) {
    if (pause.from < at) at += pause.to - pause.from
  }
  return at
}

export function isPausedAt (period: PeriodPlan, at: number): boolean {
  return period.pauses.some((p) => p.from <= at && at < p.to)
}

/** The event minute of a moment of play: the 1st minute is 1; stoppage time is 45+1, 45+2, ... */
export function minuteOf (period: PeriodPlan, play: number): { minute: number, extra_minute: number | null } {
  const regular = period.period_length * 60
  if (play < regular) return { minute: period.counts_from + Math.floor(play / 60) + 1, extra_minute: null }
  return { minute: period.counts_from + period.period_length, extra_minute: Math.floor((play - regular) / 60) + 1 }
}

/** Which detailed period an event minute falls in (used when a recording only has minutes). */
export function periodKeyOfMinute (minute: number): PeriodKey {
  if (minute <= 45) return 'first'
  if (minute <= 90) return 'second'
  return minute <= 105 ? 'et1' : 'et2'
}

export interface StateOptions {
  /** DELAYED is shown from the scheduled kick-off until the first period starts. */
  delayed: boolean
  /** Match second of a postponement before kick-off: the match is never played. */
  postponedAt?: number
  /** Final state replacing the one the periods imply (ABANDONED, or what a recording says). */
  finalState?: number
}

/** The state after a period ends, given what comes next. */
function stateAfter (key: PeriodKey, next: PeriodKey | undefined): number {
  switch (key) {
    case 'first': return State.HT
    case 'second': return State.FT
    case 'et1': return State.EXTRA_TIME_BREAK
    case 'et2': return next === 'pens' ? State.PEN_BREAK : State.AET
    case 'pens': return State.FT_PEN
  }
}

/** The state sequence implied by the periods, their pauses and the options, starting with NS at -Infinity. */
export function buildStates (periods: readonly PeriodPlan[], options: StateOptions): StateStep[] {
  const steps: StateStep[] = [{ at: -Infinity, state_id: State.NS }]
  if (options.postponedAt !== undefined) {
    steps.push({ at: options.postponedAt, state_id: State.POSTPONED })
    return steps
  }
  if (options.delayed) steps.push({ at: 0, state_id: State.DELAYED })
  periods.forEach((period, i) => {
    const playing = PERIOD_DEFS[period.key].playing
    steps.push({ at: period.start, state_id: playing })
    for (const pause of period.pauses) {
      steps.push({ at: pause.from, state_id: pause.state_id })
      if (pause.to < period.end) steps.push({ at: pause.to, state_id: playing })
    }
    const next = periods[i + 1]?.key
    steps.push({ at: period.end, state_id: stateAfter(period.key, next) })
    if (period.key === 'second' && next === 'et1') steps.push({ at: period.end + FT_BRIEF_SECONDS, state_id: State.BREAK })
  })
  const last = steps[steps.length - 1]
  if (options.finalState !== undefined && last !== undefined && last.state_id !== options.finalState) {
    last.state_id = options.finalState
  }
  // A step that repeats the state before it is no change at all.
  return steps.filter((step, i) => step.state_id !== steps[i - 1]?.state_id)
}

/** Score types in id order, and the period whose start makes each row appear (cf. the recordings' row ids). */
const SCORE_ROWS: ReadonlyArray<readonly [number, PeriodKey]> = [
  [ScoreType.CURRENT, 'first'], [ScoreType.FIRST_HALF, 'first'], [ScoreType.SECOND_HALF, 'first'],
  [ScoreType.SECOND_HALF_ONLY, 'second'], [ScoreType.ET, 'et1'], [ScoreType.ET_1ST_HALF, 'et1'],
  [ScoreType.ET_2ND_HALF, 'et2'], [ScoreType.PENALTY_SHOOTOUT, 'pens']
]

export function scoreRowPeriod (typeId: number): PeriodKey | undefined {
  return SCORE_ROWS.find(([type]) => type === typeId)?.[1]
}

/** One row per team per score type whose period is played, appearing when that period starts. */
export function scoreRowPlans (fixtureId: number, periods: readonly PeriodPlan[], home: TeamRef, away: TeamRef): ScoreRowPlan[] {
  const rows: ScoreRowPlan[] = []
  SCORE_ROWS.forEach(([typeId, key], k) => {
    const period = periods.find((p) => p.key === key)
    if (period === undefined) return
    for (const side of SIDES) {
      const team = side === 'home' ? home : away
      rows.push({ id: scoreId(fixtureId, k * 2 + (side === 'home' ? 0 : 1)), type_id: typeId, side, participant_id: team.id, appearsAt: period.start })
    }
  })
  return rows
}
