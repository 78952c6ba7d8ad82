/**
 * The OpenAPI 3.1 document of the gateway's own HTTP endpoints (`/v1/...` and the operations endpoints),
 * served at `/docs/openapi.json` and committed as docs/openapi.json. Its schemas are the wire model's
 * (src/wire-model/model.ts, src/wire-model/http.ts). The REST passthrough (`/v3/football/...`) mirrors the upstream API
 * and is described by the upstream's documentation and docs/passthrough.md, not here.
 */
import { ChangesPage, DayFixtures, ErrorBody, Health, LiveFixtures, Readiness, StandingsAnswer, Status, WebhookResumed, Webhooks } from './http.ts'
import type { z } from 'zod'
import { componentSchemas, type JsonSchema } from './json-schema.ts'
import { ChangesQuery, DaysQuery, FilterQuery, parametersOf, PushEndpointQuery, SseQuery, StandingsParams, WebhookParams, type Parameter } from './queries.ts'
import { DaySchema, FormatSchema, PROTOCOL_VERSION, TimeZoneSchema } from './model.ts'
import { PushKeyBody, PushPayloadSchema, PushSubscribeBody, PushSubscriptionView } from './webpush.ts'

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: string, description: string): JsonSchema => ({ description, content: { 'application/json': { schema: ref(schema) } } })

// Each operation's parameters are made from the zod schema its route parses them with (queries.ts).
const query = (schema: z.ZodType): Parameter[] => parametersOf(schema, 'query')
const path = (schema: z.ZodType): Parameter[] => parametersOf(schema, 'path')
const LAST_EVENT_ID = { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'The cursor of the last event received, sent by EventSource when it reconnects.' }

const responses: Record<string, JsonSchema> = {
  E400: json('Error', 'Invalid query, including `format=delta` with `kinds` (`invalid_request`), or too many ids for a stream (`limit_exceeded`).'),
  E401: json('Error', 'Missing or unknown client key (`unauthorized`).'),
  E403: json('Error', 'Leagues or teams outside the key\'s scope, or an origin the key does not allow (`forbidden`).'),
  E404: json('Error', 'The key has no webhook with that id (`not_found`).'),
  E429: json('Error', 'Too many new connections from this address (`rate_limited`, with Retry-After) or for this key (`too_many_connections`).'),
  E503: json('Error', 'The live store is unreachable (`unavailable`, with Retry-After), or the server is shutting down (`shutting_down`).')
}
const errors = (...statuses: number[]): Record<string, JsonSchema> =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }]))

/** Operations anyone may call: no key. */
const OPEN: JsonSchema[] = []
/** Operations that take the client key or a fan's signed token (docs/tokens.md) in its place. */
const KEY_OR_TOKEN: JsonSchema[] = [{ apiToken: [] }, { authorization: [] }, { accessToken: [] }, { connectionToken: [] }]
/** The 401 of an operation that takes a token too. */
const E401_TOKEN = json('Error', 'Missing or unknown client key, or a refused token (`unauthorized`; the message says why: `token refused: expired (...)`, `invalid`, `revoked`, ...).')

const paths: Record<string, Record<string, JsonSchema>> = {
  '/v1/changes': {
    get: {
      operationId: 'listChanges',
      tags: ['live'],
      security: KEY_OR_TOKEN,
      summary: 'The change log, paged by cursor',
      description: 'With `format=delta`, a fixture\'s first change of each page is full and its later ones are deltas on it.',
      parameters: query(ChangesQuery),
      responses: { 200: json('ChangesPage', 'Changes after `since` (from the oldest retained without it).'), ...errors(400, 401, 403, 503) }
    }
  },
  '/v1/sse': {
    get: {
      operationId: 'streamChanges',
      tags: ['live'],
      security: KEY_OR_TOKEN,
      summary: 'The same changes as Server-Sent Events',
      description: 'Events `snapshot` (without a resume point), `replay` (when resuming), `change` (id: its cursor) and `error`, whose `data` are the WebSocket frames of the same names (`/docs/asyncapi.json`). Resume with Last-Event-ID or `since`. Comment lines are heartbeats.',
      parameters: [...query(SseQuery), LAST_EVENT_ID],
      responses: {
        200: { description: 'An event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...errors(400, 401, 403, 429, 503)
      }
    }
  },
  '/v1/fixtures/live': {
    get: {
      operationId: 'listLiveFixtures',
      tags: ['live'],
      security: KEY_OR_TOKEN,
      summary: 'The live snapshot',
      description: '`kinds` is accepted for symmetry with the other endpoints and has nothing to narrow here: the snapshot lists fixtures, not changes.',
      parameters: query(FilterQuery),
      responses: { 200: json('LiveFixtures', 'Every matching live fixture the key may see, sorted by id.'), ...errors(400, 401, 403, 503) }
    }
  },
  '/v1/fixtures': {
    get: {
      operationId: 'listDayFixtures',
      tags: ['live'],
      security: KEY_OR_TOKEN,
      summary: 'Every fixture of one day or a few, whole',
      description: 'Scheduled, live, finished and postponed alike, by kick-off, with no page and no cap. Weak `ETag` and `304` to `If-None-Match`; `br` or `gzip` as `Accept-Encoding` allows.',
      parameters: query(DaysQuery),
      responses: { 200: json('DayFixtures', 'The days\' fixtures the key may see.'), 304: { description: 'Unchanged since the ETag given.' }, ...errors(400, 401, 403, 503) }
    }
  },
  '/v1/standings/{league}': {
    get: {
      operationId: 'getStandings',
      tags: ['live'],
      security: KEY_OR_TOKEN,
      summary: 'A league\'s live table',
      description: 'The table the gateway holds: read while the league has a match in play (the matches in play counted at their score), and the last one kept after.',
      parameters: path(StandingsParams),
      responses: {
        200: json('StandingsAnswer', 'The league\'s table.'),
        ...errors(400, 401, 403),
        404: json('Error', 'The gateway holds no table of that league: it had no match in play since the store was filled (`not_found`).'),
        ...errors(503)
      }
    }
  },
  '/v1/webhooks': {
    get: {
      operationId: 'listWebhooks',
      tags: ['webhooks'],
      summary: 'The key\'s webhook endpoints: state, acknowledged cursor, lag, last status and error',
      responses: { 200: json('Webhooks', 'Every endpoint the keys file gives this key.'), ...errors(401, 503) }
    }
  },
  '/v1/webhooks/{id}/resume': {
    post: {
      operationId: 'resumeWebhook',
      tags: ['webhooks'],
      summary: 'Resumes a paused webhook endpoint from its acknowledged cursor',
      parameters: path(WebhookParams),
      responses: { 200: json('WebhookResumed', 'The endpoint, as it is now.'), ...errors(401, 404, 503) }
    }
  },
  '/v1/push/key': {
    get: {
      operationId: 'getPushKey',
      tags: ['push'],
      summary: 'The VAPID public key, for `pushManager.subscribe`; no key required',
      security: OPEN,
      responses: {
        200: json('PushKey', 'The key the gateway signs its push requests with.'),
        404: json('Error', 'Push alerts are not configured on this gateway (`not_found`): hide the bells.')
      }
    }
  },
  '/v1/push/subscriptions': {
    post: {
      operationId: 'subscribePush',
      tags: ['push'],
      summary: 'Stores a device\'s push subscription and what it follows; the endpoint is its identity',
      description: 'With a fan\'s signed token the device is the fan\'s (its `sub`): within the key\'s `max_devices_per_fan`, and within the token\'s leagues. A device that was not the fan\'s before is new for them (201).',
      security: KEY_OR_TOKEN,
      requestBody: { required: true, content: { 'application/json': { schema: ref('PushSubscribe') } } },
      responses: {
        200: json('PushSubscription', 'The endpoint was subscribed: what it follows is replaced.'),
        201: json('PushSubscription', 'A new subscription.'),
        400: json('Error', 'The body is invalid (`invalid_request`); the message starts with the field: `subscription.endpoint` (not https on a public address), `subscription.keys.p256dh` (not a P-256 key), `subscription.keys.auth` (not 16 bytes), `follow`, `kinds`, `muted`.'),
        401: E401_TOKEN,
        403: json('Error', 'A league, team or fixture outside the key\'s scope (as a token narrows it), or an origin the key does not allow (`forbidden`).'),
        404: json('Error', 'Push alerts are not configured on this gateway (`not_found`).'),
        429: json('Error', 'The key holds as many subscriptions as it may, or, with a token, the fan holds the key\'s `max_devices_per_fan` (`limit_exceeded`; the message says which).'),
        ...errors(503)
      }
    },
    get: {
      operationId: 'getPushSubscription',
      tags: ['push'],
      summary: 'What a subscription follows, found by its endpoint',
      description: 'With the key: any of the key\'s subscriptions, its fans\' too. With a fan\'s token: that fan\'s only.',
      security: KEY_OR_TOKEN,
      parameters: query(PushEndpointQuery),
      responses: {
        200: json('PushSubscription', 'The key\'s (with a token: the fan\'s) subscription at that endpoint.'),
        400: json('Error', 'No `endpoint` (`invalid_request`).'),
        401: E401_TOKEN,
        404: json('Error', 'The key (with a token: the fan) has no subscription at that endpoint, or push is not configured (`not_found`).'),
        ...errors(503)
      }
    },
    delete: {
      operationId: 'unsubscribePush',
      tags: ['push'],
      summary: 'Deletes the subscription at that endpoint (with the key: 204 whether or not there was one)',
      description: 'With the key: any of the key\'s subscriptions, its fans\' too, 204 either way. With a fan\'s token: that fan\'s only, 404 when they have none there (another fan\'s or the key\'s own is answered the same).',
      security: KEY_OR_TOKEN,
      parameters: query(PushEndpointQuery),
      responses: {
        204: { description: 'No subscription of the key has that endpoint any more (with a token: the fan\'s was deleted).' },
        400: json('Error', 'No `endpoint` (`invalid_request`).'),
        401: E401_TOKEN,
        404: json('Error', 'With a token, the fan has no subscription at that endpoint; or push is not configured on this gateway (`not_found`).'),
        ...errors(503)
      }
    }
  },
  '/v1/status': {
    get: {
      operationId: 'getStatus',
      tags: ['operations'],
      summary: 'Operational status (what /status draws); no key required',
      security: OPEN,
      responses: { 200: json('Status', 'Budget, poller, connections and an hour of samples.'), ...errors(503) }
    }
  },
  '/healthz': {
    get: { operationId: 'getHealth', tags: ['operations'], summary: 'Liveness', security: OPEN, responses: { 200: json('Health', 'The process is up.'), ...errors(503) } }
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      tags: ['operations'],
      summary: 'Readiness: the store answers, and no shutdown has begun',
      security: OPEN,
      responses: { 200: json('Readiness', 'Ready.'), 503: json('Readiness', 'A dependency does not answer (`not_ready`, the failing check false), or a shutdown began and the instance drains (`draining`, no checks run).') }
    }
  },
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      tags: ['operations'],
      summary: 'Prometheus metrics',
      security: OPEN,
      responses: { 200: { description: 'Prometheus text exposition.', content: { 'text/plain': { schema: { type: 'string' } } } }, ...errors(503) }
    }
  }
}

/** The schemas the operations name, and through them every other one the document holds. */
const ROOTS = [ErrorBody, ChangesPage, DayFixtures, StandingsAnswer, LiveFixtures, Status, Webhooks, WebhookResumed, PushKeyBody, PushSubscribeBody, PushSubscriptionView, PushPayloadSchema, Health, Readiness, FormatSchema, DaySchema, TimeZoneSchema]

export function openApiDocument () {
  return {
    openapi: '3.1.0',
    info: {
      title: 'touchline HTTP API',
      version: `${PROTOCOL_VERSION}.0.0`,
      description: 'Live football from a touchline gateway: the change log, Server-Sent Events and the live snapshot, answered from the gateway\'s store and never upstream. The WebSocket protocol is described at `/docs/asyncapi.json`.',
      license: { name: 'MIT', identifier: 'MIT' }
    },
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    security: [{ apiToken: [] }, { authorization: [] }],
    tags: [
      { name: 'live', description: 'Live changes and fixtures, from the gateway\'s store.' },
      { name: 'webhooks', description: 'The state of the key\'s webhook endpoints.' },
      { name: 'push', description: 'Web Push alerts: a device\'s subscription and what it follows. `PushPayload` is what its service worker receives.' },
      { name: 'operations', description: 'Health, readiness, status and metrics.' }
    ],
    paths,
    webhooks: {
      pushAlert: {
        post: {
          operationId: 'pushAlert',
          tags: ['push'],
          summary: 'An alert, as the gateway sends it to a device\'s push service (RFC 8030)',
          description: 'The body is `PushPayload`, encrypted for the device (RFC 8291, `Content-Encoding: aes128gcm`) and signed with the VAPID key (RFC 8292, `Authorization: vapid t=..., k=...`). `TTL` by kind (goals 5 minutes, full time an hour), `Urgency: high` for goals and red cards, `Topic` per fixture and kind family, so a push service still holding a goal replaces it with its "Goal disallowed". The service worker receives the decrypted JSON.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('PushPayload') } } },
          responses: {
            201: { description: 'Accepted by the push service.' },
            404: { description: 'The subscription is gone: it is deleted (410 too).' },
            429: { description: 'Slowed down: sent again after `Retry-After` (5xx too, with backoff).' }
          }
        }
      }
    },
    components: {
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'query', name: 'api_token', description: 'A touchline client key, in the query (browsers\' EventSource cannot set headers).' },
        authorization: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The same client key in the Authorization header, bare or as `Bearer <key>`.' },
        accessToken: { type: 'apiKey', in: 'query', name: 'access_token', description: 'A fan\'s signed connection token (a JWT its key\'s backend signed; docs/tokens.md) in place of the key, in the query.' },
        connectionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The same signed token in the Authorization header, as `Bearer <token>`.' }
      },
      schemas: componentSchemas('draft-2020-12', ROOTS),
      responses
    }
  }
}
