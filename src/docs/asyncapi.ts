/**
 * The AsyncAPI 3 document of the WebSocket protocol (DESIGN §4), served at `/docs/asyncapi.json`. Its
 * frame schemas are what test/integration/docs validates recorded frames against, so the document stays
 * true to what the server sends and accepts.
 */
import { CHANGE_KINDS, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION } from '../fanout/protocol.ts'
import { object, sharedSchemas } from './schemas.ts'

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const refField = { oneOf: [{ type: 'string', maxLength: 64 }, { type: 'number' }], description: 'Opaque to the server, echoed in the reply; strings are the documented form.' }
const leagues = {
  oneOf: [{ ...ref('Ids'), maxItems: 1000 }, { const: '*' }],
  description: 'League ids, or `"*"`: every league the key may see, including leagues that appear later.'
}
const kinds = { type: 'array', items: ref('ChangeKind'), minItems: 1, maxItems: CHANGE_KINDS.length * 2 }
/** What subscribe and unsubscribe both name. */
const ids = (op: string): Record<string, Schema> => ({
  op: { const: op },
  ref: refField,
  leagues,
  fixtures: { ...ref('Ids'), maxItems: 1000 },
  teams: { ...ref('Ids'), maxItems: 1000, description: 'Team ids: a change matches when either participant is followed.' }
})

const clientFrames: Record<string, Schema> = {
  SubscribeFrame: object({
    ...ids('subscribe'),
    kinds: { ...kinds, description: 'Only changes of these kinds are delivered; a change left with none is not sent. One filter per connection: a subscribe naming kinds replaces it. Refused (`invalid_message`) on a connection whose format is `delta`.' },
    since: { type: 'string', maxLength: 128, description: 'Replay every matching change after this cursor, then go live with no gap and no duplicate.' },
    snapshot: { type: 'boolean', default: true, description: 'Send the current state of every matching live fixture first.' },
    format: { ...ref('Format'), description: 'The format of the connection\'s change frames from now on (the latest subscribe naming one sets it; `full` until then). `delta` together with a kinds filter (named here or already set on the connection) is refused with `invalid_message`: a change kinds drops would look like a lost frame.' }
  }, ['ref', 'leagues', 'fixtures', 'teams', 'kinds', 'since', 'snapshot', 'format'], {
    description: 'A change matches when its league, its fixture or one of its teams is subscribed, within the key\'s leagues. At most 100 leagues, fixtures and teams per connection (`limit_exceeded`).'
  }),
  UnsubscribeFrame: object({
    ...ids('unsubscribe'),
    kinds: { ...kinds, description: 'Stop receiving these kinds of change. Refused (`invalid_message`) on a connection whose format is `delta`.' }
  }, ['ref', 'leagues', 'fixtures', 'teams', 'kinds'], { description: 'Without any list: removes the whole subscription and resets `kinds` to every kind.' }),
  PingFrame: object({ op: { const: 'ping' }, ref: refField }, ['ref'])
}

const subscription = (type: string): Schema => object({
  type: { const: type },
  ref: refField,
  leagues: { oneOf: [ref('Ids'), { const: '*' }] },
  fixtures: ref('Ids'),
  teams: ref('Ids'),
  kinds: { type: 'array', items: ref('ChangeKind'), description: 'Present only while the connection receives some kinds, not all.' }
}, ['ref', 'kinds'], { description: 'The connection\'s whole subscription after the operation.' })

const serverFrames: Record<string, Schema> = {
  HelloFrame: object({
    type: { const: 'hello' },
    protocol: { const: PROTOCOL_VERSION },
    cursor: ref('Cursor'),
    heartbeat_ms: { type: 'integer', minimum: 1 }
  }),
  SubscribedFrame: subscription('subscribed'),
  UnsubscribedFrame: subscription('unsubscribed'),
  SnapshotFrame: object({
    type: { const: 'snapshot' },
    ref: refField,
    cursor: ref('Cursor'),
    fixtures: { type: 'array', items: ref('LiveFixture') }
  }, ['ref'], { description: 'The current state of every matching live fixture; every change up to `cursor` is in it.' }),
  ReplayFrame: object({
    type: { const: 'replay' },
    ref: refField,
    recovered: { type: 'boolean', description: 'False: the cursor was unknown, expired, from another epoch, or past the replay cap (1000); a fresh snapshot follows.' },
    count: { type: 'integer', minimum: 0, description: 'Change frames that follow.' },
    cursor: { ...ref('Cursor'), description: 'When recovered: the last log position examined. Once the `count` changes that follow have arrived, every change up to it was received or filtered out: resume from it.' }
  }, ['ref', 'cursor']),
  PongFrame: object({ type: { const: 'pong' }, ref: refField }, ['ref']),
  ErrorFrame: object({
    type: { const: 'error' },
    ref: refField,
    code: { enum: ['invalid_message', 'unknown_op', 'forbidden', 'limit_exceeded', 'internal', 'unavailable'] },
    message: { type: 'string' },
    leagues: { ...ref('Ids'), description: 'With `forbidden`: the leagues outside the key\'s scope.' },
    fixtures: { ...ref('Ids'), description: 'With `forbidden` after a keys reload: subscribed fixtures of leagues the key no longer covers.' },
    teams: { ...ref('Ids'), description: 'With `forbidden`: teams known (from the live fixtures) to play only outside the key\'s leagues.' }
  }, ['ref', 'leagues', 'fixtures', 'teams'], {
    description: '`unavailable`: the store cannot be read; the subscription stays, and `replay` (recovered:false) and a fresh snapshot follow once it is back. `internal`: the snapshot or replay failed; subscribe again with `since`. The connection stays up.'
  })
}

const message = (name: string, summary: string): Schema => ({ name, title: name, summary, contentType: 'application/json', payload: ref(name) })

const messages: Record<string, Schema> = {
  subscribe: message('SubscribeFrame', 'Subscribe to leagues, fixtures or teams, optionally narrowed by kinds, with a snapshot and/or a replay'),
  unsubscribe: message('UnsubscribeFrame', 'Remove ids or kinds from the subscription'),
  ping: message('PingFrame', 'Application-level ping, answered with pong'),
  hello: message('HelloFrame', 'First frame after the upgrade'),
  subscribed: message('SubscribedFrame', 'Reply to subscribe'),
  unsubscribed: message('UnsubscribedFrame', 'Reply to unsubscribe'),
  snapshot: message('SnapshotFrame', 'Current state of the matching live fixtures'),
  replay: message('ReplayFrame', 'Start of a replay from `since`'),
  change: message('ChangeFrame', 'One change of one fixture, `full` (with the fixture) or `delta` (its version and changes) as subscribed'),
  pong: message('PongFrame', 'Reply to ping'),
  error: message('ErrorFrame', 'A refused or failed operation; the connection stays up')
}

const msgRefs = (names: string[]): Schema[] => names.map((n) => ({ $ref: `#/channels/live/messages/${n}` }))

export const asyncApiDocument = {
  asyncapi: '3.0.0',
  info: {
    title: 'touchline live protocol',
    version: `${PROTOCOL_VERSION}.0.0`,
    description: [
      'Live football changes over one WebSocket at `/v1/live?api_token=<key>`. Frames are JSON text, up to',
      `${MAX_CLIENT_FRAME_BYTES / 1024} KiB from clients. Close codes: 4001 key revoked, 4008 slow consumer (more than 1 MiB buffered),`,
      '4029 too many connections for the key, 1001 server shutting down (the reason is the cursor to resume from).',
      'Change frames come in the format the latest subscribe named: `full` (default) or `delta`; `delta` and `kinds` cannot be combined',
      '(`invalid_message`), since a delta applies to the fixture\'s previous version and needs every change of it.',
      'Refused upgrades answer over HTTP: 401 unknown key, 403 origin not allowed, 429 connection rate, 503 shutting down.'
    ].join(' ')
  },
  defaultContentType: 'application/json',
  servers: {
    gateway: { host: 'localhost:8080', protocol: 'ws', description: 'A touchline gateway; use wss behind TLS.' }
  },
  channels: {
    live: {
      address: '/v1/live',
      messages,
      bindings: {
        ws: {
          method: 'GET',
          query: { type: 'object', properties: { api_token: { type: 'string', description: 'Client key (browsers cannot set headers on a WebSocket).' } }, required: ['api_token'] }
        }
      }
    }
  },
  operations: {
    sendOperations: { action: 'send', channel: { $ref: '#/channels/live' }, summary: 'What a client sends', messages: msgRefs(['subscribe', 'unsubscribe', 'ping']) },
    receiveFrames: {
      action: 'receive',
      channel: { $ref: '#/channels/live' },
      summary: 'What the server sends',
      messages: msgRefs(['hello', 'subscribed', 'unsubscribed', 'snapshot', 'replay', 'change', 'pong', 'error'])
    }
  },
  components: {
    schemas: { ...sharedSchemas, ...clientFrames, ...serverFrames }
  }
}
