/**
 * JSON Schemas of touchline's own data (DESIGN §3 and §4): the live fixture, the typed changes, the change
 * record, and the error body of the HTTP endpoints. Shared by the AsyncAPI and the OpenAPI documents
 * (asyncapi.ts, openapi.ts), which both refer to them as `#/components/schemas/<Name>`. Written in the
 * subset of JSON Schema that AsyncAPI 3 (draft 07) and OpenAPI 3.1 (2020-12) read alike. Objects are closed
 * (`additionalProperties: false`) so a field the server starts sending without documenting it fails the
 * tests that validate recorded traffic against these documents (test/integration/docs).
 */
import { CHANGE_KINDS, FORMATS } from '../fanout/protocol.ts'
import { EVENT_DETAILS } from '../live/delta.ts'

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra })

/** A closed object whose every property is required unless listed in `optional`. */
export function object (properties: Record<string, Schema>, optional: readonly string[] = [], extra: Schema = {}): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
    ...extra
  }
}

const id = { type: 'integer', minimum: 1 }
const ids = { type: 'array', items: id }
const cursor = { type: 'string', description: 'Opaque cursor `<epoch>:<offset>`; resume from it with `since`.', examples: ['k3f9a2:1042'] }
const score = { type: 'object', properties: { home: { type: 'integer' }, away: { type: 'integer' } }, required: ['home', 'away'], additionalProperties: false }
const scorePair = object({ home: nullable('integer'), away: nullable('integer') })
const player = { oneOf: [{ type: 'null' }, object({ id: nullable('integer'), name: nullable('string') })] }

const LiveTeam = object({
  id,
  name: { type: 'string' },
  short_code: nullable('string'),
  image_path: nullable('string'),
  score: nullable('integer', { description: 'Current goals (regular and extra time). Null when upstream sent no score: unknown, not 0.' })
})

const LiveState = object({
  id: { type: 'integer' },
  code: { type: 'string', examples: ['INPLAY_1ST_HALF', 'HT', 'FT'] },
  name: { type: 'string' },
  phase: { enum: ['scheduled', 'live', 'break', 'finished', 'postponed', 'cancelled', 'suspended', 'unknown'] }
})

const LiveEvent = object({
  id,
  type_id: { type: 'integer', description: 'Upstream event type id (14 goal, 15 own goal, 16 penalty, 19 yellow card, ...).' },
  type: { type: 'string', examples: ['GOAL', 'YELLOWCARD'] },
  minute: nullable('integer'),
  extra_minute: nullable('integer'),
  side: { enum: ['home', 'away', null] },
  team_id: nullable('integer'),
  player,
  related_player: player,
  result: nullable('string', { description: 'Score after the event, e.g. "1-0".' }),
  info: nullable('string'),
  addition: nullable('string'),
  sort_order: nullable('integer')
})

const MatchClock = object({
  period_started_at: { type: 'string', format: 'date-time', description: 'When the running period\'s clock read `counts_from`:00.' },
  counts_from: { type: 'integer', description: 'Minute the period counts from: 0, 45, 90, 105.' },
  length: nullable('integer', { description: 'Regulation minutes of the period (45, 15); null when unknown.' }),
  added: nullable('integer', { description: 'Added time announced for the period, in minutes; null before it is.' }),
  rate: { type: 'number', exclusiveMinimum: 0, description: 'Match seconds per real second: 1 against the real API, the simulator\'s speed against the embedded provider.' },
  ticking: { type: 'boolean', description: 'Whether the clock runs now (false while play is stopped).' }
}, [], {
  description: 'The match clock, run by the client: the minute at time t is `counts_from + floor((t - period_started_at) * rate / 60 s)` while `ticking`, else the fixture\'s `minute`. Clock ticks this shows anyway are not sent; a `clock` change carrying `clock` is a correction.'
})

const LiveFixture = object({
  id,
  league_id: id,
  season_id: nullable('integer'),
  stage_id: nullable('integer'),
  round_id: nullable('integer'),
  name: nullable('string'),
  starting_at: nullable('string', { format: 'date-time' }),
  state: ref('LiveState'),
  minute: nullable('integer', { description: 'Match clock minute; null when the clock is not running or unknown.' }),
  period: nullable('string', { examples: ['1st-half'] }),
  clock: { oneOf: [{ type: 'null' }, ref('MatchClock')], description: 'The running clock of the period; null when there is none (before kick-off, breaks, the shoot-out).' },
  home: ref('LiveTeam'),
  away: ref('LiveTeam'),
  scores: { type: 'object', additionalProperties: score, description: 'Scores by type (current, 1st_half, 2nd_half, penalty_shootout, ...).' },
  events: { type: 'array', items: ref('LiveEvent') },
  result_info: nullable('string'),
  length: nullable('integer'),
  updated_at: { type: 'string', format: 'date-time' },
  version: { type: 'integer', minimum: 0, description: 'Monotonic per fixture, +1 per applied change set.' }
}, ['clock'])

const kind = (name: string, properties: Record<string, Schema> = {}, optional: string[] = []): Schema =>
  object({ kind: { const: name }, ...properties }, optional)

/** Every change kind but `fixture_updated`, the same in both formats. */
const typedChanges = [
  kind('fixture_added'),
  kind('state_changed', { state: ref('LiveState'), previous: ref('LiveState') }),
  kind('score_changed', { home: nullable('integer'), away: nullable('integer'), previous: scorePair, score_type: { type: 'string' } }, ['score_type']),
  kind('event_added', { event: ref('LiveEvent') }),
  kind('event_updated', { event: ref('LiveEvent'), previous: ref('LiveEvent') }),
  kind('event_removed', { event: ref('LiveEvent') }),
  kind('period_changed', { period: nullable('string'), previous: nullable('string') }),
  kind('clock', {
    minute: nullable('integer'),
    previous: nullable('integer'),
    clock: { oneOf: [{ type: 'null' }, ref('MatchClock')], description: 'Only when the running clock changed (a correction: added time, play stopped or restarted, drift).' }
  }, ['clock']),
  kind('fixture_removed')
]

const Change = {
  description: 'One typed change; `kind` tells which.',
  oneOf: [
    ...typedChanges,
    kind('fixture_updated', { fields: { type: 'object', additionalProperties: { type: 'object', properties: { value: {}, previous: {} }, required: ['value', 'previous'] } } })
  ]
}

/** An event as a delta carries it: the details that are null left out (EVENT_DETAILS in src/live/delta.ts). */
const DeltaEvent = { ...LiveEvent, required: (LiveEvent as { required: string[] }).required.filter((f) => !(EVENT_DETAILS as readonly string[]).includes(f)) }

const DeltaChange = {
  description: 'One change of a `delta` frame: the new values only, no `previous` (but on `score_changed`). A frame whose changes give no `minute` sets the minute the fixture\'s clock shows at the frame\'s `at`. Events leave out the details that are null. `fixture_updated` carries whole new values, for every top-level field the other changes leave different.',
  oneOf: [
    kind('fixture_added'),
    kind('state_changed', { state: ref('LiveState') }),
    kind('score_changed', { home: nullable('integer'), away: nullable('integer'), previous: scorePair, score_type: { type: 'string' } }, ['previous', 'score_type']),
    kind('event_added', {
      event: DeltaEvent,
      index: { type: 'integer', minimum: 0, description: 'Only when the event does not go last: its position in `events` as the list is when this change is applied (else it is appended).' }
    }, ['index']),
    kind('event_updated', { event: DeltaEvent }),
    kind('event_removed', { event: DeltaEvent }),
    kind('period_changed', { period: nullable('string') }),
    kind('clock', {
      minute: { ...nullable('integer'), description: 'Absent: the minute the clock shows at the frame\'s `at`.' },
      clock: { oneOf: [{ type: 'null' }, ref('MatchClock')], description: 'Only when the running clock changed.' }
    }, ['minute', 'clock']),
    kind('fixture_removed'),
    kind('fixture_updated', { fields: { type: 'object', additionalProperties: object({ value: {} }) } })
  ]
}

/** Every field of a change record, for the change frame and the `/v1/changes` items. */
export const changeRecordProperties: Record<string, Schema> = {
  cursor,
  fixture_id: id,
  league_id: id,
  at: { type: 'string', format: 'date-time', description: 'When touchline detected the change.' },
  changes: { type: 'array', items: ref('Change'), minItems: 1, description: 'Every change of the fixture detected in one poll (only the kinds asked for, with `kinds`).' },
  fixture: ref('LiveFixture')
}

export const sharedSchemas: Record<string, Schema> = {
  Cursor: cursor,
  Ids: ids,
  ChangeKind: { enum: [...CHANGE_KINDS] },
  LiveTeam,
  LiveState,
  LiveEvent,
  LiveFixture,
  MatchClock,
  Change,
  DeltaChange,
  Format: { enum: [...FORMATS], default: 'full', description: 'Change frame format: `full` frames carry the fixture after the change; `delta` frames carry its `version` and the typed changes with the values they set. Snapshots and replays are full in both. Refused together with `kinds`: a delta needs every change of its fixture.' },
  FullChangeFrame: object({ type: { const: 'change' }, ...changeRecordProperties }, [], {
    description: 'A change in `full` format: one change of one fixture, with the fixture after it.'
  }),
  DeltaChangeFrame: object({
    type: { const: 'change' },
    cursor,
    fixture_id: id,
    league_id: id,
    version: { type: 'integer', minimum: 1, description: 'The fixture\'s version after the change. Apply the frame to the fixture held at `version - 1`; a jump past it means a lost frame: subscribe again with `since` the cursor of the last frame applied for that fixture.' },
    at: changeRecordProperties.at as Schema,
    changes: { type: 'array', items: ref('DeltaChange'), minItems: 1 }
  }, [], {
    description: 'A change in `delta` format: no `fixture`; applying `changes` in order to the fixture at `version - 1` gives the stored fixture (`updated_at` becomes `at`). Without the previous version (a fixture\'s first frame, the first of a `/v1/changes` page) the frame is full.'
  }),
  ChangeFrame: {
    description: 'One change of one fixture, in the connection\'s format. Sent over WebSocket, as the SSE `change` event, and as the items of `/v1/changes`.',
    oneOf: [ref('FullChangeFrame'), ref('DeltaChangeFrame')]
  }
}
