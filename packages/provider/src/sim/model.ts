/**
 * Types of the live match simulator. A `MatchScript` is the whole match laid out in *match seconds* from the
 * scheduled kick-off (0); it never depends on the real kick-off time, so the same script can be placed
 * anywhere on the real clock (see clock.ts). `materialize` turns a script and a clock into `FixtureLive`.
 */
import type { FixtureEvent, FixtureStatistic, HomeAway, Period, Score } from '@touchline/upstream-contract/football'

export interface SimPlayer {
  id: number
  name: string
  /** 24 goalkeeper, 25 defender, 26 midfielder, 27 attacker, when known (a keeper on the bench is not brought on for an outfield player). */
  position_id?: number
}

export interface SimTeam {
  id: number
  name: string
  short_code: string | null
  /** The matchday squad: the first 11 start (the goalkeeper first), the rest are on the bench. */
  players: readonly SimPlayer[]
  /** `meta.position` of the participant (league-table position), when known. */
  position?: number | null
}

export interface SimFixtureInput {
  id: number
  league_id: number
  /** Cup ties level after 90' go to extra time and penalties; league matches end at FT. */
  kind: 'league' | 'cup'
  /** Scheduled kick-off, unix seconds (real time). */
  kickoff: number
  home: SimTeam
  away: SimTeam
  /**
   * Team that must win, e.g. the team a knock-out bracket lets through (the dataset's `tieWinners`). The
   * match is redrawn from derived seeds until that team wins. @default unset: any outcome
   */
  winnerId?: number
}

/** Keys of the detailed periods, in playing order. */
export type PeriodKey = 'first' | 'second' | 'et1' | 'et2' | 'pens'

/** A stoppage of play (SUSPENDED or INTERRUPTED) inside a period, in match seconds. */
export interface Pause {
  from: number
  to: number
  /** SUSPENDED (11) or INTERRUPTED (18). */
  state_id: number
}

/** One detailed period as planned: when it is played and what it shows. */
export interface PeriodPlan {
  key: PeriodKey
  /** Detailed period id (events' `detailed_period_id`). */
  id: number
  /** Legacy period id (events' `period_id`): the single extra-time period for both ET halves, else `id`. */
  legacyId: number
  type_id: number
  description: string
  counts_from: number
  period_length: number
  sort_order: number
  has_timer: boolean
  /** Match seconds at which the period starts and ends. */
  start: number
  end: number
  /** Announced stoppage minutes, visible from `announceAt`; null for the shoot-out. */
  timeAdded: number | null
  announceAt: number
  pauses: readonly Pause[]
}

/** An event of the match: visible from `at`, and gone again from `cancelledAt` (a goal disallowed by VAR). */
export interface Happening {
  at: number
  cancelledAt?: number
  /** Side whose CURRENT score this event raises (own goals count for the other side), if any. */
  credit?: HomeAway
  /** Period the event belongs to, which picks the score rows it counts in. */
  bucket: PeriodKey
  event: FixtureEvent
}

/** A statistic value taking effect at `at` (absolute value, not a delta). */
export interface StatStep {
  at: number
  type_id: number
  side: HomeAway
  value: number
}

export interface ScoreRowPlan {
  id: number
  type_id: number
  side: HomeAway
  participant_id: number
  /** Match seconds from which the row exists (the start of the period it belongs to). */
  appearsAt: number
}

export interface TeamRef {
  id: number
  name: string
  position: number | null
}

export interface StateStep {
  at: number
  state_id: number
}

export interface ValueStep {
  at: number
  value: number
}

export interface MatchScript {
  fixtureId: number
  leagueId: number
  kind: 'league' | 'cup'
  home: TeamRef
  away: TeamRef
  /** State changes in time order; the first is NS at -Infinity. */
  states: readonly StateStep[]
  periods: readonly PeriodPlan[]
  happenings: readonly Happening[]
  stats: readonly StatStep[]
  scoreRows: readonly ScoreRowPlan[]
  /** `length` values in time order; the first at -Infinity. */
  lengths: readonly ValueStep[]
  /** Final outcome, visible from `result.at`. `winner` null means a draw or no result (abandoned, postponed). */
  result: { at: number, result_info: string | null, winner: HomeAway | null, decided: boolean }
  /** Match seconds at which the final state is reached (negative for a postponement before kick-off). */
  endAt: number
}

export interface ParticipantMeta {
  winner: boolean | null
  position: number | null
}

/** What the simulator shows of a fixture at one instant: live base fields and the live includes. */
export interface FixtureLive {
  state_id: number
  result_info: string | null
  length: number
  scores: Score[]
  events: FixtureEvent[]
  /** The `periods` include as the real API sends it: extra time is one legacy period (type 3). */
  periods: Period[]
  /** The `detailedPeriods` include (`detailedperiods` key): extra time split into its halves (5314, 39). */
  detailedperiods: Period[]
  /** The ticking period of `periods`, or null (before kick-off, in breaks, while suspended, after the end). */
  currentperiod: Period | null
  statistics: FixtureStatistic[]
  participantsMeta: { home: ParticipantMeta, away: ParticipantMeta }
}
