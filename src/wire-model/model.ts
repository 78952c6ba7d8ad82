/**
 * The wire model: everything touchline sends to or accepts from its live clients, declared once, as zod
 * schemas. The live fixture, the typed changes in both frame formats, the subscription, every WebSocket
 * frame both ways and the protocol's error codes (docs/protocol.md).
 *
 * Everything else is derived from this file and never written by hand:
 * - the gateway's TypeScript types (`z.infer`, exported beside each schema under the same name);
 * - the JSON Schemas inside `/docs/asyncapi.json` and `/docs/openapi.json` (src/wire-model/asyncapi.ts, openapi.ts);
 * - the wire model's type declarations, packages/core/src/wire.ts (`npm run generate`), shared by the
 *   client library and the pages.
 *
 * Each schema a document or the client names carries `meta({ id })`: that id is its name in both documents
 * (`#/components/schemas/<id>`) and in the client's declarations. Objects are strict, so a field the server
 * starts sending without declaring it here fails the tests that validate recorded traffic against the
 * documents. `describe()` texts end up in the documents and as doc comments in the client's declarations.
 */
import { z } from 'zod'
import { FixtureOddsSchema, ODDS_KINDS } from './odds.ts'
import { LeagueStandingsSchema, STANDINGS_KINDS } from './standings.ts'

export * from './odds.ts'
export * from './standings.ts'

/** The protocol version in `hello`; a change that breaks clients bumps it. */
export const PROTOCOL_VERSION = 1

/** Largest client frame accepted, in bytes: a subscribe with every list at its cap fits in under 2 KiB. */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024

// ---- building blocks ---------------------------------------------------------------------------------

/** Upstream ids are positive safe integers. */
const Id = z.number().int().positive()
/** A list of ids, as filters name them. */
const IdsSchema = z.array(Id).max(1000).meta({ id: 'Ids' })
export const CursorSchema = z.string().meta({
  id: 'Cursor',
  description: 'Opaque cursor `<epoch>:<offset>`; resume from it with `since`.',
  examples: ['k3f9a2:1042']
})
const Timestamp = z.iso.datetime({ offset: true })
const Count = z.number().int().nonnegative()
/** Goals can be unknown (upstream sent no score): null, never a guessed 0. */
const Goals = z.number().int().nullable()

// ---- the live fixture ---------------------------------------------------------------------------------

const SIDES = ['home', 'away'] as const
const SideSchema = z.enum(SIDES).meta({ id: 'Side' })
export type Side = z.infer<typeof SideSchema>

const PHASES = ['scheduled', 'live', 'break', 'finished', 'postponed', 'cancelled', 'suspended', 'unknown'] as const
const PhaseSchema = z.enum(PHASES).meta({ id: 'Phase', description: 'touchline\'s classification of the upstream state.' })
export type Phase = z.infer<typeof PhaseSchema>

const LiveTeamSchema = z.strictObject({
  id: Id,
  name: z.string(),
  short_code: z.string().nullable(),
  image_path: z.string().nullable(),
  score: Goals.describe('Current goals (regular and extra time; the shoot-out is in `scores.penalty_shootout`). Null when upstream sent no score: unknown, not 0.')
}).meta({ id: 'LiveTeam' })
export type LiveTeam = z.infer<typeof LiveTeamSchema>

const LiveStateSchema = z.strictObject({
  id: z.number().int(),
  code: z.string().meta({ examples: ['INPLAY_1ST_HALF', 'HT', 'FT'] }),
  name: z.string(),
  phase: PhaseSchema
}).meta({ id: 'LiveState' })
export type LiveState = z.infer<typeof LiveStateSchema>

const Person = z.strictObject({ id: z.number().int().nullable(), name: z.string().nullable() }).meta({ id: 'Person', description: 'A player as events name them; either part may be unknown.' }).nullable()

const LiveEventSchema = z.strictObject({
  id: Id,
  type_id: z.number().int().describe('Upstream event type id (14 goal, 15 own goal, 16 penalty, 19 yellow card, ...).'),
  type: z.string().describe('Developer name of the type: GOAL, OWNGOAL, PENALTY, YELLOWCARD, REDCARD, SUBSTITUTION, ...'),
  minute: z.number().int().nullable().describe('Null when upstream sent no usable minute. Shoot-out kicks carry the kick number.'),
  extra_minute: z.number().int().nullable(),
  side: SideSchema.nullable(),
  team_id: z.number().int().nullable(),
  player: Person,
  related_player: Person,
  result: z.string().nullable().describe('Score after the event, e.g. "1-0".'),
  info: z.string().nullable(),
  addition: z.string().nullable(),
  sort_order: z.number().int().nullable()
}).meta({ id: 'LiveEvent' })
export type LiveEvent = z.infer<typeof LiveEventSchema>

/** Event fields a delta frame leaves out when they are null. */
export const EVENT_DETAILS = ['extra_minute', 'related_player', 'result', 'info', 'addition'] as const
type EventDetail = typeof EVENT_DETAILS[number]

/** An event as a delta frame carries it: the details that are null left out. */
const DeltaEventSchema = LiveEventSchema.partial(Object.fromEntries(EVENT_DETAILS.map((f) => [f, true])) as { [K in EventDetail]: true })
  .meta({ id: 'DeltaEvent', description: 'An event as a delta carries it: the details that are null (extra_minute, related_player, result, info, addition) left out.' })
export type DeltaEvent = z.infer<typeof DeltaEventSchema>

const MatchClockSchema = z.strictObject({
  period_started_at: Timestamp.describe('When the running period\'s clock read `counts_from`:00.'),
  counts_from: z.number().int().describe('Minute the period counts from: 0, 45, 90, 105.'),
  length: z.number().int().nullable().describe('Regulation minutes of the period (45, 15); null when unknown.'),
  added: z.number().int().nullable().describe('Added time announced for the period, in minutes; null before it is.'),
  rate: z.number().positive().describe('Match seconds per real second: 1 against the real API, the simulator\'s speed against the embedded provider.'),
  ticking: z.boolean().describe('Whether the clock runs now (false while play is stopped).')
}).meta({
  id: 'MatchClock',
  description: 'The match clock, run by the client: the minute at time t is `counts_from + floor((t - period_started_at) * rate / 60 s)` while `ticking`, else the fixture\'s `minute`. Ticks this clock shows anyway are not sent; a `clock` change carrying `clock` is a correction.'
})
export type MatchClock = z.infer<typeof MatchClockSchema>

const ScoreSchema = z.strictObject({ home: z.number().int(), away: z.number().int() }).meta({ id: 'Score' })
const ScorePair = z.strictObject({ home: Goals, away: Goals })

// ---- the match centre: statistics and line-ups ------------------------------------------------------

const StatValue = z.number().nullable()
const StatPairSchema = z.strictObject({ home: StatValue, away: StatValue }).meta({ id: 'StatPair', description: 'One statistic of both sides; null for a side the upstream gave no value.' })
export type StatPair = z.infer<typeof StatPairSchema>

const StatisticsSchema = z.record(z.string(), StatPairSchema).meta({
  id: 'Statistics',
  description: 'Match statistics by type, both sides, keyed by name: `corners`, `shots_total`, `shots_on_target`, `shots_off_target`, `attacks`, `dangerous_attacks`, `possession` (%), `goals`, `fouls`, `saves`, `yellow_cards`, `red_cards`, `passes`, `accurate_passes`, `pass_accuracy` (%), `expected_goals` (decimal, where the plan has it); a type touchline does not name is `type_<id>`. Empty before the upstream gives any.',
  examples: [{ possession: { home: 58, away: 42 }, shots_on_target: { home: 5, away: 2 }, corners: { home: 6, away: 3 } }]
})
export type Statistics = z.infer<typeof StatisticsSchema>

const POSITIONS = ['goalkeeper', 'defender', 'midfielder', 'attacker'] as const
const LineupPlayerSchema = z.strictObject({
  player_id: z.number().int().nullable(),
  name: z.string().nullable(),
  number: z.number().int().nullable().describe('Jersey number.'),
  position: z.enum(POSITIONS).nullable(),
  formation_position: z.number().int().nullable().describe('Slot in the formation: 1 the goalkeeper, then defence right to left, midfield, attack; null on the bench.'),
  formation_field: z.string().nullable().describe('The upstream\'s `row:column` of the slot (e.g. `2:4`), when it gives one.')
}).meta({ id: 'LineupPlayer' })
export type LineupPlayer = z.infer<typeof LineupPlayerSchema>

const TeamLineupSchema = z.strictObject({
  formation: z.string().nullable().meta({ examples: ['4-3-3'] }),
  starting: z.array(LineupPlayerSchema).describe('The starting eleven, by formation position.'),
  bench: z.array(LineupPlayerSchema)
}).meta({ id: 'TeamLineup' })
export type TeamLineup = z.infer<typeof TeamLineupSchema>

const LineupsSchema = z.strictObject({ home: TeamLineupSchema, away: TeamLineupSchema }).meta({
  id: 'Lineups',
  description: 'Both teams\' line-ups and formations, once published (about an hour before kick-off in covered competitions; some never are).'
})
export type Lineups = z.infer<typeof LineupsSchema>

export const LiveFixtureSchema = z.strictObject({
  id: Id,
  league_id: Id,
  season_id: z.number().int().nullable(),
  stage_id: z.number().int().nullable(),
  round_id: z.number().int().nullable(),
  name: z.string().nullable(),
  starting_at: Timestamp.nullable().describe('Kick-off, ISO 8601 UTC.'),
  state: LiveStateSchema,
  minute: z.number().int().nullable().describe('Match clock minute at the fixture\'s last change; null when no clock runs or it is unknown. Clients run the clock from `clock`.'),
  period: z.string().nullable().meta({ examples: ['1st-half'] }),
  clock: MatchClockSchema.nullable().optional().describe('The running clock of the period; null when there is none (before kick-off, breaks, the shoot-out).'),
  home: LiveTeamSchema,
  away: LiveTeamSchema,
  scores: z.record(z.string(), ScoreSchema).describe('Scores by type, keyed by the upstream description lower-cased: current, 1st_half, 2nd_half, penalty_shootout, ...'),
  events: z.array(LiveEventSchema).describe('Match events in match order; shoot-out kicks last.'),
  statistics: StatisticsSchema,
  lineups: LineupsSchema.nullable().describe('Null until the line-ups are published.'),
  result_info: z.string().nullable(),
  length: z.number().int().nullable(),
  updated_at: Timestamp.describe('When this fixture last changed in touchline.'),
  version: Count.describe('Monotonic per fixture, +1 per applied change set.')
}).meta({ id: 'LiveFixture', description: 'touchline\'s normalized fixture, the same from every upstream, live or not (a fixture of a day: scheduled, finished, postponed).' })
export type LiveFixture = z.infer<typeof LiveFixtureSchema>

// ---- changes ----------------------------------------------------------------------------------------

/** Every kind of change, in the order the differ emits them within one change set. */
export const CHANGE_KINDS = [
  'fixture_scheduled', 'fixture_added', 'state_changed', 'score_changed', 'event_added', 'event_updated', 'event_removed',
  'period_changed', 'clock', 'statistics_changed', 'lineups_changed', 'fixture_updated', 'fixture_removed'
] as const
export type ChangeKind = typeof CHANGE_KINDS[number]

const SCORE_TYPE = 'Another count than the current score, e.g. `penalty_shootout`; absent for the current score.'
const GOALS = 'The goal events added with this change, in match order (the scorer, the minute, `PENALTY` or `OWNGOAL` in `type`): present when the score went up with its goals. A goal upstream lists in a later poll than its score comes as `event_added`.'

/** One schema per kind, in both formats: `full` (with previous values) and `delta` (the new values only). */
const FixtureAddedSchema = z.strictObject({ kind: z.literal('fixture_added') }).meta({ id: 'FixtureAdded', description: 'The fixture entered the live set.' })
const FixtureRemovedSchema = z.strictObject({ kind: z.literal('fixture_removed') }).meta({ id: 'FixtureRemoved', description: 'The fixture left the live set (usually some minutes after full time). It stays in its day.' })
const FixtureScheduledSchema = z.strictObject({ kind: z.literal('fixture_scheduled') }).meta({
  id: 'FixtureScheduled',
  description: 'touchline holds a fixture it did not: found on a read of its day or among the upstream\'s latest changes, outside the live set (`fixture_added` says when it enters it).'
})

const StatisticsChangedSchema = z.strictObject({
  kind: z.literal('statistics_changed'),
  statistics: StatisticsSchema.describe('The types that moved, with their new values (both sides).'),
  previous: StatisticsSchema.describe('The same types before (`{home: null, away: null}` for a type that is new).')
}).meta({ id: 'StatisticsChanged', description: 'Match statistics moved: only the types that did.' })
const DeltaStatisticsChangedSchema = StatisticsChangedSchema.omit({ previous: true }).meta({ id: 'DeltaStatisticsChanged' })

const LineupsChangedSchema = z.strictObject({
  kind: z.literal('lineups_changed'),
  lineups: LineupsSchema.nullable(),
  previous: LineupsSchema.nullable()
}).meta({ id: 'LineupsChanged', description: 'The line-ups were published (`previous` null) or changed: the whole new value.' })
const DeltaLineupsChangedSchema = LineupsChangedSchema.omit({ previous: true }).meta({ id: 'DeltaLineupsChanged' })

const StateChangedSchema = z.strictObject({ kind: z.literal('state_changed'), state: LiveStateSchema, previous: LiveStateSchema }).meta({ id: 'StateChanged' })
const DeltaStateChangedSchema = StateChangedSchema.omit({ previous: true }).meta({ id: 'DeltaStateChanged' })

const ScoreChangedSchema = z.strictObject({
  kind: z.literal('score_changed'),
  home: Goals,
  away: Goals,
  previous: ScorePair,
  score_type: z.string().optional().describe(SCORE_TYPE),
  goals: z.array(LiveEventSchema).min(1).optional().describe(GOALS)
}).meta({ id: 'ScoreChanged' })
const DeltaScoreChangedSchema = z.strictObject({
  kind: z.literal('score_changed'),
  home: Goals,
  away: Goals,
  previous: ScorePair.optional().describe('Absent on score types the delta sets one by one.'),
  score_type: z.string().optional().describe(SCORE_TYPE),
  goals: z.array(DeltaEventSchema).min(1).optional().describe(`${GOALS} In a delta only for goals the frame does not add: see \`goal_ids\`.`),
  goal_ids: z.array(Id).min(1).optional().describe('Instead of `goals` when the frame adds them: the ids of the events of its `event_added` changes that are this change\'s goals, in match order (the client library hands them out as `goals`).')
}).meta({ id: 'DeltaScoreChanged' })

const EventAddedSchema = z.strictObject({ kind: z.literal('event_added'), event: LiveEventSchema }).meta({ id: 'EventAdded' })
const DeltaEventAddedSchema = z.strictObject({
  kind: z.literal('event_added'),
  event: DeltaEventSchema,
  index: Count.optional().describe('Only when the event does not go last: its position in `events` as the list is when this change is applied (else it is appended).')
}).meta({ id: 'DeltaEventAdded' })

const EventUpdatedSchema = z.strictObject({ kind: z.literal('event_updated'), event: LiveEventSchema, previous: LiveEventSchema }).meta({ id: 'EventUpdated' })
const DeltaEventUpdatedSchema = z.strictObject({ kind: z.literal('event_updated'), event: DeltaEventSchema }).meta({ id: 'DeltaEventUpdated' })

const EventRemovedSchema = z.strictObject({ kind: z.literal('event_removed'), event: LiveEventSchema })
  .meta({ id: 'EventRemoved', description: 'An event that disappeared upstream, typically a goal cancelled by VAR.' })
const DeltaEventRemovedSchema = z.strictObject({ kind: z.literal('event_removed'), event: DeltaEventSchema }).meta({ id: 'DeltaEventRemoved' })

const PeriodChangedSchema = z.strictObject({ kind: z.literal('period_changed'), period: z.string().nullable(), previous: z.string().nullable() }).meta({ id: 'PeriodChanged' })
const DeltaPeriodChangedSchema = PeriodChangedSchema.omit({ previous: true }).meta({ id: 'DeltaPeriodChanged' })

const CLOCK_CORRECTION = 'Only when the running clock changed (a correction: added time, play stopped or restarted, drift).'
const ClockChangedSchema = z.strictObject({
  kind: z.literal('clock'),
  minute: z.number().int().nullable(),
  previous: z.number().int().nullable(),
  clock: MatchClockSchema.nullable().optional().describe(CLOCK_CORRECTION)
}).meta({ id: 'ClockChanged', description: 'The minute moved in a way the running clock does not show, or the clock itself changed.' })
const DeltaClockChangedSchema = z.strictObject({
  kind: z.literal('clock'),
  minute: z.number().int().nullable().optional().describe('Absent: the minute the clock shows at the frame\'s `at`.'),
  clock: MatchClockSchema.nullable().optional().describe(CLOCK_CORRECTION)
}).meta({ id: 'DeltaClockChanged' })

const FixtureUpdatedSchema = z.strictObject({
  kind: z.literal('fixture_updated'),
  fields: z.record(z.string(), z.object({ value: z.unknown(), previous: z.unknown() }))
}).meta({ id: 'FixtureUpdated', description: 'Every other top-level field that changed (name, kick-off, team details, other score types...), each with its new and previous value.' })
const DeltaFixtureUpdatedSchema = z.strictObject({
  kind: z.literal('fixture_updated'),
  fields: z.record(z.string(), z.strictObject({ value: z.unknown() }))
}).meta({ id: 'DeltaFixtureUpdated', description: 'Whole new values, for every top-level field the other changes leave different.' })

export const ChangeSchema = z.discriminatedUnion('kind', [
  FixtureScheduledSchema, FixtureAddedSchema, StateChangedSchema, ScoreChangedSchema, EventAddedSchema, EventUpdatedSchema, EventRemovedSchema, PeriodChangedSchema, ClockChangedSchema,
  StatisticsChangedSchema, LineupsChangedSchema, FixtureUpdatedSchema, FixtureRemovedSchema
]).meta({ id: 'Change', description: 'One typed change; `kind` tells which.' })
export type Change = z.infer<typeof ChangeSchema>

export const DeltaChangeSchema = z.discriminatedUnion('kind', [
  FixtureScheduledSchema, FixtureAddedSchema, DeltaStateChangedSchema, DeltaScoreChangedSchema, DeltaEventAddedSchema, DeltaEventUpdatedSchema, DeltaEventRemovedSchema,
  DeltaPeriodChangedSchema, DeltaClockChangedSchema, DeltaStatisticsChangedSchema, DeltaLineupsChangedSchema, DeltaFixtureUpdatedSchema, FixtureRemovedSchema
]).meta({
  id: 'DeltaChange',
  description: 'One change of a `delta` frame: the new values only, no `previous` (but on `score_changed`). A frame whose changes give no `minute` sets the minute the fixture\'s clock shows at the frame\'s `at`. Events leave out the details that are null.'
})
export type DeltaChange = z.infer<typeof DeltaChangeSchema>

// ---- change records and frames -------------------------------------------------------------------------

const RecordHead = {
  cursor: CursorSchema,
  fixture_id: Id,
  league_id: Id,
  at: Timestamp.describe('When touchline detected the change.')
}

/** One entry of the event log: every change of one fixture detected in one poll, with the fixture after them. */
const ChangeRecordSchema = z.strictObject({
  ...RecordHead,
  live: z.boolean().describe('Whether the fixture is in the live set after this change (false for a fixture of a day outside it, and on `fixture_removed`). A change outside the live set goes only to those following its day or the fixture itself.'),
  changes: z.array(ChangeSchema).min(1).describe('Every change of the fixture detected in one poll (only the kinds asked for, with `kinds`).'),
  fixture: LiveFixtureSchema
})
export type ChangeRecord = z.infer<typeof ChangeRecordSchema>

const FullChangeFrameSchema = z.strictObject({ type: z.literal('change'), ...ChangeRecordSchema.shape })
  .meta({ id: 'FullChangeFrame', description: 'A change in `full` format: the changes of one fixture, with the fixture after them.' })

const DeltaChangeFrameSchema = z.strictObject({
  type: z.literal('change'),
  ...RecordHead,
  version: z.number().int().positive().describe('The fixture\'s version after the change. Apply the frame to the fixture held at `version - 1`; a jump past it means a lost frame: subscribe again with `since` the cursor of the last frame applied for that fixture.'),
  changes: z.array(DeltaChangeSchema).min(1)
}).meta({
  id: 'DeltaChangeFrame',
  description: 'A change in `delta` format: no `fixture`; applying `changes` in order to the fixture at `version - 1` gives the stored fixture (`updated_at` becomes `at`). Without the previous version (a fixture\'s first frame, the first of a `/v1/changes` page) the frame is full.'
})
export type DeltaChangeFrame = z.infer<typeof DeltaChangeFrameSchema>

export const ChangeFrameSchema = z.union([FullChangeFrameSchema, DeltaChangeFrameSchema]).meta({
  id: 'ChangeFrame',
  description: 'One change of one fixture, in the connection\'s format. Sent over WebSocket, as the SSE `change` event, and as the items of `/v1/changes`.'
})

export const FORMATS = ['full', 'delta'] as const
export const FormatSchema = z.enum(FORMATS).meta({
  id: 'Format',
  default: 'full',
  description: 'Change frame format: `full` frames carry the fixture after the change; `delta` frames carry its `version` and the typed changes with the values they set. Snapshots and replays are full in both. Refused together with `kinds`: a delta needs every change of its fixture.'
})
export type Format = z.infer<typeof FormatSchema>

/** Why `kinds` (or the odds filters) and `format: "delta"` are refused together. */
export const DELTA_WITH_KINDS = 'format "delta" needs every change of a fixture and cannot be combined with kinds, bookmakers or markets; use format "full" with them'

// ---- subscriptions and client frames ----------------------------------------------------------------------

/** `ref` is opaque to the server and echoed back; strings are the documented form, numbers are tolerated. */
export const RefSchema = z.union([z.string().max(64), z.number()]).meta({ id: 'Ref', description: 'Opaque to the server, echoed in the reply; strings are the documented form.' })
export type Ref = z.infer<typeof RefSchema>

const Leagues = z.union([IdsSchema, z.literal('*')]).describe('League ids, or `"*"`: every league the key may see, including leagues that appear later.')

/** Every kind a `kinds` filter may name: the match's, the odds' and the standings'. */
const SubscribedKindSchema = z.enum([...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS]).meta({ id: 'SubscribedKind', description: 'A kind of change a subscription may ask for: a match change kind, an odds change kind or `standings_changed`.' })
export type SubscribedKind = z.infer<typeof SubscribedKindSchema>
const Kinds = z.array(SubscribedKindSchema).min(1).max((CHANGE_KINDS.length + ODDS_KINDS.length + STANDINGS_KINDS.length) * 2)

/** Odds conflation of a connection: at most one `odds` frame per fixture per interval. */
export const MAX_CONFLATE_MS = 10_000
const ConflateSchema = z.number().int().min(0).max(MAX_CONFLATE_MS).describe(
  'At most one `odds` frame per fixture per this many ms from now on (the latest subscribe naming it sets it; 0, the default, sends each as it comes): ' +
  'a fixture\'s first odds change goes out at once, the ones within the interval after it go together at its end, with the latest prices. ' +
  'Suspensions, reopenings, settlements and added or removed markets are never conflated away. With `since`, a snapshot is always sent.')

/** Days a connection may follow at once. */
export const MAX_DAYS = 14
/** A calendar day, `YYYY-MM-DD`, that exists. */
export const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a date that exists')
  .meta({ id: 'Day', examples: ['2026-11-28'] })
/** An IANA time zone the runtime knows (`Europe/London`), or `UTC`. */
export const TimeZoneSchema = z.string().max(64).refine((tz) => {
  try { return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone !== '' } catch { return false }
}, 'must be an IANA time zone, e.g. Europe/London').meta({ id: 'TimeZone', examples: ['Europe/London'] })

/** What a subscription follows: a change matches when its league, its fixture or one of its teams is followed, or its kick-off is in a day followed. */
const SubscriptionSchema = z.strictObject({
  dates: z.array(DaySchema).max(MAX_DAYS).optional().describe('Days followed: every fixture whose kick-off falls in one of them (in `tz`), within the key\'s leagues, live or not: its snapshot, and every change of it from its scheduling to its end, before kick-off too (a kick-off moved, a postponement, line-ups published). At most 14 days.'),
  tz: TimeZoneSchema.optional().describe('The time zone of `dates` (UTC by default): a day runs from midnight to midnight there. The latest subscribe naming one sets it for every day followed.'),
  leagues: Leagues.optional(),
  fixtures: IdsSchema.optional(),
  teams: IdsSchema.optional().describe('Team ids: a change matches when either participant is followed.'),
  kinds: Kinds.optional().describe('Only changes of these kinds are delivered; a change set left with none is not sent. Without it: every match kind, every odds kind when odds are taken, and `standings_changed` when standings are. Naming an odds kind takes odds; naming `standings_changed` takes standings. Cannot be combined with format `delta`.'),
  odds: z.boolean().optional().describe('Take the fixtures\' in-play odds: their images in snapshots, and `odds` frames. Needs a key with the odds feature (else `forbidden`).'),
  bookmakers: IdsSchema.optional().describe('Only these bookmakers\' odds (takes odds). Cannot be combined with format `delta`.'),
  markets: IdsSchema.optional().describe('Only these markets\' odds (takes odds). Cannot be combined with format `delta`.'),
  standings: z.boolean().optional().describe('Take the live tables of the leagues followed (by league id or `"*"`): their images in snapshots, and `standings` frames as they change.')
}).meta({ id: 'Subscription' })

export const SubscribeFrameSchema = z.strictObject({
  op: z.literal('subscribe'),
  ref: RefSchema.optional(),
  ...SubscriptionSchema.shape,
  since: z.string().max(128).optional().describe('Replay every matching change after this cursor, then go live with no gap and no duplicate.'),
  snapshot: z.boolean().optional().meta({ default: true, description: 'Send the current state of every matching live fixture first.' }),
  format: FormatSchema.optional().describe('The format of the connection\'s change frames from now on (the latest subscribe naming one sets it; `full` until then). Refused with `kinds` (named here or already set on the connection).'),
  conflate_ms: ConflateSchema.optional()
}).meta({
  id: 'SubscribeFrame',
  description: 'Adds to the connection\'s subscription, within the key\'s leagues. At most 100 leagues, fixtures and teams per connection (`limit_exceeded`). A subscribe naming kinds replaces the connection\'s kinds filter.'
})
export type SubscribeFrame = z.infer<typeof SubscribeFrameSchema>

export const UnsubscribeFrameSchema = z.strictObject({
  op: z.literal('unsubscribe'),
  ref: RefSchema.optional(),
  ...SubscriptionSchema.shape
}).meta({ id: 'UnsubscribeFrame', description: 'Removes ids or kinds. Without any list: removes the whole subscription and resets `kinds` to every kind.' })
export type UnsubscribeFrame = z.infer<typeof UnsubscribeFrameSchema>

export const PingFrameSchema = z.strictObject({ op: z.literal('ping'), ref: RefSchema.optional() }).meta({ id: 'PingFrame', description: 'Application-level ping, answered with pong.' })

export const AuthFrameSchema = z.strictObject({
  op: z.literal('auth'),
  ref: RefSchema.optional(),
  token: z.string().min(1).max(8192).describe('A signed connection token (docs/tokens.md), a JWT.')
}).meta({
  id: 'AuthFrame',
  description: 'A signed connection token. As the first frame of a connection opened with `/v1/live?auth=frame` and no credential, so that a browser keeps the token out of the address: the connection is the fan\'s once `authorized` answers, and frames sent behind it wait for it. On a connection opened with a token: a new token of the same key and fan, before `exp`, to keep the connection (its narrowing, if changed, applies at once).'
})

export type AuthFrame = z.infer<typeof AuthFrameSchema>

export const ClientFrameSchema = z.discriminatedUnion('op', [SubscribeFrameSchema, UnsubscribeFrameSchema, PingFrameSchema, AuthFrameSchema])
export type ClientFrame = z.infer<typeof ClientFrameSchema>

// ---- server frames -------------------------------------------------------------------------------------

const ERROR_CODES = ['invalid_message', 'unknown_op', 'forbidden', 'limit_exceeded', 'internal', 'unavailable', 'unauthorized'] as const
const ErrorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description: '`unavailable`: the store cannot be read; the subscription stays, and `replay` (recovered:false) and a fresh snapshot follow once it is back. `internal`: the snapshot or replay failed; subscribe again with `since`. `unauthorized`: a token refused (`auth`), with the reason in one word first in the message (`expired`, `invalid`, ...).'
})
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

export const HelloFrameSchema = z.strictObject({
  type: z.literal('hello'),
  protocol: z.literal(PROTOCOL_VERSION),
  cursor: CursorSchema,
  heartbeat_ms: z.number().int().positive()
}).meta({ id: 'HelloFrame', description: 'First frame after the upgrade.' })
export type HelloFrame = z.infer<typeof HelloFrameSchema>

const SubscriptionState = {
  ref: RefSchema.optional(),
  leagues: z.union([IdsSchema, z.literal('*')]),
  fixtures: IdsSchema,
  teams: IdsSchema,
  dates: z.array(DaySchema).optional().describe('Present while the connection follows days.'),
  tz: z.string().optional().describe('Present while the connection follows days: their time zone.'),
  kinds: z.array(SubscribedKindSchema).optional().describe('Present only while the connection receives some kinds, not all.'),
  odds: z.boolean().optional().describe('Present, true, while the connection takes odds.'),
  bookmakers: IdsSchema.optional().describe('Present while the connection\'s odds are narrowed to these bookmakers.'),
  markets: IdsSchema.optional().describe('Present while the connection\'s odds are narrowed to these markets.'),
  conflate_ms: z.number().int().positive().optional().describe('Present while the connection\'s odds frames are conflated.'),
  standings: z.boolean().optional().describe('Present, true, while the connection takes standings.')
}
export const SubscribedFrameSchema = z.strictObject({ type: z.literal('subscribed'), ...SubscriptionState })
  .meta({ id: 'SubscribedFrame', description: 'The connection\'s whole subscription after a subscribe.' })
export const UnsubscribedFrameSchema = z.strictObject({ type: z.literal('unsubscribed'), ...SubscriptionState })
  .meta({ id: 'UnsubscribedFrame', description: 'The connection\'s whole subscription after an unsubscribe.' })
export type SubscribedFrame = z.infer<typeof SubscribedFrameSchema> | z.infer<typeof UnsubscribedFrameSchema>

export const SnapshotFrameSchema = z.strictObject({
  type: z.literal('snapshot'),
  ref: RefSchema.optional(),
  cursor: CursorSchema,
  fixtures: z.array(LiveFixtureSchema),
  odds: z.array(FixtureOddsSchema).optional().describe('With a subscription that takes odds: the odds image of every matching live fixture that has one (narrowed to its bookmakers and markets).'),
  standings: z.array(LeagueStandingsSchema).optional().describe('With a subscription that takes standings: the live table of every league followed that the gateway holds one of.')
}).meta({ id: 'SnapshotFrame', description: 'The current state of every matching live fixture; every change up to `cursor` is in it.' })
export type SnapshotFrame = z.infer<typeof SnapshotFrameSchema>

export const ReplayFrameSchema = z.strictObject({
  type: z.literal('replay'),
  ref: RefSchema.optional(),
  recovered: z.boolean().describe('False: the cursor was unknown, expired, from another epoch, or past the replay cap (1000); a fresh snapshot follows.'),
  count: Count.describe('Change frames that follow.'),
  cursor: CursorSchema.optional().describe('When recovered: the last log position examined. Once the `count` changes that follow have arrived, every change up to it was received or filtered out: resume from it.')
}).meta({ id: 'ReplayFrame', description: 'Start of a replay from `since`.' })
export type ReplayFrame = z.infer<typeof ReplayFrameSchema>

export const AuthorizedFrameSchema = z.strictObject({
  type: z.literal('authorized'),
  ref: RefSchema.optional(),
  fan: z.string().describe('The token\'s `sub`.'),
  expires_at: z.iso.datetime().describe('When the token expires: send a new one (`auth`) before then. The connection is closed with 4401 once it is past by the key\'s `expiry_grace_s`.')
}).meta({ id: 'AuthorizedFrame', description: 'Reply to `auth`: the token is accepted. After a first-frame `auth`, `hello` follows.' })
export type AuthorizedFrame = z.infer<typeof AuthorizedFrameSchema>

export const PongFrameSchema = z.strictObject({ type: z.literal('pong'), ref: RefSchema.optional() }).meta({ id: 'PongFrame', description: 'Reply to ping.' })
export type PongFrame = z.infer<typeof PongFrameSchema>

export const ErrorFrameSchema = z.strictObject({
  type: z.literal('error'),
  ref: RefSchema.optional(),
  code: ErrorCodeSchema,
  message: z.string(),
  leagues: IdsSchema.optional().describe('With `forbidden`: the leagues outside the key\'s scope.'),
  fixtures: IdsSchema.optional().describe('With `forbidden`: fixtures the gateway knows to be of leagues outside the key\'s scope; after a keys reload, subscribed fixtures of leagues the key no longer covers.'),
  teams: IdsSchema.optional().describe('With `forbidden`: teams known (from the live fixtures) to play only outside the key\'s leagues.')
}).meta({ id: 'ErrorFrame', description: 'A refused or failed operation; the connection stays up.' })
export type ErrorFrame = z.infer<typeof ErrorFrameSchema>

/** WebSocket close codes. */
export const CLOSE_CODES = {
  /** The key was revoked or no longer allows the connection's origin. */
  keyRevoked: 4001,
  /** More than 1 MiB waited in the socket's buffer. */
  slowConsumer: 4008,
  /** Over the key's `max_connections` (after a keys reload). */
  tooMany: 4029,
  /** The connection's signed token expired and was not refreshed (docs/tokens.md): connect again with a new one. */
  tokenExpired: 4401,
  /** The token of a first-frame `auth` was refused, or no `auth` came first (docs/tokens.md): a new token will not help unless the app's backend mints it differently. */
  tokenRefused: 4403,
  /** The server is shutting down; the reason is the cursor to resume from. */
  goingAway: 1001
} as const
