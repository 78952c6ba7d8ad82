/**
 * League tables. The dataset's standings are NOT derived from fixture results (results belong to the
 * simulator, which plays them from its own seed): each table is a seeded points table where stronger teams
 * tend to finish higher, over the number of matchdays already played at the anchor, and it decides who goes
 * through to a season's next phase. What the provider serves is counted from the simulated results
 * (packages/provider/src/standings.ts), over the tables and teams these records name.
 */
import type { BuildContext } from './context.ts'
import type { Rng } from '../rng.ts'
import type { Standing } from './types.ts'

export interface TableRow {
  team: number
  points: number
}

/** Champions / promotion zone, mid-table, relegation zone (ids in the real API's range, not its meaning). */
const RULE_TOP = 13224
const RULE_MIDDLE = 13225
const RULE_BOTTOM = 13226

/** The rule of a position in a table of `size` teams: the top one, the bottom two (of more than four), the rest. */
export function standingRule (position: number, size: number): number {
  return position === 1 ? RULE_TOP : position > size - 2 && size > 4 ? RULE_BOTTOM : RULE_MIDDLE
}

/** Points after `played` matches each: win chance grows with strength, draws about a quarter of the time. */
export function pointsTable (rng: Rng, teams: readonly number[], played: number, strength: ReadonlyMap<number, number>): TableRow[] {
  const rows = teams.map((team) => {
    const s = strength.get(team) ?? 0.5
    let points = 0
    for (let i = 0; i < played; i++) {
      const roll = rng.next()
      if (roll < 0.18 + 0.5 * s) points += 3
      else if (roll < 0.45 + 0.35 * s) points += 1
    }
    return { team, points }
  })
  return rows.sort((a, b) => b.points - a.points || (strength.get(b.team) ?? 0) - (strength.get(a.team) ?? 0) || a.team - b.team)
}

export interface StandingScope {
  league_id: number
  season_id: number
  stage_id: number
  group_id: number | null
  round_id: number | null
  played: number
}

export function pushStandings (ctx: BuildContext, rng: Rng, scope: StandingScope, rows: readonly TableRow[]): void {
  rows.forEach((row, i) => {
    const position = i + 1
    const rule = standingRule(position, rows.length)
    const roll = rng.next()
    const standing: Standing = {
      id: ctx.ids.next('standing'),
      participant_id: row.team,
      sport_id: 1,
      league_id: scope.league_id,
      season_id: scope.season_id,
      stage_id: scope.stage_id,
      group_id: scope.group_id,
      round_id: scope.round_id,
      standing_rule_id: rule,
      position,
      result: scope.played === 0 || roll < 0.5 ? 'equal' : roll < 0.75 ? 'up' : 'down',
      points: row.points
    }
    ctx.out.standings.push(standing)
  })
}
