/**
 * A league's live table in touchline's shape (src/wire-model/standings.ts), from the upstream's standing rows, and
 * the `standings_changed` between two of them. Pure: no IO, no clock.
 *
 * The figures behind a row come from its `details` by the real API's type ids: played 129, won 130, drawn
 * 131, lost 132, goals for 133, against 134, goal difference 179, points 187 (upstream-facts §11); a figure
 * the upstream did not give is null.
 */
import type { StandingRow } from '../upstream/standings-schemas.ts'
import type { LeagueStandings, StandingsMove, StandingsRow, StandingsTable } from '../wire-model/model.ts'

const DETAIL = { played: 129, won: 130, drawn: 131, lost: 132, goals_for: 133, goals_against: 134, goal_difference: 179, points: 187 } as const
const RESULTS = new Set(['up', 'down', 'equal'])

/** A detail's value as a whole number, or null. */
function detail (row: StandingRow, typeId: number): number | null {
  const value = row.details?.find((d) => d.type_id === typeId)?.value
  return typeof value === 'number' && Number.isInteger(value) ? value : null
}

function rowOf (row: StandingRow): StandingsRow {
  const goalsFor = detail(row, DETAIL.goals_for)
  const goalsAgainst = detail(row, DETAIL.goals_against)
  return {
    team: { id: row.participant_id, name: row.participant?.name ?? null, short_code: row.participant?.short_code ?? null, image_path: row.participant?.image_path ?? null },
    position: row.position,
    points: row.points ?? detail(row, DETAIL.points) ?? 0,
    played: detail(row, DETAIL.played),
    won: detail(row, DETAIL.won),
    drawn: detail(row, DETAIL.drawn),
    lost: detail(row, DETAIL.lost),
    goals_for: goalsFor,
    goals_against: goalsAgainst,
    goal_difference: detail(row, DETAIL.goal_difference) ?? (goalsFor !== null && goalsAgainst !== null ? goalsFor - goalsAgainst : null),
    result: typeof row.result === 'string' && RESULTS.has(row.result) ? row.result as StandingsRow['result'] : null
  }
}

const tableKey = (stageId: number | null, groupId: number | null): string => `${stageId ?? ''}/${groupId ?? ''}`

/**
 * The league's tables from its rows: one per stage and group, by stage then group, each by position (then
 * team id, should two rows claim one place). Undefined when there are no rows (a league without a table).
 */
export function standingsOf (leagueId: number, rows: readonly StandingRow[], at: string): LeagueStandings | undefined {
  if (rows.length === 0) return undefined
  const tables = new Map<string, StandingsTable>()
  for (const row of rows) {
    const stageId = row.stage_id ?? null
    const groupId = row.group_id ?? null
    const key = tableKey(stageId, groupId)
    let table = tables.get(key)
    if (table === undefined) tables.set(key, table = { stage_id: stageId, group_id: groupId, rows: [] })
    table.rows.push(rowOf(row))
  }
  for (const table of tables.values()) table.rows.sort((a, b) => a.position - b.position || a.team.id - b.team.id)
  const seasonId = rows.find((r) => typeof r.season_id === 'number' && r.season_id > 0)?.season_id ?? null
  return {
    league_id: leagueId,
    season_id: seasonId,
    tables: [...tables.values()].sort((a, b) => (a.stage_id ?? 0) - (b.stage_id ?? 0) || (a.group_id ?? 0) - (b.group_id ?? 0)),
    updated_at: at,
    version: 0
  }
}

const sameRow = (a: StandingsRow, b: StandingsRow): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * The rows of `next` that differ from `prev`'s (their place, points, another figure, the team's name...), with
 * their place and points before; every row when there was no table before. Empty when nothing moved.
 */
export function diffStandings (prev: LeagueStandings | undefined, next: LeagueStandings): StandingsMove[] {
  const before = new Map<string, StandingsRow>()
  for (const table of prev?.tables ?? []) {
    for (const row of table.rows) before.set(`${tableKey(table.stage_id, table.group_id)}#${row.team.id}`, row)
  }
  const moves: StandingsMove[] = []
  for (const table of next.tables) {
    for (const row of table.rows) {
      const was = before.get(`${tableKey(table.stage_id, table.group_id)}#${row.team.id}`)
      if (was !== undefined && sameRow(was, row)) continue
      moves.push({
        stage_id: table.stage_id,
        group_id: table.group_id,
        team_id: row.team.id,
        position: row.position,
        points: row.points,
        previous: was === undefined ? null : { position: was.position, points: was.points }
      })
    }
  }
  return moves
}

/** Whether two tables show the same rows (their versions and times aside). */
export function sameTables (a: LeagueStandings | undefined, b: LeagueStandings): boolean {
  return a !== undefined && JSON.stringify(a.tables) === JSON.stringify(b.tables) && a.season_id === b.season_id
}
