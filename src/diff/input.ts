/**
 * What the normalizer reads from an upstream fixture. Both the contract's `FixtureWithIncludes`
 * (built by the embedded provider) and the tolerant `UpstreamFixture` of `upstream/schemas.ts` (parsed
 * from the wire) are assignable to it, so diff/ depends on neither the provider nor zod.
 * Everything the normalizer can do without is optional or nullable.
 */

export interface ParticipantInput {
  id: number
  name?: string | null
  short_code?: string | null
  image_path?: string | null
  meta?: { location?: string | null } | null
}

export interface ScoreInput {
  id?: number
  type_id: number
  participant_id?: number | null
  score: { goals: number, participant?: string | null }
  description?: string | null
}

export interface PeriodInput {
  type_id?: number | null
  description?: string | null
  ticking?: boolean | null
  minutes?: number | null
  sort_order?: number | null
  seconds?: number | null
  counts_from?: number | null
  period_length?: number | null
  time_added?: number | null
}

export interface EventInput {
  id: number
  type_id: number
  participant_id?: number | null
  section?: string | null
  player_id?: number | null
  related_player_id?: number | null
  player_name?: string | null
  related_player_name?: string | null
  result?: string | null
  info?: string | null
  addition?: string | null
  /** Null only when upstream sent something else (the parser's fallback). */
  minute: number | null
  extra_minute?: number | null
  sort_order?: number | null
  /** The nested `events.type` include, when requested. */
  type?: { developer_name?: string | null } | null
}

export interface StateInput {
  id: number
  state?: string | null
  name?: string | null
  developer_name?: string | null
}

/** A row of the `statistics` include. */
export interface StatisticInput {
  type_id: number
  participant_id?: number | null
  location?: string | null
  data?: { value?: unknown } | null
}

/** A row of the `lineups` include: one player. */
export interface LineupInput {
  player_id?: number | null
  team_id?: number | null
  position_id?: number | null
  /** 11: the starting eleven; 12: the bench. */
  type_id?: number | null
  formation_position?: number | null
  formation_field?: string | null
  player_name?: string | null
  jersey_number?: number | null
}

/** A row of the `formations` include: one team's formation. */
export interface FormationInput {
  participant_id?: number | null
  formation?: string | null
  location?: string | null
}

export interface FixtureInput {
  id: number
  league_id: number
  season_id: number | null
  stage_id: number | null
  round_id?: number | null
  state_id: number
  name?: string | null
  starting_at?: string | null
  starting_at_timestamp?: number | null
  result_info?: string | null
  length?: number | null
  /** Legacy (early-2023 bodies): the score before the `scores` include, used only without it. */
  home_score?: number | null
  away_score?: number | null
  participants?: ParticipantInput[] | null
  scores?: ScoreInput[] | null
  events?: EventInput[] | null
  periods?: PeriodInput[] | null
  detailedperiods?: PeriodInput[] | null
  currentperiod?: PeriodInput | null
  state?: StateInput | null
  statistics?: StatisticInput[] | null
  lineups?: LineupInput[] | null
  formations?: FormationInput[] | null
}
