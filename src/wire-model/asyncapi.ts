/**
 * The AsyncAPI 3 document of the live WebSocket protocol, served at `/docs/asyncapi.json` and committed as
 * docs/asyncapi.json. Built from the wire model: its frame schemas are the model's, so recorded traffic is
 * validated against exactly what the server is declared to send (test/integration/docs).
 */
import type { z } from 'zod'
import { componentSchemas, idOf, type JsonSchema } from './json-schema.ts'
import {
  AuthFrameSchema, AuthorizedFrameSchema, ChangeFrameSchema, ErrorFrameSchema, HelloFrameSchema, MAX_CLIENT_FRAME_BYTES, OddsFrameSchema, PingFrameSchema, PongFrameSchema, PROTOCOL_VERSION,
  ReplayFrameSchema, SnapshotFrameSchema, StandingsFrameSchema, SubscribedFrameSchema, SubscribeFrameSchema, UnsubscribedFrameSchema, UnsubscribeFrameSchema
} from './model.ts'

/** Every message of the channel: its frame (a schema of the model) and what it is for. */
const MESSAGES: Record<string, { payload: z.ZodType, summary: string }> = {
  subscribe: { payload: SubscribeFrameSchema, summary: 'Subscribe to leagues, fixtures or teams, optionally narrowed by kinds, with a snapshot and/or a replay' },
  unsubscribe: { payload: UnsubscribeFrameSchema, summary: 'Remove ids or kinds from the subscription' },
  ping: { payload: PingFrameSchema, summary: 'Application-level ping, answered with pong' },
  auth: { payload: AuthFrameSchema, summary: 'A signed connection token: the first frame of a connection opened without a credential, or a new token before the current one expires' },
  authorized: { payload: AuthorizedFrameSchema, summary: 'Reply to auth: the fan and when the token expires' },
  hello: { payload: HelloFrameSchema, summary: 'First frame after the upgrade' },
  subscribed: { payload: SubscribedFrameSchema, summary: 'Reply to subscribe' },
  unsubscribed: { payload: UnsubscribedFrameSchema, summary: 'Reply to unsubscribe' },
  snapshot: { payload: SnapshotFrameSchema, summary: 'Current state of the matching live fixtures' },
  replay: { payload: ReplayFrameSchema, summary: 'Start of a replay from `since`' },
  change: { payload: ChangeFrameSchema, summary: 'One change of one fixture, `full` (with the fixture) or `delta` (its version and changes) as subscribed' },
  odds: { payload: OddsFrameSchema, summary: 'The odds changes of one fixture, for a subscription that takes odds' },
  standings: { payload: StandingsFrameSchema, summary: 'A league\'s live table changed, for a subscription that takes standings' },
  pong: { payload: PongFrameSchema, summary: 'Reply to ping' },
  error: { payload: ErrorFrameSchema, summary: 'A refused or failed operation; the connection stays up' }
}
const SENT = ['subscribe', 'unsubscribe', 'ping', 'auth']
const RECEIVED = ['authorized', 'hello', 'subscribed', 'unsubscribed', 'snapshot', 'replay', 'change', 'odds', 'standings', 'pong', 'error']

const DESCRIPTION = [
  'Live football changes over one WebSocket at `/v1/live?api_token=<key>`. Frames are JSON text, up to',
  `${MAX_CLIENT_FRAME_BYTES / 1024} KiB from clients. Close codes: 4001 key revoked, 4008 slow consumer (more than 1 MiB buffered),`,
  '4029 too many connections for the key (or for the token\'s fan), 4401 the token expired and was not refreshed (connect again with a new one),',
  '4403 the first-frame token was refused or no `auth` came first, 1001 server shutting down (the reason is the cursor to resume from; empty while the connection waited for a reset: resume from the last cursor received).',
  'Change frames come in the format the latest subscribe named: `full` (default) or `delta`; `delta` and `kinds` cannot be combined',
  '(`invalid_message`), since a delta applies to the fixture\'s previous version and needs every change of it.',
  'A signed connection token (docs/tokens.md) goes in the `Authorization: Bearer` header, in `access_token`, or, to keep it out of the address,',
  'in an `auth` frame sent first on a connection opened with `?auth=frame` and no credential (closed with 4403 when no `auth` comes within 10 s).',
  'Refused upgrades answer over HTTP: 401 unknown key or refused token, 403 origin not allowed, 429 connection rate or the fan\'s connections, 503 shutting down.'
].join(' ')

export function asyncApiDocument () {
  const messages = Object.fromEntries(Object.entries(MESSAGES).map(([name, m]) => [name, {
    name: idOf(m.payload),
    title: idOf(m.payload),
    summary: m.summary,
    contentType: 'application/json',
    payload: { $ref: `#/components/schemas/${idOf(m.payload)}` }
  }]))
  const refs = (names: string[]): JsonSchema[] => names.map((n) => ({ $ref: `#/channels/live/messages/${n}` }))
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'touchline live protocol',
      version: `${PROTOCOL_VERSION}.0.0`,
      description: DESCRIPTION,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' }
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: {
        host: 'localhost:8080',
        protocol: 'ws',
        description: 'A touchline gateway; use wss behind TLS.',
        security: [{ $ref: '#/components/securitySchemes/apiToken' }, { $ref: '#/components/securitySchemes/authorization' }, { $ref: '#/components/securitySchemes/connectionToken' }]
      }
    },
    channels: {
      live: {
        address: '/v1/live',
        messages,
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                api_token: { type: 'string', description: 'Client key (browsers cannot set headers on a WebSocket).' },
                access_token: { type: 'string', description: 'A signed connection token, in place of the key (scrubbed from logs); or send it in an `auth` frame first.' },
                auth: { type: 'string', enum: ['frame'], description: 'With no key or token: the token comes in an `auth` frame, the first one sent.' }
              }
            }
          }
        }
      }
    },
    operations: {
      sendFrames: { action: 'send', channel: { $ref: '#/channels/live' }, summary: 'What a client sends', messages: refs(SENT) },
      receiveFrames: { action: 'receive', channel: { $ref: '#/channels/live' }, summary: 'What the server sends', messages: refs(RECEIVED) }
    },
    components: {
      securitySchemes: {
        apiToken: { type: 'httpApiKey', name: 'api_token', in: 'query', description: 'A touchline client key (the form browsers can send).' },
        authorization: { type: 'httpApiKey', name: 'Authorization', in: 'header', description: 'The same client key in the Authorization header of the upgrade request, bare or as `Bearer <key>`, for clients that can set headers.' },
        connectionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A signed connection token (docs/tokens.md): `Authorization: Bearer <jwt>`, `access_token=<jwt>`, or an `auth` frame sent first.' }
      },
      schemas: componentSchemas('draft-7', Object.values(MESSAGES).map((m) => m.payload))
    }
  }
}
