/**
 * A club's matchday squad: its formation, the starting eleven placed in it and the bench, from the squad of
 * the dataset. The `lineups` and `formations` includes (derived.ts) show it, and the simulator plays it
 * (live.ts gives it the same players, starters first), so a substitution brings on a player of the bench and
 * takes off one who is on the pitch, as the line-ups say.
 *
 * Placing follows the real API (docs/upstream.md, "Line-ups"): `formation_position` 1 is the goalkeeper,
 * then the defence, the midfield lines and the attack in the formation's order; `formation_field` is
 * "row:column", the keeper "1:1", the defence row 2 and so on, columns counted from 1 within a row (the
 * 4-2-3-1 of the recordings is rows 2 to 5 of 4, 2, 3 and 1). The first line is defenders (25), the last
 * attackers (27), those between midfielders (26): each starter's `position_id` is that of his slot, taken
 * from the squad's players of that position in squad order while there are any, else from the others.
 */
import type { Dataset } from './dataset/types.ts'
import { hashInt } from './rng.ts'

export const FORMATIONS = ['4-4-2', '4-3-3', '4-2-3-1', '3-5-2', '5-3-2'] as const

export const Position = { GOALKEEPER: 24, DEFENDER: 25, MIDFIELDER: 26, ATTACKER: 27 } as const

export interface MatchdayPlayer {
  player_id: number
  name: string
  /** The slot's position for a starter, the player's own for the bench. */
  position_id: number
  jersey_number: number
  /** "row:column" for a starter, null on the bench. */
  formation_field: string | null
  /** 1..11 for a starter, null on the bench. */
  formation_position: number | null
}

export interface MatchdaySquad {
  formation: string
  /** The eleven in `formation_position` order: the goalkeeper first. */
  starters: readonly MatchdayPlayer[]
  /** 9 to 12 players, a goalkeeper among them when the squad has a spare one. */
  bench: readonly MatchdayPlayer[]
}

/** A club always lines up in the same formation. */
export const formationOf = (teamId: number): string => FORMATIONS[teamId % FORMATIONS.length] ?? '4-4-2'

/** 9 to 12 on the bench, depending on the club. */
const benchSize = (teamId: number): number => 9 + (hashInt(teamId) % 4)

/** The rows of a formation below the keeper, each with the position its players play. */
export function formationRows (formation: string): Array<{ count: number, position_id: number }> {
  const lines = formation.split('-').map(Number).filter((n) => Number.isInteger(n) && n > 0)
  return lines.map((count, i) => ({
    count,
    position_id: i === 0 ? Position.DEFENDER : i === lines.length - 1 ? Position.ATTACKER : Position.MIDFIELDER
  }))
}

interface SquadPlayer {
  id: number
  name: string
  position_id: number
  jersey_number: number
}

function squadPlayers (ds: Dataset, teamId: number): SquadPlayer[] {
  return (ds.squads.get(teamId) ?? []).flatMap((id, i) => {
    const p = ds.byId.player.get(id)
    return p === undefined ? [] : [{ id, name: p.display_name, position_id: p.position_id, jersey_number: i + 1 }]
  })
}

/** The slots of the eleven: the keeper, then each row of the formation. */
function slots (formation: string): Array<{ field: string, position_id: number }> {
  const out: Array<{ field: string, position_id: number }> = [{ field: '1:1', position_id: Position.GOALKEEPER }]
  formationRows(formation).forEach((row, r) => {
    for (let c = 1; c <= row.count; c++) out.push({ field: `${r + 2}:${c}`, position_id: row.position_id })
  })
  return out
}

const squads = new WeakMap<Dataset, Map<number, MatchdaySquad>>()

/** The matchday squad of a club (memoized per dataset): the same for each of its fixtures. */
export function matchdaySquad (ds: Dataset, teamId: number): MatchdaySquad {
  let byTeam = squads.get(ds)
  if (byTeam === undefined) squads.set(ds, byTeam = new Map())
  const known = byTeam.get(teamId)
  if (known !== undefined) return known
  const formation = formationOf(teamId)
  const left = squadPlayers(ds, teamId)
  const take = (positionId: number): SquadPlayer | undefined => {
    const i = left.findIndex((p) => p.position_id === positionId)
    // Short of players of the slot's position, an outfield player fills it (a keeper only in goal).
    const j = i >= 0 ? i : left.findIndex((p) => p.position_id !== Position.GOALKEEPER || positionId === Position.GOALKEEPER)
    return j < 0 ? undefined : left.splice(j, 1)[0]
  }
  const starters: MatchdayPlayer[] = []
  for (const slot of slots(formation)) {
    const p = take(slot.position_id)
    if (p === undefined) break
    starters.push({ player_id: p.id, name: p.name, position_id: slot.position_id, jersey_number: p.jersey_number, formation_field: slot.field, formation_position: starters.length + 1 })
  }
  const keeper = left.find((p) => p.position_id === Position.GOALKEEPER)
  const rest = left.filter((p) => p.position_id !== Position.GOALKEEPER)
  const benchPlayers = [...(keeper === undefined ? [] : [keeper]), ...rest].slice(0, benchSize(teamId)).sort((a, b) => a.jersey_number - b.jersey_number)
  const bench = benchPlayers.map((p) => ({ player_id: p.id, name: p.name, position_id: p.position_id, jersey_number: p.jersey_number, formation_field: null, formation_position: null }))
  const squad: MatchdaySquad = { formation, starters, bench }
  byTeam.set(teamId, squad)
  return squad
}
