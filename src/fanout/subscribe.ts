/**
 * Serving a subscribe (DESIGN §4): scope and limit checks, the `subscribed` reply, then the snapshot and/or
 * the replay from `since`, without a gap or a duplicate while changes keep flowing.
 *
 * How the boundary is kept exact: the new ids join the routing index and the connection starts holding its
 * live changes (`pending`) before anything is read, so every record after the hub's head at that moment
 * (`startHead`) is held. The replay reads the log from `since` at least up to `startHead`, so together
 * they cover everything. Records read by both (the replay may read past `startHead`, and on Redis the hub's
 * tail can lag the log) are skipped by a floor: matching records at or below the last offset the replay
 * examined. A snapshot that stands in for history (no `since`, or a lost cursor) sets a floor too: the
 * log head read just before the snapshot, whose changes the snapshot already shows.
 *
 * Snapshots come from the hub's SnapshotCache (one read per filter while nothing changes, see
 * snapshot-cache.ts for why a shared one leaves no gap); replayed records go out as the JSON the store
 * returned, never serialized again.
 */
import { leagueAllowed, type ClientKey } from '../keys.ts'
import type { ChangeRecord } from '../live/types.ts'
import type { Metrics } from '../metrics.ts'
import { parseCursor } from '../store/record.ts'
import type { LiveStore, StoreFilter } from '../store/types.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import type { Connection } from './connection.ts'
import type { HubLimits } from './limits.ts'
import { Outgoing } from './outgoing.ts'
import { errorFrame, replayFrame, subscribedFrame, type ControlFrame, type ErrorFrame, type Format, type Ref, type UnsubscribeFrame } from './protocol.ts'
import type { Snapshot } from './snapshot-cache.ts'

/** A subscribe, normalized from a WebSocket frame or an SSE request. */
export interface SubscribeRequest {
  ref?: Ref
  leagues: number[]
  fixtures: number[]
  /** Every league (SSE without a filter, on a key that sees all leagues). */
  all: boolean
  since?: string
  snapshot: boolean
  /** Change frame format from now on; absent: the connection keeps its format (`full` at first). */
  format?: Format
}

/** What the flow needs from the hub. */
export interface FlowContext {
  store: LiveStore
  limits: HubLimits
  metrics: Metrics
  log: { warn: (obj: object, msg: string) => void }
  /** Cursor of the last record the hub has routed. */
  head: () => string
  /** Adds the request's ids (or `all`) to the connection's subscription. */
  link: (conn: Connection, req: SubscribeRequest) => void
  unlink: (conn: Connection, leagues: readonly number[], fixtures: readonly number[]) => void
  send: (conn: Connection, frame: ControlFrame) => void
  /** The live snapshot for a filter as the key may see it, shared with other askers while nothing changes. */
  snapshot: (filter: StoreFilter | undefined, key: ClientKey) => Promise<Snapshot>
  /** Sends a snapshot frame around the snapshot's serialized fixtures. */
  sendSnapshot: (conn: Connection, ref: Ref, cursor: string, fixtures: Buffer) => void
  /** Sends replayed changes (counted and checked for backpressure like live ones). */
  sendChanges: (conn: Connection, outs: Outgoing[]) => void
  /** Ends the connection's holding of live changes and sends them. */
  flush: (conn: Connection) => void
  /**
   * A read for this connection failed because the store is down: the hub resets the connection (replay
   * recovered:false and a snapshot) once the store answers again.
   */
  unavailable: (conn: Connection) => void
}

/** An SSE stream's fixed subscription; without leagues or fixtures it follows every league of the key. */
export interface SseSubscription {
  leagues?: number[]
  fixtures?: number[]
  /** Resume point (Last-Event-ID or `since`); without it the stream opens with a snapshot. */
  since?: string
  format?: Format
}

/** The subscribe an SSE stream stands for; a snapshot opens it unless it resumes. */
export function sseRequest (key: ClientKey, sub: SseSubscription): SubscribeRequest {
  const snapshot = sub.since === undefined
  const how = { since: sub.since, snapshot, format: sub.format }
  if (sub.leagues !== undefined || sub.fixtures !== undefined) {
    return { leagues: sub.leagues ?? [], fixtures: sub.fixtures ?? [], all: false, ...how }
  }
  return key.leagues === '*'
    ? { leagues: [], fixtures: [], all: true, ...how }
    : { leagues: [...key.leagues], fixtures: [], all: false, ...how }
}

const sorted = (ids: Set<number>): number[] => [...ids].sort((a, b) => a - b)

/** Without lists, removes everything; with one list, only what it names. Answers `unsubscribed`. */
export function serveUnsubscribe (ctx: FlowContext, conn: Connection, frame: UnsubscribeFrame): void {
  const everything = frame.leagues === undefined && frame.fixtures === undefined
  ctx.unlink(conn, frame.leagues ?? (everything ? [...conn.leagues] : []), frame.fixtures ?? (everything ? [...conn.fixtures] : []))
  ctx.send(conn, subscribedFrame('unsubscribed', frame.ref, sorted(conn.leagues), sorted(conn.fixtures)))
}

/** Never rejects: a store failure becomes an `internal` error frame; the subscription stays in place. */
export async function serveSubscribe (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<void> {
  if (!admit(ctx, conn, req)) return
  if (req.format !== undefined) conn.format = req.format
  ctx.link(conn, req)
  ctx.send(conn, subscribedFrame('subscribed', req.ref, sorted(conn.leagues), sorted(conn.fixtures)))
  if (req.since === undefined && !req.snapshot) return
  const startHead = ctx.head()
  conn.pending = []
  // Becomes the 1001 close reason if we shut down meanwhile: only a well-formed cursor fits in 123 bytes.
  conn.resumeFrom = req.since !== undefined && parseCursor(req.since) !== undefined ? req.since : startHead
  try {
    if (req.since === undefined) await sendBaseline(ctx, conn, req)
    else await resume(ctx, conn, req, req.since, startHead)
  } catch (err) {
    ctx.log.warn({ err, conn: conn.id }, 'subscribe read failed')
    ctx.send(conn, failureFrame(req.ref, err))
    if (isStoreUnavailable(err)) ctx.unavailable(conn)
  } finally {
    if (!conn.closed) ctx.flush(conn)
  }
}

/**
 * The log was lost (a new epoch, DESIGN §4), or the store was down when the connection last needed it: like
 * a subscribe whose cursor is lost, for the connection's whole subscription. `replay` with recovered:false (no `ref`: the server started it), then a fresh
 * snapshot the client takes as its new starting state. Live changes of the new epoch are held meanwhile and
 * follow the snapshot without a gap or a duplicate. Never rejects.
 */
export async function serveReset (ctx: FlowContext, conn: Connection): Promise<void> {
  if (conn.closed || (conn.subscriptionCount === 0 && !conn.all)) return
  const req: SubscribeRequest = { leagues: [...conn.leagues], fixtures: [...conn.fixtures], all: conn.all, snapshot: true }
  conn.pending ??= []
  // Floors of the old epoch can never match again; the snapshot sets the new one.
  conn.floors = undefined
  ctx.metrics.replays.inc({ recovered: 'false' })
  ctx.send(conn, replayFrame(undefined, false, 0))
  try {
    await sendBaseline(ctx, conn, req)
  } catch (err) {
    ctx.log.warn({ err, conn: conn.id }, 'snapshot after a lost log failed')
    ctx.send(conn, failureFrame(undefined, err))
    if (isStoreUnavailable(err)) ctx.unavailable(conn)
  } finally {
    if (!conn.closed) ctx.flush(conn)
  }
}

/** The error frame for a failed snapshot or replay read: `unavailable` for a store outage, else `internal`. */
function failureFrame (ref: Ref, err: unknown): ErrorFrame {
  return isStoreUnavailable(err)
    ? errorFrame(ref, 'unavailable', 'the live store is unreachable; the subscription is active, and a replay (recovered:false) and a fresh snapshot follow once it is back')
    : errorFrame(ref, 'internal', 'could not read the snapshot or replay; the subscription is active, subscribe again with since to catch up')
}

/** Scope and subscription-count checks; answers the error itself. */
function admit (ctx: FlowContext, conn: Connection, req: SubscribeRequest): boolean {
  const denied = req.leagues.filter((id) => !leagueAllowed(conn.key, id))
  if (denied.length > 0) {
    ctx.send(conn, { ...errorFrame(req.ref, 'forbidden', `leagues outside this key's scope: ${denied.join(',')}`), leagues: denied })
    return false
  }
  const fresh = new Set(req.leagues.filter((id) => !conn.leagues.has(id))).size +
    new Set(req.fixtures.filter((id) => !conn.fixtures.has(id))).size
  if (conn.subscriptionCount + fresh > ctx.limits.maxSubscriptions) {
    ctx.send(conn, errorFrame(req.ref, 'limit_exceeded', `at most ${ctx.limits.maxSubscriptions} leagues and fixtures per connection`))
    return false
  }
  return true
}

function storeFilter (req: SubscribeRequest): StoreFilter | undefined {
  // Explicit lists even when empty: the store reads an absent filter as "everything".
  return req.all ? undefined : { leagues: req.leagues, fixtures: req.fixtures }
}

function visible (conn: Connection, leagueId: number): boolean {
  return conn.unscoped || leagueAllowed(conn.key, leagueId)
}

/**
 * A snapshot the client takes as its starting state. The snapshot's cursor is the head read before its
 * fixtures: every change up to it is in them, so it is a gap-free resume point and lagging live copies of
 * those changes are skipped.
 */
async function sendBaseline (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<void> {
  const snap = await scopedSnapshot(ctx, conn, req)
  if (conn.closed) return
  ctx.sendSnapshot(conn, req.ref, snap.cursor, snap.fixtures)
  const pos = parseCursor(snap.cursor)
  if (pos !== undefined) conn.addFloor({ ...pos, ...floorFilter(req) })
}

/** The snapshot as the connection's key sees it; read again if a keys reload changed the key meanwhile. */
async function scopedSnapshot (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<Snapshot> {
  for (;;) {
    const key = conn.key
    const snap = await ctx.snapshot(storeFilter(req), key)
    if (conn.key === key || conn.closed) return snap
  }
}

const floorFilter = (req: SubscribeRequest) => ({ all: req.all, leagues: new Set(req.leagues), fixtures: new Set(req.fixtures) })

async function resume (ctx: FlowContext, conn: Connection, req: SubscribeRequest, since: string, startHead: string): Promise<void> {
  const replay = await readReplay(ctx.store, since, storeFilter(req), startHead, ctx.limits.replayCap)
  ctx.metrics.replays.inc({ recovered: String(replay.recovered) })
  if (conn.closed) return
  if (!replay.recovered) {
    // DESIGN §4: the reply is replay with recovered:false, and a fresh snapshot follows.
    ctx.send(conn, replayFrame(req.ref, false, 0))
    await sendBaseline(ctx, conn, req)
    return
  }
  if (req.snapshot) {
    // Labelled with the hub's head at the start, as before; the replay that follows is what the client resumes by.
    const snap = await scopedSnapshot(ctx, conn, req)
    if (conn.closed) return
    ctx.sendSnapshot(conn, req.ref, startHead, snap.fixtures)
  }
  const outs: Outgoing[] = []
  replay.records.forEach((r, i) => { if (visible(conn, r.league_id)) outs.push(Outgoing.fromRecord(r, replay.json[i])) })
  ctx.send(conn, replayFrame(req.ref, true, outs.length))
  ctx.sendChanges(conn, outs)
  conn.addFloor({ ...replay.last, ...floorFilter(req) })
}

const LOST = { recovered: false } as const
type Replay = typeof LOST | {
  recovered: true
  records: ChangeRecord[]
  /** The records' JSON as the store returned it; an entry is undefined when the store gave none. */
  json: Array<string | undefined>
  last: { epoch: string, offset: number }
}

/**
 * Reads the changes after `since` page by page until the log has no more or the read has passed the
 * hub's head (later records reach the client through the hub). More than `cap` means LOST.
 */
async function readReplay (store: LiveStore, since: string, filter: StoreFilter | undefined, startHead: string, cap: number): Promise<Replay> {
  const stop = parseCursor(startHead)
  const records: ChangeRecord[] = []
  const json: Array<string | undefined> = []
  let cursor = since
  for (;;) {
    // One past the cap: finding a cap+1th record is how we know the cap was exceeded.
    const page = await store.readSince(cursor, { ...filter, limit: cap + 1 - records.length })
    if (!page.recovered) return LOST
    records.push(...page.records)
    // Only a store that pairs every record with its JSON is trusted with it.
    json.push(...(page.json?.length === page.records.length ? page.json : page.records.map(() => undefined)))
    if (records.length > cap) return LOST
    cursor = page.cursor
    const last = parseCursor(page.cursor)
    if (last === undefined) return LOST
    const passedHead = stop !== undefined && last.epoch === stop.epoch && last.offset >= stop.offset
    if (!page.more || passedHead) return { recovered: true, records, json, last }
  }
}
