/**
 * The ends of a connection's life that the hub starts itself: heartbeats that find dead peers and keep idle
 * streams open, revoking a key, and closing everything at shutdown.
 */
import type { BaseLogger } from 'pino'
import { SseConnection, WsConnection } from './connection.ts'
import type { Delivery } from './delivery.ts'
import type { HubLimits, RateLimiter } from './limits.ts'
import { CLOSE_GOING_AWAY, CLOSE_KEY_REVOKED } from './protocol.ts'
import type { ConnectionRegistry } from './registry.ts'

export interface LifecycleDeps {
  registry: ConnectionRegistry
  delivery: Delivery
  limits: HubLimits
  log: BaseLogger
  /** The per-IP connection limiter, swept with the WebSocket heartbeat. */
  rate: RateLimiter
}

/** Starts the WebSocket and SSE heartbeats; returns the function that stops them. */
export function startHeartbeats (deps: LifecycleDeps): () => void {
  const timers = [
    setInterval(() => { pingPeers(deps); deps.rate.sweep() }, deps.limits.heartbeatMs),
    setInterval(() => sseHeartbeat(deps), deps.limits.sseHeartbeatMs)
  ]
  for (const t of timers) t.unref()
  return () => { for (const t of timers) clearInterval(t) }
}

/** Terminates WebSocket peers that did not answer the previous ping, and pings the others. */
function pingPeers ({ registry, log }: LifecycleDeps): void {
  for (const conn of registry.list()) {
    if (!(conn instanceof WsConnection)) continue
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
  for (const conn of registry.list()) {
    if (conn instanceof SseConnection) delivery.wrote(conn, conn.heartbeat())
  }
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
    // The final cursor: resuming from it loses nothing this client had not received.
    conn.close(CLOSE_GOING_AWAY, conn.resumeFrom ?? head)
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
