/**
 * The match centre of a fixture (docs/protocol.md, "LiveFixture"): its statistics by type for both sides,
 * and both teams' line-ups with their formations, from the upstream's `statistics`, `lineups` and
 * `formations` includes (docs/upstream.md, "The match centre"). Pure.
 */
import type { Lineups, LineupPlayer, Side, Statistics, TeamLineup } from '../wire-model/model.ts'
import type { FormationInput, LineupInput, StatisticInput } from './input.ts'

/**
 * The upstream's statistic type ids (its types definitions) and the names `LiveFixture.statistics` gives
 * them. A type not listed here is kept as `type_<id>`.
 */
export const STATISTIC_NAMES: Readonly<Record<number, string>> = {
  34: 'corners',
  41: 'shots_off_target',
  42: 'shots_total',
  43: 'attacks',
  44: 'dangerous_attacks',
  45: 'possession',
  52: 'goals',
  56: 'fouls',
  57: 'saves',
  58: 'shots_blocked',
  80: 'passes',
  81: 'accurate_passes',
  82: 'pass_accuracy',
  83: 'red_cards',
  84: 'yellow_cards',
  86: 'shots_on_target',
  5304: 'expected_goals'
}

/** The name of a statistic type. */
export const statisticName = (typeId: number): string => STATISTIC_NAMES[typeId] ?? `type_${typeId}`

/** A statistic's value: a number, or a number written as text (`"55%"`, `"1.32"`); null for anything else. */
function statValue (value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  const n = Number.parseFloat(value)
  return Number.isFinite(n) ? n : null
}

const isSide = (value: unknown): value is Side => value === 'home' || value === 'away'

/**
 * The statistics rows as `{ <name>: { home, away } }`, the names in alphabetical order (so two readings of
 * the same rows serialize alike). A row is placed by its `location`, else by its team; one that is neither
 * is dropped.
 */
export function normalizeStatistics (rows: readonly StatisticInput[], sideOf: (participantId: number | null) => Side | null): Statistics {
  const byName = new Map<string, { home: number | null, away: number | null }>()
  for (const row of rows) {
    const side = isSide(row.location) ? row.location : sideOf(row.participant_id ?? null)
    if (side === null) continue
    const name = statisticName(row.type_id)
    const pair = byName.get(name) ?? { home: null, away: null }
    pair[side] = statValue(row.data?.value)
    byName.set(name, pair)
  }
  return Object.fromEntries([...byName].sort(([a], [b]) => a.localeCompare(b)))
}

/** The upstream's basic position ids (its lineups definitions). */
const POSITIONS: Readonly<Record<number, LineupPlayer['position']>> = { 24: 'goalkeeper', 25: 'defender', 26: 'midfielder', 27: 'attacker' }
/** Line-up row types: the starting eleven and the bench. */
const STARTING = 11
const BENCH = 12

function player (row: LineupInput): LineupPlayer {
  return {
    player_id: row.player_id ?? null,
    name: row.player_name ?? null,
    number: row.jersey_number ?? null,
    position: POSITIONS[row.position_id ?? 0] ?? null,
    formation_position: row.type_id === STARTING ? row.formation_position ?? null : null,
    formation_field: row.type_id === STARTING ? row.formation_field ?? null : null
  }
}

const bySlot = (a: LineupPlayer, b: LineupPlayer): number =>
  (a.formation_position ?? Infinity) - (b.formation_position ?? Infinity) || (a.number ?? Infinity) - (b.number ?? Infinity) || (a.player_id ?? 0) - (b.player_id ?? 0)
const byNumber = (a: LineupPlayer, b: LineupPlayer): number => (a.number ?? Infinity) - (b.number ?? Infinity) || (a.player_id ?? 0) - (b.player_id ?? 0)

/**
 * Both teams' line-ups: the starting eleven by formation position, the bench by number, each team's
 * formation. Null when the upstream gave neither line-ups nor formations (not published yet). A row is
 * placed by its team; rows of neither team, and of types other than starting and bench, are dropped.
 */
export function normalizeLineups (
  rows: readonly LineupInput[], formations: readonly FormationInput[], teams: { home: number, away: number }, sideOf: (participantId: number | null) => Side | null
): Lineups | null {
  if (rows.length === 0 && formations.length === 0) return null
  const team = (side: Side): TeamLineup => {
    const id = teams[side]
    const mine = rows.filter((r) => r.team_id === id)
    const formation = formations.find((f) => f.location === side || (!isSide(f.location) && sideOf(f.participant_id ?? null) === side))
    return {
      formation: formation?.formation ?? null,
      starting: mine.filter((r) => r.type_id === STARTING).map(player).sort(bySlot),
      bench: mine.filter((r) => r.type_id === BENCH).map(player).sort(byNumber)
    }
  }
  return { home: team('home'), away: team('away') }
}
