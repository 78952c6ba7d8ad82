/**
 * Wire shapes of the football data API, as the real upstream sends them (docs/upstream.md).
 * Shared by the embedded provider (which produces them), the simulator, the upstream client and the differ.
 * These are plain TypeScript types; runtime validation of upstream payloads lives in `src/upstream/schemas.ts`.
 */

export type HomeAway = 'home' | 'away'

/** Fixture base fields. */
export interface FixtureBase {
  id: number
  sport_id: number
  league_id: number
  season_id: number
  stage_id: number
  group_id: number | null
  aggregate_id: number | null
  round_id: number | null
  state_id: number
  venue_id: number | null
  name: string | null
  /** `YYYY-MM-DD HH:MM:SS` in the requested timezone, no offset suffix. */
  starting_at: string | null
  result_info: string | null
  leg: string
  details: string | null
  length: number | null
  placeholder: boolean
  has_odds: boolean
  has_premium_odds: boolean
  starting_at_timestamp: number
}

/** A score row: one per team per score type (docs/upstream.md, "Event types"). */
export interface Score {
  id: number
  fixture_id: number
  type_id: number
  participant_id: number
  score: { goals: number, participant: HomeAway }
  description: string
}

/** A fixture event (docs/upstream.md, "Event types"). */
export interface FixtureEvent {
  id: number
  fixture_id: number
  period_id: number
  detailed_period_id?: number | null
  participant_id: number
  type_id: number
  sub_type_id: number | null
  section: string
  player_id: number | null
  related_player_id: number | null
  player_name: string | null
  related_player_name: string | null
  result: string | null
  info: string | null
  addition: string | null
  minute: number
  extra_minute: number | null
  injured: boolean | null
  on_bench: boolean
  coach_id: number | null
  rescinded?: boolean | null
  sort_order?: number
}

/** A period (the `periods` include). */
export interface Period {
  id: number
  fixture_id: number
  type_id: number
  started: number | null
  ended: number | null
  counts_from: number
  ticking: boolean
  sort_order: number
  description: string
  time_added: number | null
  period_length: number
  minutes: number | null
  seconds: number | null
  has_timer: boolean
}

/** The `state` include (docs/upstream.md, "Fixture states"). */
interface StateRecord {
  id: number
  state: string
  name: string
  short_name: string
  developer_name: string
}

/** A team record (the `participants` include, and the teams endpoints). */
export interface Team {
  id: number
  sport_id: number
  country_id: number
  venue_id: number | null
  gender: string
  name: string
  short_code: string | null
  image_path: string
  founded: number | null
  /** `domestic` for clubs, `national` for national teams. */
  type: string
  placeholder: boolean
  last_played_at: string | null
}

/** A team as returned by the `participants` include: the team with the fixture pivot `meta`. */
interface Participant extends Team {
  meta: { location: HomeAway, winner: boolean | null, position: number | null }
}

/** A fixture statistic row (the `statistics` include). */
export interface FixtureStatistic {
  id: number
  fixture_id: number
  type_id: number
  participant_id: number
  data: { value: number }
  location: HomeAway
}

/** The live-relevant part of a fixture: base fields plus the includes the poller asks for. */
export interface FixtureWithIncludes extends FixtureBase {
  participants?: Participant[]
  scores?: Score[]
  events?: FixtureEvent[]
  periods?: Period[]
  currentperiod?: Period | null
  state?: StateRecord
  statistics?: FixtureStatistic[]
  [include: string]: unknown
}
