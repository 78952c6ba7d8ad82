/**
 * The OpenAPI 3.1 document of the gateway's own `/v1` HTTP endpoints and its operations endpoints, served at
 * `/docs/openapi.json`. The REST passthrough (`/v3/football/...`) mirrors upstream's API and is described by
 * upstream's documentation, not here. Response schemas are what test/integration/docs validates recorded
 * responses against.
 */
import { PROTOCOL_VERSION } from '../fanout/protocol.ts'
import { object, sharedSchemas } from './schemas.ts'

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: string, description: string): Schema => ({ description, content: { 'application/json': { schema: ref(schema) } } })
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra })
const isoOrNull = nullable('string', { format: 'date-time' })

const idList = (what: string): Schema => ({ type: 'string', pattern: '^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15})*$', description: `Comma-separated ${what} ids (or the parameter repeated).` })
const query = (name: string, schema: Schema, description?: string): Schema => ({ name, in: 'query', required: false, schema, ...(description === undefined ? {} : { description }) })

const params: Record<string, Schema> = {
  ApiToken: { name: 'api_token', in: 'query', required: true, schema: { type: 'string' }, description: 'Client key.' },
  Leagues: query('leagues', { oneOf: [idList('league'), { const: '*' }] }, 'League ids, or `*`: every league the key may see. Without leagues, fixtures and teams: every league the key may see.'),
  Fixtures: query('fixtures', idList('fixture')),
  Teams: query('teams', idList('team'), 'A change or fixture matches when either participant is listed. A key limited to some leagues gets 403 for a team that plays (in the live fixtures) only outside them; other teams are delivered from its leagues only.'),
  Kinds: query('kinds', { type: 'string', pattern: '^[a-z_]+(,[a-z_]+)*$' }, 'Comma-separated change kinds (see ChangeKind): only those changes are delivered; a change left with none is skipped.'),
  Since: query('since', { type: 'string', maxLength: 128 }, 'Resume after this cursor.'),
  Format: query('format', ref('Format'), '`full` (default) or `delta`: compact change frames (ChangeFrame). `delta` together with `kinds` is refused (400 `invalid_request`): a delta needs every change of its fixture.')
}
const p = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` })
const filters = [p('ApiToken'), p('Leagues'), p('Fixtures'), p('Teams'), p('Kinds')]

const errors = (...statuses: number[]): Record<string, Schema> => Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }]))

const schemas: Record<string, Schema> = {
  ...sharedSchemas,
  Error: object({
    error: { type: 'string', examples: ['Bad Request'] },
    code: { enum: ['invalid_request', 'unauthorized', 'forbidden', 'limit_exceeded', 'too_many_connections', 'rate_limited', 'shutting_down', 'unavailable', 'not_found'] },
    message: { type: 'string' }
  }),
  ChangesPage: object({
    data: { type: 'array', items: ref('ChangeFrame') },
    cursor: { ...ref('Cursor'), description: 'The last log entry examined: pass it as `since` for the next page. Moves past changes filtered out by teams or kinds.' },
    recovered: { type: 'boolean', description: 'False when `since` was unknown, expired or from another epoch: `data` is empty and `cursor` is the head.' },
    more: { type: 'boolean', description: 'Entries exist after `cursor` (a page filtered by teams or kinds may hold fewer than `limit`, or none, while more is true).' }
  }),
  LiveFixtures: object({ data: { type: 'array', items: ref('LiveFixture') } }),
  Status: object({
    now: { type: 'string', format: 'date-time' },
    budget: {
      type: 'array',
      items: object({
        entity: { type: 'string' },
        remaining: { type: 'integer' },
        limit: nullable('integer'),
        limit_source: { enum: ['configured', 'reported', 'learned', null] },
        resets_at: { type: 'string', format: 'date-time' },
        resets_in_s: { type: 'integer', minimum: 0 },
        expired: { type: 'boolean' }
      })
    },
    poller: {
      oneOf: [{ type: 'null' }, object({
        running: { type: 'boolean' },
        interval_ms: { type: 'number' },
        last_poll_at: isoOrNull,
        last_reconcile_at: isoOrNull,
        last_error: nullable('string'),
        consecutive_failures: { type: 'integer' },
        tracked: { type: 'integer' },
        pending_final: { type: 'integer' }
      })],
      description: 'Null when this instance runs no poller (over Redis only the leader polls).'
    },
    connections: object({ ws: { type: 'integer' }, sse: { type: 'integer' }, total: { type: 'integer' } }),
    subscriptions: { type: 'integer' },
    live_fixtures: { type: 'integer' },
    store: object({ status: { enum: ['up', 'down'] } }, [], { description: '`down` while the store (Redis) cannot be read: `cursor` is then null.' }),
    cursor: nullable('string'),
    messages_per_s: nullable('number'),
    cache_hit_ratio: nullable('number'),
    history: object({
      interval_s: { type: 'number' },
      samples: {
        type: 'array',
        items: object({
          t: { type: 'integer' },
          poll_interval_s: nullable('number'),
          detection_p50_s: nullable('number'),
          messages_per_s: { type: 'number' },
          cache_hit_ratio: nullable('number')
        })
      }
    }),
    webhooks: {
      oneOf: [{ type: 'null' }, object({
        endpoints: { type: 'integer' },
        by_state: { type: 'object', additionalProperties: { type: 'integer' } },
        delivering_here: { type: 'integer' }
      })],
      description: 'Webhook endpoints by state; null without webhooks or while the store cannot be read.'
    }
  }),
  WebhookState: { enum: ['pending', 'active', 'retrying', 'paused', 'refused'] },
  Webhook: object({
    id: { type: 'string' },
    url: { type: 'string', description: 'Scheme, host and path only: never the query, credentials or the secret.' },
    format: ref('Format'),
    state: ref('WebhookState'),
    cursor: { ...nullable('string'), description: 'Last acknowledged cursor.' },
    lag: { ...nullable('integer'), description: 'Log entries after `cursor` (matching or not); null when the cursor is from a lost log.' },
    last_status: nullable('integer'),
    last_error: nullable('string'),
    last_attempt_at: isoOrNull,
    last_ack_at: isoOrNull,
    failing_since: isoOrNull
  }),
  Webhooks: object({ data: { type: 'array', items: ref('Webhook') } }),
  WebhookResumed: object({ data: ref('Webhook') }),
  Health: object({ status: { const: 'ok' } }),
  Readiness: object({ status: { enum: ['ready', 'not_ready'] }, checks: { type: 'object', additionalProperties: { type: 'boolean' } } })
}

const responses: Record<string, Schema> = {
  E400: json('Error', 'Invalid query, including `format=delta` with `kinds` (`invalid_request`), or too many ids for a stream (`limit_exceeded`).'),
  E401: json('Error', 'Missing or unknown `api_token` (`unauthorized`).'),
  E403: json('Error', 'Leagues or teams outside the key\'s scope, or an origin the key does not allow (`forbidden`).'),
  E404: json('Error', 'The key has no webhook with that id (`not_found`).'),
  E429: json('Error', 'Too many new connections from this address (`rate_limited`, with Retry-After) or for this key (`too_many_connections`).'),
  E503: json('Error', 'The live store is unreachable (`unavailable`, with Retry-After), or the server is shutting down (`shutting_down`).')
}

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'touchline HTTP API',
    version: `${PROTOCOL_VERSION}.0.0`,
    description: 'Live football from a touchline gateway: the change log, Server-Sent Events and the live snapshot, answered from the gateway\'s store and never upstream. The WebSocket protocol is described at `/docs/asyncapi.json`.'
  },
  servers: [{ url: 'http://localhost:8080' }],
  paths: {
    '/v1/changes': {
      get: {
        summary: 'The change log, paged by cursor',
        description: 'With `format=delta`, a fixture\'s first change of each page is full and its later ones are deltas on it.',
        parameters: [...filters, p('Since'), p('Format'), query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 })],
        responses: { 200: json('ChangesPage', 'Changes after `since` (from the oldest retained without it).'), ...errors(400, 401, 403, 503) }
      }
    },
    '/v1/sse': {
      get: {
        summary: 'The same changes as Server-Sent Events',
        description: 'Events `snapshot` (without a resume point), `replay` (when resuming), `change` (id: its cursor) and `error`, whose `data` are the WebSocket frames of the same names (`/docs/asyncapi.json`). Resume with Last-Event-ID or `since`. Comment lines are heartbeats.',
        parameters: [...filters, p('Since'), p('Format'), { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }],
        responses: {
          200: { description: 'An event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errors(400, 401, 403, 429, 503)
        }
      }
    },
    '/v1/fixtures/live': {
      get: {
        summary: 'The live snapshot',
        description: '`kinds` is accepted for symmetry with the other endpoints and has nothing to narrow here: the snapshot lists fixtures, not changes.',
        parameters: filters,
        responses: { 200: json('LiveFixtures', 'Every matching live fixture the key may see, sorted by id.'), ...errors(400, 401, 403, 503) }
      }
    },
    '/v1/webhooks': {
      get: {
        summary: 'The key\'s webhook endpoints: state, acknowledged cursor, lag, last status and error',
        parameters: [p('ApiToken')],
        responses: { 200: json('Webhooks', 'Every endpoint the keys file gives this key.'), ...errors(401) }
      }
    },
    '/v1/webhooks/{id}/resume': {
      post: {
        summary: 'Resumes a paused webhook endpoint from its acknowledged cursor',
        parameters: [p('ApiToken'), { name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: json('WebhookResumed', 'The endpoint, as it is now.'), ...errors(401, 404) }
      }
    },
    '/v1/status': {
      get: {
        summary: 'Operational status (what /status draws); no key required',
        responses: { 200: json('Status', 'Budget, poller, connections and an hour of samples.') }
      }
    },
    '/healthz': { get: { summary: 'Liveness', responses: { 200: json('Health', 'The process is up.') } } },
    '/readyz': {
      get: {
        summary: 'Readiness: the store answers',
        responses: { 200: json('Readiness', 'Ready.'), 503: json('Readiness', 'A dependency does not answer.') }
      }
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        responses: { 200: { description: 'Prometheus text exposition.', content: { 'text/plain': { schema: { type: 'string' } } } } }
      }
    }
  },
  components: { schemas, parameters: params, responses }
}
