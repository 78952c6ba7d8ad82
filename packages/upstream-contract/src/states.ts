/**
 * Fixture states of the real upstream (docs/upstream.md, "Fixture states"). There is no id 24.
 * `phase` is touchline's classification, used by LiveFixture (docs/protocol.md).
 */
import type { Phase } from '@touchline/core'

export interface StateDef {
  id: number
  state: string
  name: string
  short_name: string
  developer_name: string
  phase: Phase
}

const row = (id: number, state: string, name: string, shortName: string, phase: Phase): StateDef =>
  ({ id, state, name, short_name: shortName, developer_name: state, phase })

export const STATES: readonly StateDef[] = [
  row(1, 'NS', 'Not Started', 'NS', 'scheduled'),
  row(2, 'INPLAY_1ST_HALF', '1st Half', '1st', 'live'),
  row(3, 'HT', 'Half Time', 'HT', 'break'),
  row(4, 'BREAK', 'Regular Time Finished', 'BRK', 'break'),
  row(5, 'FT', 'Full Time', 'FT', 'finished'),
  row(6, 'INPLAY_ET', 'Extra Time', 'et', 'live'),
  row(7, 'AET', 'After Extra Time', 'AET', 'finished'),
  row(8, 'FT_PEN', 'After Penalties', 'FTP', 'finished'),
  row(9, 'INPLAY_PENALTIES', 'Penalties', 'PEN', 'live'),
  row(10, 'POSTPONED', 'Postponed', 'POST', 'postponed'),
  row(11, 'SUSPENDED', 'Suspended', 'SUSP', 'suspended'),
  row(12, 'CANCELLED', 'Cancelled', 'CANC', 'cancelled'),
  row(13, 'TBA', 'To Be Announced', 'TBA', 'scheduled'),
  row(14, 'WO', 'Walk Over', 'WO', 'finished'),
  row(15, 'ABANDONED', 'Abandoned', 'ABAN', 'cancelled'),
  row(16, 'DELAYED', 'Delayed', 'DELA', 'scheduled'),
  row(17, 'AWARDED', 'Awarded', 'AWAR', 'finished'),
  row(18, 'INTERRUPTED', 'Interrupted', 'INT', 'suspended'),
  row(19, 'AWAITING_UPDATES', 'Awaiting Updates', 'AU', 'unknown'),
  row(20, 'DELETED', 'Deleted', 'DEL', 'cancelled'),
  row(21, 'EXTRA_TIME_BREAK', 'Extra Time - Break', 'ETB', 'break'),
  row(22, 'INPLAY_2ND_HALF', '2nd Half', '2nd', 'live'),
  row(23, 'INPLAY_ET_2ND_HALF', 'ET - 2nd Half', '2et', 'live'),
  row(25, 'PEN_BREAK', 'Penalties - Break', 'PENB', 'break'),
  row(26, 'PENDING', 'Pending', 'PEN', 'unknown')
]

export const STATE_BY_ID: ReadonlyMap<number, StateDef> = new Map(STATES.map((s) => [s.id, s]))
export const STATE_BY_CODE: ReadonlyMap<string, StateDef> = new Map(STATES.map((s) => [s.state, s]))

/** Named ids, so code reads `State.HT` rather than `3`. */
export const State = {
  NS: 1,
  INPLAY_1ST_HALF: 2,
  HT: 3,
  BREAK: 4,
  FT: 5,
  INPLAY_ET: 6,
  AET: 7,
  FT_PEN: 8,
  INPLAY_PENALTIES: 9,
  POSTPONED: 10,
  SUSPENDED: 11,
  CANCELLED: 12,
  TBA: 13,
  WO: 14,
  ABANDONED: 15,
  DELAYED: 16,
  AWARDED: 17,
  INTERRUPTED: 18,
  AWAITING_UPDATES: 19,
  DELETED: 20,
  EXTRA_TIME_BREAK: 21,
  INPLAY_2ND_HALF: 22,
  INPLAY_ET_2ND_HALF: 23,
  PEN_BREAK: 25,
  PENDING: 26
} as const

/** States whose fixtures are in play (the real API's 2023 `is_live` flag). */
export const LIVE_STATE_IDS: ReadonlySet<number> = new Set([2, 3, 4, 6, 9, 11, 18, 21, 22, 23, 25, 26])

/**
 * Phases of a match in play: what the scoreboard's Live tab lists and counts (IN_PLAY in
 * src/ui/public/lib/feed.js, which says the same), and what `/v1/status` counts as `live_fixtures` among
 * the fixtures of the live set (which also holds kick-offs about to come and results just in).
 */
export const IN_PLAY_PHASES: ReadonlySet<Phase> = new Set<Phase>(['live', 'break', 'suspended', 'unknown'])
