/**
 * touchline's own live model (DESIGN §3 and §4): the normalized fixture every client sees, and the typed
 * changes the differ derives from two successive versions of it. Pure types, imported by diff, store, hub.
 */
import type { Phase } from '../contract/states.ts'

export type Side = 'home' | 'away'

export interface LiveTeam {
  id: number
  name: string
  short_code: string | null
  image_path: string | null
  /**
   * CURRENT goals (regular time plus extra time; the shoot-out is in `scores.penalty_shootout`). Null when
   * upstream sent no `scores` include and no legacy score: unknown, not 0.
   */
  score: number | null
}

export interface LiveEvent {
  id: number
  /** Upstream event type id (14 goal, 15 own goal, 16 penalty, 19 yellow, ...). */
  type_id: number
  /** Developer name of the type, e.g. GOAL, YELLOWCARD, PENALTY_SHOOTOUT_GOAL. */
  type: string
  /** Null when upstream sent no usable minute. */
  minute: number | null
  extra_minute: number | null
  side: Side | null
  team_id: number | null
  player: { id: number | null, name: string | null } | null
  related_player: { id: number | null, name: string | null } | null
  /** Score after the event, e.g. "1-0". */
  result: string | null
  info: string | null
  addition: string | null
  sort_order: number | null
}

export interface LiveState {
  id: number
  code: string
  name: string
  phase: Phase
}

/** Scores by type, per side. Keys are the upstream descriptions lower-cased: current, 1st_half, 2nd_half, penalty_shootout... */
export type LiveScores = Record<string, { home: number, away: number }>

export interface LivePeriod {
  type_id: number
  description: string
  started: number | null
  ended: number | null
  ticking: boolean
  minutes: number | null
  seconds: number | null
  time_added: number | null
}

/**
 * What a client needs to run the match clock itself (issue 17): the minute shown at time t is
 * `counts_from + floor((t - period_started_at) * rate / 60 s)` while `ticking`, else the fixture's `minute`
 * (src/live/clock.ts). The gateway sends a clock change only when that would show something else.
 */
export interface MatchClock {
  /** When the running period's clock read `counts_from`:00, ISO 8601: its start as the clock runs. */
  period_started_at: string
  /** Minute the period counts from: 0, 45, 90, 105. */
  counts_from: number
  /** Regulation minutes of the period (45, 15), null when unknown. */
  length: number | null
  /** Added time announced for the period, in minutes; null before it is. */
  added: number | null
  /** Match seconds per real second: 1, except against a simulator running faster (TOUCHLINE_SIM_SPEED). */
  rate: number
  /** Whether the clock runs now (false while play is stopped). */
  ticking: boolean
}

export interface LiveFixture {
  id: number
  league_id: number
  season_id: number | null
  stage_id: number | null
  round_id: number | null
  name: string | null
  /** ISO 8601 UTC. */
  starting_at: string | null
  state: LiveState
  /** Match clock minute, or null when the clock is not running or unknown. */
  minute: number | null
  /** Current period description (e.g. "1st-half"), or null. */
  period: string | null
  /**
   * The running clock, null when no period runs (before kick-off, breaks, full time). Absent in fixtures
   * stored before the gateway knew it; clients then show `minute`.
   */
  clock?: MatchClock | null
  home: LiveTeam
  away: LiveTeam
  scores: LiveScores
  events: LiveEvent[]
  result_info: string | null
  length: number | null
  /** ISO 8601 time this fixture last changed in touchline. */
  updated_at: string
  /** Monotonic per fixture, +1 per applied change set. */
  version: number
}

export type ChangeKind =
  | 'fixture_added' | 'state_changed' | 'score_changed' | 'event_added' | 'event_updated' | 'event_removed'
  | 'period_changed' | 'clock' | 'fixture_updated' | 'fixture_removed'

export type Change =
  | { kind: 'fixture_added' }
  | { kind: 'state_changed', state: LiveState, previous: LiveState }
  | { kind: 'score_changed', home: number | null, away: number | null, previous: { home: number | null, away: number | null }, score_type?: string }
  | { kind: 'event_added', event: LiveEvent }
  | { kind: 'event_updated', event: LiveEvent, previous: LiveEvent }
  /** An event that disappeared upstream, typically a goal cancelled by VAR. */
  | { kind: 'event_removed', event: LiveEvent }
  | { kind: 'period_changed', period: string | null, previous: string | null }
  /** The minute moved, or the clock itself changed (`clock`, present then): a correction clients apply. */
  | { kind: 'clock', minute: number | null, previous: number | null, clock?: MatchClock | null }
  | { kind: 'fixture_updated', fields: Record<string, { value: unknown, previous: unknown }> }
  | { kind: 'fixture_removed' }

/** One entry of the event log: every change of one fixture detected in one poll, with the fixture after them. */
export interface ChangeRecord {
  /** Opaque cursor `<epoch>:<offset>` assigned by the store on append. */
  cursor: string
  fixture_id: number
  league_id: number
  /** ISO 8601 time the change was detected. */
  at: string
  changes: Change[]
  fixture: LiveFixture
}
