/**
 * The hub's routing index: league id and fixture id to the connections subscribed to them. A change is
 * delivered to the league's set, then to the fixture's set minus those already reached through the league,
 * so a client subscribed to both gets it once, without building a set per change.
 */
import { leagueAllowed } from '../keys.ts'
import type { Connection } from './connection.ts'
import type { Outgoing } from './outgoing.ts'

export class SubscriptionIndex {
  private readonly byLeague = new Map<number, Set<Connection>>()
  private readonly byFixture = new Map<number, Set<Connection>>()
  /** Connections that see every league of their key (`Connection.all`). */
  private readonly everything = new Set<Connection>()
  /** Leagues plus fixtures over all connections, for the subscriptions gauge. */
  total = 0

  /** Adds ids to the connection's subscription; returns how many were new. */
  add (conn: Connection, leagues: readonly number[], fixtures: readonly number[]): number {
    const before = conn.subscriptionCount
    for (const id of leagues) link(this.byLeague, conn.leagues, id, conn)
    for (const id of fixtures) link(this.byFixture, conn.fixtures, id, conn)
    const added = conn.subscriptionCount - before
    this.total += added
    return added
  }

  /** Removes ids from the connection's subscription; returns how many were removed. */
  remove (conn: Connection, leagues: readonly number[], fixtures: readonly number[]): number {
    const before = conn.subscriptionCount
    for (const id of leagues) unlink(this.byLeague, conn.leagues, id, conn)
    for (const id of fixtures) unlink(this.byFixture, conn.fixtures, id, conn)
    const removed = before - conn.subscriptionCount
    this.total -= removed
    return removed
  }

  setAll (conn: Connection): void {
    conn.all = true
    this.everything.add(conn)
  }

  /** Forgets the connection entirely; returns how many subscriptions it held. */
  drop (conn: Connection): number {
    this.everything.delete(conn)
    return this.remove(conn, [...conn.leagues], [...conn.fixtures])
  }

  /** Calls `visit` once for each connection the change is for. */
  forEachMatch (out: Outgoing, visit: (conn: Connection) => void): void {
    const { league_id: leagueId, fixture_id: fixtureId } = out.record
    for (const conn of this.everything) {
      if (conn.unscoped || leagueAllowed(conn.key, leagueId)) visit(conn)
    }
    const viaLeague = this.byLeague.get(leagueId)
    if (viaLeague !== undefined) for (const conn of viaLeague) visit(conn)
    const viaFixture = this.byFixture.get(fixtureId)
    if (viaFixture === undefined) return
    for (const conn of viaFixture) {
      if (conn.all || conn.leagues.has(leagueId)) continue
      // A fixture id of a league outside the key's scope: the key never sees that league's changes.
      if (!conn.unscoped && !leagueAllowed(conn.key, leagueId)) continue
      visit(conn)
    }
  }
}

function link (index: Map<number, Set<Connection>>, own: Set<number>, id: number, conn: Connection): void {
  if (own.has(id)) return
  own.add(id)
  let set = index.get(id)
  if (set === undefined) index.set(id, set = new Set())
  set.add(conn)
}

function unlink (index: Map<number, Set<Connection>>, own: Set<number>, id: number, conn: Connection): void {
  if (!own.delete(id)) return
  const set = index.get(id)
  if (set === undefined) return
  set.delete(conn)
  // Empty sets would pile up as fixtures finish; a live day sees thousands of fixture ids.
  if (set.size === 0) index.delete(id)
}
