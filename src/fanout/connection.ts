/**
 * One client connection, whatever its transport: its subscription, the per-connection state that makes a
 * resume gap-free (the pending buffer while a snapshot or replay is read, the floors), and the
 * transport's way of writing frames. Kept small: an idle connection must cost well under 16 KiB.
 */
import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type WebSocket from 'ws'
import type { ClientKey } from '../client-keys.ts'
import { inDays, teamsOf, type OddsTake, type Take } from '../protocol/filter.ts'
import type { DayRange } from '../protocol/days.ts'
import type { SubscribedKind } from '../wire-model/model.ts'
import type { OddsConflation } from './conflation.ts'
import type { Bucket } from './limits.ts'
import type { Outgoing } from './outgoing.ts'
import { compressedFrame, deflateWindow, directSocket, writeFrame, type Transport } from './writer.ts'
import type { ChangeRecord, Format } from '../wire-model/model.ts'
import { fixtureIdOf, isStandingsRecord } from '../store/types.ts'
import { CLOSE_SLOW_CONSUMER, joinParts, type ClientFrame, type ControlFrame, type SnapshotParts } from '../protocol/control.ts'
import { DEFLATE_FROM, deflatedSnapshot } from './deflate.ts'

/** Queued in place of a client frame: the hub's reset after a lost log or store (ClientOps.reset). */
export const RESET = 'reset'
export type QueuedOp = ClientFrame | typeof RESET

/**
 * Live records at or below `offset` that match the filter were already sent by a replay, or are already
 * reflected in a snapshot. Needed because the hub's tail can lag the log (Redis), so it may deliver them
 * after the replay or snapshot went out.
 */
export interface Floor {
  epoch: string
  offset: number
  all: boolean
  leagues: ReadonlySet<number>
  fixtures: ReadonlySet<number>
  teams?: ReadonlySet<number>
  /** Days followed (a record of a fixture kicking off in one matches). */
  days?: readonly DayRange[]
  /**
   * A snapshot's floor: the fixtures the snapshot holds. Only their records are reflected in it; a record of a
   * fixture it does not hold (one that left play before it was read: its final state) still goes out.
   */
  shown?: ReadonlySet<number>
}

/** The `teams` of every connection that follows no team; never written to. */
export const NO_TEAMS: ReadonlySet<number> = new Set()

/** A fan admitted by a signed connection token (src/tokens.ts). */
export interface Fan {
  name: string
  expiresAt: number
}

export abstract class Connection {
  abstract readonly transport: Transport
  readonly leagues = new Set<number>()
  readonly fixtures = new Set<number>()
  /**
   * Teams followed: a change matches when either participant is one of them. The shared empty set until
   * the first team (RoutingIndex.add), so a connection that follows none costs no set of its own.
   */
  teams: ReadonlySet<number> = NO_TEAMS
  /** Every league the key may see, including leagues that appear later (`leagues: "*"`). */
  all = false
  /** Days followed, by date (`YYYY-MM-DD` in `tz`), with the kick-offs each covers. */
  readonly days = new Map<string, DayRange>()
  /** The time zone of the days followed; fixed while any is (UTC until a subscribe names one). */
  tz = 'UTC'
  /**
   * The kinds of change delivered, undefined for all (every match kind, and every odds kind when the
   * connection takes odds). `takeKey` names what the connection takes (sorted kinds, odds filters), so every
   * connection that takes the same shares one filtered frame per change (see routing.ts).
   */
  kinds: ReadonlySet<SubscribedKind> | undefined
  /** The odds the connection takes: undefined for none (no odds frames, no images in snapshots). */
  odds: OddsTake | undefined
  /** Whether the connection takes the leagues' tables (`standings` frames, images in snapshots). */
  standings = false
  takeKey = ''
  /** Set while the connection's odds frames are conflated (`conflate_ms`, see conflation.ts). */
  conflation: OddsConflation | undefined
  /** False when the key sees only some leagues: changes reached through a fixture are then checked. */
  unscoped: boolean
  /** Change frame format, set by the latest subscribe that names one (SSE: by its URL). */
  format: Format = 'full'
  /** The browser origin the connection came from, checked again when the keys file is reloaded. */
  origin: string | undefined
  /** The fan a signed token admitted (its `sub`) and when the token expires, epoch ms; undefined for a key. */
  fan: Fan | undefined = undefined
  /** Answered the last heartbeat ping. */
  alive = true
  closed = false
  /** Live changes held while a snapshot or replay is read, so they go out after it, in order. */
  pending: Outgoing[] | undefined
  pendingBytes = 0
  /**
   * Bytes sent at once that the slow-consumer check allows beyond its limit until they have drained: the last
   * snapshot, replay and held changes (delivery.ts checkBackpressure).
   */
  burstBytes = 0
  /**
   * A read for this connection failed because the store was down (`unavailable`): it holds its live changes
   * until the reset that follows once the store answers (recovery.ts); nothing is flushed before it.
   */
  awaitingReset = false
  /**
   * Usually none: a floor outlives its subscribe only while the hub's tail lags the log, and one that covers
   * another replaces it, so a client repeating a subscribe holds one (see addFloor, dropFloorsThrough).
   */
  floors: Floor[] | undefined
  /** The client's operation-rate token bucket, made on its first frame (SSE streams never need one). */
  ops: Bucket | undefined
  /** A subscribe is being served; later operations wait in `queued` so replies keep their order. */
  busy = false
  queued: QueuedOp[] | undefined
  /** While `pending` is set: the cursor up to which this client has everything (for the 1001 close reason). */
  resumeFrom: string | undefined
  /**
   * A reset (serveReset) has begun and its snapshot has not gone out: the client holds no state of the log as
   * it is now, so a shutdown names no cursor to resume from (an empty 1001 reason).
   */
  resetting = false
  /**
   * Set by a resume that came with a snapshot (`since` and `snapshot: true`, what a client holding nothing asks
   * for): the version of each fixture the client holds as this connection has sent it. The snapshot is read
   * after the replay, so it may already show changes whose frames follow it; in `delta` format a change frame
   * then goes out whole unless the client holds exactly the version before it, so every change after the
   * cursor reaches the client in a form it can emit even when it applies nothing. Undefined otherwise: the
   * format alone decides.
   */
  held: Map<number, number> | undefined

  /** The key's record; replaced in place by a keys reload (ConnectionRegistry.rekey). */
  constructor (readonly id: number, public key: ClientKey) {
    this.unscoped = key.leagues === '*'
  }

  /** What the connection takes of the log (protocol/filter.ts). */
  get take (): Take {
    return { kinds: this.kinds, odds: this.odds, standings: this.standings }
  }

  /** Whether the connection takes records as they are: every match kind, no odds. */
  get takesAll (): boolean {
    return this.kinds === undefined && this.odds === undefined
  }

  get subscriptionCount (): number {
    return this.leagues.size + this.fixtures.size + this.teams.size
  }

  /** Sends a control frame; returns the bytes written (0 when this transport has no use for the frame). */
  abstract sendControl (frame: ControlFrame): number
  /** Sends a change frame; returns the bytes written. */
  abstract sendChange (out: Outgoing): number
  /** Sends a snapshot frame serialized by the caller (snapshotFrameParts); returns the bytes written. */
  abstract sendSnapshot (frame: SnapshotParts, cursor: string): number
  /** Bytes accepted for this client and not yet handed to the kernel. */
  abstract bufferedAmount (): number
  abstract close (code: number, reason: string): void
  /** Drops the connection without a goodbye (dead peer). */
  abstract terminate (): void
  /** Ends a connection that fell more than the buffer limit behind. */
  abstract dropSlow (): void

  /**
   * Takes one live change: holds it while a snapshot or replay is read, skips it when a replay already
   * sent it, sends it otherwise. Returns the bytes written.
   */
  push (out: Outgoing): number {
    if (this.closed) return 0
    if (this.pending !== undefined) {
      this.pending.push(out)
      this.pendingBytes += out.bytes(this.transport, this.format).length
      return 0
    }
    if (this.floors !== undefined && this.belowFloor(out)) return 0
    if (this.conflation !== undefined && out.odds && this.conflation.hold(out)) return 0
    return this.sendChange(out)
  }

  /**
   * Adds a floor unless one already skips everything it would; drops those it makes redundant. Subscribes
   * follow the log forward, so repeating one subscribe leaves a single floor, the latest.
   */
  addFloor (floor: Floor): void {
    const floors = this.floors ?? []
    if (floors.some((f) => covers(f, floor))) return
    this.floors = floors.filter((f) => !covers(floor, f))
    this.floors.push(floor)
  }

  /**
   * Forgets the floors at or below `routed`, the hub's last routed record, once nothing is held in `pending`:
   * every record up to it has then been through `push`, and later ones are above those floors. Without
   * this a floor would wait for the next matching change, which may never come.
   */
  dropFloorsThrough (routed: { epoch: string, offset: number }): void {
    if (this.floors === undefined || this.pending !== undefined) return
    const left = this.floors.filter((f) => f.epoch !== routed.epoch || f.offset > routed.offset)
    this.floors = left.length === 0 ? undefined : left
  }

  private belowFloor (out: Outgoing): boolean {
    const floors = this.floors as Floor[]
    // Records arrive in log order: once past a floor it can never match again.
    const active = floors.filter((f) => f.epoch === out.epoch && out.offset <= f.offset)
    this.floors = active.length === 0 ? undefined : active
    const leagueId = out.record.league_id
    const fixtureId = fixtureIdOf(out.record)
    const [home, away] = teamsOf(out.record)
    // A league's table below a floor is in the snapshot's tables, read after its fixtures, whichever it showed.
    const table = isStandingsRecord(out.record)
    return active.some((f) => (f.shown === undefined || table || f.shown.has(fixtureId)) && (f.all || f.leagues.has(leagueId) || f.fixtures.has(fixtureId) ||
      (f.teams !== undefined && (f.teams.has(home) || f.teams.has(away))) || (f.days !== undefined && inDays(out.record, f.days))))
  }

  /**
   * The format this change goes out in: the connection's, but whole where the client may not hold the
   * version a delta applies to (see `held`). Remembers the version sent.
   */
  protected formatOf (out: Outgoing): Format {
    const held = this.held
    if (held === undefined || this.format === 'full' || out.odds || isStandingsRecord(out.record)) return this.format
    const record = out.record as ChangeRecord
    const had = held.get(record.fixture_id)
    const version = record.fixture.version
    if (record.changes.some((c) => c.kind === 'fixture_removed')) held.delete(record.fixture_id)
    else held.set(record.fixture_id, Math.max(had ?? 0, version))
    return had === version - 1 ? 'delta' : 'full'
  }

  /** Ends buffering and sends what was held, through `push` so the floors apply. */
  flushPending (): number {
    const held = this.pending ?? []
    this.pending = undefined
    this.pendingBytes = 0
    this.resumeFrom = undefined
    let bytes = 0
    for (const out of held) bytes += this.push(out)
    return bytes
  }
}

/** Whether floor `a` skips every record floor `b` skips. */
function covers (a: Floor, b: Floor): boolean {
  if (a.epoch !== b.epoch || a.offset < b.offset) return false
  if (a.shown !== undefined && (b.shown === undefined || !isSubset(b.shown, a.shown))) return false
  const dayKey = (d: DayRange): string => `${d.from}-${d.to}`
  const aDays = new Set((a.days ?? []).map(dayKey))
  if (!(b.days ?? []).every((d) => aDays.has(dayKey(d)))) return false
  if (a.all) return true
  return !b.all && isSubset(b.leagues, a.leagues) && isSubset(b.fixtures, a.fixtures) && isSubset(b.teams ?? NONE, a.teams ?? NONE)
}

const NONE: ReadonlySet<number> = new Set()

function isSubset (small: ReadonlySet<number>, big: ReadonlySet<number>): boolean {
  if (small.size > big.size) return false
  for (const id of small) if (!big.has(id)) return false
  return true
}

/** Text frames: ws sends a Buffer as binary unless told otherwise. Shared, so no object per send. */
const TEXT = { binary: false } as const

export class WsConnection extends Connection {
  readonly transport = 'ws' as const
  /** The socket change frames are written to directly, decided once (writer.ts); undefined: through ws. */
  private readonly direct: Socket | undefined
  /** The window of the permessage-deflate negotiated (deflate.ts), undefined without it: snapshots go as they are. */
  private readonly deflateBits: number | undefined

  constructor (id: number, key: ClientKey, readonly socket: WebSocket) {
    super(id, key)
    this.direct = directSocket(socket)
    this.deflateBits = deflateWindow(socket)
  }

  sendControl (frame: ControlFrame): number {
    const json = JSON.stringify(frame)
    this.socket.send(json)
    return Buffer.byteLength(json)
  }

  sendChange (out: Outgoing): number {
    const format = this.formatOf(out)
    const payload = out.bytes('ws', format)
    writeFrame(this.socket, this.direct, out.wsFrame(format), payload)
    return payload.length
  }

  sendSnapshot (parts: SnapshotParts): number {
    const size = parts.head.length + parts.fixtures.length + parts.tail.length
    if (this.deflateBits !== undefined && this.direct !== undefined && size >= DEFLATE_FROM) {
      const payload = deflatedSnapshot(parts, this.deflateBits)
      writeFrame(this.socket, this.direct, compressedFrame(payload), payload)
      return payload.length
    }
    this.socket.send(joinParts(parts), TEXT)
    return size
  }

  bufferedAmount (): number {
    // The same figure as ws' bufferedAmount (its Sender holds nothing without compression), read from the
    // socket the delivery just wrote to.
    return this.direct !== undefined ? this.direct.writableLength : this.socket.bufferedAmount
  }

  close (code: number, reason: string): void {
    this.socket.close(code, reason)
  }

  terminate (): void {
    this.socket.terminate()
  }

  dropSlow (): void {
    // The close frame queues behind the backlog, so a client that resumes reading learns why (4008);
    // one that never does is cut by ws after its 30 s closing timeout.
    this.socket.close(CLOSE_SLOW_CONSUMER, 'slow consumer')
  }
}

/** SSE carries the data frames only: the stream's subscription is fixed by its URL, so there are no replies. */
const SSE_EVENTS = new Set<ControlFrame['type']>(['snapshot', 'replay', 'error'])
const EVENT_END = Buffer.from('\n\n')

export class SseConnection extends Connection {
  readonly transport = 'sse' as const

  constructor (id: number, key: ClientKey, readonly res: ServerResponse) {
    super(id, key)
  }

  sendControl (frame: ControlFrame): number {
    if (!SSE_EVENTS.has(frame.type)) return 0
    // The snapshot's cursor is an event id too: resuming from it misses nothing the snapshot did not show.
    const id = frame.type === 'snapshot' ? `id: ${frame.cursor}\n` : ''
    return this.write(`${id}event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`)
  }

  sendChange (out: Outgoing): number {
    return this.write(out.bytes('sse', this.formatOf(out)))
  }

  sendSnapshot (parts: SnapshotParts, cursor: string): number {
    return this.write(Buffer.concat([Buffer.from(`id: ${cursor}\nevent: snapshot\ndata: `), parts.head, parts.fixtures, parts.tail, EVENT_END]))
  }

  /** A comment line: ignored by EventSource, keeps proxies from timing the stream out. */
  heartbeat (): number {
    return this.write(': ping\n\n')
  }

  bufferedAmount (): number {
    return this.res.writableLength
  }

  close (): void {
    if (!this.res.writableEnded) this.res.end()
  }

  terminate (): void {
    this.res.destroy()
  }

  dropSlow (): void {
    // SSE has no close code to deliver, and ending would queue behind the backlog: cut it and free the memory.
    this.res.destroy()
  }

  private write (chunk: string | Buffer): number {
    if (this.res.writableEnded || this.res.destroyed) return 0
    this.res.write(chunk)
    return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
  }
}
