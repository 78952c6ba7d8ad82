/**
 * The fan-out hub (docs/architecture.md, "The pipeline"; what clients see is docs/protocol.md): tails the store, routes each change to the connections subscribed to its
 * league, fixture or teams, and owns every connection's lifecycle (limits, heartbeat, slow consumers, shutdown).
 * Transports plug in through `acceptWebSocket` and `acceptSse`; the hub never imports fastify.
 *
 * This file wires the parts together; each concern lives in its own module:
 *   registry.ts        open connections, per-key counts, the routing index
 *   delivery.ts        writing frames, backpressure, and `route`, the hot path
 *   client-ops.ts      a WebSocket client's frames: operation rate, ordering
 *   subscribe.ts       serving a subscribe: snapshot and replay without gap or duplicate
 *   snapshot-cache.ts  serialized snapshots shared while nothing changes
 *   lifecycle.ts       heartbeats, revoking a key, shutdown
 *   rescope.ts         a reloaded keys file applied to open connections
 *   recent.ts          the last records routed, answering replays from recent cursors without the store
 *   recovery.ts        a lost log or an unreachable store: replay recovered:false and a fresh snapshot
 */
import type { ServerResponse } from 'node:http'
import type { BaseLogger } from 'pino'
import type WebSocket from 'ws'
import type { ClientKey } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import { formatCursor } from '../store/record.ts'
import { isRedisOutage } from '../store/unavailable.ts'
import type { LiveStore } from '../store/types.ts'
import { minutesAt } from '../protocol/clock.ts'
import { ClientOps } from './client-ops.ts'
import { SseConnection, WsConnection, type Fan } from './connection.ts'
import { Delivery } from './delivery.ts'
import { closeAll, revokeKey, startHeartbeats } from './lifecycle.ts'
import { RateLimiter, resolveLimits, type HubLimits } from './limits.ts'
import { RecentLog } from './recent.ts'
import { Recovery } from './recovery.ts'
import { CLOSE_GOING_AWAY, CLOSE_TOO_MANY, helloFrame } from '../protocol/control.ts'
import { ConnectionRegistry } from './registry.ts'
import { applyKey, applyKeys, type KeysApplied } from './rescope.ts'
import { awaitFirstAuth, refreshToken, type Authenticate } from './auth.ts'
import { SnapshotCache, type Snapshot } from './snapshot-cache.ts'
import { releaseInflater } from './writer.ts'
import { serveSubscribe, sseRequest, type FlowContext, type SseSubscription } from './subscribe.ts'
import type { LiveFilter } from '../protocol/filter.ts'

export interface HubDeps {
  store: LiveStore
  metrics: Metrics
  log: BaseLogger
  /** Overrides of DEFAULT_LIMITS (see limits.ts for each default and why). */
  limits?: Partial<HubLimits>
  /**
   * The log was lost and a new epoch began (a flush, a restart without data, a failover to a replica that
   * lacked acknowledged writes): called once per new epoch this instance's tail meets, after the subscribers
   * were reset. The gateway reconciles the poller at once, since the state stored with the log may be as old.
   */
  onLogLost?: (epoch: string) => void
  /** Verifies a signed connection token of an `auth` frame (auth.ts); without it `auth` is refused. */
  authenticate?: Authenticate
}

export type { KeysApplied } from './rescope.ts'

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
  /** Whether one more connection fits a fan's `max_connections_per_fan` (a token's `sub`). */
  hasRoomForFan: (key: ClientKey, fan: string) => boolean
  /**
   * Adopts an upgraded socket: attaches its listeners synchronously and sends `hello` (or closes 4029/1001).
   * `origin`, the request's Origin header, is checked again when the keys are reloaded.
   */
  acceptWebSocket: (socket: WebSocket, key: ClientKey, origin?: string, fan?: Fan) => void
  /** Adopts a socket upgraded with no credential once its first frame, `auth`, admits it (auth.ts). */
  acceptUnauthenticated: (socket: WebSocket, origin?: string) => void
  /** Adopts an SSE response whose headers are written; streams snapshot or replay, then changes. */
  acceptSse: (res: ServerResponse, key: ClientKey, sub: SseSubscription, origin?: string, fan?: Fan) => void
  /**
   * Ends every connection of the key named `name` at once: WebSocket closed with 4001, SSE streams ended.
   * For keys removed from the keys file; the caller must also stop the key being accepted. Returns how many.
   */
  revokeKey: (name: string) => number
  /**
   * Applies reloaded key records to every open connection (see rescope.ts): `lookup` maps a connection's
   * record to its new one, undefined when the key is gone.
   */
  applyKeys: (lookup: (key: ClientKey) => ClientKey | undefined) => Promise<KeysApplied>
  /**
   * The live snapshot for `filter` (undefined: every live fixture) as `key` may see it, as a JSON array,
   * each `minute` the one its running clock shows now; serialized once and shared with every subscribe and request asking for the same until a change is routed.
   */
  /** The live fixtures as `/v1/fixtures/live` lists them (minutes as the clocks show them now), and their ids. */
  liveSnapshot: (filter: LiveFilter | undefined, key: ClientKey) => Promise<{ json: Buffer, ids: number[] }>
  /**
   * The snapshot of a filter with days (every fixture kicking off in them, live or not) as `key` may see it,
   * shared like the live ones: the same object while no change is routed, so an answer built from it (the
   * days' endpoint renders and compresses each once) is shared too.
   */
  snapshot: (filter: LiveFilter | undefined, key: ClientKey) => Promise<Snapshot>
  /** Cursor of the last change routed. */
  head: () => string
  /** `floors` counts the resume floors connections hold, which must not pile up (see Connection.addFloor). */
  stats: () => { connections: number, subscriptions: number, floors: number }
}

interface HubParts {
  deps: HubDeps
  limits: HubLimits
  registry: ConnectionRegistry
  delivery: Delivery
  snapshots: SnapshotCache
  recent: RecentLog
  /** Cursor of the last record routed. */
  head: () => string
}

export function createHub (deps: HubDeps): Hub {
  const { store, metrics, log } = deps
  const limits = resolveLimits(deps.limits)
  const registry = new ConnectionRegistry(metrics)
  let head = ''
  const recent = new RecentLog(limits.recentRecords)
  const delivery = new Delivery({
    registry,
    metrics,
    log,
    limits,
    routed: (record, json) => {
      head = record.cursor
      recent.add(record, json)
    }
  })
  const snapshots = new SnapshotCache({ store, ttlMs: limits.snapshotCacheMs, maxBytes: limits.snapshotCacheBytes })
  const rate = new RateLimiter(limits.connectionsPerSecondPerIp, limits.connectionBurstPerIp)
  let stopTail: (() => Promise<void>) | undefined
  let stopHeartbeats: (() => void) | undefined
  let closing: Promise<void> | undefined
  const parts: HubParts = { deps, limits, registry, delivery, snapshots, recent, head: () => head }
  // Called only once connections exist, after `recovery` is set.
  const flow = flowContext(parts, (conn) => recovery.storeDown(conn))
  const ops = new ClientOps(flow, limits, Date.now, async (conn, frame) => {
    await refreshToken(conn, frame.ref, frame.token, {
      authenticate: deps.authenticate,
      send: (c, f) => delivery.send(c, f),
      rekey: async (c, grant) => { await applyKey({ registry, delivery, store, metrics, log }, c, grant.key) }
    })
  })
  /** Sockets upgraded with no credential, waiting for their `auth`. */
  const unauthenticated = new Set<WebSocket>()
  const recovery = new Recovery({ store, registry, ops, log })

  async function shutdown (): Promise<void> {
    for (const socket of unauthenticated) socket.close(CLOSE_GOING_AWAY, '')
    unauthenticated.clear()
    stopHeartbeats?.()
    recovery.stop()
    await stopTail?.()
    // Records taken from the tail go out before the goodbye that names the last one.
    delivery.drain()
    await closeAll(registry, limits.closeGraceMs, head)
  }

  return {
    limits,
    async start () {
      if (stopTail !== undefined) return
      head = await store.head()
      // A store outage is logged once, at warn, until the log answers again; anything else is a bug.
      let unreachable = false
      stopTail = await store.subscribe((record, json) => {
        unreachable = false
        delivery.enqueue(record, json)
      }, (err) => {
        if (!isRedisOutage(err)) return log.error({ err }, 'hub tail error')
        if (!unreachable) log.warn({ reason: (err as Error).message }, 'hub tail: store unreachable, retrying')
        unreachable = true
      }, (epoch) => {
        unreachable = false
        // The old log's records come first, then the new epoch's replay and snapshot.
        delivery.drain()
        head = formatCursor(epoch, 0)
        recent.clear()
        delivery.versions.clear()
        recovery.logLost(epoch)
        deps.onLogLost?.(epoch)
      })
      stopHeartbeats = startHeartbeats({ registry, delivery, limits, log, rate, fanOps: ops.fanLimiter })
    },
    close () {
      closing ??= shutdown()
      return closing
    },
    get closing () { return closing !== undefined },
    allowConnection: (ip) => rate.take(ip),
    hasRoom: (key) => registry.countFor(key.name) < key.max_connections,
    hasRoomForFan: (key, fan) => registry.countForFan(key.name, fan) < (key.tokens?.max_connections_per_fan ?? Infinity),
    acceptWebSocket (socket, key, origin, fan) {
      if (closing !== undefined) return socket.close(CLOSE_GOING_AWAY, head)
      adoptWebSocket(parts, ops, socket, key, origin, fan)
    },
    acceptUnauthenticated (socket, origin) {
      if (closing !== undefined) return socket.close(CLOSE_GOING_AWAY, head)
      awaitFirstAuth(socket, origin, {
        authenticate: deps.authenticate,
        timeoutMs: limits.authTimeoutMs,
        maxFrameBytes: limits.maxFrameBytes,
        waiting: unauthenticated,
        adopt: (grant) => closing !== undefined
          ? (socket.close(CLOSE_GOING_AWAY, head), undefined)
          : adoptWebSocket(parts, ops, socket, grant.key, origin, { name: grant.fan, expiresAt: grant.expiresAt }),
        receive: (conn, data, isBinary) => ops.receive(conn, data, isBinary)
      })
    },
    acceptSse (res, key, sub, origin, fan) {
      if (closing !== undefined) res.end()
      else adoptSse(parts, flow, ops, res, key, sub, origin, fan)
    },
    // Changes the hub already holds go out under the scope they were made in.
    revokeKey: (name) => {
      delivery.drain()
      return revokeKey(registry, name)
    },
    applyKeys: async (lookup) => {
      delivery.drain()
      return await applyKeys({ registry, delivery, store, metrics, log }, lookup)
    },
    liveSnapshot: async (filter, key) => {
      const snap = await snapshots.get(filter, key, head)
      return { json: currentMinutes(snap, Date.now()), ids: snap.list.map((f) => f.id) }
    },
    snapshot: async (filter, key) => await snapshots.get(filter, key, head),
    head: () => head,
    stats: () => ({
      connections: registry.size,
      subscriptions: registry.index.total,
      floors: registry.list().reduce((n, conn) => n + (conn.floors?.length ?? 0), 0)
    })
  }
}

/**
 * The snapshot's fixtures with each minute the one its clock shows at `now`: a stored minute is the minute
 * at the fixture's last change, stale for a reader that does not run the clock. Serialized again only when
 * a minute moved, then shared until the next one moves. Subscribes get the stored fixtures: the deltas
 * that follow apply to those.
 */
function currentMinutes (snap: Snapshot, now: number): Buffer {
  if (snap.current !== undefined && now < snap.current.until) return snap.current.json
  const { fixtures, until } = minutesAt(snap.list, now)
  const json = fixtures === snap.list ? snap.fixtures : Buffer.from(JSON.stringify(fixtures))
  snap.current = { json, until }
  return json
}

/** What serving a subscribe needs from the hub (see subscribe.ts). */
function flowContext ({ deps, limits, registry, delivery, snapshots, recent, head }: HubParts, unavailable: FlowContext['unavailable']): FlowContext {
  const { metrics } = deps
  return {
    store: deps.store,
    limits,
    metrics,
    log: deps.log,
    head,
    recent: (since, until) => recent.between(since, until),
    link (conn, ids) {
      metrics.subscriptions.inc(registry.index.add(conn, ids))
    },
    unlink (conn, ids) {
      metrics.subscriptions.dec(registry.index.remove(conn, ids))
    },
    send: (conn, frame) => delivery.send(conn, frame),
    snapshot: (filter, key) => snapshots.get(filter, key, head()),
    sendSnapshot: (conn, ref, cursor, fixtures, extras) => delivery.sendSnapshot(conn, ref, cursor, fixtures, extras),
    sendChanges: (conn, outs) => delivery.sendChanges(conn, outs),
    flush: (conn) => delivery.flush(conn, head()),
    unavailable
  }
}

/**
 * Registers an upgraded socket and attaches every listener synchronously (an event emitted before a listener
 * is attached, an early close or error, would be lost), then says hello.
 */
function adoptWebSocket ({ limits, registry, delivery, deps, head }: HubParts, ops: ClientOps, socket: WebSocket, key: ClientKey, origin: string | undefined, fan: Fan | undefined): WsConnection | undefined {
  if (registry.countFor(key.name) >= key.max_connections) {
    socket.close(CLOSE_TOO_MANY, 'too many connections for this key')
    return undefined
  }
  if (fan !== undefined && registry.countForFan(key.name, fan.name) >= (key.tokens?.max_connections_per_fan ?? Infinity)) {
    socket.close(CLOSE_TOO_MANY, 'too many connections for this fan')
    return undefined
  }
  const conn = new WsConnection(registry.nextId(), key, socket)
  conn.origin = origin
  conn.fan = fan
  registry.register(conn)
  socket.on('message', (data, isBinary) => {
    conn.alive = true
    ops.receive(conn, data as Buffer, isBinary)
    // A browser compresses its few operations: the inflater it made ws create is let go once they are read.
    releaseInflater(socket)
  })
  socket.on('pong', () => { conn.alive = true })
  socket.on('close', () => registry.closed(conn))
  socket.on('error', (err) => deps.log.debug({ err, conn: conn.id }, 'websocket error'))
  delivery.send(conn, helloFrame(head(), limits.heartbeatMs))
  return conn
}

/** Registers an SSE response whose headers are written and serves its fixed subscription. */
function adoptSse ({ registry, deps }: HubParts, flow: FlowContext, ops: ClientOps, res: ServerResponse, key: ClientKey, sub: SseSubscription, origin: string | undefined, fan: Fan | undefined): void {
  // Checked again here: the route awaited the store between its own check and this adoption.
  if (fan !== undefined && registry.countForFan(key.name, fan.name) >= (key.tokens?.max_connections_per_fan ?? Infinity)) {
    res.end()
    return
  }
  const conn = new SseConnection(registry.nextId(), key, res)
  conn.origin = origin
  conn.fan = fan
  registry.register(conn)
  res.on('close', () => registry.closed(conn))
  res.on('error', (err) => deps.log.debug({ err, conn: conn.id }, 'sse error'))
  ops.run(conn, () => serveSubscribe(flow, conn, sseRequest(sub)))
}
