/**
 * `scriptMatch`: the whole of a generated match, laid out in match seconds from the scheduled kick-off.
 * Pure: the same input and seed give the same script, and the real kick-off time plays no part (so a
 * schedule can ask how long a match lasts before placing it).
 */
import type { HomeAway } from '../../contract/football.ts'
import { State } from '../../contract/states.ts'
import { resolveDrafts, startMatch } from './assign.ts'
import { byTime, cardDrafts, goalDrafts, subDrafts, type Draft } from './drafts.ts'
import { drawDisruption, extraTimePeriods, penaltiesPeriod, regulationFrame } from './frame.ts'
import type { MatchScript, PeriodPlan, SimFixtureInput, SimTeam, TeamRef, ValueStep } from './model.ts'
import { hashSeed } from '../rng.ts'
import { streamRng } from './streams.ts'
import { drawShootout, shootoutHappenings } from './shootout.ts'
import { statSteps } from './stats.ts'
import { buildStates, scoreRowPlans } from './timeline.ts'

/** Goals come a little less often in extra time (tired legs, cautious teams). */
const ET_GOAL_SCALE = 0.85

const teamRef = (team: SimTeam): TeamRef => ({ id: team.id, name: team.name, position: team.position ?? null })

/** CURRENT score implied by goal drafts, leaving out goals VAR will disallow. */
function scoreOf (drafts: readonly Draft[]): Record<HomeAway, number> {
  const score = { home: 0, away: 0 }
  for (const d of drafts) {
    if (d.cancelledAt !== undefined) continue
    if (d.kind === 'goal' || d.kind === 'penalty') score[d.side]++
    if (d.kind === 'owngoal') score[d.side === 'home' ? 'away' : 'home']++
  }
  return score
}

function leader (score: Record<HomeAway, number>): HomeAway | null {
  return score.home === score.away ? null : score.home > score.away ? 'home' : 'away'
}

function outcome (input: SimFixtureInput, finalState: number, winner: HomeAway | null): { result_info: string | null, winner: HomeAway | null, decided: boolean } {
  const name = winner === null ? '' : input[winner].name
  switch (finalState) {
    case State.FT: return { result_info: winner === null ? 'Game ended in draw.' : `${name} won after full-time.`, winner, decided: true }
    case State.AET: return { result_info: `${name} won after extra time.`, winner, decided: true }
    case State.FT_PEN: return { result_info: `${name} won after penalties.`, winner, decided: true }
    default: return { result_info: null, winner: null, decided: false }
  }
}

function postponed (input: SimFixtureInput, at: number): MatchScript {
  return {
    fixtureId: input.id,
    leagueId: input.league_id,
    kind: input.kind,
    home: teamRef(input.home),
    away: teamRef(input.away),
    states: buildStates([], { delayed: false, postponedAt: at }),
    periods: [],
    happenings: [],
    stats: [],
    scoreRows: [],
    lengths: [{ at: -Infinity, value: 90 }],
    result: { at, result_info: null, winner: null, decided: false },
    endAt: at
  }
}

/** Redraws allowed to reach a required winner; each succeeds with p ≥ 0.3, so 40 fail about once in 10^6. */
const MAX_REDRAWS = 40

const winnerIdOf = (script: MatchScript): number | null => script.result.winner === null ? null : script[script.result.winner].id

/**
 * The whole match for `input`, in match seconds from the scheduled kick-off; `input.kickoff` plays no part.
 * With `input.winnerId`, the first of a seeded series of draws that team wins (practically always one does).
 */
export function scriptMatch (input: SimFixtureInput, seed: number): MatchScript {
  let script = scriptOnce(input, seed)
  for (let redraw = 1; input.winnerId !== undefined && winnerIdOf(script) !== input.winnerId && redraw <= MAX_REDRAWS; redraw++) {
    script = scriptOnce(input, hashSeed(seed, redraw))
  }
  return script
}

function scriptOnce (input: SimFixtureInput, seed: number): MatchScript {
  const rng = (stream: Parameters<typeof streamRng>[2]) => streamRng(seed, input.id, stream)
  const frameRng = rng('frame')
  const goalRng = rng('goals')
  const frame = regulationFrame(input.id, frameRng, drawDisruption(frameRng))
  if (frame.postponedAt !== undefined) return postponed(input, frame.postponedAt)
  const periods: PeriodPlan[] = [...frame.periods]
  const goals = periods.flatMap((p) => goalDrafts(goalRng, p))
  const lengths: ValueStep[] = [{ at: -Infinity, value: 90 }]
  if (input.kind === 'cup' && !frame.abandoned && leader(scoreOf(goals)) === null) {
    const et = extraTimePeriods(input.id, frameRng, periods[periods.length - 1]?.end ?? 0)
    periods.push(...et)
    goals.push(...et.flatMap((p) => goalDrafts(goalRng, p, ET_GOAL_SCALE)))
    lengths.push({ at: et[0]?.start ?? 0, value: 120 })
  }
  const cardRng = rng('cards')
  const drafts = [...goals, ...periods.flatMap((p) => cardDrafts(cardRng, p)), ...subDrafts(rng('subs'), periods)].sort(byTime)
  const state = startMatch(input.id, input.home, input.away)
  resolveDrafts(state, rng('players'), drafts)

  let winner = leader(state.score)
  const last = periods[periods.length - 1]
  if (winner === null && last?.key === 'et2') {
    const pensRng = rng('pens')
    const kicks = drawShootout(pensRng)
    const pens = penaltiesPeriod(input.id, last.end, kicks.length)
    periods.push(pens)
    winner = leader(shootoutHappenings(state, pensRng, pens, kicks))
  }
  const home = teamRef(input.home)
  const away = teamRef(input.away)
  const states = buildStates(periods, frame.abandoned ? { delayed: frame.delayed, finalState: State.ABANDONED } : { delayed: frame.delayed })
  const finalStep = states[states.length - 1]
  const endAt = finalStep?.at ?? 0
  return {
    fixtureId: input.id,
    leagueId: input.league_id,
    kind: input.kind,
    home,
    away,
    states,
    periods,
    happenings: state.happenings,
    stats: statSteps(rng('stats'), periods, state.happenings, home),
    scoreRows: scoreRowPlans(input.id, periods, home, away),
    lengths,
    result: { at: endAt, ...outcome(input, finalStep?.state_id ?? State.FT, winner) },
    endAt
  }
}
