import type { FixtureEvent, HomeAway, Score } from '../../../packages/upstream-contract/src/football.ts'
import { State } from '../../../packages/upstream-contract/src/states.ts'
import { changePoints } from '../../../packages/provider/src/sim/engine.ts'
import { materialize } from '../../../packages/provider/src/sim/materialize.ts'
import type { FixtureLive, MatchScript, SimFixtureInput, SimTeam } from '../../../packages/provider/src/sim/model.ts'
import { scriptMatch } from '../../../packages/provider/src/sim/script.ts'

export const SPEED = 60
export const KICKOFF = 1_795_000_000

function team (id: number, name: string, size = 22): SimTeam {
  const players = Array.from({ length: size }, (_, i) => ({ id: id * 100 + i, name: `${name} Player ${i + 1}` }))
  return { id, name, short_code: name.slice(0, 3).toUpperCase(), players, position: id % 20 }
}

/** `count` fixtures over five leagues, every other one a cup tie. */
export function fixtures (count: number, firstId = 19_000_000): SimFixtureInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    league_id: [271, 501, 8, 2, 564][i % 5] ?? 271,
    kind: i % 2 === 0 ? 'cup' : 'league',
    kickoff: KICKOFF,
    home: team(1000 + (i % 37) * 2, `Home ${i % 37}`),
    away: team(1001 + (i % 37) * 2, `Away ${i % 37}`)
  }))
}

/** 300 matches, half of them cups, as most property tests use them. */
export const MATCHES = fixtures(300)
export const SCRIPTS: readonly MatchScript[] = MATCHES.map((f) => scriptMatch(f, 7))

/**
 * Legal state transitions of the simulator, as data. Stoppages resume into the half they stopped
 * (checked separately); in cup ties FT shows briefly before BREAK and extra time, as on the real API.
 */
export const LEGAL: Readonly<Record<number, readonly number[]>> = {
  [State.NS]: [State.INPLAY_1ST_HALF, State.DELAYED, State.POSTPONED],
  [State.DELAYED]: [State.INPLAY_1ST_HALF],
  [State.INPLAY_1ST_HALF]: [State.HT, State.SUSPENDED, State.INTERRUPTED],
  [State.HT]: [State.INPLAY_2ND_HALF],
  [State.INPLAY_2ND_HALF]: [State.FT, State.SUSPENDED, State.INTERRUPTED],
  [State.SUSPENDED]: [State.INPLAY_1ST_HALF, State.INPLAY_2ND_HALF, State.ABANDONED],
  [State.INTERRUPTED]: [State.INPLAY_1ST_HALF, State.INPLAY_2ND_HALF, State.ABANDONED],
  [State.FT]: [State.BREAK],
  [State.BREAK]: [State.INPLAY_ET],
  [State.INPLAY_ET]: [State.EXTRA_TIME_BREAK],
  [State.EXTRA_TIME_BREAK]: [State.INPLAY_ET_2ND_HALF],
  [State.INPLAY_ET_2ND_HALF]: [State.AET, State.PEN_BREAK],
  [State.PEN_BREAK]: [State.INPLAY_PENALTIES],
  [State.INPLAY_PENALTIES]: [State.FT_PEN],
  [State.AET]: [],
  [State.FT_PEN]: [],
  [State.POSTPONED]: [],
  [State.ABANDONED]: []
}

const clock = (seconds: number) => ({ kickoff: KICKOFF, speed: SPEED, seconds })
export const viewAt = (script: MatchScript, seconds: number): FixtureLive => materialize(script, clock(seconds))

/**
 * Every change point, the moments just before them and between them, and one after the end. The statistics'
 * own moments (shots, tallies...) are left out unless `withStats`: tests of states, scores and events do not
 * need them, and they are most of a match's changes.
 */
export function samplePoints (script: MatchScript, withStats = false): number[] {
  const points = changePoints(withStats ? script : { ...script, stats: [] }).all
  const out = points.flatMap((p, i) => [p - 0.5, p, (p + (points[i + 1] ?? p + 60)) / 2])
  return [...out, script.endAt + 3600]
}

export const sideOf = (script: MatchScript, e: FixtureEvent): HomeAway => e.participant_id === script.home.id ? 'home' : 'away'

/** Goals per side counted from events: goals and penalties for the scorer's team, own goals for the other. */
export function goalsFromEvents (script: MatchScript, events: readonly FixtureEvent[]): Record<HomeAway, number> {
  const goals = { home: 0, away: 0 }
  for (const e of events) {
    const side = sideOf(script, e)
    if (e.type_id === 14 || e.type_id === 16) goals[side]++
    if (e.type_id === 15) goals[side === 'home' ? 'away' : 'home']++
  }
  return goals
}

export function row (scores: readonly Score[], typeId: number): Record<HomeAway, number> | undefined {
  const rows = scores.filter((s) => s.type_id === typeId)
  if (rows.length === 0) return undefined
  const get = (side: HomeAway): number => rows.find((r) => r.score.participant === side)?.score.goals ?? NaN
  return { home: get('home'), away: get('away') }
}

/** A view without the running clock (`minutes`/`seconds` of periods), which ticks every match second. */
export function withoutClock (view: FixtureLive | undefined): unknown {
  if (view === undefined) return undefined
  const strip = <T extends object | null>(p: T) => p === null ? null : { ...p, minutes: undefined, seconds: undefined }
  return { ...view, periods: view.periods.map(strip), detailedperiods: view.detailedperiods.map(strip), currentperiod: strip(view.currentperiod) }
}
