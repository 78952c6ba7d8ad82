/**
 * Penalty shoot-out: teams alternate, best of five, then sudden death in pairs. Events 23 (scored) and 22
 * (missed) carry the kick number as `minute` and the shoot-out score as `result`, as in the PSG–Arsenal
 * recording.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { EventType } from '@touchline/upstream-contract/types'
import { pushEvent, shotOf, type MatchState } from './assign.ts'
import { kickAt } from './frame.ts'
import type { PeriodPlan, SimPlayer } from './model.ts'
import type { Rng } from '../rng.ts'
import { otherSide } from './timeline.ts'

export interface Kick {
  side: HomeAway
  scored: boolean
}

/** About three kicks in four are scored. */
const CONVERSION = 0.76
/** Sudden death cannot go on forever: from this round on the second kick differs from the first. */
const LAST_ROUND = 30

/** True when the side behind can no longer catch up within the first five kicks each. */
function decidedEarly (goals: Record<HomeAway, number>, taken: Record<HomeAway, number>): boolean {
  const left = (side: HomeAway): number => Math.max(0, 5 - taken[side])
  return goals.home + left('home') < goals.away || goals.away + left('away') < goals.home
}

export function drawShootout (rng: Rng): Kick[] {
  const first: HomeAway = rng.chance(0.5) ? 'home' : 'away'
  const order: HomeAway[] = [first, otherSide(first)]
  const goals = { home: 0, away: 0 }
  const taken = { home: 0, away: 0 }
  const kicks: Kick[] = []
  for (let round = 1; ; round++) {
    for (const side of order) {
      const previous = kicks[kicks.length - 1]
      const forced = round >= LAST_ROUND && side !== first && previous !== undefined
      const scored = forced ? !previous.scored : rng.chance(CONVERSION)
      kicks.push({ side, scored })
      taken[side]++
      if (scored) goals[side]++
      if (round <= 5 && decidedEarly(goals, taken)) return kicks
    }
    if (round >= 5 && goals.home !== goals.away) return kicks
  }
}

const MISSES = ['OffTarget', 'GoalkeeperSave', 'GoalkeeperSave', 'HitWoodwork']

/** Kickers: outfield players first in a seeded order, the keeper last, then round again. */
function kickers (state: MatchState, rng: Rng, side: HomeAway): SimPlayer[] {
  const squad = state.squads[side]
  const keeper = squad.team.players[0]
  const outfield = rng.shuffle(squad.onPitch.filter((p) => p.id !== keeper?.id))
  const onPitchKeeper = squad.onPitch.find((p) => p.id === keeper?.id)
  return onPitchKeeper === undefined ? outfield : [...outfield, onPitchKeeper]
}

/** Appends the shoot-out events; returns the shoot-out score. */
export function shootoutHappenings (state: MatchState, rng: Rng, period: PeriodPlan, kicks: readonly Kick[]): Record<HomeAway, number> {
  const order = { home: kickers(state, rng, 'home'), away: kickers(state, rng, 'away') }
  const taken = { home: 0, away: 0 }
  const goals = { home: 0, away: 0 }
  kicks.forEach((kick, i) => {
    const list = order[kick.side]
    const player = list.length === 0 ? null : list[taken[kick.side] % list.length] ?? null
    taken[kick.side]++
    if (kick.scored) goals[kick.side]++
    const at = kickAt(period, i + 1, kicks.length)
    const spec = {
      side: kick.side,
      period,
      at,
      play: at - period.start,
      player,
      result: `${goals.home}-${goals.away}`,
      minute: { minute: i + 1, extra_minute: null }
    }
    if (kick.scored) {
      pushEvent(state, { ...spec, type_id: EventType.PENALTY_SHOOTOUT_GOAL, addition: 'Scored', sub_type_id: shotOf(rng, false).sub_type_id, credit: kick.side })
    } else {
      pushEvent(state, { ...spec, type_id: EventType.PENALTY_SHOOTOUT_MISS, addition: rng.pick(MISSES) })
    }
  })
  return goals
}
