/**
 * The hub's connection registry: every open connection, the per-key connection counts behind
 * `max_connections`, the routing index, and the connections that were let go but are still saying goodbye.
 */
import type { ClientKey } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import type { Connection } from './connection.ts'
import { RoutingIndex } from './routing.ts'

export class ConnectionRegistry {
  readonly index = new RoutingIndex()
  private readonly conns = new Set<Connection>()
  private readonly perKey = new Map<string, number>()
  /** Connections per fan of a key (`<key name>\n<sub>`), for tokens' `max_connections_per_fan`. */
  private readonly perFan = new Map<string, number>()
  /**
   * Unregistered but still finishing a close handshake (slow consumer, revoked key): cut on shutdown so a
   * peer that never answers cannot hold the server open for ws' 30 s closing timeout.
   */
  private readonly lingering = new Set<Connection>()
  private lastId = 0

  constructor (private readonly metrics: Metrics) {}

  nextId (): number {
    return ++this.lastId
  }

  get size (): number {
    return this.conns.size
  }

  /** Registered connections; a copy, so callers may unregister while they walk it. */
  list (): Connection[] {
    return [...this.conns]
  }

  /**
   * Registered connections, walked in place: unregistering the one being visited is safe (a Set's
   * iteration), and connections registered during the walk are visited too. For walks that only read or
   * drop the current connection; `list` for anything else.
   */
  live (): IterableIterator<Connection> {
    return this.conns.values()
  }

  /** Registered and lingering connections alike, for the final cut at shutdown. */
  everything (): Connection[] {
    return [...this.conns, ...this.lingering]
  }

  /** Whether any open connection came with a signed token. */
  hasFans (): boolean {
    return this.perFan.size > 0
  }

  /** Open connections of one fan of a key. */
  countForFan (keyName: string, fan: string): number {
    return this.perFan.get(`${keyName}\n${fan}`) ?? 0
  }

  countFor (keyName: string): number {
    return this.perKey.get(keyName) ?? 0
  }

  register (conn: Connection): void {
    this.conns.add(conn)
    this.perKey.set(conn.key.name, this.countFor(conn.key.name) + 1)
    if (conn.fan !== undefined) this.perFan.set(`${conn.key.name}\n${conn.fan.name}`, this.countForFan(conn.key.name, conn.fan.name) + 1)
    this.metrics.connections.inc({ transport: conn.transport })
  }

  /** Gives the connection its key's reloaded record; a renamed key takes its connections' count along. */
  rekey (conn: Connection, key: ClientKey): void {
    if (key.name !== conn.key.name && !conn.closed && conn.fan !== undefined) {
      this.uncountFan(conn.key.name, conn.fan.name)
      this.perFan.set(`${key.name}\n${conn.fan.name}`, this.countForFan(key.name, conn.fan.name) + 1)
    }
    if (key.name !== conn.key.name && !conn.closed) {
      this.uncount(conn.key.name)
      this.perKey.set(key.name, this.countFor(key.name) + 1)
    }
    conn.key = key
    conn.unscoped = key.leagues === '*'
  }

  /** Stops feeding the connection and forgets it; idempotent. The transport is the caller's business. */
  unregister (conn: Connection): void {
    if (conn.closed) return
    conn.closed = true
    conn.pending = undefined
    conn.queued = undefined
    conn.floors = undefined
    this.conns.delete(conn)
    this.uncount(conn.key.name)
    if (conn.fan !== undefined) this.uncountFan(conn.key.name, conn.fan.name)
    this.metrics.connections.dec({ transport: conn.transport })
    this.metrics.subscriptions.dec(this.index.drop(conn))
  }

  /** Unregisters a connection whose transport was asked to close and may take a while to finish. */
  retire (conn: Connection): void {
    this.unregister(conn)
    this.lingering.add(conn)
  }

  /** The transport closed: nothing is left to wait for. */
  closed (conn: Connection): void {
    this.lingering.delete(conn)
    this.unregister(conn)
  }

  private uncountFan (keyName: string, fan: string): void {
    const id = `${keyName}\n${fan}`
    const left = (this.perFan.get(id) ?? 0) - 1
    if (left <= 0) this.perFan.delete(id)
    else this.perFan.set(id, left)
  }

  private uncount (keyName: string): void {
    const left = this.countFor(keyName) - 1
    if (left <= 0) this.perKey.delete(keyName)
    else this.perKey.set(keyName, left)
  }

  clearLingering (): void {
    this.lingering.clear()
  }
}
