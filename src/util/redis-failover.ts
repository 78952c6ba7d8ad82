/**
 * Following a Sentinel failover at once, on every connection the gateway holds (docs/operations.md, "Redis
 * with Sentinel"). A connection to a primary that died is closed by the kernel and ioredis reconnects through
 * the sentinels by itself; a connection to a primary that hangs stays open and silent, every command on it
 * timing out, until the primary wakes. So the gateway listens to the sentinels' `+switch-master` and drops
 * every established connection then: each reconnects to the primary the sentinels name now.
 *
 * Not ioredis' own `failoverDetector`: it closes the connection even while one is being made, and a
 * connection closed in the middle of its sentinel lookup ends for good ("Connection is closed."), which a
 * kill followed by the promotion does (seen in test/integration/failover). Here only connections that are
 * up (`ready`, or connected and being checked) are dropped, with `disconnect(true)`: reconnect.
 */
import { Redis, type RedisOptions } from 'ioredis'
import type { RedisTarget } from './redis-url.ts'

type SentinelTarget = Extract<RedisTarget, { kind: 'sentinel' }>

export interface FailoverWatch {
  /** Adds a connection to the ones dropped on a failover (its duplicates are added by themselves). */
  track: (conn: Redis) => void
  /** How many `+switch-master` of this master were heard. */
  switches: () => number
  close: () => void
}

/** Connections that are up: dropping one that is being made would end it (see above). */
const UP = new Set(['ready', 'connect'])

export function watchFailovers (target: SentinelTarget, sentinelTls: RedisOptions['tls'], onSwitch: (message: string) => void): FailoverWatch {
  const conns = new Set<Redis>()
  let heard = 0
  let last = ''
  const track = (conn: Redis): void => {
    conns.add(conn)
    conn.once('end', () => conns.delete(conn))
    // Connections made from this one (the store's tails) follow the failover too.
    const duplicate = conn.duplicate.bind(conn)
    conn.duplicate = (override?: Partial<RedisOptions>) => {
      const copy = duplicate(override)
      track(copy)
      return copy
    }
  }
  const listeners = target.sentinels.map((s) => {
    const sub = new Redis({
      host: s.host,
      port: s.port,
      ...(target.sentinelUsername === undefined ? {} : { username: target.sentinelUsername }),
      ...(target.sentinelPassword === undefined ? {} : { password: target.sentinelPassword }),
      ...(sentinelTls === undefined ? {} : { tls: sentinelTls }),
      retryStrategy: () => 1000,
      maxRetriesPerRequest: null
    })
    sub.on('error', () => {})
    sub.subscribe('+switch-master').catch(() => {})
    sub.on('message', (_channel: string, message: string) => {
      // "<master name> <old ip> <old port> <new ip> <new port>"; each sentinel says it: act on the first.
      if (message.split(' ')[0] !== target.name || message === last) return
      last = message
      heard++
      for (const conn of conns) if (UP.has(conn.status)) conn.disconnect(true)
      onSwitch(message)
    })
    return sub
  })
  return {
    track,
    switches: () => heard,
    close: () => { for (const sub of listeners) sub.disconnect() }
  }
}
