import { describe, expect, it } from 'vitest'
import { diffStandings, sameTables, standingsOf } from '../../../src/standings/table.ts'
import type { StandingRow } from '../../../src/upstream/standings-schemas.ts'
import { parseStandings } from '../../../src/upstream/standings-schemas.ts'

const AT = '2026-12-07T12:00:00.000Z'

/** An upstream row with the figures behind it (played, won, drawn, lost, for, against), as `details` by type id. */
function row (team: number, position: number, points: number, figures: [number, number, number, number, number, number], extra: Partial<StandingRow> = {}): StandingRow {
  const [played, won, drawn, lost, gf, ga] = figures
  const details = [[129, played], [130, won], [131, drawn], [132, lost], [133, gf], [134, ga], [179, gf - ga], [187, points]].map(([typeId, value]) => ({ type_id: typeId as number, value }))
  return { participant_id: team, league_id: 271, season_id: 20003, stage_id: 7, group_id: null, position, points, result: 'equal', participant: { name: `Team ${team}`, short_code: `T${team}`, image_path: null }, details, ...extra }
}

describe('a league\'s live table from the upstream\'s rows', () => {
  it('has one table per stage and group, each by position, with the figures from the details', () => {
    const rows = [row(2, 2, 3, [2, 1, 0, 1, 3, 3]), row(1, 1, 6, [2, 2, 0, 0, 4, 1], { result: 'up' }),
      row(3, 1, 4, [2, 1, 1, 0, 2, 1], { group_id: 90 }), row(4, 2, 1, [2, 0, 1, 1, 1, 2], { group_id: 90 })]
    const s = standingsOf(271, rows, AT)
    expect(s).toMatchObject({ league_id: 271, season_id: 20003, updated_at: AT, version: 0 })
    expect(s?.tables.map((t) => [t.stage_id, t.group_id, t.rows.map((r) => r.team.id)])).toEqual([[7, null, [1, 2]], [7, 90, [3, 4]]])
    expect(s?.tables[0]?.rows[0]).toEqual({
      team: { id: 1, name: 'Team 1', short_code: 'T1', image_path: null },
      position: 1,
      points: 6,
      played: 2,
      won: 2,
      drawn: 0,
      lost: 0,
      goals_for: 4,
      goals_against: 1,
      goal_difference: 3,
      result: 'up'
    })
  })

  it('leaves a figure the upstream did not give null, and reads points from the details when the row has none', () => {
    const s = standingsOf(271, [{ participant_id: 5, position: 1, points: null, details: [{ type_id: 187, value: 7 }, { type_id: 133, value: 'x' }] }], AT)
    expect(s?.tables[0]?.rows[0]).toMatchObject({ points: 7, played: null, goals_for: null, goal_difference: null, result: null, team: { id: 5, name: null } })
  })

  it('is no table when the upstream has no rows (a cup), and drops a row it cannot read', () => {
    expect(standingsOf(24, [], AT)).toBeUndefined()
    expect(parseStandings({ data: [{ participant_id: 1, position: 1 }, { position: 2 }, { participant_id: 3 }] }).map((r) => r.participant_id)).toEqual([1])
    expect(parseStandings({ message: 'No result(s) found' })).toEqual([])
  })
})

describe('what moved between two tables', () => {
  const before = standingsOf(271, [row(1, 1, 6, [2, 2, 0, 0, 4, 1]), row(2, 2, 3, [2, 1, 0, 1, 3, 3]), row(3, 3, 1, [2, 0, 1, 1, 1, 2])], AT)
  // Team 3 scores against team 1 in play: both played once more, 3 draws level on goals... and climbs to 2nd.
  const after = standingsOf(271, [row(1, 1, 7, [3, 2, 1, 0, 5, 2]), row(3, 2, 2, [3, 0, 2, 1, 2, 3]), row(2, 3, 3, [2, 1, 0, 1, 3, 3])], AT)

  it('names every row that changed, with its place and points before', () => {
    expect(diffStandings(before, after as NonNullable<typeof after>)).toEqual([
      { stage_id: 7, group_id: null, team_id: 1, position: 1, points: 7, previous: { position: 1, points: 6 } },
      { stage_id: 7, group_id: null, team_id: 3, position: 2, points: 2, previous: { position: 3, points: 1 } },
      { stage_id: 7, group_id: null, team_id: 2, position: 3, points: 3, previous: { position: 2, points: 3 } }
    ])
  })

  it('names a row whose figures moved though its place and points did not (a goal in a draw held)', () => {
    const goal = standingsOf(271, [row(1, 1, 6, [2, 2, 0, 0, 5, 2]), row(2, 2, 3, [2, 1, 0, 1, 3, 3]), row(3, 3, 1, [2, 0, 1, 1, 1, 2])], AT)
    expect(diffStandings(before, goal as NonNullable<typeof goal>)).toEqual([{ stage_id: 7, group_id: null, team_id: 1, position: 1, points: 6, previous: { position: 1, points: 6 } }])
  })

  it('is every row, without a previous place, for a first table; nothing for the same table', () => {
    expect(diffStandings(undefined, before as NonNullable<typeof before>).map((m) => [m.team_id, m.previous])).toEqual([[1, null], [2, null], [3, null]])
    expect(diffStandings(before, before as NonNullable<typeof before>)).toEqual([])
    expect(sameTables(before, { ...before as NonNullable<typeof before>, version: 9, updated_at: '2027-01-01T00:00:00.000Z' })).toBe(true)
    expect(sameTables(before, after as NonNullable<typeof after>)).toBe(false)
    expect(sameTables(undefined, before as NonNullable<typeof before>)).toBe(false)
  })
})
