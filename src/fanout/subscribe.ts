/**
 * Serving a subscribe (docs/protocol.md): scope and limit checks, the `subscribed` reply, then the snapshot and/or
 * the replay from `since`, without a gap or a duplicate while changes keep flowing.
 *
 * How the boundary is kept exact: the new ids join the routing index and the connection starts holding its
 * live changes (`pending`) before anything is read, so every record after the hub's head at that moment
 * (`startHead`) is held. The replay reads the log from `since` at least up to `startHead`, so together
 * they cover everything. Records read by both (the replay may read past `startHead`, and on Redis the hub's
 * tail can lag the log) are skipped by a floor: matching records at or below the last offset the replay
 * examined. A snapshot that stands in for history (no `since`, or a lost cursor) sets a floor too: the
 * log head read just before the snapshot, whose changes the snapshot already shows.
 *
 * Snapshots come from the hub's SnapshotCache (one read per filter while nothing changes, see
 * snapshot-cache.ts for why a shared one leaves no gap); replayed records go out as the JSON the store
 * returned, never serialized again.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import { claimRefusal } from '../tokens.ts'
import type { SubscribedKind } from '../wire-model/model.ts'
import type { Metrics } from '../metrics.ts'
import { formatCursor, matcher, parseCursor } from '../store/record.ts'
import { fixtureIdOf, isOddsRecord, isStandingsRecord, type LiveStore, type LogRecord, type StoreFilter } from '../store/types.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import { OddsConflation } from './conflation.ts'
import type { RecentRecord } from './recent.ts'
import type { Connection } from './connection.ts'
import type { HubLimits } from './limits.ts'
import { Outgoing } from './outgoing.ts'
import { CHANGE_KINDS, DELTA_WITH_KINDS, MAX_DAYS, ODDS_KINDS, STANDINGS_KINDS, type Format, type SubscribedFrame } from '../wire-model/model.ts'
import { dayRange, type DayRange } from '../protocol/days.ts'
import { errorFrame, replayFrame, subscribedFrame, type ControlFrame, type ErrorFrame, type Ref, type SnapshotExtras, type SubscribeFrame, type UnsubscribeFrame } from '../protocol/control.ts'
import { type Snapshot } from './snapshot-cache.ts'
import { takenView, type RouteIds } from './routing.ts'
import { fixtureLeagues, fixturesOutside, teamsOutsideScope } from './scope-check.ts'
import { namesOdds, namesStandings, narrowOdds, readFilter, recordMatcher, takeOf, takeRefusal, type LiveFilter, type OddsTake } from '../protocol/filter.ts'

/** A subscribe, normalized from a WebSocket frame or an SSE request. */
export interface SubscribeRequest {
  ref?: Ref
  leagues: number[]
  fixtures: number[]
  teams: number[]
  /** Every league the key may see, including leagues that appear later (`leagues: "*"`). */
  all: boolean
  /** Days to follow (`YYYY-MM-DD`), in `tz` (the connection's, UTC at first). */
  dates?: string[]
  tz?: string
  /** The days' ranges, once admitted (serveSubscribe), or those of a reset. */
  days?: Map<string, DayRange>
  /** Replaces the connection's kinds filter when given (see setTake). */
  kinds?: SubscribedKind[]
  /** Whether the connection takes odds from now on; absent: as it did, unless the odds filters or kinds say so. */
  odds?: boolean
  /** Narrow the odds taken to these bookmakers and markets (they take odds). */
  bookmakers?: number[]
  markets?: number[]
  /** Whether the connection takes the leagues' tables from now on; absent: as it did, unless kinds name `standings_changed`. */
  standings?: boolean
  since?: string
  snapshot: boolean
  /** Change frame format from now on; absent: the connection keeps its format (`full` at first). */
  format?: Format
  /** Odds conflation from now on, ms (0: none); absent: as it was. */
  conflateMs?: number
}

/** What the flow needs from the hub. */
export interface FlowContext {
  store: LiveStore
  limits: HubLimits
  metrics: Metrics
  log: { warn: (obj: object, msg: string) => void }
  /** Cursor of the last record the hub has routed. */
  head: () => string
  /** The records after `since` up to `head` (the hub's head) when the hub still holds them all, else undefined. */
  recent: (since: string, head: string) => RecentRecord[] | undefined
  /** Adds the request's ids (or `all`) to the connection's subscription. */
  link: (conn: Connection, ids: RouteIds) => void
  unlink: (conn: Connection, ids: RouteIds) => void
  send: (conn: Connection, frame: ControlFrame) => void
  /** The live snapshot for a filter as the key may see it, shared with other askers while nothing changes. */
  snapshot: (filter: LiveFilter | undefined, key: ClientKey) => Promise<Snapshot>
  /** Sends a snapshot frame around the snapshot's serialized fixtures (and odds images and league tables, for a connection that takes them). */
  sendSnapshot: (conn: Connection, ref: Ref | undefined, cursor: string, fixtures: Buffer, extras?: SnapshotExtras) => void
  /** Sends replayed changes (counted and checked for backpressure like live ones). */
  sendChanges: (conn: Connection, outs: Outgoing[]) => void
  /** Ends the connection's holding of live changes and sends them. */
  flush: (conn: Connection) => void
  /**
   * A read for this connection failed because the store is down: the hub resets the connection (replay
   * recovered:false and a snapshot) once the store answers again.
   */
  unavailable: (conn: Connection) => void
}

/**
 * An SSE stream's subscription, fixed by its URL; without leagues, fixtures or teams (or with `leagues=*`)
 * it follows every league of the key, as the key's scope changes with keys reloads.
 */
export interface SseSubscription {
  leagues?: number[] | '*'
  fixtures?: number[]
  teams?: number[]
  dates?: string[]
  tz?: string
  kinds?: SubscribedKind[]
  odds?: boolean
  bookmakers?: number[]
  markets?: number[]
  standings?: boolean
  /** Resume point (Last-Event-ID or `since`); without it the stream opens with a snapshot. */
  since?: string
  format?: Format
  conflateMs?: number
}

/** The subscribe an SSE stream stands for; a snapshot opens it unless it resumes. */
export function sseRequest (sub: SseSubscription): SubscribeRequest {
  const all = sub.leagues === '*' || (sub.leagues === undefined && sub.fixtures === undefined && sub.teams === undefined && sub.dates === undefined)
  return {
    leagues: Array.isArray(sub.leagues) ? sub.leagues : [],
    fixtures: sub.fixtures ?? [],
    teams: sub.teams ?? [],
    all,
    ...(sub.dates !== undefined ? { dates: sub.dates } : {}),
    ...(sub.tz !== undefined ? { tz: sub.tz } : {}),
    kinds: sub.kinds,
    ...oddsFields(sub),
    since: sub.since,
    snapshot: sub.since === undefined,
    format: sub.format,
    ...(sub.conflateMs !== undefined ? { conflateMs: sub.conflateMs } : {})
  }
}

/** The odds and standings fields of a subscription, when it names them. */
function oddsFields (sub: { odds?: boolean, bookmakers?: number[], markets?: number[], standings?: boolean }): Pick<SubscribeRequest, 'odds' | 'bookmakers' | 'markets' | 'standings'> {
  return {
    ...(sub.odds !== undefined ? { odds: sub.odds } : {}),
    ...(sub.standings !== undefined ? { standings: sub.standings } : {}),
    ...(sub.bookmakers !== undefined ? { bookmakers: sub.bookmakers } : {}),
    ...(sub.markets !== undefined ? { markets: sub.markets } : {})
  }
}

/** The subscribe a client frame asks for. */
export function subscribeRequest (frame: SubscribeFrame): SubscribeRequest {
  return {
    ref: frame.ref,
    leagues: Array.isArray(frame.leagues) ? frame.leagues : [],
    fixtures: frame.fixtures ?? [],
    teams: frame.teams ?? [],
    all: frame.leagues === '*',
    ...(frame.dates !== undefined ? { dates: frame.dates } : {}),
    ...(frame.tz !== undefined ? { tz: frame.tz } : {}),
    kinds: frame.kinds,
    ...oddsFields(frame),
    since: frame.since,
    snapshot: frame.snapshot ?? true,
    format: frame.format,
    ...(frame.conflate_ms !== undefined ? { conflateMs: frame.conflate_ms } : {})
  }
}

const sorted = (ids: ReadonlySet<number>): number[] => [...ids].sort((a, b) => a - b)

/** The connection's whole subscription, as `subscribed` and `unsubscribed` report it. */
function subscriptionOf (conn: Connection): Omit<SubscribedFrame, 'type' | 'ref'> {
  return {
    leagues: conn.all ? '*' : sorted(conn.leagues),
    fixtures: sorted(conn.fixtures),
    teams: sorted(conn.teams),
    ...(conn.days.size === 0 ? {} : { dates: [...conn.days.keys()].sort(), tz: conn.tz }),
    ...(conn.kinds === undefined ? {} : { kinds: [...conn.kinds].sort() }),
    ...(conn.odds === undefined ? {} : { odds: true }),
    ...(conn.odds?.bookmakers === undefined ? {} : { bookmakers: sorted(conn.odds.bookmakers) }),
    ...(conn.odds?.markets === undefined ? {} : { markets: sorted(conn.odds.markets) }),
    ...(conn.conflation === undefined ? {} : { conflate_ms: conn.conflation.ms }),
    ...(conn.standings ? { standings: true } : {})
  }
}

/**
 * The odds a connection takes after this subscribe: what the request names (`odds`, odds filters, or kinds
 * that name an odds kind take odds; `odds: false` stops them), else what it took.
 */
function oddsAfter (conn: Connection, req: Pick<SubscribeRequest, 'odds' | 'bookmakers' | 'markets' | 'kinds'>): OddsTake | undefined {
  if (req.odds === false) return undefined
  return namesOdds(req) ? takeOf(req).odds : conn.odds
}

/**
 * Whether a connection takes the leagues' tables after this subscribe: what the request names (`standings`,
 * or kinds naming `standings_changed`; `standings: false` stops them), else what it took.
 */
function standingsAfter (conn: Connection, req: Pick<SubscribeRequest, 'standings' | 'kinds'>): boolean {
  if (req.standings === false) return false
  return namesStandings(req) || conn.standings
}

/**
 * What a connection takes, set as one: `kinds` is one filter for the whole connection (a subscribe naming
 * kinds replaces it, one without leaves it; an unsubscribe naming kinds stops those; an unsubscribe of
 * everything resets it to every kind, no odds and no standings), and so are its odds and standings.
 */
function setTake (conn: Connection, kinds: ReadonlySet<SubscribedKind> | undefined, odds: OddsTake | undefined, standings: boolean): void {
  conn.kinds = kinds
  conn.odds = odds
  conn.standings = standings
  // Odds held for conflation are dropped with the odds: a connection that takes them again gets their images.
  if (odds === undefined) conn.conflation?.clear()
  const oddsKey = odds === undefined ? '' : `odds:${[...odds.bookmakers ?? []].sort().join(',')}/${[...odds.markets ?? []].sort().join(',')}`
  conn.takeKey = `${kinds === undefined ? '' : [...kinds].sort().join(',')}|${oddsKey}|${standings ? 'standings' : ''}`
}

/**
 * Sets the connection's odds conflation: a new interval replaces the old one (what it held goes out as it
 * comes, through the new one), 0 ends it. A conflated frame due while a snapshot or replay is read waits
 * in `pending` like a live one.
 */
function setConflation (ctx: FlowContext, conn: Connection, ms: number): void {
  if (conn.conflation?.ms === ms) return
  conn.conflation?.clear()
  conn.conflation = ms === 0
    ? undefined
    : new OddsConflation(ms, (out) => { if (conn.pending !== undefined) conn.push(out); else ctx.sendChanges(conn, [out]) })
}

/** Without lists, removes everything; with one list, only what it names. Answers `unsubscribed`. */
export function serveUnsubscribe (ctx: FlowContext, conn: Connection, frame: UnsubscribeFrame): void {
  if (conn.closed) return
  if ((frame.kinds !== undefined || frame.bookmakers !== undefined || frame.markets !== undefined) && conn.format === 'delta') {
    ctx.send(conn, errorFrame(frame.ref, 'invalid_message', DELTA_WITH_KINDS))
    return
  }
  const everything = frame.leagues === undefined && frame.fixtures === undefined && frame.teams === undefined && frame.dates === undefined &&
    frame.kinds === undefined && frame.odds === undefined && frame.bookmakers === undefined && frame.markets === undefined && frame.standings === undefined
  if (everything) {
    ctx.unlink(conn, { all: true, leagues: [...conn.leagues], fixtures: [...conn.fixtures], teams: [...conn.teams], days: new Map(conn.days) })
    setTake(conn, undefined, undefined, false)
  } else {
    const leagues = Array.isArray(frame.leagues) ? frame.leagues : []
    const days = new Map((frame.dates ?? []).flatMap((date) => { const range = conn.days.get(date); return range === undefined ? [] : [[date, range] as const] }))
    ctx.unlink(conn, { all: frame.leagues === '*', leagues, fixtures: frame.fixtures ?? [], teams: frame.teams ?? [], days })
    const stop = new Set(frame.kinds ?? [])
    const kinds = stop.size > 0 ? new Set([...conn.kinds ?? [...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS]].filter((kind) => !stop.has(kind))) : conn.kinds
    setTake(conn, kinds, frame.odds === true ? undefined : lessOdds(conn.odds, frame), frame.standings === true ? false : conn.standings)
  }
  ctx.send(conn, subscribedFrame('unsubscribed', frame.ref, subscriptionOf(conn)))
}

/** Never rejects: a store failure becomes an `internal` error frame; the subscription stays in place. */
export async function serveSubscribe (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<void> {
  if (conn.closed || !admit(ctx, conn, req)) return
  // Only a scoped key's teams and fixtures need the store read; everything else stays synchronous up to the
  // replies. A keys reload may narrow the key meanwhile (rescope.ts sees only what is linked): admitted again
  // after, against the key as it is then.
  if ((req.teams.length > 0 || req.fixtures.length > 0) && !conn.unscoped && (!await admitByStore(ctx, conn, req) || !admit(ctx, conn, req))) return
  if (req.format !== undefined) conn.format = req.format
  if (req.conflateMs !== undefined) setConflation(ctx, conn, req.conflateMs)
  if (req.dates !== undefined && req.dates.length > 0) {
    conn.tz = req.tz ?? conn.tz
    const tz = conn.tz
    req = { ...req, days: new Map(req.dates.filter((d) => !conn.days.has(d)).map((d) => [d, dayRange(d, tz)])) }
  }
  ctx.link(conn, req)
  setTake(conn, req.kinds !== undefined ? new Set(req.kinds) : conn.kinds, oddsAfter(conn, req), standingsAfter(conn, req))
  ctx.send(conn, subscribedFrame('subscribed', req.ref, subscriptionOf(conn)))
  // Conflated odds held when an earlier connection dropped are after no cursor it saw: the snapshot's images have them.
  if (req.since !== undefined && conn.conflation !== undefined && conn.odds !== undefined) req = { ...req, snapshot: true }
  if (req.since === undefined && !req.snapshot) return
  const startHead = ctx.head()
  // A connection waiting for its reset keeps what it holds: the reset's snapshot covers it.
  conn.pending = conn.awaitingReset ? conn.pending ?? [] : []
  // Becomes the 1001 close reason if we shut down meanwhile: only a well-formed cursor fits in 123 bytes.
  conn.resumeFrom = req.since !== undefined && parseCursor(req.since) !== undefined ? req.since : startHead
  let waiting = false
  try {
    if (req.since === undefined) await sendBaseline(ctx, conn, req)
    else await resume(ctx, conn, req, req.since, startHead)
  } catch (err) {
    ctx.log.warn({ err, conn: conn.id }, 'subscribe read failed')
    ctx.send(conn, failureFrame(req.ref, err))
    waiting = waitForStore(ctx, conn, err)
  } finally {
    if (!conn.closed && !waiting && !conn.awaitingReset) ctx.flush(conn)
  }
}

/**
 * After a failed read: a store outage leaves the connection waiting for the reset that follows once the
 * store answers (true), its live changes still held, since without the snapshot or replay it has no state
 * they could apply to (the reset's snapshot and floor then pass on those after it). Any other failure: the
 * client was told to subscribe again, and its changes flow on (false).
 */
function waitForStore (ctx: FlowContext, conn: Connection, err: unknown): boolean {
  if (!isStoreUnavailable(err)) return false
  conn.awaitingReset = true
  ctx.unavailable(conn)
  return true
}

/**
 * The log was lost (a new epoch, docs/protocol.md "Resume"), or the store was down when the connection last needed it: like
 * a subscribe whose cursor is lost, for the connection's whole subscription. `replay` with recovered:false (no `ref`: the server started it), then a fresh
 * snapshot the client takes as its new starting state. Live changes of the new epoch are held meanwhile and
 * follow the snapshot without a gap or a duplicate. Never rejects.
 */
export async function serveReset (ctx: FlowContext, conn: Connection): Promise<void> {
  if (conn.closed) return
  conn.awaitingReset = false
  if (conn.subscriptionCount === 0 && !conn.all && conn.days.size === 0) {
    conn.pending = undefined
    conn.pendingBytes = 0
    return
  }
  // Changes held while the connection waited: those of a lost log are dropped; the others go out after the
  // snapshot, past its floor (only the final changes of fixtures it no longer holds, in the end).
  const epoch = parseCursor(ctx.head())?.epoch
  conn.pending = (conn.pending ?? []).filter((out) => out.epoch === epoch)
  conn.pendingBytes = conn.pending.reduce((n, out) => n + out.bytes(conn.transport, conn.format).length, 0)
  const req: SubscribeRequest = { leagues: [...conn.leagues], fixtures: [...conn.fixtures], teams: [...conn.teams], all: conn.all, days: new Map(conn.days), snapshot: true }
  // Floors of the old epoch can never match again; the snapshot sets the new one.
  conn.floors = undefined
  conn.held = undefined
  conn.resetting = true
  ctx.metrics.replays.inc({ recovered: 'false' })
  ctx.send(conn, replayFrame(undefined, false, 0))
  let waiting = false
  try {
    await sendBaseline(ctx, conn, req)
    conn.resetting = false
  } catch (err) {
    ctx.log.warn({ err, conn: conn.id }, 'snapshot after a lost log failed')
    ctx.send(conn, failureFrame(undefined, err))
    waiting = waitForStore(ctx, conn, err)
  } finally {
    if (!conn.closed && !waiting && !conn.awaitingReset) ctx.flush(conn)
  }
}

/** The error frame for a failed snapshot or replay read: `unavailable` for a store outage, else `internal`. */
function failureFrame (ref: Ref | undefined, err: unknown): ErrorFrame {
  return isStoreUnavailable(err)
    ? errorFrame(ref, 'unavailable', 'the live store is unreachable; the subscription is active, and a replay (recovered:false) and a fresh snapshot follow once it is back')
    : errorFrame(ref, 'internal', 'could not read the snapshot or replay; the subscription is active, subscribe again with since to catch up')
}

/**
 * Odds filters an unsubscribe names, taken out of the connection's odds take: narrowing filters that lose
 * their last id stop odds, as an empty filter would take nothing.
 */
function lessOdds (odds: OddsTake | undefined, frame: UnsubscribeFrame): OddsTake | undefined {
  if (odds === undefined) return undefined
  const less = (ids: ReadonlySet<number> | undefined, drop: number[] | undefined): ReadonlySet<number> | undefined | null => {
    if (ids === undefined || drop === undefined) return ids
    const left = new Set([...ids].filter((id) => !drop.includes(id)))
    return left.size === 0 ? null : left
  }
  const bookmakers = less(odds.bookmakers, frame.bookmakers)
  const markets = less(odds.markets, frame.markets)
  if (bookmakers === null || markets === null) return undefined
  return { ...(bookmakers !== undefined ? { bookmakers } : {}), ...(markets !== undefined ? { markets } : {}) }
}

/** Scope and subscription-count checks; answers the error itself. */
function admit (ctx: FlowContext, conn: Connection, req: SubscribeRequest): boolean {
  // The connection's format, kinds and odds filters after this subscribe: each field given replaces the connection's.
  const odds = oddsAfter(conn, req)
  const narrowed = (req.kinds ?? conn.kinds) !== undefined || odds?.bookmakers !== undefined || odds?.markets !== undefined
  if ((req.format ?? conn.format) === 'delta' && narrowed) {
    ctx.send(conn, errorFrame(req.ref, 'invalid_message', DELTA_WITH_KINDS))
    return false
  }
  // Odds are a paid feature of the upstream: a key without it is told so, not given an empty stream.
  const refusal = takeRefusal({ odds }, conn.key)
  if (refusal !== undefined) {
    ctx.send(conn, errorFrame(req.ref, 'forbidden', refusal))
    return false
  }
  const denied = req.leagues.filter((id) => !leagueAllowed(conn.key, id))
  if (denied.length > 0) {
    ctx.send(conn, { ...errorFrame(req.ref, 'forbidden', `leagues outside this key's scope: ${denied.join(',')}`), leagues: denied })
    return false
  }
  // A token that follows only some fixtures, teams or kinds (tokens.ts).
  const kinds = req.kinds === undefined ? conn.kinds : new Set(req.kinds)
  const claimed = claimRefusal(conn.key, { all: req.all, leagues: req.leagues, fixtures: req.fixtures, teams: req.teams, dates: req.dates?.length ?? 0, kinds })
  if (claimed !== undefined) {
    ctx.send(conn, errorFrame(req.ref, 'forbidden', claimed))
    return false
  }
  const fresh = new Set(req.leagues.filter((id) => !conn.leagues.has(id))).size +
    new Set(req.fixtures.filter((id) => !conn.fixtures.has(id))).size +
    new Set(req.teams.filter((id) => !conn.teams.has(id))).size
  if (conn.subscriptionCount + fresh > ctx.limits.maxSubscriptions) {
    ctx.send(conn, errorFrame(req.ref, 'limit_exceeded', `at most ${ctx.limits.maxSubscriptions} leagues, fixtures and teams per connection`))
    return false
  }
  return admitDays(ctx, conn, req)
}

/** Days: one time zone per connection while it follows any, and at most MAX_DAYS of them. */
function admitDays (ctx: FlowContext, conn: Connection, req: SubscribeRequest): boolean {
  if (req.dates === undefined || req.dates.length === 0) return true
  if (req.tz !== undefined && conn.days.size > 0 && req.tz !== conn.tz) {
    ctx.send(conn, errorFrame(req.ref, 'invalid_message', `this connection follows days in ${conn.tz}: unsubscribe its dates before following days in ${req.tz}`))
    return false
  }
  const days = new Set([...conn.days.keys(), ...req.dates]).size
  if (days > MAX_DAYS) {
    ctx.send(conn, errorFrame(req.ref, 'limit_exceeded', `at most ${MAX_DAYS} days per connection`))
    return false
  }
  return true
}

/**
 * Refuses fixtures of leagues outside a scoped key's scope and teams that play only outside its leagues
 * (see scope-check.ts); answers the error itself, one `forbidden` frame listing both. The fixtures' leagues
 * are checked against the key as it is after the read (a keys reload may have narrowed it meanwhile).
 */
async function admitByStore (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<boolean> {
  let teams: number[]
  let leagueOf: Map<number, number>
  try {
    [teams, leagueOf] = await Promise.all([teamsOutsideScope(ctx.store, conn.key, req.teams), fixtureLeagues(ctx.store, req.fixtures)])
  } catch (err) {
    // Unknown is accepted: the per-change scope check still applies.
    ctx.log.warn({ err, conn: conn.id }, 'team and fixture scope check: store unreadable, accepted')
    return !conn.closed
  }
  if (conn.closed) return false
  const fixtures = fixturesOutside(conn.key, req.fixtures, leagueOf)
  if (teams.length === 0 && fixtures.length === 0) return true
  const message = [
    fixtures.length > 0 ? `fixtures outside this key's scope: ${fixtures.join(',')}` : '',
    teams.length > 0 ? `teams playing only outside this key's scope: ${teams.join(',')}` : ''
  ].filter(Boolean).join('; ')
  ctx.send(conn, { ...errorFrame(req.ref, 'forbidden', message), ...(fixtures.length > 0 ? { fixtures } : {}), ...(teams.length > 0 ? { teams } : {}) })
  return false
}

/** What the request covers: its own ids, or with `all` every league (the key's scope is applied on read). */
function liveFilter (req: SubscribeRequest): LiveFilter | undefined {
  const days = req.days === undefined || req.days.size === 0 ? undefined : [...req.days.values()]
  if (days !== undefined) return req.all ? { all: true, fixtures: req.fixtures, days } : { leagues: req.leagues, fixtures: req.fixtures, teams: req.teams, days }
  // Explicit lists even when empty: the store reads an absent filter as "everything".
  return req.all ? undefined : { leagues: req.leagues, fixtures: req.fixtures, teams: req.teams }
}

function visible (conn: Connection, leagueId: number): boolean {
  return conn.unscoped || leagueAllowed(conn.key, leagueId)
}

/**
 * A snapshot the client takes as its starting state. The snapshot's cursor is the head read before its
 * fixtures: every change up to it is in them, so it is a gap-free resume point and lagging live copies of
 * those changes are skipped.
 */
async function sendBaseline (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<void> {
  const snap = await scopedSnapshot(ctx, conn, req)
  const extras = await snapshotExtras(ctx, conn, req, snap)
  if (conn.closed) return
  ctx.sendSnapshot(conn, req.ref, snap.cursor, snap.fixtures, extras)
  // A connection that tracks what its client holds (a resume with a snapshot) holds these versions now.
  for (const f of conn.held === undefined ? [] : snap.list) conn.held?.set(f.id, f.version)
  const pos = parseCursor(snap.cursor)
  if (pos !== undefined) conn.addFloor({ ...pos, ...floorFilter(req), shown: new Set(snap.list.map((f) => f.id)) })
}

/** The snapshot as the connection's key sees it; read again if a keys reload changed the key meanwhile. */
async function scopedSnapshot (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<Snapshot> {
  for (;;) {
    const key = conn.key
    const snap = await ctx.snapshot(liveFilter(req), key)
    if (conn.key === key || conn.closed) return snap
  }
}

/**
 * The odds images of a snapshot's fixtures, as a connection that takes odds sees them (narrowed to its
 * bookmakers and markets), serialized; undefined for a connection that takes none. Read after the fixtures:
 * an image may be newer than the snapshot's cursor, and the client drops the live odds frames it already has
 * by their version.
 */
async function oddsImages (ctx: FlowContext, conn: Connection, snap: Snapshot): Promise<Buffer | undefined> {
  const take = conn.odds
  if (take === undefined) return undefined
  const images = await ctx.store.getOdds(snap.list.map((f) => f.id))
  return Buffer.from(JSON.stringify(images.map((odds) => narrowOdds(odds, take))))
}

/**
 * The tables of the leagues the request follows (by id, or every league the key may see), serialized, for a
 * connection that takes standings; undefined otherwise. Read after the fixtures, as the odds images are: the
 * client drops the standings frames it already has by their version.
 */
async function standingsImages (ctx: FlowContext, conn: Connection, req: SubscribeRequest): Promise<Buffer | undefined> {
  if (!conn.standings) return undefined
  const tables = await ctx.store.getStandings(req.all ? undefined : req.leagues)
  return Buffer.from(JSON.stringify(tables.filter((t) => visible(conn, t.league_id))))
}

async function snapshotExtras (ctx: FlowContext, conn: Connection, req: SubscribeRequest, snap: Snapshot): Promise<SnapshotExtras> {
  return { odds: await oddsImages(ctx, conn, snap), standings: await standingsImages(ctx, conn, req) }
}

const floorFilter = (req: SubscribeRequest) => ({
  all: req.all, leagues: new Set(req.leagues), fixtures: new Set(req.fixtures), teams: new Set(req.teams), ...(req.days !== undefined && req.days.size > 0 ? { days: [...req.days.values()] } : {})
})

/**
 * The replayed records for a connection: of the request's leagues, fixtures or teams, within the key's
 * scope, each holding only the kinds of change the connection takes (none left: not sent). Only these count
 * towards the replay cap, so a client that follows goals is not cut off by an hour of clock ticks.
 */
function replayView (conn: Connection, req: SubscribeRequest): (record: LogRecord, json: string | undefined) => Outgoing | undefined {
  const matches = recordMatcher(liveFilter(req))
  return (record, json) => {
    if (!visible(conn, record.league_id) || !matches(record)) return undefined
    if (isOddsRecord(record) && conn.odds === undefined) return undefined
    if (isStandingsRecord(record) && !conn.standings) return undefined
    const out = Outgoing.fromRecord(record, json)
    return conn.takesAll ? out : takenView(out, conn.take)
  }
}

async function resume (ctx: FlowContext, conn: Connection, req: SubscribeRequest, since: string, startHead: string): Promise<void> {
  const view = replayView(conn, req)
  const filter = readFilter(liveFilter(req), conn.key)
  const held = ctx.recent(since, startHead)
  if (held !== undefined) ctx.metrics.replaysFromMemory.inc()
  const replay = held !== undefined
    ? heldReplay(held, filter, view, startHead, ctx.limits.replayCap)
    : await readReplay(ctx.store, since, filter, view, startHead, ctx.limits.replayCap)
  ctx.metrics.replays.inc({ recovered: String(replay.recovered) })
  if (conn.closed) return
  if (!replay.recovered) {
    // The reply is replay with recovered:false, and a fresh snapshot follows (docs/protocol.md, "Resume").
    ctx.send(conn, replayFrame(req.ref, false, 0))
    await sendBaseline(ctx, conn, req)
    return
  }
  if (req.snapshot) {
    // Labelled with the hub's head at the start, as before; the replay that follows is what the client resumes by.
    const snap = await scopedSnapshot(ctx, conn, req)
    const extras = await snapshotExtras(ctx, conn, req, snap)
    if (conn.closed) return
    ctx.sendSnapshot(conn, req.ref, startHead, snap.fixtures, extras)
    // Read after the replay, the snapshot may show changes whose frames follow: they go whole (Connection.held).
    conn.held = new Map(snap.list.map((f) => [f.id, f.version]))
  }
  // Read for the key as it was: a keys reload during the snapshot read may have narrowed it since.
  const outs = replay.outs.filter((out) => visible(conn, out.record.league_id))
  ctx.send(conn, replayFrame(req.ref, true, outs.length, formatCursor(replay.last.epoch, replay.last.offset)))
  ctx.sendChanges(conn, outs)
  conn.addFloor({ ...replay.last, ...floorFilter(req) })
}

const LOST = { recovered: false } as const
type Replay = typeof LOST | {
  recovered: true
  /** The changes to send, as the connection sees them. */
  outs: Outgoing[]
  /** The last log position examined: everything up to it was sent or filtered out. */
  last: { epoch: string, offset: number }
}

/**
 * The replay from records the hub holds (`held`: every record after the cursor up to `head`), filtered as
 * the store filters a read, then as `readReplay` views each record.
 */
function heldReplay (held: RecentRecord[], filter: StoreFilter | undefined, view: ReturnType<typeof replayView>, head: string, cap: number): Replay {
  const matches = matcher(filter)
  const outs: Outgoing[] = []
  for (const { record, json } of held) {
    if (!matches(fixtureIdOf(record), record.league_id)) continue
    const out = view(record, json)
    if (out !== undefined && outs.push(out) > cap) return LOST
  }
  const last = parseCursor(head)
  return last === undefined ? LOST : { recovered: true, outs, last }
}

/**
 * Reads the changes after `since` page by page until the log has no more or the read has passed the
 * hub's head (later records reach the client through the hub). More than `cap` means LOST.
 */
async function readReplay (store: LiveStore, since: string, filter: StoreFilter | undefined, view: ReturnType<typeof replayView>, startHead: string, cap: number): Promise<Replay> {
  const stop = parseCursor(startHead)
  const outs: Outgoing[] = []
  let cursor = since
  for (;;) {
    // One past the cap: finding a cap+1th record is how we know the cap was exceeded.
    const page = await store.readSince(cursor, { ...filter, limit: cap + 1 - outs.length })
    if (!page.recovered) return LOST
    // Only a store that pairs every record with its JSON is trusted with it.
    const json = page.json?.length === page.records.length ? page.json : undefined
    page.records.forEach((record, i) => {
      const out = view(record, json?.[i])
      if (out !== undefined) outs.push(out)
    })
    if (outs.length > cap) return LOST
    cursor = page.cursor
    const last = parseCursor(page.cursor)
    if (last === undefined) return LOST
    const passedHead = stop !== undefined && last.epoch === stop.epoch && last.offset >= stop.offset
    if (!page.more || passedHead) return { recovered: true, outs, last }
  }
}
