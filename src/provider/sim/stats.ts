/**
 * A few fixture statistics that grow with the match: corners (34), shots on target (86), ball possession %
 * (45) and yellow cards (84). Steps carry absolute values so that materializing is a lookup.
 */
import type { HomeAway } from '../../contract/football.ts'
import { EventType } from '../../contract/types.ts'
import type { Happening, PeriodPlan, StatStep, TeamRef } from './model.ts'
import type { Rng } from '../rng.ts'
import { matchSecondOf, playedAt, SECONDS_PER_90, SIDES } from './timeline.ts'

export const StatType = { CORNERS: 34, SHOTS_ON_TARGET: 86, POSSESSION: 45, YELLOWCARDS: 84 } as const
/** Row order of the statistics include (and the index behind their ids). */
export const STAT_TYPES: readonly number[] = [StatType.CORNERS, StatType.SHOTS_ON_TARGET, StatType.POSSESSION, StatType.YELLOWCARDS]

const CORNER_RATE: Record<HomeAway, number> = { home: 5.4, away: 4.4 }
/** Shots on target besides the goals themselves. */
const EXTRA_SHOT_RATE: Record<HomeAway, number> = { home: 3.0, away: 2.4 }
/** Possession is re-estimated every 10 minutes of play. */
const POSSESSION_EVERY = 600

/** Cumulative steps from a list of moments at which a counter goes up by one. */
export function counter (typeId: number, side: HomeAway, start: number, moments: number[]): StatStep[] {
  const sorted = [...moments].sort((a, b) => a - b)
  return [{ at: start, type_id: typeId, side, value: 0 }, ...sorted.map((at, i) => ({ at, type_id: typeId, side, value: i + 1 }))]
}

function randomMoments (rng: Rng, periods: readonly PeriodPlan[], perNinety: number): number[] {
  return periods.flatMap((p) => {
    const played = playedAt(p, p.end)
    const count = rng.poisson(perNinety * played / SECONDS_PER_90)
    return Array.from({ length: count }, () => matchSecondOf(p, rng.int(0, Math.max(0, played - 1))))
  })
}

function possession (rng: Rng, periods: readonly PeriodPlan[], start: number): StatStep[] {
  const base = 50 + rng.int(-8, 12)
  const steps: StatStep[] = []
  let last = 50
  const push = (at: number, home: number): void => {
    // Re-estimated possession that comes out the same is no change.
    if (steps.length > 0 && home === last) return
    last = home
    steps.push({ at, type_id: StatType.POSSESSION, side: 'home', value: home }, { at, type_id: StatType.POSSESSION, side: 'away', value: 100 - home })
  }
  push(start, 50)
  for (const p of periods) {
    for (let play = POSSESSION_EVERY; play < playedAt(p, p.end); play += POSSESSION_EVERY) {
      push(matchSecondOf(p, play), Math.min(80, Math.max(20, base + rng.int(-6, 6))))
    }
  }
  return steps
}

/** Statistic steps for a generated match; rows exist from kick-off. */
export function statSteps (rng: Rng, periods: readonly PeriodPlan[], happenings: readonly Happening[], home: TeamRef): StatStep[] {
  const played = periods.filter((p) => p.key !== 'pens')
  const start = played[0]?.start
  if (start === undefined) return []
  const sideOf = (h: Happening): HomeAway => h.event.participant_id === home.id ? 'home' : 'away'
  const steps: StatStep[] = []
  for (const side of SIDES) {
    const mine = happenings.filter((h) => h.bucket !== 'pens' && sideOf(h) === side)
    const goals = mine.filter((h) => h.event.type_id === EventType.GOAL || h.event.type_id === EventType.PENALTY).map((h) => h.at)
    const yellows = mine.filter((h) => h.event.type_id === EventType.YELLOWCARD).map((h) => h.at)
    steps.push(
      ...counter(StatType.CORNERS, side, start, randomMoments(rng, played, CORNER_RATE[side])),
      ...counter(StatType.SHOTS_ON_TARGET, side, start, [...goals, ...randomMoments(rng, played, EXTRA_SHOT_RATE[side])]),
      ...counter(StatType.YELLOWCARDS, side, start, yellows)
    )
  }
  steps.push(...possession(rng, played, start))
  return steps.sort((a, b) => a.at - b.at)
}
