/**
 * Drafts: what happens in a generated match and when, before players and event fields are filled in
 * (assign.ts). Rates follow typical top-flight numbers: ~2.7 goals per match with home advantage, ~3.8 yellow
 * cards, a straight red every ~10 matches, 3-5 substitutions per team mostly after 55'.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import type { PeriodPlan } from './model.ts'
import type { Rng } from '../rng.ts'
import { matchSecondOf, otherSide, playedAt, SECONDS_PER_90, SIDES } from './timeline.ts'

type DraftKind = 'goal' | 'penalty' | 'owngoal' | 'missedpen' | 'card' | 'red' | 'sub' | 'disallow'

export interface Draft {
  kind: DraftKind
  period: PeriodPlan
  /** Seconds of play in the period, and the match second that makes. */
  play: number
  at: number
  /** The team of the acting player (for an own goal: the team that scored into its own net). */
  side: HomeAway
  /** A goal that VAR will disallow at this match second. */
  cancelledAt?: number
  /** For `disallow`: the goal it cancels, and whether a VAR event is logged with it. */
  target?: Draft
  logVar?: boolean
  /** For `sub`: the player goes off injured. */
  injured?: boolean
}

/** Goals per 90 minutes (home advantage); stoppage time adds about 9%, giving ~2.7 per match. */
const GOAL_RATE: Record<HomeAway, number> = { home: 1.42, away: 1.08 }
/** About one match in 12 has a goal disallowed by VAR. */
const VAR_CHANCE = 0.03
const MISSED_PENALTY_RATE = 0.12
const YELLOW_RATE = 1.9
const RED_RATE = 0.05
/** Substitutions allowed per team. */
export const MAX_SUBS = 5

function draftAt (period: PeriodPlan, kind: DraftKind, side: HomeAway, play: number): Draft {
  return { kind, period, play, at: matchSecondOf(period, play), side }
}

/** `count` drafts at uniform moments of play in [from, to). */
function spread (rng: Rng, period: PeriodPlan, kind: DraftKind, side: HomeAway, count: number, from = 0): Draft[] {
  const to = playedAt(period, period.end)
  if (to <= from) return []
  return Array.from({ length: count }, () => draftAt(period, kind, side, rng.int(from, to - 1)))
}

const rateFor = (period: PeriodPlan, perNinety: number): number => perNinety * playedAt(period, period.end) / SECONDS_PER_90

/** Goals (incl. penalties and own goals) and missed penalties of one period, with VAR decisions resolved. */
export function goalDrafts (rng: Rng, period: PeriodPlan, scale = 1): Draft[] {
  const drafts: Draft[] = []
  for (const side of SIDES) {
    for (const draft of spread(rng, period, 'goal', side, rng.poisson(rateFor(period, GOAL_RATE[side] * scale)))) {
      const kind = (['goal', 'penalty', 'owngoal'] as const)[rng.weighted([84, 10, 6])] ?? 'goal'
      // An own goal credited to `side` was put in by the other team.
      const goal: Draft = { ...draft, kind, side: kind === 'owngoal' ? otherSide(side) : side }
      if (kind !== 'owngoal' && rng.chance(VAR_CHANCE)) goal.cancelledAt = draft.at + rng.int(60, 180)
      drafts.push(goal)
    }
    drafts.push(...spread(rng, period, 'missedpen', side, rng.poisson(rateFor(period, MISSED_PENALTY_RATE))))
  }
  drafts.sort(byTime)
  return withVarDecisions(drafts, rng)
}

const SCORING: ReadonlySet<DraftKind> = new Set(['goal', 'penalty', 'owngoal'])

/**
 * Keeps a VAR review inside its period and before the next goal (so every result string stays true), and adds
 * the `disallow` draft that removes the goal. A review squeezed under 30 seconds is dropped: the goal stands.
 */
function withVarDecisions (drafts: Draft[], rng: Rng): Draft[] {
  const out: Draft[] = []
  drafts.forEach((draft, i) => {
    out.push(draft)
    if (draft.cancelledAt === undefined) return
    const next = drafts.slice(i + 1).find((d) => SCORING.has(d.kind))
    const cancelAt = Math.min(draft.cancelledAt, (next?.at ?? Infinity) - 1, draft.period.end - 1)
    if (cancelAt - draft.at < 30) {
      delete draft.cancelledAt
      return
    }
    draft.cancelledAt = cancelAt
    const play = playedAt(draft.period, cancelAt)
    out.push({ kind: 'disallow', period: draft.period, play, at: cancelAt, side: draft.side, target: draft, logVar: rng.chance(0.7) })
  })
  return out.sort(byTime)
}

export const byTime = (a: { at: number }, b: { at: number }): number => a.at - b.at

/** Yellow and straight red cards of one period; second yellows are decided when players are assigned. */
export function cardDrafts (rng: Rng, period: PeriodPlan): Draft[] {
  return SIDES.flatMap((side) => [
    ...spread(rng, period, 'card', side, rng.poisson(rateFor(period, YELLOW_RATE))),
    ...spread(rng, period, 'red', side, rng.poisson(rateFor(period, RED_RATE)))
  ])
}

/** Substitutions: 3-5 per team, now and then one at half-time or an injury in the first half, most after 55'. */
export function subDrafts (rng: Rng, periods: readonly PeriodPlan[]): Draft[] {
  const first = periods.find((p) => p.key === 'first')
  const second = periods.find((p) => p.key === 'second')
  const et1 = periods.find((p) => p.key === 'et1')
  const drafts: Draft[] = []
  for (const side of SIDES) {
    let left = rng.int(3, MAX_SUBS)
    if (first !== undefined && rng.chance(0.06)) {
      drafts.push(...spread(rng, first, 'sub', side, 1).map((d) => ({ ...d, injured: true })))
      left--
    }
    if (second === undefined) continue
    if (rng.chance(0.15)) {
      drafts.push(draftAt(second, 'sub', side, 0))
      left--
    }
    const late = rng.int(Math.max(0, left - 1), left)
    drafts.push(...spread(rng, second, 'sub', side, late, 10 * 60))
    if (et1 !== undefined && late < left) drafts.push(...spread(rng, et1, 'sub', side, 1))
  }
  return drafts
}
