/**
 * JSON Schemas of touchline's own data (DESIGN §3 and §4): the live fixture, the typed changes, the change
 * record, and the error body of the HTTP endpoints. Shared by the AsyncAPI and the OpenAPI documents
 * (asyncapi.ts, openapi.ts), which both refer to them as `#/components/schemas/<Name>`. Written in the
 * subset of JSON Schema that AsyncAPI 3 (draft 07) and OpenAPI 3.1 (2020-12) read alike. Objects are closed
 * (`additionalProperties: false`) so a field the server starts sending without documenting it fails the
 * tests that validate recorded traffic against these documents (test/integration/docs).
 */
import { CHANGE_KINDS } from '../fanout/protocol.ts'

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
  home: ref('LiveTeam'),
  away: ref('LiveTeam'),
  scores: { type: 'object', additionalProperties: score, description: 'Scores by type (current, 1st_half, 2nd_half, penalty_shootout, ...).' },
  events: { type: 'array', items: ref('LiveEvent') },
  result_info: nullable('string'),
  length: nullable('integer'),
  updated_at: { type: 'string', format: 'date-time' },
  version: { type: 'integer', minimum: 0, description: 'Monotonic per fixture, +1 per applied change set.' }
})

const kind = (name: string, properties: Record<string, Schema> = {}, optional: string[] = []): Schema =>
  object({ kind: { const: name }, ...properties }, optional)

const Change = {
  description: 'One typed change; `kind` tells which.',
  oneOf: [
    kind('fixture_added'),
    kind('state_changed', { state: ref('LiveState'), previous: ref('LiveState') }),
    kind('score_changed', { home: nullable('integer'), away: nullable('integer'), previous: scorePair, score_type: { type: 'string' } }, ['score_type']),
    kind('event_added', { event: ref('LiveEvent') }),
    kind('event_updated', { event: ref('LiveEvent'), previous: ref('LiveEvent') }),
    kind('event_removed', { event: ref('LiveEvent') }),
    kind('period_changed', { period: nullable('string'), previous: nullable('string') }),
    kind('clock', { minute: nullable('integer'), previous: nullable('integer') }),
    kind('fixture_updated', { fields: { type: 'object', additionalProperties: { type: 'object', properties: { value: {}, previous: {} }, required: ['value', 'previous'] } } }),
    kind('fixture_removed')
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
  Change,
  ChangeFrame: object({ type: { const: 'change' }, ...changeRecordProperties }, [], {
    description: 'One change of one fixture, with the fixture after it. Sent over WebSocket, as the SSE `change` event, and as the items of `/v1/changes`.'
  })
}
