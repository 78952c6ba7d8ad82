/**
 * The hub's routing index: league, fixture and team ids, and days, to the connections subscribed to them. A
 * change is delivered to the league's set, then to the fixture's set, then to the sets of its two teams,
 * then to the days it falls in, each minus the connections already reached through an earlier one, so a
 * client subscribed several ways gets it once, without building a set per change. Matching costs one lookup
 * per id of the change (league, fixture, home, away) and one test per distinct day followed (a few dozen:
 * a day in each time zone asked for), never one per subscriber. A change outside the live set (a fixture of
 * a day, before kick-off or after its removal: filter.ts inLiveSet) goes through the fixture's set and the
 * days only.
 *
 * A connection with a `kinds` filter, or one that takes odds, receives a view of the change holding only
 * what it takes, built once per change and per distinct take however many connections share it, and nothing
 * when none is left. Odds records go only to connections that take odds.
 */
import { leagueAllowed } from '../client-keys.ts'
import { inLiveSet, takeView, teamsOf, type Take } from '../protocol/filter.ts'
import { inRange, recordKickoffs, type DayRange } from '../protocol/days.ts'
import { isChangeRecord, isOddsRecord, isStandingsRecord } from '../store/types.ts'
import { NO_TEAMS, type Connection } from './connection.ts'
import { Outgoing } from './outgoing.ts'

/** What a subscribe or unsubscribe names; `all` is `leagues: "*"`. */
export interface RouteIds {
  all?: boolean
  leagues: readonly number[]
  fixtures: readonly number[]
  teams: readonly number[]
  /** Days by date, with the kick-offs each covers (in the connection's time zone). */
  days?: ReadonlyMap<string, DayRange>
}

const rangeKey = (range: DayRange): string => `${range.from}-${range.to}`

export class RoutingIndex {
  private readonly byLeague = new Map<number, Set<Connection>>()
  private readonly byFixture = new Map<number, Set<Connection>>()
  private readonly byTeam = new Map<number, Set<Connection>>()
  /** Connections that see every league of their key (`Connection.all`). */
  private readonly everything = new Set<Connection>()
  /** Per distinct day (its range of kick-offs): the range, and the connections following it. */
  private readonly byDay = new Map<string, { range: DayRange, conns: Set<Connection> }>()
  /** Leagues, fixtures and teams over all connections, for the subscriptions gauge. */
  total = 0

  /** Adds ids to the connection's subscription; returns how many were new. */
  add (conn: Connection, ids: RouteIds): number {
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
    for (const [date, range] of ids.days ?? []) {
      if (conn.days.has(date)) continue
      conn.days.set(date, range)
      const key = rangeKey(range)
      let day = this.byDay.get(key)
      if (day === undefined) this.byDay.set(key, day = { range, conns: new Set() })
      day.conns.add(conn)
    }
    const added = conn.subscriptionCount - before
    this.total += added
    return added
  }

  /** Removes ids from the connection's subscription; returns how many were removed. */
  remove (conn: Connection, ids: RouteIds): number {
    if (ids.all === true) {
      conn.all = false
      this.everything.delete(conn)
    }
    const before = conn.subscriptionCount
    for (const id of ids.leagues) unlink(this.byLeague, conn.leagues, id, conn)
    for (const id of ids.fixtures) unlink(this.byFixture, conn.fixtures, id, conn)
    // Deleting from NO_TEAMS finds nothing, so it is never written to.
    for (const id of ids.teams) unlink(this.byTeam, conn.teams as Set<number>, id, conn)
    for (const date of ids.days?.keys() ?? []) {
      const range = conn.days.get(date)
      if (range === undefined) continue
      conn.days.delete(date)
      const key = rangeKey(range)
      const day = this.byDay.get(key)
      day?.conns.delete(conn)
      if (day?.conns.size === 0) this.byDay.delete(key)
    }
    const removed = before - conn.subscriptionCount
    this.total -= removed
    return removed
  }

  /** Forgets the connection entirely; returns how many subscriptions it held. */
  drop (conn: Connection): number {
    return this.remove(conn, { all: true, leagues: [...conn.leagues], fixtures: [...conn.fixtures], teams: [...conn.teams], days: new Map(conn.days) })
  }

  /** Calls `visit` once for each connection the change is for, with the change as that connection sees it. */
  forEachMatch (out: Outgoing, visit: (conn: Connection, out: Outgoing) => void): void {
    const record = out.record
    if (isStandingsRecord(record)) return this.forEachStandings(out, visit)
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
    const live = inLiveSet(record)
    const [home, away] = teamsOf(record)
    const viaFixture = this.byFixture.get(fixtureId)
    if (!live) {
      // A fixture of a day outside the live set: for those following it by id, and its days.
      if (viaFixture !== undefined) for (const conn of viaFixture) if (visible(conn, leagueId)) deliver(conn)
      this.forEachDay(out, (conn) => !conn.fixtures.has(fixtureId), deliver)
      return
    }
    for (const conn of this.everything) {
      if (visible(conn, leagueId)) deliver(conn)
    }
    const viaLeague = this.byLeague.get(leagueId)
    // Scope checked here too: a subscription outlives the key's scope only by a bug, and must not leak then.
    if (viaLeague !== undefined) for (const conn of viaLeague) if (!conn.all && visible(conn, leagueId)) deliver(conn)
    if (viaFixture !== undefined) {
      for (const conn of viaFixture) {
        // A fixture id of a league outside the key's scope: the key never sees that league's changes.
        if (!viaLeagueOf(conn, leagueId) && visible(conn, leagueId)) deliver(conn)
      }
    }
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
    this.forEachDay(out, (conn) => !viaLeagueOf(conn, leagueId) && !conn.fixtures.has(fixtureId) && !conn.teams.has(home) && !conn.teams.has(away), deliver)
  }

  /**
   * A league's table: for the connections that take standings and follow its league, by id or as every
   * league of their key; not through a fixture, a team or a day.
   */
  private forEachStandings (out: Outgoing, visit: (conn: Connection, out: Outgoing) => void): void {
    const leagueId = out.record.league_id
    let views: Map<string, Outgoing | undefined> | undefined
    const deliver = (conn: Connection): void => {
      if (!conn.standings || !visible(conn, leagueId)) return
      views ??= new Map()
      let view = views.get(conn.takeKey)
      if (view === undefined && !views.has(conn.takeKey)) views.set(conn.takeKey, view = takenView(out, conn.take))
      if (view !== undefined) visit(conn, view)
    }
    for (const conn of this.everything) deliver(conn)
    const viaLeague = this.byLeague.get(leagueId)
    if (viaLeague !== undefined) for (const conn of viaLeague) if (!conn.all) deliver(conn)
  }

  /**
   * The connections following a day the change falls in (its fixture's kick-off, or the one before the change
   * moved it) that `fresh` says were not reached another way, each once, within the key's scope.
   */
  private forEachDay (out: Outgoing, fresh: (conn: Connection) => boolean, deliver: (conn: Connection) => void): void {
    if (this.byDay.size === 0 || !isChangeRecord(out.record)) return
    const kickoffs = recordKickoffs(out.record)
    if (kickoffs.length === 0) return
    const reached = kickoffs.length > 1 ? new Set<Connection>() : undefined
    for (const { range, conns } of this.byDay.values()) {
      if (!kickoffs.some((ms) => inRange(range, ms))) continue
      for (const conn of conns) {
        if (!fresh(conn) || !visible(conn, out.record.league_id) || reached?.has(conn) === true) continue
        reached?.add(conn)
        deliver(conn)
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
