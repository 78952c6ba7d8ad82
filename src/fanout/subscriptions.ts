/**
 * The hub's routing index: league, fixture and team ids to the connections subscribed to them. A change is
 * delivered to the league's set, then to the fixture's set, then to the sets of its two teams, each minus
 * the connections already reached through an earlier one, so a client subscribed several ways gets it
 * once, without building a set per change. Matching costs one lookup per id of the change (league,
 * fixture, home, away), never one per subscriber.
 *
 * A connection with a `kinds` filter, or one that takes odds, receives a view of the change holding only
 * what it takes, built once per change and per distinct take however many connections share it, and nothing
 * when none is left. Odds records go only to connections that take odds.
 */
import { leagueAllowed } from '../client-keys.ts'
import { takeView, teamsOf, type Take } from '../changes/filter.ts'
import { isOddsRecord } from '../store/types.ts'
import { NO_TEAMS, type Connection } from './connection.ts'
import { Outgoing } from './outgoing.ts'

/** What a subscribe or unsubscribe names; `all` is `leagues: "*"`. */
export interface SubscriptionIds {
  all?: boolean
  leagues: readonly number[]
  fixtures: readonly number[]
  teams: readonly number[]
}

export class SubscriptionIndex {
  private readonly byLeague = new Map<number, Set<Connection>>()
  private readonly byFixture = new Map<number, Set<Connection>>()
  private readonly byTeam = new Map<number, Set<Connection>>()
  /** Connections that see every league of their key (`Connection.all`). */
  private readonly everything = new Set<Connection>()
  /** Leagues, fixtures and teams over all connections, for the subscriptions gauge. */
  total = 0

  /** Adds ids to the connection's subscription; returns how many were new. */
  add (conn: Connection, ids: SubscriptionIds): number {
    if (ids.all === true) {
      conn.all = true
      this.everything.add(conn)
    }
    const before = conn.subscriptionCount
    for (const id of ids.leagues) link(this.byLeague, conn.leagues, id, conn)
    for (const id of ids.fixtures) link(this.byFixture, conn.fixtures, id, conn)
    if (ids.teams.length > 0) {
      const own = conn.teams === NO_TEAMS ? new Set<number>() : conn.teams as Set<number>
      conn.teams = own
      for (const id of ids.teams) link(this.byTeam, own, id, conn)
    }
    const added = conn.subscriptionCount - before
    this.total += added
    return added
  }

  /** Removes ids from the connection's subscription; returns how many were removed. */
  remove (conn: Connection, ids: SubscriptionIds): number {
    if (ids.all === true) {
      conn.all = false
      this.everything.delete(conn)
    }
    const before = conn.subscriptionCount
    for (const id of ids.leagues) unlink(this.byLeague, conn.leagues, id, conn)
    for (const id of ids.fixtures) unlink(this.byFixture, conn.fixtures, id, conn)
    // Deleting from NO_TEAMS finds nothing, so it is never written to.
    for (const id of ids.teams) unlink(this.byTeam, conn.teams as Set<number>, id, conn)
    const removed = before - conn.subscriptionCount
    this.total -= removed
    return removed
  }

  /** Forgets the connection entirely; returns how many subscriptions it held. */
  drop (conn: Connection): number {
    return this.remove(conn, { all: true, leagues: [...conn.leagues], fixtures: [...conn.fixtures], teams: [...conn.teams] })
  }

  /** Calls `visit` once for each connection the change is for, with the change as that connection sees it. */
  forEachMatch (out: Outgoing, visit: (conn: Connection, out: Outgoing) => void): void {
    const record = out.record
    const { league_id: leagueId, fixture_id: fixtureId } = record
    const odds = isOddsRecord(record)
    let views: Map<string, Outgoing | undefined> | undefined
    const deliver = (conn: Connection): void => {
      if (odds && conn.odds === undefined) return
      if (conn.takesAll) return visit(conn, out)
      views ??= new Map()
      let view = views.get(conn.takeKey)
      if (view === undefined && !views.has(conn.takeKey)) views.set(conn.takeKey, view = takenView(out, conn.take))
      if (view !== undefined) visit(conn, view)
    }
    for (const conn of this.everything) {
      if (visible(conn, leagueId)) deliver(conn)
    }
    const viaLeague = this.byLeague.get(leagueId)
    // Scope checked here too: a subscription outlives the key's scope only by a bug, and must not leak then.
    if (viaLeague !== undefined) for (const conn of viaLeague) if (!conn.all && visible(conn, leagueId)) deliver(conn)
    const viaFixture = this.byFixture.get(fixtureId)
    if (viaFixture !== undefined) {
      for (const conn of viaFixture) {
        // A fixture id of a league outside the key's scope: the key never sees that league's changes.
        if (!viaLeagueOf(conn, leagueId) && visible(conn, leagueId)) deliver(conn)
      }
    }
    const [home, away] = teamsOf(record)
    const viaHome = this.byTeam.get(home)
    if (viaHome !== undefined) {
      for (const conn of viaHome) {
        if (!viaLeagueOf(conn, leagueId) && !conn.fixtures.has(fixtureId) && visible(conn, leagueId)) deliver(conn)
      }
    }
    const viaAway = away === home ? undefined : this.byTeam.get(away)
    if (viaAway !== undefined) {
      for (const conn of viaAway) {
        if (!viaLeagueOf(conn, leagueId) && !conn.fixtures.has(fixtureId) && !conn.teams.has(home) && visible(conn, leagueId)) deliver(conn)
      }
    }
  }
}

const visible = (conn: Connection, leagueId: number): boolean => conn.unscoped || leagueAllowed(conn.key, leagueId)

/** Whether the connection was already reached through `everything` or the league's set. */
const viaLeagueOf = (conn: Connection, leagueId: number): boolean => conn.all || conn.leagues.has(leagueId)

/**
 * The change as a connection that takes `take` sees it: the change itself when nothing is left out,
 * undefined when nothing is left (the frame is not sent).
 */
export function takenView (out: Outgoing, take: Take): Outgoing | undefined {
  const record = takeView(out.record, take)
  if (record === undefined) return undefined
  return record === out.record ? out : Outgoing.of(record, JSON.stringify(record))
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
