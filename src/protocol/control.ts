/**
 * The WebSocket protocol's edge (docs/protocol.md): client frames parsed with the wire model's zod schemas,
 * and server frames built here so every transport (WebSocket, SSE, HTTP feed) writes the same JSON. What the
 * frames are is declared once, in src/wire-model/model.ts.
 */
import {
  CLOSE_CODES, ClientFrameSchema, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION, RefSchema,
  type AuthorizedFrame, type ClientFrame,
  type ErrorCode, type ErrorFrame, type FixtureOdds, type HelloFrame, type LiveFixture, type PongFrame, type Ref, type ReplayFrame,
  type SnapshotFrame, type SubscribedFrame
} from '../wire-model/model.ts'

export type { AuthFrame, ClientFrame, ErrorFrame, Ref, SubscribeFrame, UnsubscribeFrame } from '../wire-model/model.ts'

export const CLOSE_KEY_REVOKED = CLOSE_CODES.keyRevoked
export const CLOSE_SLOW_CONSUMER = CLOSE_CODES.slowConsumer
export const CLOSE_TOO_MANY = CLOSE_CODES.tooMany
export const CLOSE_TOKEN_EXPIRED = CLOSE_CODES.tokenExpired
export const CLOSE_TOKEN_REFUSED = CLOSE_CODES.tokenRefused
export const CLOSE_GOING_AWAY = CLOSE_CODES.goingAway

const OPS = new Set(['subscribe', 'unsubscribe', 'ping', 'auth'])

export type ParseResult = { ok: true, frame: ClientFrame } | { ok: false, error: ErrorFrame }

/**
 * Parses one client frame. Never throws: every failure becomes the error frame to send back, carrying the
 * frame's `ref` whenever one could be read, so the client can match the error to its request.
 */
export function parseClientFrame (data: Buffer | string, isBinary = false, maxBytes = MAX_CLIENT_FRAME_BYTES): ParseResult {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length
  if (size > maxBytes) return fail(undefined, 'invalid_message', `frame larger than ${maxBytes} bytes`)
  if (isBinary) return fail(undefined, 'invalid_message', 'frames must be JSON text')
  let json: unknown
  try {
    json = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'))
  } catch {
    return fail(undefined, 'invalid_message', 'frame is not valid JSON')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail(undefined, 'invalid_message', 'frame must be a JSON object')
  const obj = json as Record<string, unknown>
  const ref = RefSchema.safeParse(obj.ref).success ? obj.ref as Ref : undefined
  if (typeof obj.op !== 'string') return fail(ref, 'invalid_message', 'missing "op"')
  if (!OPS.has(obj.op)) return fail(ref, 'unknown_op', `unknown op "${obj.op.slice(0, 32)}"`)
  const parsed = ClientFrameSchema.safeParse(obj)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `
    return fail(ref, 'invalid_message', `${where}${issue?.message ?? 'invalid frame'}`)
  }
  return { ok: true, frame: parsed.data }
}

function fail (ref: Ref | undefined, code: ErrorCode, message: string): ParseResult {
  return { ok: false, error: errorFrame(ref, code, message) }
}

// ---- server frames ---------------------------------------------------------------------------------

/** Every frame except `change`, which is spliced from the store's JSON (see changeFrameJson). */
export type ControlFrame = AuthorizedFrame | HelloFrame | SubscribedFrame | SnapshotFrame | ReplayFrame | PongFrame | ErrorFrame

export const helloFrame = (cursor: string, heartbeatMs: number): HelloFrame =>
  ({ type: 'hello', protocol: PROTOCOL_VERSION, cursor, heartbeat_ms: heartbeatMs })

export const subscribedFrame = (type: SubscribedFrame['type'], ref: Ref | undefined, subscription: Omit<SubscribedFrame, 'type' | 'ref'>): SubscribedFrame =>
  ({ type, ref, ...subscription })

export const snapshotFrame = (ref: Ref | undefined, cursor: string, fixtures: LiveFixture[], odds?: FixtureOdds[]): SnapshotFrame =>
  ({ type: 'snapshot', ref, cursor, fixtures, ...(odds !== undefined ? { odds } : {}) })

export const replayFrame = (ref: Ref | undefined, recovered: boolean, count: number, cursor?: string): ReplayFrame =>
  ({ type: 'replay', ref, recovered, count, cursor })

export const pongFrame = (ref: Ref | undefined): PongFrame => ({ type: 'pong', ref })

export const errorFrame = (ref: Ref | undefined, code: ErrorCode, message: string): ErrorFrame =>
  ({ type: 'error', ref, code, message })

const CLOSE_BRACE = Buffer.from('}')

/**
 * A snapshot frame in three parts: its head (type, ref, cursor), the fixtures array serialized once for every
 * client that asks for the same snapshot (see snapshot-cache.ts), and its tail (odds, tables, the closing
 * brace). Joined, the same JSON as `JSON.stringify(snapshotFrame(ref, cursor, fixtures))`.
 */
export interface SnapshotParts {
  head: Buffer
  fixtures: Buffer
  tail: Buffer
}

export function snapshotFrameParts (ref: Ref | undefined, cursor: string, fixturesJson: Buffer, extras: SnapshotExtras = {}): SnapshotParts {
  const refField = ref === undefined ? '' : `"ref":${JSON.stringify(ref)},`
  const head = Buffer.from(`{"type":"snapshot",${refField}"cursor":${JSON.stringify(cursor)},"fixtures":`)
  if (extras.odds === undefined && extras.standings === undefined) return { head, fixtures: fixturesJson, tail: CLOSE_BRACE }
  const tail = Buffer.concat([
    ...(extras.odds === undefined ? [] : [ODDS_FIELD, extras.odds]),
    ...(extras.standings === undefined ? [] : [STANDINGS_FIELD, extras.standings]),
    CLOSE_BRACE
  ])
  return { head, fixtures: fixturesJson, tail }
}

/** The snapshot frame as one buffer (see snapshotFrameParts). */
export function snapshotFrameBytes (ref: Ref | undefined, cursor: string, fixturesJson: Buffer, extras: SnapshotExtras = {}): Buffer {
  return joinParts(snapshotFrameParts(ref, cursor, fixturesJson, extras))
}

export const joinParts = (p: SnapshotParts): Buffer => Buffer.concat([p.head, p.fixtures, p.tail], p.head.length + p.fixtures.length + p.tail.length)

/** What a snapshot carries beside the fixtures, serialized: odds images, league tables (for connections that take them). */
export interface SnapshotExtras {
  odds?: Buffer | undefined
  standings?: Buffer | undefined
}

const ODDS_FIELD = Buffer.from(',"odds":')
const STANDINGS_FIELD = Buffer.from(',"standings":')
