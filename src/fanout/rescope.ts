/**
 * A reloaded keys file applied to open connections (SIGHUP re-reads the keys file and applies it to open
 * connections too: docs/settings.md, "Signals"). Every connection is checked against its key's new record:
 *   - key gone, or its origin no longer allowed: closed with 4001 (SSE: ended);
 *   - leagues narrowed: the subscriptions outside the new scope, fixtures of those leagues included, are
 *     dropped with an `error` frame `forbidden` listing them; an SSE stream, whose subscription is fixed by
 *     its URL, gets the same frame as an `error` event and is ended. A subscription to every league
 *     (`leagues: "*"`, or SSE without a filter) follows the new scope without an error; followed teams
 *     stay, their changes checked against the new scope as every change is;
 *   - `max_connections` lowered: the newest connections over it are closed with 4029;
 *   - anything else (features, quota, a widened scope): the new record applies to the next operation.
 */
import { leagueAllowed, originAllowed, type ClientKey } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import type { LiveStore } from '../store/types.ts'
import { SseConnection, type Connection } from './connection.ts'
import type { Delivery } from './delivery.ts'
import { fixtureLeagues } from './scope-check.ts'
import { CLOSE_KEY_REVOKED, CLOSE_TOO_MANY, errorFrame } from '../protocol/control.ts'
import type { ConnectionRegistry } from './registry.ts'

export interface RescopeDeps {
  registry: ConnectionRegistry
  delivery: Delivery
  store: LiveStore
  metrics: Metrics
  log: { warn: (obj: object, msg: string) => void }
}

/** What a reload did to open connections, for the log line. */
export interface KeysApplied {
  /** Closed with 4001: key removed or origin no longer allowed. */
  revoked: number
  /** WebSocket connections that lost some subscriptions and stay open. */
  narrowed: number
  /** SSE streams ended because their subscription left the key's scope. */
  ended: number
  /** Closed with 4029 over a lowered `max_connections`. */
  overLimit: number
}

/**
 * Applies new key records to every open connection. `lookup` gives a connection's current record its new
 * one (undefined: removed). Reads the store once, for the leagues of fixture subscriptions, then changes
 * every connection in one synchronous pass. Never rejects.
 */
export async function applyKeys (deps: RescopeDeps, lookup: (key: ClientKey) => ClientKey | undefined): Promise<KeysApplied> {
  const records = new Map<ClientKey, ClientKey | undefined>()
  const next = (key: ClientKey): ClientKey | undefined => {
    if (!records.has(key)) records.set(key, lookup(key))
    return records.get(key)
  }
  const leagueOf = await subscribedFixtureLeagues(deps.store, deps.registry.list().filter((c) => scoped(next(c.key)))).catch((err: unknown) => {
    // The keys are already replaced: apply them anyway. Fixtures of removed leagues stay subscribed but,
    // as for fixtures the store does not know, their changes are filtered out when routed.
    deps.log.warn({ err }, 'keys reload: store unreadable, fixture subscriptions not checked')
    return new Map<number, number>()
  })
  const applied: KeysApplied = { revoked: 0, narrowed: 0, ended: 0, overLimit: 0 }
  for (const conn of deps.registry.list()) {
    const key = next(conn.key)
    if (key === undefined || (conn.origin !== undefined && !originAllowed(key, conn.origin))) {
      end(deps.registry, conn, CLOSE_KEY_REVOKED, key === undefined ? 'key revoked' : 'origin no longer allowed for this key')
      applied.revoked++
      continue
    }
    const before = conn.key
    deps.registry.rekey(conn, key)
    if (narrow(deps, conn, before, leagueOf)) applied[conn instanceof SseConnection ? 'ended' : 'narrowed']++
  }
  applied.overLimit = closeOverLimit(deps.registry)
  return applied
}

/**
 * One connection's new key record (a refreshed token whose narrowing changed): applied as a reload applies
 * its records, what the record no longer covers dropped with a `forbidden` frame. Never rejects.
 */
export async function applyKey (deps: RescopeDeps, conn: Connection, key: ClientKey): Promise<void> {
  const leagueOf = scoped(key) ? await subscribedFixtureLeagues(deps.store, [conn]).catch(() => new Map<number, number>()) : new Map<number, number>()
  if (conn.closed) return
  const before = conn.key
  deps.registry.rekey(conn, key)
  narrow(deps, conn, before, leagueOf)
}

const scoped = (key: ClientKey | undefined): boolean => key !== undefined && key.leagues !== '*'

/** The league of every subscribed fixture the store knows (fixtures it does not know are checked when routed). */
async function subscribedFixtureLeagues (store: LiveStore, conns: Connection[]): Promise<Map<number, number>> {
  return await fixtureLeagues(store, conns.flatMap((conn) => [...conn.fixtures]))
}

/**
 * Drops what the connection's new key no longer covers and its `before` record did; true when something
 * was dropped. A fixture of a league the key never covered stays: it was accepted while the store did not
 * know it (or in a race with this reload), and is filtered when routed, as before.
 */
function narrow ({ registry, delivery, metrics }: RescopeDeps, conn: Connection, before: ClientKey, leagueOf: ReadonlyMap<number, number>): boolean {
  if (conn.unscoped) return false
  const allowed = (leagueId: number): boolean => leagueAllowed(conn.key, leagueId)
  const lost = (leagueId: number | undefined): boolean => leagueId !== undefined && !allowed(leagueId) && leagueAllowed(before, leagueId)
  const leagues = [...conn.leagues].filter((id) => !allowed(id)).sort((a, b) => a - b)
  const fixtures = [...conn.fixtures].filter((id) => lost(leagueOf.get(id))).sort((a, b) => a - b)
  if (leagues.length === 0 && fixtures.length === 0) return false
  const what = [leagues.length > 0 ? `leagues ${leagues.join(',')}` : '', fixtures.length > 0 ? `fixtures ${fixtures.join(',')}` : '']
  delivery.send(conn, { ...errorFrame(undefined, 'forbidden', `this key no longer covers ${what.filter(Boolean).join('; ')}`), leagues, fixtures })
  if (conn instanceof SseConnection) {
    end(registry, conn, CLOSE_KEY_REVOKED, 'scope narrowed')
    return true
  }
  metrics.subscriptions.dec(registry.index.remove(conn, { leagues, fixtures, teams: [] }))
  // Changes held while a subscribe is read go out after it: none of the removed scope may be among them.
  if (conn.pending !== undefined) conn.pending = conn.pending.filter((out) => allowed(out.record.league_id))
  return true
}

/** Per key over its `max_connections`, closes the newest connections (highest ids) with 4029. */
function closeOverLimit (registry: ConnectionRegistry): number {
  const byKey = new Map<string, Connection[]>()
  for (const conn of registry.list()) {
    const list = byKey.get(conn.key.name)
    if (list === undefined) byKey.set(conn.key.name, [conn])
    else list.push(conn)
  }
  let closed = 0
  for (const conns of byKey.values()) {
    const max = conns[0]?.key.max_connections ?? Infinity
    for (const conn of conns.sort((a, b) => b.id - a.id).slice(0, Math.max(0, conns.length - max))) {
      end(registry, conn, CLOSE_TOO_MANY, 'too many connections for this key')
      closed++
    }
  }
  return closed
}

/** Stops feeding the connection at once; the transport says goodbye in the background. */
function end (registry: ConnectionRegistry, conn: Connection, code: number, reason: string): void {
  conn.close(code, reason)
  registry.retire(conn)
}
