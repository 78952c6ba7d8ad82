/**
 * One client connection, whatever its transport: its subscription, the per-connection state that makes a
 * resume gap-free (the pending buffer while a snapshot or replay is read, the replay floor), and the
 * transport's way of writing frames. Kept small: an idle connection must cost well under 16 KiB.
 */
import type { ServerResponse } from 'node:http'
import type WebSocket from 'ws'
import type { ClientKey } from '../keys.ts'
import type { Outgoing } from './outgoing.ts'
import type { ClientFrame, ControlFrame } from './protocol.ts'

export type Transport = 'ws' | 'sse'

/**
 * After a replay: live records at or below `offset` that match the replayed filter were already sent by
 * the replay. Needed because the hub's tail can lag the log (Redis), so it may deliver them again.
 */
export interface ReplayFloor {
  epoch: string
  offset: number
  all: boolean
  leagues: ReadonlySet<number>
  fixtures: ReadonlySet<number>
}

export abstract class Connection {
  abstract readonly transport: Transport
  readonly leagues = new Set<number>()
  readonly fixtures = new Set<number>()
  /** Every league the key may see (SSE without a filter on an all-leagues key). */
  all = false
  /** False when the key sees only some leagues: changes reached through a fixture are then checked. */
  readonly unscoped: boolean
  /** Answered the last heartbeat ping. */
  alive = true
  closed = false
  /** Live changes held while a snapshot or replay is read, so they go out after it, in order. */
  pending: Outgoing[] | undefined
  pendingBytes = 0
  floor: ReplayFloor | undefined
  /** A subscribe is being served; later operations wait in `queued` so replies keep their order. */
  busy = false
  queued: ClientFrame[] | undefined
  /** While `pending` is set: the cursor up to which this client has everything (for the 1001 close reason). */
  resumeFrom: string | undefined

  constructor (readonly id: number, readonly key: ClientKey) {
    this.unscoped = key.leagues === '*'
  }

  get subscriptionCount (): number {
    return this.leagues.size + this.fixtures.size
  }

  /** Sends a control frame; returns the bytes written (0 when this transport has no use for the frame). */
  abstract sendControl (frame: ControlFrame): number
  /** Sends a change frame; returns the bytes written. */
  abstract sendChange (out: Outgoing): number
  /** Bytes accepted for this client and not yet handed to the kernel. */
  abstract bufferedAmount (): number
  abstract close (code: number, reason: string): void
  /** Drops the connection without a goodbye (dead peer). */
  abstract terminate (): void

  /**
   * Takes one live change: holds it while a snapshot or replay is read, skips it when a replay already
   * sent it, sends it otherwise. Returns the bytes written.
   */
  push (out: Outgoing): number {
    if (this.closed) return 0
    if (this.pending !== undefined) {
      this.pending.push(out)
      this.pendingBytes += this.transport === 'ws' ? out.ws.length : out.sse.length
      return 0
    }
    const floor = this.floor
    if (floor !== undefined) {
      if (floor.epoch !== out.epoch || out.offset > floor.offset) {
        // Records arrive in log order: once past the floor it can never match again.
        this.floor = undefined
      } else if (floor.all || floor.leagues.has(out.record.league_id) || floor.fixtures.has(out.record.fixture_id)) {
        return 0
      }
    }
    return this.sendChange(out)
  }

  /** Ends buffering and sends what was held, through `push` so the replay floor applies. */
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

/** Text frames: ws sends a Buffer as binary unless told otherwise. Shared, so no object per send. */
const TEXT = { binary: false } as const

export class WsConnection extends Connection {
  readonly transport = 'ws' as const

  constructor (id: number, key: ClientKey, readonly socket: WebSocket) {
    super(id, key)
  }

  sendControl (frame: ControlFrame): number {
    const json = JSON.stringify(frame)
    this.socket.send(json)
    return Buffer.byteLength(json)
  }

  sendChange (out: Outgoing): number {
    const bytes = out.ws
    this.socket.send(bytes, TEXT)
    return bytes.length
  }

  bufferedAmount (): number {
    return this.socket.bufferedAmount
  }

  close (code: number, reason: string): void {
    this.socket.close(code, reason)
  }

  terminate (): void {
    this.socket.terminate()
  }
}

/** SSE carries the data frames only: the stream's subscription is fixed by its URL, so there are no replies. */
const SSE_EVENTS = new Set<ControlFrame['type']>(['snapshot', 'replay', 'error'])

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
    return this.write(out.sse)
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

  private write (chunk: string | Buffer): number {
    if (this.res.writableEnded || this.res.destroyed) return 0
    this.res.write(chunk)
    return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
  }
}
