/**
 * LiveFeed: a browser client of the gateway's WebSocket protocol (DESIGN §4), shared by the scoreboard and
 * the widget. It keeps the current state of every subscribed fixture, reconnects with backoff, and resumes
 * from the last cursor it applied so no change is missed (a fresh snapshot replaces the state when the
 * server cannot replay, `recovered:false`).
 *
 * Changes come in the compact `delta` format: a frame carries the fixture's new `version` and the typed
 * changes, applied to the fixture held (applyDelta). A version jump means a lost frame: the feed subscribes
 * again with `since`, the cursor of the last frame it applied for that fixture, and the replay (full frames,
 * like snapshots) brings the fixture back; a frame with a `fixture` replaces it, unless older than the one
 * held (replays may overlap a snapshot). The match clock runs here (clock.js): no frame comes for a tick.
 *
 * @typedef {{ id: number, league_id: number, version: number, state: { code: string, name: string, phase: string },
 *   minute: number | null, clock?: import('./clock.js').MatchClock | null, home: any, away: any, events: any[],
 *   scores: Record<string, { home: number, away: number }>, starting_at: string | null }} LiveFixture
 * @typedef {{ type: 'change', cursor: string, fixture_id: number, league_id: number, at: string,
 *   changes: Array<{ kind: string, [k: string]: any }>, fixture: LiveFixture }} ChangeFrame
 * @typedef {'connecting' | 'live' | 'reconnecting' | 'offline' | 'refused'} FeedState
 * @typedef {'unauthorized' | 'revoked' | 'origin_refused' | 'forbidden' | 'too_many_connections' | 'unreachable' | 'offline'} FeedReason
 *   why the feed is refused (no more retries: `unauthorized` the gateway does not know the key, `revoked`,
 *   `origin_refused` the key does not allow this site, `forbidden` none of the leagues is the key's) or retrying
 * @typedef {{ state: FeedState, retryInMs?: number, message?: string, reason?: FeedReason }} FeedStatus
 * @typedef {{ kind: 'snapshot', partial: boolean } | { kind: 'change', frame: ChangeFrame, replayed: boolean }
 *   | { kind: 'expired', fixtureId: number }} FeedUpdate
 *
 * Errors answering a subscribe (the server rejects the whole request):
 * - `forbidden` (leagues outside the key's scope): the denied leagues (the frame's `leagues`) are dropped and
 *   the rest is subscribed again; when nothing is left to follow, the feed is refused, never a silent "Live".
 * - `internal` (the snapshot or replay could not be read; the subscription itself is active): subscribed
 *   again after a second, with `since` the last applied cursor (or a snapshot when there is none yet).
 * - `unavailable` (the server's store is down; the subscription is active): nothing to do, the server sends
 *   `replay` recovered:false and a fresh snapshot by itself once its store is back.
 */

import { observeServerTime } from './clock.js'
import { applyDelta } from './delta.js'

/** Subscriptions per connection the server accepts (DESIGN §4 limits): the one constant of the browser code. */
export const MAX_SUBSCRIPTIONS = 100
/** Longest pause between two reconnection attempts. */
const MAX_BACKOFF_MS = 15_000
/** What a refusal says, in plain words: which of the three it is, and what to do. */
const REFUSALS = {
  unauthorized: 'The gateway does not know this key (bad key). Check the key.',
  revoked: 'This key has been revoked. Ask for a new key.',
  origin_refused: 'This key does not allow this site (refused origin). Add it to the key\'s allowed origins.'
}
/** How long a fixture that left the live set (usually full time) stays on screen. */
const KEEP_ENDED_MS = 120_000

export class LiveFeed {
  /**
   * @param {object} opts
   * @param {string} opts.base gateway origin, e.g. `https://scores.example.com`
   * @param {string} opts.key client key (sent as `api_token`)
   * @param {number[]} [opts.leagues] leagues to follow
   * @param {number[]} [opts.fixtures] fixtures to follow
   * @param {boolean} [opts.discover] also follow every league that has a live fixture, checked every 30 s
   * @param {(u: FeedUpdate) => void} [opts.onUpdate] called after the state changed
   * @param {(s: FeedStatus) => void} [opts.onStatus] called when the connection state changes
   */
  constructor (opts) {
    this.base = opts.base.replace(/\/$/, '')
    this.key = opts.key
    /** @type {Set<number>} */ this.leagues = new Set(opts.leagues ?? [])
    /** @type {Set<number>} */ this.fixtureIds = new Set(opts.fixtures ?? [])
    this.discover = opts.discover === true
    this.onUpdate = opts.onUpdate ?? (() => {})
    this.onStatus = opts.onStatus ?? (() => {})
    /** @type {Map<number, LiveFixture>} current state by fixture id */ this.fixtures = new Map()
    /** @type {string | undefined} last cursor applied: the resume point */ this.cursor = undefined
    /** @type {Map<number, string>} cursor of the last frame applied per fixture: where to resume after a lost one */
    this.appliedAt = new Map()
    /** @type {WebSocket | undefined} */ this.ws = undefined
    this.attempt = 0
    /** Whether a connection ever opened: a feed that never could (refused key or origin) retries less often. */
    this.everOpened = false
    this.replayLeft = 0
    this.refs = 0
    this.stopped = false
    /** @type {FeedStatus} */ this.status = { state: 'connecting' }
    this.lastFrameAt = 0
    /** @type {ReturnType<typeof setTimeout> | undefined} */ this.retryTimer = undefined
    /** @type {ReturnType<typeof setInterval> | undefined} */ this.heartbeat = undefined
    /** @type {ReturnType<typeof setInterval> | undefined} */ this.discoverTimer = undefined
    /** @type {Set<number>} leagues learned while no connection was open: subscribed with a snapshot on the next */
    this.unsynced = new Set()
    /** @type {Map<string, { leagues: number[], fixtures: number[] }>} what each subscribe asked, by ref */
    this.requests = new Map()
    /** Counts connection losses: a diagnosis that returns after a newer loss (or a reconnection) is stale. */
    this.losses = 0
    // Back online: retry at once instead of waiting out the backoff, but only while no socket is trying.
    this.online = () => {
      if ((this.status.state === 'reconnecting' || this.status.state === 'offline') && this.ws === undefined) this.reconnectNow()
    }
  }

  /** Query string with the key, for the gateway's HTTP endpoints. */
  query (extra = '') {
    return `api_token=${encodeURIComponent(this.key)}${extra}`
  }

  /** Opens the connection (after learning the live leagues when discovering). */
  async start () {
    globalThis.addEventListener?.('online', this.online)
    if (this.discover) {
      await this.learnLeagues()
      this.discoverTimer = setInterval(() => { this.learnLeagues().then((fresh) => this.subscribeMore(fresh)) }, 30_000)
    }
    this.connect()
  }

  stop () {
    this.stopped = true
    globalThis.removeEventListener?.('online', this.online)
    clearTimeout(this.retryTimer)
    clearInterval(this.heartbeat)
    clearInterval(this.discoverTimer)
    this.ws?.close(1000)
  }

  /**
   * Adds the leagues that have a live fixture now (GET /v1/fixtures/live) to the followed set.
   * @returns {Promise<number[]>} the leagues that were not followed before
   */
  async learnLeagues () {
    try {
      const res = await fetch(`${this.base}/v1/fixtures/live?${this.query()}`)
      if (res.status === 401) return this.refuse(REFUSALS.unauthorized, 'unauthorized')
      if (!res.ok) return []
      const body = await res.json()
      const fresh = [...new Set(body.data.map((/** @type {LiveFixture} */ f) => f.league_id))]
        .filter((id) => !this.leagues.has(id) && this.leagues.size + this.fixtureIds.size < MAX_SUBSCRIPTIONS)
      for (const id of fresh) this.leagues.add(id)
      return fresh
    } catch {
      return [] // offline or refused by CORS: the socket's own retries report it
    }
  }

  /**
   * @param {number[]} leagues newly followed leagues: subscribed on the open connection with their snapshot,
   *   or, with no connection open, on the next one (the resume replay alone would not give their state)
   */
  subscribeMore (leagues) {
    if (leagues.length === 0) return
    if (this.ws?.readyState !== WebSocket.OPEN) {
      for (const id of leagues) this.unsynced.add(id)
      return
    }
    this.subscribe('more', { leagues, fixtures: [] }, { snapshot: true })
  }

  /**
   * Sends a subscribe and remembers what it asked (to answer its errors).
   * @param {'sub' | 'more'} kind `sub`: the connection's main subscribe (its snapshot replaces the state)
   * @param {{ leagues: number[], fixtures: number[] }} what
   * @param {{ snapshot: boolean, since?: string }} how
   */
  subscribe (kind, what, how) {
    const ref = `${kind}-${++this.refs}`
    this.requests.set(ref, what)
    this.send({ op: 'subscribe', ref, leagues: what.leagues, fixtures: what.fixtures, format: 'delta', ...how })
  }

  /**
   * Forgets a socket: no more events from it, its heartbeat stopped, closed.
   * @param {WebSocket} ws @param {number} [code] @param {string} [reason]
   */
  detach (ws, code = 1000, reason = '') {
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null
    try { ws.close(code, reason) } catch {}
    clearInterval(this.heartbeat)
    this.heartbeat = undefined
    if (this.ws === ws) this.ws = undefined
  }

  connect () {
    if (this.stopped) return
    // Never two sockets: a stray one would count against the key's connections and keep its heartbeat.
    if (this.ws !== undefined) this.detach(this.ws)
    this.requests.clear()
    this.setStatus({ state: this.cursor === undefined && this.attempt === 0 ? 'connecting' : 'reconnecting' })
    const url = `${this.base.replace(/^http/, 'ws')}/v1/live?${this.query()}`
    const ws = new WebSocket(url)
    this.ws = ws
    let opened = false
    ws.onopen = () => { opened = true; this.everOpened = true; this.lastFrameAt = Date.now() }
    ws.onmessage = (ev) => {
      this.lastFrameAt = Date.now()
      let frame
      try { frame = JSON.parse(ev.data) } catch { return }
      this.handle(frame)
    }
    ws.onclose = (ev) => {
      if (this.ws !== ws) return
      clearInterval(this.heartbeat)
      this.heartbeat = undefined
      this.ws = undefined
      this.closed(ev.code, opened)
    }
  }

  /** @param {any} frame */
  handle (frame) {
    switch (frame.type) {
      case 'hello': return this.hello(frame.heartbeat_ms)
      case 'subscribed':
        this.attempt = 0
        return this.setStatus({ state: 'live' })
      case 'snapshot': return this.snapshot(frame)
      case 'replay':
        this.replayLeft = frame.recovered ? frame.count : 0
        return
      case 'change': return this.change(frame)
      case 'error': return this.subscribeFailed(frame)
    }
  }

  /** @param {{ ref?: string, code: string, message?: string }} frame an error frame */
  subscribeFailed (frame) {
    const asked = typeof frame.ref === 'string' ? this.requests.get(frame.ref) : undefined
    if (asked === undefined) return
    const kind = /** @type {string} */ (frame.ref).startsWith('more-') ? 'more' : 'sub'
    if (frame.code === 'internal') {
      const ws = this.ws
      setTimeout(() => {
        if (this.ws !== ws || this.stopped) return
        if (kind === 'more' || this.cursor === undefined) this.subscribe(kind, asked, { snapshot: true })
        else this.subscribe(kind, asked, { since: this.cursor, snapshot: false })
      }, 1000)
      return
    }
    if (frame.code !== 'forbidden') return
    // The frame lists the denied leagues in `leagues`: drop those (all of the request's when it does not).
    const listed = Array.isArray(frame.leagues) ? frame.leagues.map(Number).filter((n) => n > 0) : []
    const denied = new Set(listed.length > 0 ? listed : asked.leagues)
    for (const id of denied) this.leagues.delete(id)
    const rest = { leagues: asked.leagues.filter((id) => !denied.has(id)), fixtures: asked.fixtures }
    if (rest.leagues.length + rest.fixtures.length > 0) {
      this.subscribe(kind, rest, kind === 'more' || this.cursor === undefined ? { snapshot: true } : { since: this.cursor, snapshot: false })
    } else if (kind === 'sub') {
      this.refuse('This key may not follow these leagues.', 'forbidden')
    }
  }

  /** @param {number} heartbeatMs */
  hello (heartbeatMs) {
    const fresh = this.cursor === undefined ? [] : [...this.unsynced].filter((id) => this.leagues.has(id))
    this.unsynced.clear()
    const known = { leagues: [...this.leagues].filter((id) => !fresh.includes(id)), fixtures: [...this.fixtureIds] }
    // First time: the current state. After a drop: everything since the last applied change, then live;
    // leagues learned meanwhile have no state here yet: they come with their snapshot.
    this.subscribe('sub', known, this.cursor === undefined ? { snapshot: true } : { since: this.cursor, snapshot: false })
    if (fresh.length > 0) this.subscribe('more', { leagues: fresh, fixtures: [] }, { snapshot: true })
    // The server pings at the protocol level; this ping catches a half-open connection on our side too.
    // Judged on the last ping's answer, not on elapsed time: background tabs run timers late.
    clearInterval(this.heartbeat)
    let pingedAt = 0
    this.heartbeat = setInterval(() => {
      if (pingedAt > this.lastFrameAt && Date.now() - pingedAt > 10_000) {
        // A dead connection may take long to report its close (or never): reconnect now.
        const ws = this.ws
        if (ws !== undefined) this.detach(ws, 4000, 'heartbeat timeout')
        return this.closed(4000, true)
      }
      pingedAt = Date.now()
      this.send({ op: 'ping', ref: 'hb' })
    }, Math.max(1000, heartbeatMs))
  }

  /** @param {{ ref?: string, cursor: string, fixtures: LiveFixture[] }} frame */
  snapshot (frame) {
    const partial = typeof frame.ref === 'string' && frame.ref.startsWith('more-')
    if (!partial) {
      this.fixtures.clear()
      this.appliedAt.clear()
      this.cursor = frame.cursor
    }
    for (const f of frame.fixtures) {
      this.fixtures.set(f.id, f)
      this.appliedAt.set(f.id, frame.cursor)
    }
    this.onUpdate({ kind: 'snapshot', partial })
  }

  /** @param {ChangeFrame | (Omit<ChangeFrame, 'fixture'> & { version: number })} received a full or a delta frame */
  change (received) {
    const replayed = this.replayLeft > 0
    if (replayed) this.replayLeft--
    observeServerTime(received.at)
    const known = this.fixtures.get(received.fixture_id)
    /** @type {ChangeFrame} */
    let frame
    if ('fixture' in received) {
      frame = received
      if (known !== undefined && frame.fixture.version < known.version) return
    } else {
      if (known !== undefined && received.version <= known.version) return
      if (known === undefined || received.version !== known.version + 1) return this.lost(received.fixture_id)
      frame = { ...received, fixture: applyDelta(known, received) }
    }
    this.cursor = frame.cursor
    this.appliedAt.set(frame.fixture_id, frame.cursor)
    this.fixtures.set(frame.fixture_id, frame.fixture)
    if (frame.changes.some((c) => c.kind === 'fixture_removed')) {
      const id = frame.fixture_id
      setTimeout(() => {
        if (this.fixtures.get(id)?.version !== frame.fixture.version) return
        this.fixtures.delete(id)
        this.onUpdate({ kind: 'expired', fixtureId: id })
      }, KEEP_ENDED_MS)
    }
    this.onUpdate({ kind: 'change', frame, replayed })
  }

  /**
   * A delta skipped a version of the fixture: a frame was lost. Everything since the last frame applied for
   * it is asked again (a snapshot when none was); the replay's full frames put the fixture right.
   * @param {number} fixtureId
   */
  lost (fixtureId) {
    const since = this.appliedAt.get(fixtureId)
    const what = { leagues: [...this.leagues], fixtures: [...this.fixtureIds] }
    this.subscribe('sub', what, since === undefined ? { snapshot: true } : { since, snapshot: false })
  }

  /**
   * @param {number} code close code
   * @param {boolean} opened whether the upgrade succeeded
   */
  closed (code, opened) {
    if (this.stopped) return
    if (code === 4001) return this.refuse(REFUSALS.revoked, 'revoked')
    this.attempt++
    const cap = this.everOpened ? MAX_BACKOFF_MS : 4 * MAX_BACKOFF_MS
    const backoff = Math.min(cap, 500 * 2 ** Math.min(this.attempt - 1, 7))
    // 1001: the server is shutting down; another instance answers at once. 4029: too many connections.
    const base = code === 1001 ? 500 : code === 4029 ? Math.max(backoff, 5000) : backoff
    const delay = Math.round(base * (0.5 + Math.random() / 2))
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.connect(), delay)
    const loss = ++this.losses
    const busy = code === 4029 ? { message: 'Too many connections with this key.', reason: /** @type {FeedReason} */ ('too_many_connections') } : {}
    this.setStatus({ state: 'reconnecting', retryInMs: delay, ...busy })
    if (!opened && this.attempt >= 2 && code !== 4029) {
      this.diagnose().then((found) => {
        // Stale when the feed stopped, lost another connection since, or a socket is trying or open again.
        if (this.stopped || loss !== this.losses || this.ws !== undefined) return
        // A refusal does not go away by retrying: say which and stop.
        if (found.reason === 'unauthorized' || found.reason === 'origin_refused') return this.refuse(found.message, found.reason)
        this.setStatus({ state: found.reason === 'offline' ? 'offline' : 'reconnecting', retryInMs: delay, ...found })
      })
    }
  }

  reconnectNow () {
    clearTimeout(this.retryTimer)
    this.connect()
  }

  /**
   * Why the socket cannot open, asked over HTTP (a browser hides the upgrade's status code). A refused origin
   * shows as a failed fetch (no CORS header), told apart from an unreachable gateway by a file the gateway
   * serves to every origin, answering just before and just after (a gateway coming back or going away
   * meanwhile is not mistaken for a refusal). Same-origin pages have no CORS: a failed fetch is unreachable.
   * @returns {Promise<{ message: string, reason: FeedReason }>}
   */
  async diagnose () {
    const unreachable = () => globalThis.navigator?.onLine === false
      ? { message: 'You are offline.', reason: /** @type {FeedReason} */ ('offline') }
      : { message: `Cannot reach the live feed at ${new URL(this.base).host}.`, reason: /** @type {FeedReason} */ ('unreachable') }
    const crossOrigin = new URL(this.base).origin !== globalThis.location?.origin
    const reachable = () => fetch(`${this.base}/widget.js`, { method: 'HEAD', cache: 'no-store' }).then((r) => r.ok, () => false)
    if (crossOrigin && !(await reachable())) return unreachable()
    // One league the feed follows keeps the answer small; a league outside the key's scope would be a 403 too.
    const first = [...this.leagues][0]
    try {
      const res = await fetch(`${this.base}/v1/fixtures/live?${this.query(first === undefined ? '' : `&leagues=${first}`)}`)
      if (res.status === 401) return { message: REFUSALS.unauthorized, reason: 'unauthorized' }
      // A 403 a page can read is not its origin's (that one comes without CORS headers: a failed fetch).
      if (res.status === 403) return { message: 'This key may not follow these leagues.', reason: 'forbidden' }
      return { message: 'The live feed is unavailable.', reason: 'unreachable' }
    } catch {
      return crossOrigin && await reachable() ? { message: REFUSALS.origin_refused, reason: 'origin_refused' } : unreachable()
    }
  }

  /** @param {string} message @param {FeedReason} reason */
  refuse (message, reason) {
    this.stopped = true
    clearTimeout(this.retryTimer)
    clearInterval(this.discoverTimer)
    globalThis.removeEventListener?.('online', this.online)
    if (this.ws !== undefined) this.detach(this.ws)
    this.setStatus({ state: 'refused', message, reason })
    return []
  }

  /** @param {object} frame */
  send (frame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame))
  }

  /** @param {FeedStatus} status */
  setStatus (status) {
    this.status = status
    this.onStatus(status)
  }
}
