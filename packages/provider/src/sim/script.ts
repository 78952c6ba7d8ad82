/**
 * `scriptMatch`: the whole of a generated match, laid out in match seconds from the scheduled kick-off.
 * Pure: the same input and seed give the same script, and the real kick-off time plays no part (so a
 * schedule can ask how long a match lasts before placing it).
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { State } from '@touchline/upstream-contract/states'
import { resolveDrafts, startMatch } from './assign.ts'
import { byTime, cardDrafts, goalDrafts, subDrafts, type Draft } from './drafts.ts'
import { drawDisruption, extraTimePeriods, penaltiesPeriod, regulationFrame, type Frame } from './frame.ts'
import type { MatchScript, PeriodPlan, SimFixtureInput, SimTeam, TeamRef, ValueStep } from './model.ts'
import { hashSeed, type Rng } from '../rng.ts'
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

/** A match postponed at match second `at` (before its kick-off): NS until then, POSTPONED from then on, never played. */
export function postponedScript (input: SimFixtureInput, at: number): MatchScript {
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

export interface ScriptOptions {
  /** Leave the statistics out (`stats` empty): for callers that only need the timing or the result. @default true */
  stats?: boolean
}

/**
 * The whole match for `input`, in match seconds from the scheduled kick-off; `input.kickoff` plays no part.
 * With `input.winnerId`, the first of a seeded series of draws that team wins (practically always one does).
 * The statistics come from a stream of their own, so leaving them out changes nothing else.
 */
export function scriptMatch (input: SimFixtureInput, seed: number, options: ScriptOptions = {}): MatchScript {
  let script = scriptOnce(input, seed, options)
  for (let redraw = 1; input.winnerId !== undefined && winnerIdOf(script) !== input.winnerId && redraw <= MAX_REDRAWS; redraw++) {
    script = scriptOnce(input, hashSeed(seed, redraw), options)
  }
  return script
}

/** How a match ends, without its events: final state, CURRENT score and the match second it ends at. */
export interface MatchOutcome {
  state_id: number
  home: number
  away: number
  endAt: number
}

/**
 * The outcome of `scriptMatch(input, seed)`, cheaply: a league match without a required winner is decided by
 * its frame and its goals alone (no extra time, no redraw), so the cards, substitutions, players and
 * statistics are not drawn. Anything else is scripted in full (without statistics).
 */
export function matchOutcome (input: SimFixtureInput, seed: number): MatchOutcome {
  if (input.kind !== 'league' || input.winnerId !== undefined) return outcomeOfScript(scriptMatch(input, seed, { stats: false }))
  const { frame, goals } = regulation(input, seed)
  if (frame.postponedAt !== undefined) return { state_id: State.POSTPONED, home: 0, away: 0, endAt: frame.postponedAt }
  const states = buildStates(frame.periods, frame.abandoned ? { delayed: frame.delayed, finalState: State.ABANDONED } : { delayed: frame.delayed })
  const last = states[states.length - 1]
  return { state_id: last?.state_id ?? State.FT, ...scoreOf(goals), endAt: last?.at ?? 0 }
}

/** The final state, CURRENT score (shoot-out aside, disallowed goals left out) and end of a script. */
export function outcomeOfScript (script: MatchScript): MatchOutcome {
  const score = { home: 0, away: 0 }
  for (const h of script.happenings) {
    if (h.credit !== undefined && h.bucket !== 'pens' && h.cancelledAt === undefined) score[h.credit]++
  }
  return { state_id: script.states[script.states.length - 1]?.state_id ?? State.NS, ...score, endAt: script.endAt }
}

/** Regulation time: the frame and its goals, the first draws of every match (shared by the outcome and the script). */
function regulation (input: SimFixtureInput, seed: number): { frame: Frame, goals: Draft[], frameRng: Rng, goalRng: Rng } {
  const frameRng = streamRng(seed, input.id, 'frame')
  const goalRng = streamRng(seed, input.id, 'goals')
  const frame = regulationFrame(input.id, frameRng, drawDisruption(frameRng))
  const goals = frame.postponedAt !== undefined ? [] : frame.periods.flatMap((p) => goalDrafts(goalRng, p))
  return { frame, goals, frameRng, goalRng }
}

function scriptOnce (input: SimFixtureInput, seed: number, options: ScriptOptions): MatchScript {
  const rng = (stream: Parameters<typeof streamRng>[2]) => streamRng(seed, input.id, stream)
  const { frame, goals, frameRng, goalRng } = regulation(input, seed)
  if (frame.postponedAt !== undefined) return postponedScript(input, frame.postponedAt)
  const periods: PeriodPlan[] = [...frame.periods]
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
    stats: options.stats === false ? [] : statSteps(rng('stats'), periods, state.happenings, home),
    scoreRows: scoreRowPlans(input.id, periods, home, away),
    lengths,
    result: { at: endAt, ...outcome(input, finalStep?.state_id ?? State.FT, winner) },
    endAt
  }
}
