/**
 * The fan-out hub (DESIGN §4): tails the store, routes each change to the connections subscribed to its
 * league or fixture, and owns every connection's lifecycle (limits, heartbeat, slow consumers, shutdown).
 * Transports plug in through `acceptWebSocket` and `acceptSse`; the hub never imports fastify.
 *
 * The hot path is `route`: the record's JSON comes from the store serialized once, the change frame is
 * built from it once as a Buffer, and that same Buffer is written to every matching socket.
 */
import type { ServerResponse } from 'node:http'
import type { BaseLogger } from 'pino'
import type WebSocket from 'ws'
import type { ClientKey } from '../keys.ts'
import type { ChangeRecord } from '../live/types.ts'
import type { Metrics } from '../metrics.ts'
import type { LiveStore } from '../store/types.ts'
import { SseConnection, WsConnection, type Connection } from './connection.ts'
import { RateLimiter, resolveLimits, type HubLimits } from './limits.ts'
import { Outgoing } from './outgoing.ts'
import { CLOSE_GOING_AWAY, CLOSE_KEY_REVOKED, CLOSE_TOO_MANY, errorFrame, helloFrame, parseClientFrame, pongFrame, type ClientFrame, type ControlFrame } from './protocol.ts'
import { serveSubscribe, serveUnsubscribe, sseRequest, type FlowContext, type SseSubscription, type SubscribeRequest } from './subscribe.ts'
import { SubscriptionIndex } from './subscriptions.ts'

export interface HubDeps {
  store: LiveStore
  metrics: Metrics
  log: BaseLogger
  /** Overrides of DEFAULT_LIMITS (see limits.ts for each default and why). */
  limits?: Partial<HubLimits>
}

export type { SseSubscription } from './subscribe.ts'

export interface Hub {
  readonly limits: Readonly<HubLimits>
  /** Starts tailing the store. Call before accepting connections. */
  start: () => Promise<void>
  /** Stops the tail and closes every connection: WebSocket 1001 with the final cursor as reason, SSE ended. Idempotent. */
  close: () => Promise<void>
  readonly closing: boolean
  /** Takes a token from the client IP's connection-rate bucket; false means answer 429. */
  allowConnection: (ip: string) => boolean
  /** Whether the key may open one more connection (per-key `max_connections`). */
  hasRoom: (key: ClientKey) => boolean
  /** Adopts an upgraded socket: attaches its listeners synchronously and sends `hello` (or closes 4029/1001). */
  acceptWebSocket: (socket: WebSocket, key: ClientKey) => void
  /** Adopts an SSE response whose headers are written; streams snapshot or replay, then changes. */
  acceptSse: (res: ServerResponse, key: ClientKey, sub: SseSubscription) => void
  /** Closes every connection of the key named `name` (WebSocket 4001). Returns how many were closed. */
  revokeKey: (name: string) => number
  /** Cursor of the last change routed. */
  head: () => string
  stats: () => { connections: number, subscriptions: number }
}

export function createHub (deps: HubDeps): Hub {
  const { store, metrics, log } = deps
  const limits = resolveLimits(deps.limits)
  const index = new SubscriptionIndex()
  const conns = new Set<Connection>()
  const perKey = new Map<string, number>()
  // Unregistered but still finishing a close handshake (slow consumer, revoked key): cut on shutdown so a
  // peer that never answers cannot hold the server open for ws' 30 s closing timeout.
  const lingering = new Set<Connection>()
  const rate = new RateLimiter(limits.connectionsPerSecondPerIp, limits.connectionBurstPerIp)
  // Bound once: prom-client hashes label values on every `inc` otherwise, and `route` runs per change.
  const sent = { ws: metrics.messagesSent.labels({ transport: 'ws', type: 'change' }), sse: metrics.messagesSent.labels({ transport: 'sse', type: 'change' }) }
  const bytes = { ws: metrics.bytesSent.labels({ transport: 'ws' }), sse: metrics.bytesSent.labels({ transport: 'sse' }) }
  let head = ''
  let nextId = 1
  let stopTail: (() => Promise<void>) | undefined
  let timers: NodeJS.Timeout[] = []
  let closing: Promise<void> | undefined

  function send (conn: Connection, frame: ControlFrame): void {
    if (conn.closed) return
    const n = conn.sendControl(frame)
    if (n === 0) return
    metrics.messagesSent.inc({ transport: conn.transport, type: frame.type })
    bytes[conn.transport].inc(n)
    checkBackpressure(conn)
  }

  function checkBackpressure (conn: Connection): void {
    if (conn.closed) return
    if (conn.bufferedAmount() <= limits.maxBufferedBytes && conn.pendingBytes <= limits.maxBufferedBytes) return
    log.info({ conn: conn.id, key: conn.key.name, buffered: conn.bufferedAmount() }, 'slow consumer dropped')
    metrics.slowConsumerCloses.inc()
    conn.dropSlow()
    // Unregistering now stops feeding it at once, whatever the transport does with the backlog.
    unregister(conn)
    lingering.add(conn)
  }

  function sendChanges (conn: Connection, outs: Outgoing[]): void {
    for (const out of outs) {
      if (conn.closed) return
      countChange(conn, conn.sendChange(out))
      checkBackpressure(conn)
    }
  }

  function countChange (conn: Connection, n: number): void {
    if (n === 0) return
    sent[conn.transport].inc()
    bytes[conn.transport].inc(n)
  }

  function route (record: ChangeRecord, json: string): void {
    head = record.cursor
    if (conns.size === 0) return
    const out = Outgoing.of(record, json)
    const total = { ws: 0, sse: 0, wsBytes: 0, sseBytes: 0 }
    index.forEachMatch(out, (conn) => {
      try {
        const n = conn.push(out)
        if (n > 0) {
          if (conn.transport === 'ws') { total.ws++; total.wsBytes += n } else { total.sse++; total.sseBytes += n }
        }
        checkBackpressure(conn)
      } catch (err) {
        // One broken connection must not cost the others this change.
        log.warn({ err, conn: conn.id }, 'delivery failed; connection dropped')
        conn.terminate()
        unregister(conn)
      }
    })
    // One metrics update per change, not per recipient.
    if (total.ws > 0) { sent.ws.inc(total.ws); bytes.ws.inc(total.wsBytes) }
    if (total.sse > 0) { sent.sse.inc(total.sse); bytes.sse.inc(total.sseBytes) }
  }

  const flow: FlowContext = {
    store,
    limits,
    metrics,
    log,
    head: () => head,
    link (conn, req) {
      if (req.all) index.setAll(conn)
      metrics.subscriptions.inc(index.add(conn, req.leagues, req.fixtures))
    },
    unlink (conn, leagues, fixtures) {
      metrics.subscriptions.dec(index.remove(conn, leagues, fixtures))
    },
    send,
    sendChanges,
    flush (conn) {
      countChange(conn, conn.flushPending())
      checkBackpressure(conn)
    }
  }

  function register (conn: Connection): void {
    conns.add(conn)
    perKey.set(conn.key.name, (perKey.get(conn.key.name) ?? 0) + 1)
    metrics.connections.inc({ transport: conn.transport })
  }

  function unregister (conn: Connection): void {
    if (conn.closed) return
    conn.closed = true
    conn.pending = undefined
    conn.queued = undefined
    conns.delete(conn)
    const left = (perKey.get(conn.key.name) ?? 1) - 1
    if (left === 0) perKey.delete(conn.key.name)
    else perKey.set(conn.key.name, left)
    metrics.connections.dec({ transport: conn.transport })
    metrics.subscriptions.dec(index.drop(conn))
  }

  function dispatch (conn: Connection, frame: ClientFrame): void {
    if (conn.busy) {
      conn.queued ??= []
      if (conn.queued.length >= limits.maxQueuedOps) send(conn, errorFrame(frame.ref, 'limit_exceeded', 'too many operations in flight'))
      else conn.queued.push(frame)
      return
    }
    if (frame.op === 'ping') return send(conn, pongFrame(frame.ref))
    if (frame.op === 'unsubscribe') return serveUnsubscribe(flow, conn, frame)
    conn.busy = true
    const req: SubscribeRequest = { ref: frame.ref, leagues: frame.leagues ?? [], fixtures: frame.fixtures ?? [], all: false, since: frame.since, snapshot: frame.snapshot }
    const done = (): void => {
      conn.busy = false
      // Operations that arrived meanwhile, in order, until one of them is a subscribe that goes async again.
      for (let next = conn.queued?.shift(); next !== undefined && !conn.closed; next = conn.busy ? undefined : conn.queued?.shift()) {
        dispatch(conn, next)
      }
    }
    serveSubscribe(flow, conn, req).then(done, done)
  }

  function heartbeat (): void {
    for (const conn of conns) {
      if (!(conn instanceof WsConnection)) continue
      if (!conn.alive) {
        log.debug({ conn: conn.id }, 'dead peer dropped')
        conn.terminate()
        unregister(conn)
        continue
      }
      conn.alive = false
      conn.socket.ping()
    }
    rate.sweep()
  }

  function sseHeartbeat (): void {
    for (const conn of conns) {
      if (conn instanceof SseConnection) {
        bytes.sse.inc(conn.heartbeat())
        checkBackpressure(conn)
      }
    }
  }

  async function shutdown (): Promise<void> {
    for (const t of timers) clearInterval(t)
    timers = []
    await stopTail?.()
    const closed = [...conns].map((conn) => new Promise<void>((resolve) => {
      if (conn instanceof WsConnection) conn.socket.once('close', () => resolve())
      else if (conn instanceof SseConnection && !conn.res.destroyed) conn.res.once('close', () => resolve())
      else resolve()
      // The final cursor: resuming from it loses nothing this client had not received.
      conn.close(CLOSE_GOING_AWAY, conn.resumeFrom ?? head)
    }))
    let grace: NodeJS.Timeout | undefined
    await Promise.race([Promise.all(closed), new Promise((resolve) => { grace = setTimeout(resolve, limits.closeGraceMs) })])
    clearTimeout(grace)
    for (const conn of [...conns, ...lingering]) {
      conn.terminate()
      unregister(conn)
    }
    lingering.clear()
  }

  return {
    limits,
    async start () {
      if (stopTail !== undefined) return
      head = await store.head()
      stopTail = await store.subscribe(route, (err) => log.error({ err }, 'hub tail error'))
      timers = [setInterval(heartbeat, limits.heartbeatMs), setInterval(sseHeartbeat, limits.sseHeartbeatMs)]
      for (const t of timers) t.unref()
    },
    close () {
      closing ??= shutdown()
      return closing
    },
    get closing () { return closing !== undefined },
    allowConnection: (ip) => rate.take(ip),
    hasRoom: (key) => (perKey.get(key.name) ?? 0) < key.max_connections,
    acceptWebSocket (socket, key) {
      if (closing !== undefined) return socket.close(CLOSE_GOING_AWAY, head)
      if ((perKey.get(key.name) ?? 0) >= key.max_connections) return socket.close(CLOSE_TOO_MANY, 'too many connections for this key')
      const conn = new WsConnection(nextId++, key, socket)
      register(conn)
      socket.on('message', (data, isBinary) => {
        conn.alive = true
        const parsed = parseClientFrame(data as Buffer, isBinary, limits.maxFrameBytes)
        if (parsed.ok) dispatch(conn, parsed.frame)
        else send(conn, parsed.error)
      })
      socket.on('pong', () => { conn.alive = true })
      socket.on('close', () => {
        lingering.delete(conn)
        unregister(conn)
      })
      socket.on('error', (err) => log.debug({ err, conn: conn.id }, 'websocket error'))
      send(conn, helloFrame(head, limits.heartbeatMs))
    },
    acceptSse (res, key, sub) {
      if (closing !== undefined) {
        res.end()
        return
      }
      const conn = new SseConnection(nextId++, key, res)
      register(conn)
      res.on('close', () => {
        lingering.delete(conn)
        unregister(conn)
      })
      res.on('error', (err) => log.debug({ err, conn: conn.id }, 'sse error'))
      conn.busy = true
      const done = (): void => { conn.busy = false }
      serveSubscribe(flow, conn, sseRequest(key, sub)).then(done, done)
    },
    revokeKey (name) {
      let n = 0
      for (const conn of [...conns]) {
        if (conn.key.name !== name) continue
        conn.close(CLOSE_KEY_REVOKED, 'key revoked')
        unregister(conn)
        lingering.add(conn)
        n++
      }
      return n
    },
    head: () => head,
    stats: () => ({ connections: conns.size, subscriptions: index.total })
  }
}
