/**
 * League tables from the simulated results (docs/provider.md, "Standings"). The dataset says which tables a
 * season has (a stage, or each group of one) and which teams are in each, with a standing record per team;
 * the points are counted here from the fixtures of the table, as the simulator plays them: three for a win,
 * one for a draw, ranked by points, goal difference, goals scored, then team id.
 *
 * - `/standings/seasons/{id}` (and `/standings`): the matches finished at the instant; `result` says how each
 *   team moved since the table before its latest round ("up", "down", "equal").
 * - `/standings/live/leagues/{id}`: the current season with the matches in play counted as if they ended at
 *   their current score, so the rows move with a live goal; `result` compares each team's position with the
 *   table without them.
 * - `/standings/rounds/{id}`: the round's stage after the matches of that round and those before it.
 *
 * The `details` include carries the figures behind a row, with the real API's type ids: played (129), won
 * (130), drawn (131), lost (132), goals for (133) and against (134), goal difference (179), points (187).
 */
import { LIVE_STATE_IDS, State } from '@touchline/upstream-contract/states'
import type { DatasetFixture, Standing } from './dataset/types.ts'
import { standingRule } from './dataset/standings.ts'
import type { Rec } from './records.ts'
import type { World } from './world.ts'

/** Final states whose result counts in a table. */
const FINISHED: ReadonlySet<number> = new Set([State.FT, State.AET, State.FT_PEN])

export const StandingDetailType = { PLAYED: 129, WON: 130, DRAWN: 131, LOST: 132, GOALS_FOR: 133, GOALS_AGAINST: 134, GOAL_DIFFERENCE: 179, POINTS: 187 } as const

interface Tally {
  team: number
  played: number
  won: number
  drawn: number
  lost: number
  goalsFor: number
  goalsAgainst: number
  points: number
}

/** One table of a season: a stage, or a group of one, with the dataset's standing record of each team. */
interface Scope {
  stageId: number
  groupId: number | null
  rows: readonly Standing[]
  fixtures: readonly DatasetFixture[]
  /** Round id → its place in the stage, for "the table after round n". */
  roundIndex: ReadonlyMap<number, number>
}

/** Which matches a table counts at an instant: finished ones, and with `live` those in play at their score. */
interface Count {
  now: number
  live: boolean
  /** Leave out matches of rounds after this place in the stage. */
  untilRound?: number
  /** Leave out the matches of these rounds (the table before the latest round). */
  withoutRounds?: ReadonlySet<number>
}

const details = new WeakMap<Rec, Rec[]>()

/** The `details` include of a standing row served here (empty for any other record). */
export const standingDetails = (row: Rec): Rec[] => details.get(row) ?? []

function scopesOf (w: World, seasonId: number): Scope[] {
  const byTable = new Map<string, Standing[]>()
  for (const row of w.ds.standingsBySeason.get(seasonId) ?? []) {
    const key = `${row.stage_id}:${row.group_id ?? ''}`
    byTable.set(key, [...(byTable.get(key) ?? []), row])
  }
  return [...byTable.values()].map((rows) => {
    const first = rows[0] as Standing
    const teams = new Set(rows.map((r) => r.participant_id))
    const fixtures = (w.ds.fixturesByStage.get(first.stage_id) ?? []).filter((f) =>
      (first.group_id === null || f.group_id === first.group_id) && teams.has(f.home_team_id) && teams.has(f.away_team_id))
    const roundIndex = new Map((w.ds.roundsByStage.get(first.stage_id) ?? []).map((r, i) => [r.id, i]))
    return { stageId: first.stage_id, groupId: first.group_id, rows, fixtures, roundIndex }
  })
}

/** The tallies of a table, and the rounds of the matches counted in it. */
function tally (w: World, scope: Scope, count: Count): { tallies: Map<number, Tally>, rounds: Set<number> } {
  const tallies = new Map(scope.rows.map((r) => [r.participant_id, { team: r.participant_id, played: 0, won: 0, drawn: 0, lost: 0, goalsFor: 0, goalsAgainst: 0, points: 0 }]))
  const rounds = new Set<number>()
  for (const f of scope.fixtures) {
    const round = f.round_id === null ? undefined : scope.roundIndex.get(f.round_id)
    if (count.untilRound !== undefined && (round === undefined || round > count.untilRound)) continue
    if (f.round_id !== null && count.withoutRounds?.has(f.round_id) === true) continue
    const score = w.live.scoreAt(f, count.now)
    if (score === undefined || !(FINISHED.has(score.state_id) || (count.live && LIVE_STATE_IDS.has(score.state_id)))) continue
    if (f.round_id !== null) rounds.add(f.round_id)
    const home = tallies.get(f.home_team_id)
    const away = tallies.get(f.away_team_id)
    if (home === undefined || away === undefined) continue
    record(home, score.home, score.away)
    record(away, score.away, score.home)
  }
  return { tallies, rounds }
}

function record (t: Tally, scored: number, conceded: number): void {
  t.played++
  t.goalsFor += scored
  t.goalsAgainst += conceded
  if (scored > conceded) {
    t.won++
    t.points += 3
  } else if (scored === conceded) {
    t.drawn++
    t.points++
  } else {
    t.lost++
  }
}

/** Team ids in table order: points, goal difference, goals scored, team id. */
function ranked (tallies: ReadonlyMap<number, Tally>): number[] {
  const gd = (t: Tally): number => t.goalsFor - t.goalsAgainst
  return [...tallies.values()].sort((a, b) => b.points - a.points || gd(b) - gd(a) || b.goalsFor - a.goalsFor || a.team - b.team).map((t) => t.team)
}

/** The latest of `rounds` in the stage's order. */
function latestRound (scope: Scope, rounds: ReadonlySet<number>): number | null {
  let best: number | null = null
  for (const id of rounds) if (best === null || (scope.roundIndex.get(id) ?? -1) > (scope.roundIndex.get(best) ?? -1)) best = id
  return best
}

/** The rows of one table: `count` decides the matches, `against` the table the `result` compares with. */
function tableRows (w: World, scope: Scope, count: Count, against: Count): Rec[] {
  const { tallies, rounds } = tally(w, scope, count)
  const order = ranked(tallies)
  const before = ranked(tally(w, scope, against).tallies)
  const roundId = latestRound(scope, rounds) ?? scope.rows[0]?.round_id ?? null
  return order.map((team, i) => {
    const template = scope.rows.find((r) => r.participant_id === team) as Standing
    const t = tallies.get(team) as Tally
    const was = before.indexOf(team)
    const row: Rec = {
      id: template.id,
      participant_id: team,
      sport_id: 1,
      league_id: template.league_id,
      season_id: template.season_id,
      stage_id: scope.stageId,
      group_id: scope.groupId,
      round_id: roundId,
      standing_rule_id: standingRule(i + 1, order.length),
      position: i + 1,
      result: was === i ? 'equal' : was > i ? 'up' : 'down',
      points: t.points
    }
    details.set(row, detailRows(template.id, t))
    return row
  })
}

function detailRows (standingId: number, t: Tally): Rec[] {
  const values: Array<[number, number]> = [
    [StandingDetailType.PLAYED, t.played], [StandingDetailType.WON, t.won], [StandingDetailType.DRAWN, t.drawn],
    [StandingDetailType.LOST, t.lost], [StandingDetailType.GOALS_FOR, t.goalsFor], [StandingDetailType.GOALS_AGAINST, t.goalsAgainst],
    [StandingDetailType.GOAL_DIFFERENCE, t.goalsFor - t.goalsAgainst], [StandingDetailType.POINTS, t.points]
  ]
  return values.map(([type, value], k) => ({ id: standingId * 10 + k, standing_type: 'standing', standing_id: standingId, type_id: type, value }))
}

/** The tables of a season at `now`: of the finished matches, or with `live` the matches in play too. */
export function seasonStandings (w: World, seasonId: number, now: number, live = false): Rec[] {
  return scopesOf(w, seasonId).flatMap((scope) => {
    if (live) return tableRows(w, scope, { now, live: true }, { now, live: false })
    const latest = latestRound(scope, tally(w, scope, { now, live: false }).rounds)
    return tableRows(w, scope, { now, live: false }, { now, live: false, withoutRounds: new Set(latest === null ? [] : [latest]) })
  })
}

/** The table of a round's stage after that round (its finished matches and those of the rounds before). */
export function roundStandings (w: World, roundId: number, now: number): Rec[] {
  const round = w.get('round', roundId)
  if (round === undefined) return []
  return scopesOf(w, Number(round.season_id)).filter((s) => s.stageId === round.stage_id).flatMap((scope) => {
    const index = scope.roundIndex.get(roundId) ?? -1
    return tableRows(w, scope, { now, live: false, untilRound: index }, { now, live: false, untilRound: index - 1 })
  })
}
