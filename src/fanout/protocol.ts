/**
 * The WebSocket protocol of DESIGN §4: client frames parsed at the edge with zod (STYLE rule 2), server
 * frames typed and built here so every transport (WebSocket, SSE, HTTP feed) writes the same JSON.
 */
import { z } from 'zod'
import type { ChangeKind, ChangeRecord, LiveFixture } from '../live/types.ts'

export const PROTOCOL_VERSION = 1

/**
 * Largest client frame accepted, in bytes (DESIGN §4: "Frames up to 16 KiB from clients"). A subscribe
 * with the 100-item cap and every optional field fits in under 2 KiB, so 16 KiB is generous.
 * @default 16_384
 */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024

/** WebSocket close codes of DESIGN §4. */
export const CLOSE_KEY_REVOKED = 4001
export const CLOSE_SLOW_CONSUMER = 4008
export const CLOSE_TOO_MANY = 4029
export const CLOSE_GOING_AWAY = 1001

/**
 * DESIGN §4's codes, plus `unavailable` (an extension): the store (Redis) cannot be reached, so a snapshot or
 * replay could not be read. The subscription stays in place; the server sends `replay` with recovered:false
 * and a fresh snapshot by itself once the store is back, so the client need not subscribe again.
 */
export type ErrorCode = 'invalid_message' | 'unknown_op' | 'forbidden' | 'limit_exceeded' | 'internal' | 'unavailable'

/**
 * Change frame formats (DESIGN §4): `full` frames carry the fixture after the change; `delta` frames carry
 * its `version` and the typed changes with the values they set (src/live/delta.ts). Snapshots and replays
 * are full in both.
 */
export const FORMATS = ['full', 'delta'] as const
export type Format = typeof FORMATS[number]

/**
 * Why `kinds` and `format: "delta"` are refused together: a delta applies to the fixture's previous version,
 * so a client must see every change of a fixture; a change `kinds` drops would look like a version jump.
 */
export const DELTA_WITH_KINDS = 'format "delta" needs every change of a fixture and cannot be combined with kinds; use format "full" with kinds'

/** `ref` is opaque to the server and echoed back; strings are the documented form, numbers are tolerated. */
const RefSchema = z.union([z.string().max(64), z.number().finite()]).optional()
/** Ids are positive safe integers, as upstream ids are. */
const Ids = z.array(z.number().int().positive()).max(1000)
/** `leagues` also takes `"*"`: every league the key may see, including leagues that appear later. */
const Leagues = z.union([Ids, z.literal('*')])

/** Every change kind of DESIGN §4, for `kinds` filters. */
export const CHANGE_KINDS = [
  'fixture_added', 'state_changed', 'score_changed', 'event_added', 'event_updated', 'event_removed',
  'period_changed', 'clock', 'fixture_updated', 'fixture_removed'
] as const satisfies readonly ChangeKind[]
const Kinds = z.array(z.enum(CHANGE_KINDS)).min(1).max(CHANGE_KINDS.length * 2)

// Strict objects: a typo such as `league` instead of `leagues` would otherwise subscribe to nothing, silently.
const Subscribe = z.strictObject({
  op: z.literal('subscribe'),
  ref: RefSchema,
  leagues: Leagues.optional(),
  fixtures: Ids.optional(),
  teams: Ids.optional(),
  kinds: Kinds.optional(),
  since: z.string().max(128).optional(),
  snapshot: z.boolean().default(true),
  format: z.enum(FORMATS).optional()
})

const Unsubscribe = z.strictObject({
  op: z.literal('unsubscribe'),
  ref: RefSchema,
  leagues: Leagues.optional(),
  fixtures: Ids.optional(),
  teams: Ids.optional(),
  kinds: Kinds.optional()
})

const Ping = z.strictObject({ op: z.literal('ping'), ref: RefSchema })

export const ClientFrameSchema = z.discriminatedUnion('op', [Subscribe, Unsubscribe, Ping])

export type ClientFrame = z.infer<typeof ClientFrameSchema>
export type SubscribeFrame = z.infer<typeof Subscribe>
export type UnsubscribeFrame = z.infer<typeof Unsubscribe>
export type Ref = string | number | undefined

const OPS = new Set(['subscribe', 'unsubscribe', 'ping'])

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

function fail (ref: Ref, code: ErrorCode, message: string): ParseResult {
  return { ok: false, error: errorFrame(ref, code, message) }
}

// ---- server frames ---------------------------------------------------------------------------------

export interface HelloFrame { type: 'hello', protocol: number, cursor: string, heartbeat_ms: number }
/**
 * The connection's whole subscription after the operation: `leagues` is `"*"` while it follows every league
 * of its key; `kinds` is present only while the connection receives some kinds of change, not all.
 */
export interface SubscribedFrame {
  type: 'subscribed' | 'unsubscribed'
  ref?: Ref
  leagues: number[] | '*'
  fixtures: number[]
  teams: number[]
  kinds?: ChangeKind[]
}
export interface SnapshotFrame { type: 'snapshot', ref?: Ref, cursor: string, fixtures: LiveFixture[] }
/**
 * `cursor` (when recovered): the last log position the replay examined. Once the `count` changes that
 * follow have arrived, every change up to it was received or filtered out, so a client whose filter
 * (`kinds`, `teams`) skipped the latest changes may resume from it rather than from its last change.
 */
export interface ReplayFrame { type: 'replay', ref?: Ref, recovered: boolean, count: number, cursor?: string }
export interface PongFrame { type: 'pong', ref?: Ref }
export interface ErrorFrame {
  type: 'error'
  ref?: Ref
  code: ErrorCode
  message: string
  /** With `forbidden`: the leagues outside the key's scope, so a client can drop them without reading `message`. */
  leagues?: number[]
  /** With `forbidden` after a keys reload: subscribed fixtures of leagues the key no longer covers. */
  fixtures?: number[]
  /** With `forbidden`: teams known to play only in leagues outside the key's scope. */
  teams?: number[]
}
export type ChangeFrame = { type: 'change' } & ChangeRecord

/** Every frame except `change`, which is spliced from the store's JSON (see changeFrameJson). */
export type ControlFrame = HelloFrame | SubscribedFrame | SnapshotFrame | ReplayFrame | PongFrame | ErrorFrame

export const helloFrame = (cursor: string, heartbeatMs: number): HelloFrame =>
  ({ type: 'hello', protocol: PROTOCOL_VERSION, cursor, heartbeat_ms: heartbeatMs })

export const subscribedFrame = (type: SubscribedFrame['type'], ref: Ref, subscription: Omit<SubscribedFrame, 'type' | 'ref'>): SubscribedFrame =>
  ({ type, ref, ...subscription })

export const snapshotFrame = (ref: Ref, cursor: string, fixtures: LiveFixture[]): SnapshotFrame =>
  ({ type: 'snapshot', ref, cursor, fixtures })

export const replayFrame = (ref: Ref, recovered: boolean, count: number, cursor?: string): ReplayFrame =>
  ({ type: 'replay', ref, recovered, count, cursor })

export const pongFrame = (ref: Ref): PongFrame => ({ type: 'pong', ref })

export const errorFrame = (ref: Ref, code: ErrorCode, message: string): ErrorFrame =>
  ({ type: 'error', ref, code, message })

/**
 * The change frame for a record, from the record's JSON as the store serialized it: `{"type":"change",`
 * spliced in front of the record's own fields, so the fixture is never serialized again per event
 * (DESIGN §4: "serialized once per event, not once per subscriber").
 */
export function changeFrameJson (recordJson: string): string {
  return '{"type":"change",' + recordJson.slice(1)
}

const CLOSE_BRACE = Buffer.from('}')

/**
 * The snapshot frame as bytes, around a fixtures array serialized once for every client that asks for the
 * same snapshot (see snapshot-cache.ts): the same JSON as `JSON.stringify(snapshotFrame(ref, cursor, fixtures))`.
 */
export function snapshotFrameBytes (ref: Ref, cursor: string, fixturesJson: Buffer): Buffer {
  const refField = ref === undefined ? '' : `"ref":${JSON.stringify(ref)},`
  const head = Buffer.from(`{"type":"snapshot",${refField}"cursor":${JSON.stringify(cursor)},"fixtures":`)
  return Buffer.concat([head, fixturesJson, CLOSE_BRACE], head.length + fixturesJson.length + 1)
}
