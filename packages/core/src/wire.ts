/**
 * The wire model of the touchline live protocol: the live fixture, the typed changes, the frames both ways.
 * Generated from the gateway's src/wire-model/model.ts by `npm run generate`: do not edit by hand.
 */
/**
 * Opaque to the server, echoed in the reply; strings are the documented form.
 */
export type Ref = string | number
/**
 * One typed change; `kind` tells which.
 */
export type Change =
  | FixtureScheduled
  | FixtureAdded
  | StateChanged
  | ScoreChanged
  | EventAdded
  | EventUpdated
  | EventRemoved
  | PeriodChanged
  | ClockChanged
  | StatisticsChanged
  | LineupsChanged
  | FixtureUpdated
  | FixtureRemoved
/**
 * touchline's classification of the upstream state.
 */
export type Phase = 'scheduled' | 'live' | 'break' | 'finished' | 'postponed' | 'cancelled' | 'suspended' | 'unknown'
export type Side = 'home' | 'away'
/**
 * One change of one fixture, in the connection's format. Sent over WebSocket, as the SSE `change` event, and as the items of `/v1/changes`.
 */
export type ChangeFrame = FullChangeFrame | DeltaChangeFrame
/**
 * Opaque cursor `<epoch>:<offset>`; resume from it with `since`.
 */
export type Cursor = string
/**
 * One change of a `delta` frame: the new values only, no `previous` (but on `score_changed`). A frame whose changes give no `minute` sets the minute the fixture's clock shows at the frame's `at`. Events leave out the details that are null.
 */
export type DeltaChange =
  | FixtureScheduled
  | FixtureAdded
  | DeltaStateChanged
  | DeltaScoreChanged
  | DeltaEventAdded
  | DeltaEventUpdated
  | DeltaEventRemoved
  | DeltaPeriodChanged
  | DeltaClockChanged
  | DeltaStatisticsChanged
  | DeltaLineupsChanged
  | DeltaFixtureUpdated
  | FixtureRemoved
export type Day = string
/**
 * One typed change of a fixture's odds; `kind` tells which. The same in both formats.
 */
export type OddsChange =
  MarketRemoved | MarketAdded | MarketSuspended | MarketReopened | OddsChanged | MarketSettled | OddsStale
/**
 * `unavailable`: the store cannot be read; the subscription stays, and `replay` (recovered:false) and a fresh snapshot follow once it is back. `internal`: the snapshot or replay failed; subscribe again with `since`. `unauthorized`: a token refused (`auth`), with the reason in one word first in the message (`expired`, `invalid`, ...).
 */
export type ErrorCode =
  'invalid_message' | 'unknown_op' | 'forbidden' | 'limit_exceeded' | 'internal' | 'unavailable' | 'unauthorized'
/**
 * @maxItems 1000
 */
export type Ids = number[]
/**
 * Change frame format: `full` frames carry the fixture after the change; `delta` frames carry its `version` and the typed changes with the values they set. Snapshots and replays are full in both. Refused together with `kinds`: a delta needs every change of its fixture.
 */
export type Format = 'full' | 'delta'
/**
 * The odds changes of one fixture, for subscriptions that take odds, in the connection's format.
 */
export type OddsFrame = FullOddsFrame | DeltaOddsFrame
export type TimeZone = string
/**
 * A kind of change a subscription may ask for: a match change kind, an odds change kind or `standings_changed`.
 */
export type SubscribedKind =
  | 'fixture_scheduled'
  | 'fixture_added'
  | 'state_changed'
  | 'score_changed'
  | 'event_added'
  | 'event_updated'
  | 'event_removed'
  | 'period_changed'
  | 'clock'
  | 'statistics_changed'
  | 'lineups_changed'
  | 'fixture_updated'
  | 'fixture_removed'
  | 'market_removed'
  | 'market_added'
  | 'market_suspended'
  | 'market_reopened'
  | 'odds_changed'
  | 'market_settled'
  | 'odds_stale'
  | 'standings_changed'

/**
 * A signed connection token. As the first frame of a connection opened with `/v1/live?auth=frame` and no credential, so that a browser keeps the token out of the address: the connection is the fan's once `authorized` answers, and frames sent behind it wait for it. On a connection opened with a token: a new token of the same key and fan, before `exp`, to keep the connection (its narrowing, if changed, applies at once).
 */
export interface AuthFrame {
  op: 'auth'
  ref?: Ref
  /**
   * A signed connection token (docs/tokens.md), a JWT.
   */
  token: string
}
/**
 * Reply to `auth`: the token is accepted. After a first-frame `auth`, `hello` follows.
 */
export interface AuthorizedFrame {
  type: 'authorized'
  ref?: Ref
  /**
   * The token's `sub`.
   */
  fan: string
  /**
   * When the token expires: send a new one (`auth`) before then. The connection is closed with 4401 once it is past by the key's `expiry_grace_s`.
   */
  expires_at: string
}
/**
 * touchline holds a fixture it did not: found on a read of its day or among the upstream's latest changes, outside the live set (`fixture_added` says when it enters it).
 */
export interface FixtureScheduled {
  kind: 'fixture_scheduled'
}
/**
 * The fixture entered the live set.
 */
export interface FixtureAdded {
  kind: 'fixture_added'
}
export interface StateChanged {
  kind: 'state_changed'
  state: LiveState
  previous: LiveState
}
export interface LiveState {
  id: number
  code: string
  name: string
  phase: Phase
}
export interface ScoreChanged {
  kind: 'score_changed'
  home: number | null
  away: number | null
  previous: {
    home: number | null
    away: number | null
  }
  /**
   * Another count than the current score, e.g. `penalty_shootout`; absent for the current score.
   */
  score_type?: string
  /**
   * The goal events added with this change, in match order (the scorer, the minute, `PENALTY` or `OWNGOAL` in `type`): present when the score went up with its goals. A goal upstream lists in a later poll than its score comes as `event_added`.
   *
   * @minItems 1
   */
  goals?: LiveEvent[]
}
export interface LiveEvent {
  id: number
  /**
   * Upstream event type id (14 goal, 15 own goal, 16 penalty, 19 yellow card, ...).
   */
  type_id: number
  /**
   * Developer name of the type: GOAL, OWNGOAL, PENALTY, YELLOWCARD, REDCARD, SUBSTITUTION, ...
   */
  type: string
  /**
   * Null when upstream sent no usable minute. Shoot-out kicks carry the kick number.
   */
  minute: number | null
  extra_minute: number | null
  side: Side | null
  team_id: number | null
  player: Person | null
  related_player: Person | null
  /**
   * Score after the event, e.g. "1-0".
   */
  result: string | null
  info: string | null
  addition: string | null
  sort_order: number | null
}
/**
 * A player as events name them; either part may be unknown.
 */
export interface Person {
  id: number | null
  name: string | null
}
export interface EventAdded {
  kind: 'event_added'
  event: LiveEvent
}
export interface EventUpdated {
  kind: 'event_updated'
  event: LiveEvent
  previous: LiveEvent
}
/**
 * An event that disappeared upstream, typically a goal cancelled by VAR.
 */
export interface EventRemoved {
  kind: 'event_removed'
  event: LiveEvent
}
export interface PeriodChanged {
  kind: 'period_changed'
  period: string | null
  previous: string | null
}
/**
 * The minute moved in a way the running clock does not show, or the clock itself changed.
 */
export interface ClockChanged {
  kind: 'clock'
  minute: number | null
  previous: number | null
  /**
   * Only when the running clock changed (a correction: added time, play stopped or restarted, drift).
   */
  clock?: MatchClock | null
}
/**
 * The match clock, run by the client: the minute at time t is `counts_from + floor((t - period_started_at) * rate / 60 s)` while `ticking`, else the fixture's `minute`. Ticks this clock shows anyway are not sent; a `clock` change carrying `clock` is a correction.
 */
export interface MatchClock {
  /**
   * When the running period's clock read `counts_from`:00.
   */
  period_started_at: string
  /**
   * Minute the period counts from: 0, 45, 90, 105.
   */
  counts_from: number
  /**
   * Regulation minutes of the period (45, 15); null when unknown.
   */
  length: number | null
  /**
   * Added time announced for the period, in minutes; null before it is.
   */
  added: number | null
  /**
   * Match seconds per real second: 1 against the real API, the simulator's speed against the embedded provider.
   */
  rate: number
  /**
   * Whether the clock runs now (false while play is stopped).
   */
  ticking: boolean
}
/**
 * Match statistics moved: only the types that did.
 */
export interface StatisticsChanged {
  kind: 'statistics_changed'
  /**
   * The types that moved, with their new values (both sides).
   */
  statistics: Statistics
  /**
   * The same types before (`{home: null, away: null}` for a type that is new).
   */
  previous: Statistics
}
/**
 * Match statistics by type, both sides, keyed by name: `corners`, `shots_total`, `shots_on_target`, `shots_off_target`, `attacks`, `dangerous_attacks`, `possession` (%), `goals`, `fouls`, `saves`, `yellow_cards`, `red_cards`, `passes`, `accurate_passes`, `pass_accuracy` (%), `expected_goals` (decimal, where the plan has it); a type touchline does not name is `type_<id>`. Empty before the upstream gives any.
 */
export interface Statistics {
  [k: string]: StatPair
}
/**
 * One statistic of both sides; null for a side the upstream gave no value.
 */
export interface StatPair {
  home: number | null
  away: number | null
}
/**
 * The line-ups were published (`previous` null) or changed: the whole new value.
 */
export interface LineupsChanged {
  kind: 'lineups_changed'
  lineups: Lineups | null
  previous: Lineups | null
}
/**
 * Both teams' line-ups and formations, once published (about an hour before kick-off in covered competitions; some never are).
 */
export interface Lineups {
  home: TeamLineup
  away: TeamLineup
}
export interface TeamLineup {
  formation: string | null
  /**
   * The starting eleven, by formation position.
   */
  starting: LineupPlayer[]
  bench: LineupPlayer[]
}
export interface LineupPlayer {
  player_id: number | null
  name: string | null
  /**
   * Jersey number.
   */
  number: number | null
  position: ('goalkeeper' | 'defender' | 'midfielder' | 'attacker') | null
  /**
   * Slot in the formation: 1 the goalkeeper, then defence right to left, midfield, attack; null on the bench.
   */
  formation_position: number | null
  /**
   * The upstream's `row:column` of the slot (e.g. `2:4`), when it gives one.
   */
  formation_field: string | null
}
/**
 * Every other top-level field that changed (name, kick-off, team details, other score types...), each with its new and previous value.
 */
export interface FixtureUpdated {
  kind: 'fixture_updated'
  fields: {
    [k: string]: {
      value: unknown
      previous: unknown
    }
  }
}
/**
 * The fixture left the live set (usually some minutes after full time). It stays in its day.
 */
export interface FixtureRemoved {
  kind: 'fixture_removed'
}
/**
 * A change in `full` format: the changes of one fixture, with the fixture after them.
 */
export interface FullChangeFrame {
  type: 'change'
  cursor: Cursor
  fixture_id: number
  league_id: number
  /**
   * When touchline detected the change.
   */
  at: string
  /**
   * Whether the fixture is in the live set after this change (false for a fixture of a day outside it, and on `fixture_removed`). A change outside the live set goes only to those following its day or the fixture itself.
   */
  live: boolean
  /**
   * Every change of the fixture detected in one poll (only the kinds asked for, with `kinds`).
   *
   * @minItems 1
   */
  changes: Change[]
  fixture: LiveFixture
}
/**
 * touchline's normalized fixture, the same from every upstream, live or not (a fixture of a day: scheduled, finished, postponed).
 */
export interface LiveFixture {
  id: number
  league_id: number
  season_id: number | null
  stage_id: number | null
  round_id: number | null
  name: string | null
  /**
   * Kick-off, ISO 8601 UTC.
   */
  starting_at: string | null
  state: LiveState
  /**
   * Match clock minute at the fixture's last change; null when no clock runs or it is unknown. Clients run the clock from `clock`.
   */
  minute: number | null
  period: string | null
  /**
   * The running clock of the period; null when there is none (before kick-off, breaks, the shoot-out).
   */
  clock?: MatchClock | null
  home: LiveTeam
  away: LiveTeam
  /**
   * Scores by type, keyed by the upstream description lower-cased: current, 1st_half, 2nd_half, penalty_shootout, ...
   */
  scores: {
    [k: string]: Score
  }
  /**
   * Match events in match order; shoot-out kicks last.
   */
  events: LiveEvent[]
  statistics: Statistics
  /**
   * Null until the line-ups are published.
   */
  lineups: Lineups | null
  result_info: string | null
  length: number | null
  /**
   * When this fixture last changed in touchline.
   */
  updated_at: string
  /**
   * Monotonic per fixture, +1 per applied change set.
   */
  version: number
}
export interface LiveTeam {
  id: number
  name: string
  short_code: string | null
  image_path: string | null
  /**
   * Current goals (regular and extra time; the shoot-out is in `scores.penalty_shootout`). Null when upstream sent no score: unknown, not 0.
   */
  score: number | null
}
export interface Score {
  home: number
  away: number
}
/**
 * A change in `delta` format: no `fixture`; applying `changes` in order to the fixture at `version - 1` gives the stored fixture (`updated_at` becomes `at`). Without the previous version (a fixture's first frame, the first of a `/v1/changes` page) the frame is full.
 */
export interface DeltaChangeFrame {
  type: 'change'
  cursor: Cursor
  fixture_id: number
  league_id: number
  /**
   * When touchline detected the change.
   */
  at: string
  /**
   * The fixture's version after the change. Apply the frame to the fixture held at `version - 1`; a jump past it means a lost frame: subscribe again with `since` the cursor of the last frame applied for that fixture.
   */
  version: number
  /**
   * @minItems 1
   */
  changes: DeltaChange[]
}
export interface DeltaStateChanged {
  kind: 'state_changed'
  state: LiveState
}
export interface DeltaScoreChanged {
  kind: 'score_changed'
  home: number | null
  away: number | null
  /**
   * Absent on score types the delta sets one by one.
   */
  previous?: {
    home: number | null
    away: number | null
  }
  /**
   * Another count than the current score, e.g. `penalty_shootout`; absent for the current score.
   */
  score_type?: string
  /**
   * The goal events added with this change, in match order (the scorer, the minute, `PENALTY` or `OWNGOAL` in `type`): present when the score went up with its goals. A goal upstream lists in a later poll than its score comes as `event_added`. In a delta only for goals the frame does not add: see `goal_ids`.
   *
   * @minItems 1
   */
  goals?: DeltaEvent[]
  /**
   * Instead of `goals` when the frame adds them: the ids of the events of its `event_added` changes that are this change's goals, in match order (the client library hands them out as `goals`).
   *
   * @minItems 1
   */
  goal_ids?: number[]
}
/**
 * An event as a delta carries it: the details that are null (extra_minute, related_player, result, info, addition) left out.
 */
export interface DeltaEvent {
  id: number
  /**
   * Upstream event type id (14 goal, 15 own goal, 16 penalty, 19 yellow card, ...).
   */
  type_id: number
  /**
   * Developer name of the type: GOAL, OWNGOAL, PENALTY, YELLOWCARD, REDCARD, SUBSTITUTION, ...
   */
  type: string
  /**
   * Null when upstream sent no usable minute. Shoot-out kicks carry the kick number.
   */
  minute: number | null
  extra_minute?: number | null
  side: Side | null
  team_id: number | null
  player: Person | null
  related_player?: Person | null
  /**
   * Score after the event, e.g. "1-0".
   */
  result?: string | null
  info?: string | null
  addition?: string | null
  sort_order: number | null
}
export interface DeltaEventAdded {
  kind: 'event_added'
  event: DeltaEvent
  /**
   * Only when the event does not go last: its position in `events` as the list is when this change is applied (else it is appended).
   */
  index?: number
}
export interface DeltaEventUpdated {
  kind: 'event_updated'
  event: DeltaEvent
}
export interface DeltaEventRemoved {
  kind: 'event_removed'
  event: DeltaEvent
}
export interface DeltaPeriodChanged {
  kind: 'period_changed'
  period: string | null
}
export interface DeltaClockChanged {
  kind: 'clock'
  /**
   * Absent: the minute the clock shows at the frame's `at`.
   */
  minute?: number | null
  /**
   * Only when the running clock changed (a correction: added time, play stopped or restarted, drift).
   */
  clock?: MatchClock | null
}
export interface DeltaStatisticsChanged {
  kind: 'statistics_changed'
  /**
   * The types that moved, with their new values (both sides).
   */
  statistics: Statistics
}
export interface DeltaLineupsChanged {
  kind: 'lineups_changed'
  lineups: Lineups | null
}
/**
 * Whole new values, for every top-level field the other changes leave different.
 */
export interface DeltaFixtureUpdated {
  kind: 'fixture_updated'
  fields: {
    [k: string]: {
      value: unknown
    }
  }
}
/**
 * Odds changes in `delta` format: no image; applying `changes` in order to the image at `version - 1` gives the stored image (`updated_at` becomes `at`).
 */
export interface DeltaOddsFrame {
  type: 'odds'
  cursor: string
  fixture_id: number
  league_id: number
  /**
   * When touchline detected the change.
   */
  at: string
  /**
   * The odds image's version after the change: apply to the image held at `version - 1` (or `from_version`); any other jump means a lost frame.
   */
  version: number
  /**
   * Present on a frame that conflates several change sets (`conflate_ms`): the version its changes apply to, instead of `version - 1`.
   */
  from_version?: number
  /**
   * @minItems 1
   */
  changes: OddsChange[]
}
/**
 * A market the upstream no longer offers for the fixture.
 */
export interface MarketRemoved {
  kind: 'market_removed'
  bookmaker_id: number
  market_id: number
  line: string | null
}
/**
 * A market new to the fixture, or one whose selections changed, whole (it replaces the one held).
 */
export interface MarketAdded {
  kind: 'market_added'
  market: OddsMarket
}
export interface OddsMarket {
  bookmaker_id: number
  /**
   * The bookmaker's name, when known.
   */
  bookmaker: string | null
  market_id: number
  /**
   * The market's name ("Fulltime Result", "Over/Under", ...), when known.
   */
  market: string | null
  /**
   * What tells apart the markets a bookmaker offers under one market id: the upstream's `total` of their rows (over/under "2.5" and "3.5"; the goal a next-goal market is about, "2"); null when the market has one.
   */
  line: string | null
  /**
   * `suspended`: no bets for now (a goal, a penalty, a VAR review); `stopped`: closed for good.
   */
  status: 'open' | 'suspended' | 'stopped'
  /**
   * In the upstream's order.
   */
  selections: OddsSelection[]
}
export interface OddsSelection {
  /**
   * The selection as the upstream labels it: "1", "X", "2", "Over", "Under", "Yes", "No", ...
   */
  label: string
  /**
   * The line of an over/under market ("2.5"), as the upstream writes it; else null.
   */
  total: string | null
  /**
   * The handicap of a handicap market, as the upstream writes it; else null.
   */
  handicap: string | null
  /**
   * A name for people, when the upstream gives one.
   */
  name: string | null
  /**
   * The decimal price exactly as the upstream sent it ("2.10"): never rounded.
   */
  price: string
  /**
   * `price` as a number, for arithmetic and sorting; `price` is the exact value.
   */
  decimal: number
  /**
   * Whether the selection won, once its market is settled; null before.
   */
  winning: boolean | null
}
/**
 * Every selection of the market suspended at once (a goal, a penalty, a VAR review): show it greyed, not gone.
 */
export interface MarketSuspended {
  kind: 'market_suspended'
  bookmaker_id: number
  market_id: number
  line: string | null
}
/**
 * The market open again; its new prices come as `odds_changed` in the same frame.
 */
export interface MarketReopened {
  kind: 'market_reopened'
  bookmaker_id: number
  market_id: number
  line: string | null
}
/**
 * One selection's price moved.
 */
export interface OddsChanged {
  kind: 'odds_changed'
  bookmaker_id: number
  market_id: number
  line: string | null
  selection: SelectionKey
  /**
   * The new price, as the upstream sent it.
   */
  price: string
  decimal: number
  /**
   * The price before; null for a selection new to the market.
   */
  previous: {
    price: string
    decimal: number
  } | null
  /**
   * Whether the price went up (longer odds) or down; null for a new selection.
   */
  direction: ('up' | 'down') | null
}
export interface SelectionKey {
  /**
   * The selection as the upstream labels it: "1", "X", "2", "Over", "Under", "Yes", "No", ...
   */
  label: string
  /**
   * The line of an over/under market ("2.5"), as the upstream writes it; else null.
   */
  total: string | null
  /**
   * The handicap of a handicap market, as the upstream writes it; else null.
   */
  handicap: string | null
}
/**
 * The market stopped for good (full time), with its winners when known.
 */
export interface MarketSettled {
  kind: 'market_settled'
  bookmaker_id: number
  market_id: number
  line: string | null
  /**
   * The winning selections; empty while the market is stopped and its result is not known.
   */
  winning: SelectionKey[]
}
/**
 * The odds went stale (not confirmed for 30 s while the match goes on), or were confirmed again.
 */
export interface OddsStale {
  kind: 'odds_stale'
  stale: boolean
  /**
   * When the upstream last confirmed the odds (listed them, changed or not).
   */
  confirmed_at: string | null
}
/**
 * A refused or failed operation; the connection stays up.
 */
export interface ErrorFrame {
  type: 'error'
  ref?: Ref
  code: ErrorCode
  message: string
  /**
   * With `forbidden`: the leagues outside the key's scope.
   */
  leagues?: Ids
  /**
   * With `forbidden`: fixtures the gateway knows to be of leagues outside the key's scope; after a keys reload, subscribed fixtures of leagues the key no longer covers.
   */
  fixtures?: Ids
  /**
   * With `forbidden`: teams known (from the live fixtures) to play only outside the key's leagues.
   */
  teams?: Ids
}
/**
 * A fixture's in-play odds as one image: every bookmaker's markets followed.
 */
export interface FixtureOdds {
  fixture_id: number
  league_id: number
  /**
   * The home team, for subscriptions by team.
   */
  home_id: number | null
  /**
   * The away team, for subscriptions by team.
   */
  away_id: number | null
  /**
   * By bookmaker id, then market id, then line (numerically where lines are numbers).
   */
  markets: OddsMarket[]
  /**
   * True when the upstream has not confirmed these odds for 30 s although the match goes on: do not trust the prices.
   */
  stale: boolean
  /**
   * When the odds last changed in touchline.
   */
  updated_at: string
  /**
   * Monotonic per fixture's odds, +1 per odds change set; apart from the fixture's own version.
   */
  version: number
}
/**
 * Odds changes in `full` format: with the fixture's odds image after them.
 */
export interface FullOddsFrame {
  type: 'odds'
  cursor: string
  fixture_id: number
  league_id: number
  /**
   * When touchline detected the change.
   */
  at: string
  /**
   * @minItems 1
   */
  changes: OddsChange[]
  odds: FixtureOdds
}
/**
 * First frame after the upgrade.
 */
export interface HelloFrame {
  type: 'hello'
  protocol: 1
  cursor: Cursor
  heartbeat_ms: number
}
/**
 * A league's live table: its current season, with the matches in play counted at their score.
 */
export interface LeagueStandings {
  league_id: number
  season_id: number | null
  /**
   * By stage, then group.
   */
  tables: StandingsTable[]
  /**
   * When the table last changed in touchline.
   */
  updated_at: string
  /**
   * Monotonic per league, +1 per change of its table.
   */
  version: number
}
export interface StandingsTable {
  stage_id: number | null
  /**
   * The group of a tournament's group stage; null for a league's one table.
   */
  group_id: number | null
  /**
   * By position.
   */
  rows: StandingsRow[]
}
/**
 * A team's row of a table. A figure the upstream did not give is null.
 */
export interface StandingsRow {
  team: StandingsTeam
  position: number
  points: number
  played: number | null
  won: number | null
  drawn: number | null
  lost: number | null
  goals_for: number | null
  goals_against: number | null
  goal_difference: number | null
  /**
   * How the team moved, as the upstream says: in a live table, against its place without the matches in play.
   */
  result: ('up' | 'down' | 'equal') | null
}
export interface StandingsTeam {
  id: number
  name: string | null
  short_code: string | null
  image_path: string | null
}
/**
 * Application-level ping, answered with pong.
 */
export interface PingFrame {
  op: 'ping'
  ref?: Ref
}
/**
 * Reply to ping.
 */
export interface PongFrame {
  type: 'pong'
  ref?: Ref
}
/**
 * Start of a replay from `since`.
 */
export interface ReplayFrame {
  type: 'replay'
  ref?: Ref
  /**
   * False: the cursor was unknown, expired, from another epoch, or past the replay cap (1000); a fresh snapshot follows.
   */
  recovered: boolean
  /**
   * Change frames that follow.
   */
  count: number
  /**
   * When recovered: the last log position examined. Once the `count` changes that follow have arrived, every change up to it was received or filtered out: resume from it.
   */
  cursor?: Cursor
}
/**
 * The current state of every matching live fixture; every change up to `cursor` is in it.
 */
export interface SnapshotFrame {
  type: 'snapshot'
  ref?: Ref
  cursor: Cursor
  fixtures: LiveFixture[]
  /**
   * With a subscription that takes odds: the odds image of every matching live fixture that has one (narrowed to its bookmakers and markets).
   */
  odds?: FixtureOdds[]
  /**
   * With a subscription that takes standings: the live table of every league followed that the gateway holds one of.
   */
  standings?: LeagueStandings[]
}
/**
 * The league's live table changed: a goal in a match in play, a match that started or ended.
 */
export interface StandingsChanged {
  kind: 'standings_changed'
  /**
   * Every row that changed, by table and position.
   *
   * @minItems 1
   */
  rows: StandingsMove[]
}
/**
 * A row that changed: its place, its points, or another figure (a goal scored).
 */
export interface StandingsMove {
  stage_id: number | null
  group_id: number | null
  team_id: number
  position: number
  points: number
  /**
   * Its place and points before; null for a row new to the table.
   */
  previous: {
    position: number
    points: number
  } | null
}
/**
 * A league's live table changed, for subscriptions that take standings: the rows that moved, and the whole table after them (in both formats).
 */
export interface StandingsFrame {
  type: 'standings'
  cursor: string
  league_id: number
  /**
   * When touchline detected the change.
   */
  at: string
  /**
   * @minItems 1
   */
  changes: StandingsChanged[]
  standings: LeagueStandings
}
/**
 * Adds to the connection's subscription, within the key's leagues. At most 100 leagues, fixtures and teams per connection (`limit_exceeded`). A subscribe naming kinds replaces the connection's kinds filter.
 */
export interface SubscribeFrame {
  op: 'subscribe'
  ref?: Ref
  /**
   * Days followed: every fixture whose kick-off falls in one of them (in `tz`), within the key's leagues, live or not: its snapshot, and every change of it from its scheduling to its end, before kick-off too (a kick-off moved, a postponement, line-ups published). At most 14 days.
   *
   * @maxItems 14
   */
  dates?: Day[]
  /**
   * The time zone of `dates` (UTC by default): a day runs from midnight to midnight there. The latest subscribe naming one sets it for every day followed.
   */
  tz?: TimeZone
  /**
   * League ids, or `"*"`: every league the key may see, including leagues that appear later.
   */
  leagues?: Ids | '*'
  fixtures?: Ids
  /**
   * Team ids: a change matches when either participant is followed.
   */
  teams?: Ids
  /**
   * Only changes of these kinds are delivered; a change set left with none is not sent. Without it: every match kind, every odds kind when odds are taken, and `standings_changed` when standings are. Naming an odds kind takes odds; naming `standings_changed` takes standings. Cannot be combined with format `delta`.
   *
   * @minItems 1
   * @maxItems 42
   */
  kinds?: SubscribedKind[]
  /**
   * Take the fixtures' in-play odds: their images in snapshots, and `odds` frames. Needs a key with the odds feature (else `forbidden`).
   */
  odds?: boolean
  /**
   * Only these bookmakers' odds (takes odds). Cannot be combined with format `delta`.
   */
  bookmakers?: Ids
  /**
   * Only these markets' odds (takes odds). Cannot be combined with format `delta`.
   */
  markets?: Ids
  /**
   * Take the live tables of the leagues followed (by league id or `"*"`): their images in snapshots, and `standings` frames as they change.
   */
  standings?: boolean
  /**
   * Replay every matching change after this cursor, then go live with no gap and no duplicate.
   */
  since?: string
  /**
   * Send the current state of every matching live fixture first.
   */
  snapshot?: boolean
  /**
   * The format of the connection's change frames from now on (the latest subscribe naming one sets it; `full` until then). Refused with `kinds` (named here or already set on the connection).
   */
  format?: Format
  /**
   * At most one `odds` frame per fixture per this many ms from now on (the latest subscribe naming it sets it; 0, the default, sends each as it comes): a fixture's first odds change goes out at once, the ones within the interval after it go together at its end, with the latest prices. Suspensions, reopenings, settlements and added or removed markets are never conflated away. With `since`, a snapshot is always sent.
   */
  conflate_ms?: number
}
/**
 * The connection's whole subscription after a subscribe.
 */
export interface SubscribedFrame {
  type: 'subscribed'
  ref?: Ref
  leagues: Ids | '*'
  fixtures: Ids
  teams: Ids
  /**
   * Present while the connection follows days.
   */
  dates?: Day[]
  /**
   * Present while the connection follows days: their time zone.
   */
  tz?: string
  /**
   * Present only while the connection receives some kinds, not all.
   */
  kinds?: SubscribedKind[]
  /**
   * Present, true, while the connection takes odds.
   */
  odds?: boolean
  /**
   * Present while the connection's odds are narrowed to these bookmakers.
   */
  bookmakers?: Ids
  /**
   * Present while the connection's odds are narrowed to these markets.
   */
  markets?: Ids
  /**
   * Present while the connection's odds frames are conflated.
   */
  conflate_ms?: number
  /**
   * Present, true, while the connection takes standings.
   */
  standings?: boolean
}
/**
 * Removes ids or kinds. Without any list: removes the whole subscription and resets `kinds` to every kind.
 */
export interface UnsubscribeFrame {
  op: 'unsubscribe'
  ref?: Ref
  /**
   * Days followed: every fixture whose kick-off falls in one of them (in `tz`), within the key's leagues, live or not: its snapshot, and every change of it from its scheduling to its end, before kick-off too (a kick-off moved, a postponement, line-ups published). At most 14 days.
   *
   * @maxItems 14
   */
  dates?: Day[]
  /**
   * The time zone of `dates` (UTC by default): a day runs from midnight to midnight there. The latest subscribe naming one sets it for every day followed.
   */
  tz?: TimeZone
  /**
   * League ids, or `"*"`: every league the key may see, including leagues that appear later.
   */
  leagues?: Ids | '*'
  fixtures?: Ids
  /**
   * Team ids: a change matches when either participant is followed.
   */
  teams?: Ids
  /**
   * Only changes of these kinds are delivered; a change set left with none is not sent. Without it: every match kind, every odds kind when odds are taken, and `standings_changed` when standings are. Naming an odds kind takes odds; naming `standings_changed` takes standings. Cannot be combined with format `delta`.
   *
   * @minItems 1
   * @maxItems 42
   */
  kinds?: SubscribedKind[]
  /**
   * Take the fixtures' in-play odds: their images in snapshots, and `odds` frames. Needs a key with the odds feature (else `forbidden`).
   */
  odds?: boolean
  /**
   * Only these bookmakers' odds (takes odds). Cannot be combined with format `delta`.
   */
  bookmakers?: Ids
  /**
   * Only these markets' odds (takes odds). Cannot be combined with format `delta`.
   */
  markets?: Ids
  /**
   * Take the live tables of the leagues followed (by league id or `"*"`): their images in snapshots, and `standings` frames as they change.
   */
  standings?: boolean
}
/**
 * The connection's whole subscription after an unsubscribe.
 */
export interface UnsubscribedFrame {
  type: 'unsubscribed'
  ref?: Ref
  leagues: Ids | '*'
  fixtures: Ids
  teams: Ids
  /**
   * Present while the connection follows days.
   */
  dates?: Day[]
  /**
   * Present while the connection follows days: their time zone.
   */
  tz?: string
  /**
   * Present only while the connection receives some kinds, not all.
   */
  kinds?: SubscribedKind[]
  /**
   * Present, true, while the connection takes odds.
   */
  odds?: boolean
  /**
   * Present while the connection's odds are narrowed to these bookmakers.
   */
  bookmakers?: Ids
  /**
   * Present while the connection's odds are narrowed to these markets.
   */
  markets?: Ids
  /**
   * Present while the connection's odds frames are conflated.
   */
  conflate_ms?: number
  /**
   * Present, true, while the connection takes standings.
   */
  standings?: boolean
}

/** Every kind a subscribe may name (`SubscribedKind`): the client refuses any other before sending. */
export const SUBSCRIBED_KINDS: readonly SubscribedKind[] = [
  'fixture_scheduled',
  'fixture_added',
  'state_changed',
  'score_changed',
  'event_added',
  'event_updated',
  'event_removed',
  'period_changed',
  'clock',
  'statistics_changed',
  'lineups_changed',
  'fixture_updated',
  'fixture_removed',
  'market_removed',
  'market_added',
  'market_suspended',
  'market_reopened',
  'odds_changed',
  'market_settled',
  'odds_stale',
  'standings_changed'
]
