/**
 * The ends of a connection's life that the hub starts itself: heartbeats that find dead peers and keep idle
 * streams open, revoking a key, and closing everything at shutdown.
 */
import type { BaseLogger } from 'pino'
import { SseConnection, WsConnection } from './connection.ts'
import type { Delivery } from './delivery.ts'
import type { HubLimits, RateLimiter } from './limits.ts'
import { CLOSE_GOING_AWAY, CLOSE_KEY_REVOKED, CLOSE_TOKEN_EXPIRED } from '../protocol/control.ts'
import type { ConnectionRegistry } from './registry.ts'

export interface LifecycleDeps {
  registry: ConnectionRegistry
  delivery: Delivery
  limits: HubLimits
  log: BaseLogger
  /** The per-IP connection limiter and the per-fan operation limiter, swept with the WebSocket heartbeat. */
  rate: RateLimiter
  fanOps?: RateLimiter
}

/**
 * How many slices the WebSocket heartbeat is cut into: a slice of the connections is pinged every
 * `heartbeatMs / slices`, so each is pinged once per `heartbeatMs` but never all at once. Pinging 10,000
 * sockets in one go is a write loop as long as a change's fan-out (~100 ms here), plus 10,000 pongs to read
 * right after: a stall every 25 s that the changes queued behind it would wait out (bench:fanout's p99).
 * One slice per 100 ms: at 10,000 connections and the default 25 s, 40 pings a tick (under 1 ms of writes,
 * and their pongs), so no change waits behind a heartbeat for longer than it waits behind another change's
 * few writes. A short test heartbeat stays one sweep.
 */
export function heartbeatSlices (heartbeatMs: number): number {
  return Math.max(1, Math.floor(heartbeatMs / 100))
}

/** Starts the WebSocket and SSE heartbeats; returns the function that stops them. */
export function startHeartbeats (deps: LifecycleDeps): () => void {
  const slices = heartbeatSlices(deps.limits.heartbeatMs)
  let slice = 0
  const timers = [
    setInterval(() => {
      pingPeers(deps, slice, slices)
      if (slice === 0) {
        deps.rate.sweep()
        deps.fanOps?.sweep()
      }
      slice = (slice + 1) % slices
    }, deps.limits.heartbeatMs / slices),
    setInterval(() => sseHeartbeat(deps), deps.limits.sseHeartbeatMs),
    setInterval(() => closeExpired(deps.registry), 1000)
  ]
  for (const t of timers) t.unref()
  return () => { for (const t of timers) clearInterval(t) }
}

/**
 * Terminates the WebSocket peers of slice `slice` (of `slices`, by connection id) that did not answer the
 * previous ping, one heartbeat ago, and pings the others.
 */
function pingPeers ({ registry, log }: LifecycleDeps, slice: number, slices: number): void {
  // Walks the registry in place (no copy: ten ticks a second at 10,000 connections); unregistering the
  // connection being visited is safe in a Set's iteration.
  for (const conn of registry.live()) {
    if (!(conn instanceof WsConnection) || conn.id % slices !== slice) continue
    if (!conn.alive) {
      log.debug({ conn: conn.id }, 'dead peer dropped')
      conn.terminate()
      registry.unregister(conn)
      continue
    }
    conn.alive = false
    conn.socket.ping()
  }
}

function sseHeartbeat ({ registry, delivery }: LifecycleDeps): void {
  for (const conn of registry.live()) {
    if (conn instanceof SseConnection) delivery.wrote(conn, conn.heartbeat())
  }
}

/**
 * Ends the connections whose signed token has expired (docs/tokens.md): WebSocket with 4401, SSE streams
 * ended. Checked once a second: a token is honoured to its second, not to a heartbeat. Returns how many.
 */
export function closeExpired (registry: ConnectionRegistry, now: number = Date.now()): number {
  let n = 0
  if (!registry.hasFans()) return 0
  for (const conn of registry.live()) {
    // The key's grace lets an open connection refresh its token (auth.ts) a little late.
    if (conn.fan === undefined || conn.fan.expiresAt + (conn.key.tokens?.expiry_grace_s ?? 0) * 1000 > now) continue
    conn.close(CLOSE_TOKEN_EXPIRED, 'token expired')
    registry.retire(conn)
    n++
  }
  return n
}

/**
 * Ends every connection of the key named `name`: WebSocket with 4001, SSE streams ended. They stop receiving
 * at once; the transports finish their goodbye in the background. Returns how many were ended.
 */
export function revokeKey (registry: ConnectionRegistry, name: string): number {
  let n = 0
  for (const conn of registry.list()) {
    if (conn.key.name !== name) continue
    conn.close(CLOSE_KEY_REVOKED, 'key revoked')
    registry.retire(conn)
    n++
  }
  return n
}

/**
 * Closes every connection (WebSocket 1001 with the cursor to resume from as reason, SSE ended), waits up to
 * `closeGraceMs` for the goodbyes, then cuts whatever is left, lingering connections included.
 */
export async function closeAll (registry: ConnectionRegistry, closeGraceMs: number, head: string): Promise<void> {
  const closed = registry.list().map((conn) => new Promise<void>((resolve) => {
    if (conn instanceof WsConnection) conn.socket.once('close', () => resolve())
    else if (conn instanceof SseConnection && !conn.res.destroyed) conn.res.once('close', () => resolve())
    else resolve()
    // The final cursor: resuming from it loses nothing this client had not received. None while the client
    // waits for a reset: it resumes from the last cursor it received, and the next instance resets it.
    conn.close(CLOSE_GOING_AWAY, conn.resetting ? '' : conn.resumeFrom ?? head)
  }))
  let grace: NodeJS.Timeout | undefined
  await Promise.race([Promise.all(closed), new Promise((resolve) => { grace = setTimeout(resolve, closeGraceMs) })])
  clearTimeout(grace)
  for (const conn of registry.everything()) {
    conn.terminate()
    registry.unregister(conn)
  }
  registry.clearLingering()
}
