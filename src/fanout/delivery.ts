/**
 * Writing to connections: control frames, snapshots, replayed and live changes, each counted in the metrics
 * and followed by the slow-consumer check. `route` is the hot path: the record's JSON comes from the store
 * serialized once, the change frame is built from it once as a Buffer, and that same Buffer is written to
 * every matching socket.
 *
 * Records the store hands over are routed at the end of the tick (`enqueue`): one record alone is written
 * to each socket at once; several are routed as one batch, so each socket gets them in one write
 * (writer.ts). Routing a tick late is the lag a Redis tail has anyway: `routed` moves the hub's head only
 * when a record is routed, and the resume floors (connection.ts) absorb the rest.
 */
import type { BaseLogger } from 'pino'
import type { Metrics } from '../metrics.ts'
import { parseCursor } from '../store/record.ts'
import type { LogRecord } from '../store/types.ts'
import type { Connection } from './connection.ts'
import type { Transport } from './writer.ts'
import type { HubLimits } from './limits.ts'
import { Outgoing } from './outgoing.ts'
import { snapshotFrameParts, type ControlFrame, type Ref, type SnapshotExtras } from '../protocol/control.ts'
import type { ConnectionRegistry } from './registry.ts'
import { inOneWrite } from './writer.ts'
import { LastVersions } from '../protocol/frames.ts'

export interface DeliveryDeps {
  registry: ConnectionRegistry
  metrics: Metrics
  log: BaseLogger
  limits: HubLimits
  /** Called with each record as it is routed (the hub's head). */
  routed?: (record: LogRecord, json: string) => void
}

/** A counter with its labels bound, per transport. */
type PerTransport = Record<Transport, { inc: (n?: number) => void }>

export class Delivery {
  private readonly registry: ConnectionRegistry
  private readonly metrics: Metrics
  private readonly log: BaseLogger
  private readonly maxBufferedBytes: number
  // Bound once: prom-client hashes label values on every `inc` otherwise, and `route` runs per change.
  private readonly sent: PerTransport
  private readonly bytes: PerTransport
  /** The previous version of each fixture, for `delta` frames. */
  readonly versions = new LastVersions()
  private readonly routed: ((record: LogRecord, json: string) => void) | undefined
  /** Records handed over in this tick, routed when it ends (`drain`). */
  private queue: Array<[LogRecord, string]> = []

  constructor (deps: DeliveryDeps) {
    this.registry = deps.registry
    this.metrics = deps.metrics
    this.log = deps.log
    this.maxBufferedBytes = deps.limits.maxBufferedBytes
    this.routed = deps.routed
    const { messagesSent, bytesSent } = deps.metrics
    this.sent = { ws: messagesSent.labels({ transport: 'ws', type: 'change' }), sse: messagesSent.labels({ transport: 'sse', type: 'change' }) }
    this.bytes = { ws: bytesSent.labels({ transport: 'ws' }), sse: bytesSent.labels({ transport: 'sse' }) }
  }

  send (conn: Connection, frame: ControlFrame): void {
    if (conn.closed) return
    this.countControl(conn, frame.type, conn.sendControl(frame))
  }

  /** A snapshot frame around fixtures serialized once for everyone who asked for the same snapshot. */
  sendSnapshot (conn: Connection, ref: Ref | undefined, cursor: string, fixtures: Buffer, extras?: SnapshotExtras): void {
    if (conn.closed) return
    const n = conn.sendSnapshot(snapshotFrameParts(ref, cursor, fixtures, extras), cursor)
    conn.burstBytes += n
    this.countControl(conn, 'snapshot', n)
  }

  /** Sends replayed changes, counted and checked for backpressure like live ones; in one write. */
  sendChanges (conn: Connection, outs: Outgoing[]): void {
    inOneWrite(() => {
      for (const out of outs) {
        if (conn.closed) return
        const n = conn.sendChange(out)
        conn.burstBytes += n
        this.countChange(conn, n)
        this.checkBackpressure(conn)
      }
    })
  }

  /** Ends the connection's holding of live changes, sends them, and forgets floors the tail has passed. */
  flush (conn: Connection, routedHead: string): void {
    inOneWrite(() => {
      const n = conn.flushPending()
      conn.burstBytes += n
      this.countChange(conn, n)
    })
    const routed = parseCursor(routedHead)
    if (routed !== undefined) conn.dropFloorsThrough(routed)
    this.checkBackpressure(conn)
  }

  /** Counts bytes written outside a frame (SSE heartbeat comments) and checks the backlog. */
  wrote (conn: Connection, n: number): void {
    this.bytes[conn.transport].inc(n)
    this.checkBackpressure(conn)
  }

  /** Takes a record the store appended; it is routed when this tick ends (or at `drain`). */
  enqueue (record: LogRecord, json: string): void {
    if (this.queue.push([record, json]) === 1) process.nextTick(this.drain)
  }

  /** Routes the records handed over so far: one at once, several as one batch (one write per socket). */
  readonly drain = (): void => {
    const batch = this.queue
    if (batch.length === 0) return
    this.queue = []
    if (batch.length === 1) return this.route(...batch[0] as [LogRecord, string])
    inOneWrite(() => { for (const [record, json] of batch) this.route(record, json) })
  }

  /** Writes one live change to every connection subscribed to its league, fixture or teams. */
  route (record: LogRecord, json: string): void {
    this.routed?.(record, json)
    // Every record, subscribers or not: the next delta of this fixture is built on this one.
    const prev = this.versions.swap(record)
    if (this.registry.size === 0) return
    const out = Outgoing.of(record, json, prev)
    const total = { ws: 0, sse: 0, wsBytes: 0, sseBytes: 0 }
    // `view`: the change as this connection takes it (its kinds and odds filters applied).
    this.registry.index.forEachMatch(out, (conn, view) => {
      try {
        const n = conn.push(view)
        if (n > 0) {
          if (conn.transport === 'ws') { total.ws++; total.wsBytes += n } else { total.sse++; total.sseBytes += n }
        }
        this.checkBackpressure(conn)
      } catch (err) {
        // One broken connection must not cost the others this change.
        this.log.warn({ err, conn: conn.id }, 'delivery failed; connection dropped')
        conn.terminate()
        this.registry.unregister(conn)
      }
    })
    // One metrics update per change, not per recipient.
    if (total.ws > 0) { this.sent.ws.inc(total.ws); this.bytes.ws.inc(total.wsBytes) }
    if (total.sse > 0) { this.sent.sse.inc(total.sse); this.bytes.sse.inc(total.sseBytes) }
  }

  /**
   * Drops a connection with more than `maxBufferedBytes` queued (close 4008 on WebSocket) beyond the burst it
   * was sent at once (a snapshot, a replay, what was held while they were read: Connection.burstBytes). A
   * day's snapshot alone is a megabyte or more, which a client on a slow link takes seconds to receive:
   * that is no sign of a client falling behind the live changes, and is allowed until it has drained.
   */
  checkBackpressure (conn: Connection): void {
    if (conn.closed) return
    const buffered = conn.bufferedAmount()
    if (buffered <= this.maxBufferedBytes) conn.burstBytes = 0
    if (buffered <= this.maxBufferedBytes + conn.burstBytes && conn.pendingBytes <= this.maxBufferedBytes) return
    this.log.info({ conn: conn.id, key: conn.key.name, buffered: conn.bufferedAmount() }, 'slow consumer dropped')
    this.metrics.slowConsumerCloses.inc()
    conn.dropSlow()
    // Unregistering now stops feeding it at once, whatever the transport does with the backlog.
    this.registry.retire(conn)
  }

  private countControl (conn: Connection, type: ControlFrame['type'], n: number): void {
    if (n === 0) return
    this.metrics.messagesSent.inc({ transport: conn.transport, type })
    this.bytes[conn.transport].inc(n)
    this.checkBackpressure(conn)
  }

  private countChange (conn: Connection, n: number): void {
    if (n === 0) return
    this.sent[conn.transport].inc()
    this.bytes[conn.transport].inc(n)
  }
}
