/**
 * Fixture statistics that grow with the match and agree with its events at every instant (docs/provider.md,
 * "Statistics"). Shots are drawn as moments of play, each with its expected-goals value; the goals and
 * penalties of the script are shots on target too, so every count follows from one list of shots:
 *
 * - shots on target (86) = the side's goals and penalties (those VAR takes back included) + its saved shots;
 *   saves (57) of a side = the other side's saved shots; shots total (42) = on target + off target (41, the
 *   real API's sum); blocked shots (58) are some of the shots off target;
 * - goals (52) = the side's CURRENT score (own goals count for the side they are credited to, a goal VAR
 *   disallows comes off again); yellow cards (84) = its yellow-card events; red cards (83) = its red and
 *   second-yellow events; fouls (56) count one for every card shown for a foul, as it is shown;
 * - attacks (43), dangerous attacks (44, a part of them) and the other fouls are tallied every five minutes of
 *   play (and at the end of each period), which keeps a match's changes few;
 *   possession (45) is re-estimated every 10 minutes, home + away = 100; xG (5304) adds up the shots.
 *
 * Steps carry absolute values so that materializing is a lookup; rows exist from kick-off, at 0.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { EventType } from '@touchline/upstream-contract/types'
import type { Happening, PeriodPlan, StatStep, TeamRef } from './model.ts'
import type { Rng } from '../rng.ts'
import { matchSecondOf, playedAt, SECONDS_PER_90, SIDES } from './timeline.ts'

export const StatType = {
  CORNERS: 34,
  SHOTS_OFF_TARGET: 41,
  SHOTS_TOTAL: 42,
  ATTACKS: 43,
  DANGEROUS_ATTACKS: 44,
  POSSESSION: 45,
  GOALS: 52,
  FOULS: 56,
  SAVES: 57,
  SHOTS_BLOCKED: 58,
  REDCARDS: 83,
  YELLOWCARDS: 84,
  SHOTS_ON_TARGET: 86,
  EXPECTED_GOALS: 5304
} as const

/**
 * Row order of the statistics include, and the index behind their ids (timeline.ts `statId`): the first four
 * keep the places they had before the others were added, so their ids do not change.
 */
export const STAT_TYPES: readonly number[] = [
  StatType.CORNERS, StatType.SHOTS_ON_TARGET, StatType.POSSESSION, StatType.YELLOWCARDS,
  StatType.SHOTS_OFF_TARGET, StatType.SHOTS_TOTAL, StatType.ATTACKS, StatType.DANGEROUS_ATTACKS, StatType.GOALS,
  StatType.FOULS, StatType.SAVES, StatType.SHOTS_BLOCKED, StatType.REDCARDS, StatType.EXPECTED_GOALS
]

const CORNER_RATE: Record<HomeAway, number> = { home: 5.4, away: 4.4 }
/** Saved shots on target per 90 minutes, besides the goals themselves. */
const SAVED_SHOT_RATE: Record<HomeAway, number> = { home: 3.0, away: 2.4 }
const OFF_TARGET_RATE: Record<HomeAway, number> = { home: 6.8, away: 5.6 }
/** A shot off target is blocked this often. */
const BLOCKED_SHARE = 0.3
const FOUL_RATE = 10.5
/** Attacks per 90 minutes, and the share of them that are dangerous. */
const ATTACK_RATE: Record<HomeAway, number> = { home: 108, away: 96 }
const DANGEROUS_SHARE = 0.42
/** Possession is re-estimated every 10 minutes of play. */
const POSSESSION_EVERY = 600
/** A missed penalty is saved (on target) this often; the rest go wide or hit the woodwork. */
const MISSED_PENALTY_SAVED = 0.55
/** Expected goals, in hundredths: a penalty, and ranges for the other kinds of shot. */
const XG_PENALTY = 76
const XG_RANGE = { goal: [12, 55], saved: [4, 22], off: [2, 12] } as const

/** Cumulative steps from a list of moments at which a counter goes up by one. */
export function counter (typeId: number, side: HomeAway, start: number, moments: number[]): StatStep[] {
  const sorted = [...moments].sort((a, b) => a - b)
  return [{ at: start, type_id: typeId, side, value: 0 }, ...sorted.map((at, i) => ({ at, type_id: typeId, side, value: i + 1 }))]
}

/** Cumulative steps from moments that add `by` (possibly negative), starting at 0; `scale` divides the sums. */
function running (typeId: number, side: HomeAway, start: number, deltas: ReadonlyArray<{ at: number, by: number }>, scale = 1): StatStep[] {
  let total = 0
  const steps: StatStep[] = [{ at: start, type_id: typeId, side, value: 0 }]
  for (const d of [...deltas].sort((a, b) => a.at - b.at)) {
    total += d.by
    steps.push({ at: d.at, type_id: typeId, side, value: total / scale })
  }
  return steps
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

/** Attacks, dangerous attacks and fouls are tallied this often (seconds of play), and at the end of each period. */
const TALLY_EVERY = 300

/** The moments of play at which the tallies are taken, with the seconds of play each covers. */
function tallies (periods: readonly PeriodPlan[]): Array<{ at: number, seconds: number }> {
  return periods.flatMap((p) => {
    const played = playedAt(p, p.end)
    const out: Array<{ at: number, seconds: number }> = []
    for (let from = 0; from < played; from += TALLY_EVERY) {
      const to = Math.min(played, from + TALLY_EVERY)
      out.push({ at: matchSecondOf(p, to), seconds: to - from })
    }
    return out
  })
}

/** Attacks and dangerous attacks of both sides, at each tally. */
function attacks (rng: Rng, periods: readonly PeriodPlan[], start: number): StatStep[] {
  const totals = { home: { all: 0, dangerous: 0 }, away: { all: 0, dangerous: 0 } }
  const steps: StatStep[] = SIDES.flatMap((side) => [StatType.ATTACKS, StatType.DANGEROUS_ATTACKS].map((typeId) => ({ at: start, type_id: typeId, side, value: 0 })))
  for (const { at, seconds } of tallies(periods)) {
    for (const side of SIDES) {
      const more = rng.poisson(ATTACK_RATE[side] * seconds / SECONDS_PER_90)
      let dangerous = 0
      for (let i = 0; i < more; i++) if (rng.chance(DANGEROUS_SHARE)) dangerous++
      if (more === 0) continue
      totals[side].all += more
      totals[side].dangerous += dangerous
      steps.push({ at, type_id: StatType.ATTACKS, side, value: totals[side].all })
      if (dangerous > 0) steps.push({ at, type_id: StatType.DANGEROUS_ATTACKS, side, value: totals[side].dangerous })
    }
  }
  return steps
}

/** The fouls of one side: those tallied, and one for each card shown for a foul, as it is shown. */
function fouls (rng: Rng, periods: readonly PeriodPlan[], carded: readonly number[]): number[] {
  const tallied = tallies(periods).flatMap(({ at, seconds }) => Array.from({ length: rng.poisson(FOUL_RATE * seconds / SECONDS_PER_90) }, () => at))
  return [...tallied, ...carded]
}

/** One shot: when, by whom, what became of it, and its expected-goals value in hundredths. */
interface Shot {
  at: number
  side: HomeAway
  kind: 'goal' | 'saved' | 'off'
  blocked: boolean
  xg: number
}

const xgOf = (rng: Rng, kind: keyof typeof XG_RANGE): number => rng.int(XG_RANGE[kind][0], XG_RANGE[kind][1])

/** Every shot of the match: the script's goals, penalties and missed penalties, and drawn saved and wide ones. */
function shotsOf (rng: Rng, periods: readonly PeriodPlan[], events: readonly Happening[], sideOf: (h: Happening) => HomeAway): Shot[] {
  const shots: Shot[] = []
  for (const h of events) {
    const side = sideOf(h)
    const type = h.event.type_id
    if (type === EventType.GOAL) shots.push({ at: h.at, side, kind: 'goal', blocked: false, xg: xgOf(rng, 'goal') })
    if (type === EventType.PENALTY) shots.push({ at: h.at, side, kind: 'goal', blocked: false, xg: XG_PENALTY })
    if (type === EventType.MISSED_PENALTY) shots.push({ at: h.at, side, kind: rng.chance(MISSED_PENALTY_SAVED) ? 'saved' : 'off', blocked: false, xg: XG_PENALTY })
  }
  for (const side of SIDES) {
    for (const at of randomMoments(rng, periods, SAVED_SHOT_RATE[side])) shots.push({ at, side, kind: 'saved', blocked: false, xg: xgOf(rng, 'saved') })
    for (const at of randomMoments(rng, periods, OFF_TARGET_RATE[side])) shots.push({ at, side, kind: 'off', blocked: rng.chance(BLOCKED_SHARE), xg: xgOf(rng, 'off') })
  }
  return shots
}

const FOUL_CARD = /foul/i
const CARD_TYPES: ReadonlySet<number> = new Set([EventType.YELLOWCARD, EventType.REDCARD, EventType.YELLOWREDCARD])

interface SideContext {
  side: HomeAway
  start: number
  /** The side's own events (by its players), outside the shoot-out. */
  own: readonly Happening[]
  /** Every event credited to a side (the goals), outside the shoot-out. */
  credited: readonly Happening[]
  shots: readonly Shot[]
}

/** The counters of one side that follow from the events and the shots (all but attacks and possession). */
function sideSteps (rng: Rng, played: readonly PeriodPlan[], c: SideContext): StatStep[] {
  const { side, start } = c
  const moments = (list: ReadonlyArray<{ at: number }>): number[] => list.map((x) => x.at)
  const mine = c.shots.filter((s) => s.side === side)
  const onTarget = mine.filter((s) => s.kind !== 'off')
  const off = mine.filter((s) => s.kind === 'off')
  const ofType = (...types: number[]): Happening[] => c.own.filter((h) => types.includes(h.event.type_id))
  const carded = moments(c.own.filter((h) => CARD_TYPES.has(h.event.type_id) && FOUL_CARD.test(h.event.info ?? '')))
  const goals = c.credited.filter((h) => h.credit === side).flatMap((h) => h.cancelledAt === undefined ? [{ at: h.at, by: 1 }] : [{ at: h.at, by: 1 }, { at: h.cancelledAt, by: -1 }])
  return [
    ...counter(StatType.SHOTS_ON_TARGET, side, start, moments(onTarget)),
    ...counter(StatType.SHOTS_OFF_TARGET, side, start, moments(off)),
    ...counter(StatType.SHOTS_BLOCKED, side, start, moments(off.filter((s) => s.blocked))),
    ...counter(StatType.SHOTS_TOTAL, side, start, moments(mine)),
    ...counter(StatType.SAVES, side, start, moments(c.shots.filter((s) => s.side !== side && s.kind === 'saved'))),
    ...running(StatType.GOALS, side, start, goals),
    ...counter(StatType.YELLOWCARDS, side, start, moments(ofType(EventType.YELLOWCARD))),
    ...counter(StatType.REDCARDS, side, start, moments(ofType(EventType.REDCARD, EventType.YELLOWREDCARD))),
    ...counter(StatType.FOULS, side, start, fouls(rng, played, carded)),
    ...running(StatType.EXPECTED_GOALS, side, start, mine.map((s) => ({ at: s.at, by: s.xg })), 100)
  ]
}

/** Statistic steps for a generated match; rows exist from kick-off. */
export function statSteps (rng: Rng, periods: readonly PeriodPlan[], happenings: readonly Happening[], home: TeamRef): StatStep[] {
  const played = periods.filter((p) => p.key !== 'pens')
  const start = played[0]?.start
  if (start === undefined) return []
  const events = happenings.filter((h) => h.bucket !== 'pens')
  const sideOf = (h: Happening): HomeAway => h.event.participant_id === home.id ? 'home' : 'away'
  const shots = shotsOf(rng, played, events, sideOf)
  const steps: StatStep[] = []
  for (const side of SIDES) {
    steps.push(...counter(StatType.CORNERS, side, start, randomMoments(rng, played, CORNER_RATE[side])))
    steps.push(...sideSteps(rng, played, { side, start, own: events.filter((h) => sideOf(h) === side), credited: events, shots }))
  }
  steps.push(...possession(rng, played, start), ...attacks(rng, played, start))
  return steps.sort((a, b) => a.at - b.at)
}
