/**
 * `touchline/client`: the one client of the gateway's WebSocket protocol (DESIGN §4), for browsers and for
 * Node 20 (which has no global WebSocket: `ws` is loaded then). The scoreboard, the widget (through
 * LiveFeed, live.js) and `touchline tail` all run on it; the package ships it as `touchline/client`, typed
 * by client.d.ts beside it. Plain JavaScript, so a browser loads it as served and Node needs no build step.
 *
 * What it owns, so an app does not have to:
 * - the live fixtures it follows (`fixtures`, a Map by id): a snapshot first, then every change applied.
 *   Change frames come in the compact `delta` format by default (a fixture's new `version` and the typed
 *   changes, applied with applyDelta); a version jump means a lost frame, healed by subscribing again with
 *   `since` (the cursor of the last frame applied for that fixture): the replay's full frames put it right.
 *   A frame older than the fixture held (replays overlap snapshots) is dropped, so no change is seen twice.
 * - reconnection with capped exponential backoff and jitter (backoffDelay), resuming from the last cursor
 *   applied: nothing missed, nothing twice. When the server cannot replay (`replay` recovered:false, e.g.
 *   the log was lost) the fresh snapshot that follows replaces the state held.
 * - giving up, with a reason and a message in plain words, when retrying cannot help: a key refused before
 *   the upgrade (HTTP 401), revoked (close 4001), over its connection limit (close 4029), or `forbidden`
 *   for everything asked. A browser cannot see an upgrade's status code, so a socket that closes before it
 *   opened is diagnosed over HTTP (GET /v1/fixtures/live with the key), in Node as in browsers.
 *
 * Errors answering a subscribe: `forbidden` drops what the frame lists (leagues, fixtures, teams) and asks
 * again for the rest; `internal` (the subscription is active, its read failed) asks again after a second
 * with `since`; `unavailable` needs nothing (the server sends replay recovered:false and a snapshot once its
 * store is back); others are passed on as `error` events.
 */

import { backoffDelay } from './backoff.js'
import { observeServerTime } from './clock.js'
import { diagnose, REFUSALS } from './diagnose.js'
import { completeChanges, eventsOf, nextFixture } from './frames.js'

export { backoffDelay, nextFixture, REFUSALS }

/** Leagues, fixtures and teams one connection may follow (DESIGN §4 limits). */
export const MAX_SUBSCRIPTIONS = 100

/** How long without any frame after a ping before the connection counts as dead (a half-open socket). */
const DEAD_AFTER_MS = 10_000

/** @param {unknown} list @returns {number[]} */
const idsOf = (list) => Array.isArray(list) ? list.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : []

export class TouchlineClient {
  /**
   * @param {object} opts see client.d.ts (TouchlineClientOptions)
   * @param {string} opts.url gateway origin, e.g. `https://scores.example.com`
   * @param {string} opts.key client key (sent as `api_token`)
   */
  constructor (opts) {
    this.base = String(opts.url).replace(/\/+$/, '')
    this.key = opts.key
    this.WebSocketImpl = opts.WebSocket
    this.backoff = { baseMs: opts.backoff?.baseMs ?? 500, capMs: opts.backoff?.capMs ?? 15_000, jitter: opts.backoff?.jitter ?? 'equal' }
    this.keepRemovedMs = opts.keepRemovedMs ?? 0
    /** @type {Map<number, any>} */ this.fixtures = new Map()
    /** @type {string | undefined} last cursor applied: the resume point */ this.cursor = opts.since
    /** @type {Map<number, string>} cursor of the last frame applied per fixture: where to heal a lost one from */
    this.appliedAt = new Map()
    /** What the connection follows; sent whole (with `since`) on every connection. */
    this.wanted = { all: false, leagues: new Set(), fixtures: new Set(), teams: new Set(), /** @type {string[] | undefined} */ kinds: undefined, /** @type {'full' | 'delta' | undefined} */ format: undefined }
    /** What was added while no connection was up (see subscribe). */
    this.unsynced = { all: false, leagues: new Set(), fixtures: new Set(), teams: new Set() }
    /** Fixtures forgotten by unsubscribe: frames for them still in flight are dropped, not healed. */
    /** @type {Set<number>} */ this.dropped = new Set()
    /** Resolves the promises of connect() still waiting when close() is called. */
    /** @type {Set<(status: any) => void>} */ this.waiting = new Set()
    /** @type {Map<string, Set<Function>>} */ this.listeners = new Map()
    /** @type {{ state: string, retryInMs?: number, message?: string, reason?: string }} */ this.status = { state: 'connecting' }
    /** @type {any} */ this.ws = undefined
    this.ready = false
    this.attempt = 0
    this.refs = 0
    this.started = false
    this.stopped = false
    this.replayLeft = 0
    /** @type {string | undefined} */ this.replayCursor = undefined
    /** @type {string | undefined} */ this.replayRef = undefined
    /** Ref of the subscribe sent to heal a lost frame, while it is under way (one at a time is enough). */
    /** @type {string | undefined} */ this.healing = undefined
    /** @type {Map<string, { kind: string, leagues: number[] | '*', fixtures: number[], teams: number[] }>} */
    this.requests = new Map()
    this.lastFrameAt = 0
    /** Counts connection attempts: an answer (diagnosis, retry) for an older one is stale. */
    this.generation = 0
    /** @type {any} */ this.retryTimer = undefined
    /** @type {any} */ this.heartbeat = undefined
    // Back online (browsers): retry at once instead of waiting out the backoff, unless a socket is trying.
    this.online = () => {
      if ((this.status.state === 'reconnecting' || this.status.state === 'offline') && this.ws === undefined) this.reconnectNow()
    }
  }

  /**
   * @param {string} type `change`, `goal`, `state`, `fixture`, `snapshot`, `status` or `error`
   * @param {Function} listener
   * @returns {() => void} removes the listener
   */
  on (type, listener) {
    let set = this.listeners.get(type)
    if (set === undefined) this.listeners.set(type, set = new Set())
    set.add(listener)
    return () => this.off(type, listener)
  }

  /** @param {string} type @param {Function} listener */
  off (type, listener) {
    this.listeners.get(type)?.delete(listener)
  }

  /**
   * A listener that throws must not leave the state half-updated: its error is rethrown on its own.
   * @param {string} type @param {any} payload
   */
  emit (type, payload) {
    for (const listener of [...this.listeners.get(type) ?? []]) {
      try { listener(payload) } catch (err) { queueMicrotask(() => { throw err }) }
    }
  }

  /**
   * Follows more: leagues (ids or `"*"`: every league the key may see, later ones too), fixtures, teams;
   * `kinds` narrows the changes delivered (needs format `full`, the default with kinds); `format` defaults
   * to `delta`. Before the connection is up it only adds to what the first subscribe asks.
   * @param {{ leagues?: number[] | '*', fixtures?: number[], teams?: number[], kinds?: string[], format?: 'full' | 'delta' }} [what]
   */
  subscribe (what = {}) {
    const kinds = what.kinds ?? this.wanted.kinds
    const format = what.format ?? (what.kinds !== undefined ? 'full' : this.wanted.format)
    if (format === 'delta' && kinds !== undefined) throw new TypeError('kinds needs format "full": a delta applies to the previous version, so every change of a fixture must arrive')
    const add = { leagues: what.leagues === '*' ? /** @type {'*'} */ ('*') : idsOf(what.leagues), fixtures: idsOf(what.fixtures), teams: idsOf(what.teams) }
    // Added while no connection is up, after a first state: the resume replay alone would not give their
    // state, so the next connection subscribes them apart, with a snapshot.
    const into = this.ready || this.cursor === undefined ? [this.wanted] : [this.wanted, this.unsynced]
    for (const set of into) {
      if (add.leagues === '*') set.all = true
      else for (const id of add.leagues) set.leagues.add(id)
      for (const id of add.fixtures) set.fixtures.add(id)
      for (const id of add.teams) set.teams.add(id)
    }
    if (what.kinds !== undefined) this.wanted.kinds = [...what.kinds]
    if (format !== undefined) this.wanted.format = format
    if (this.ready) this.request('more', add, { snapshot: true })
    return this
  }

  /**
   * Follows less: leagues (ids, or `"*"` for the every-league subscription), fixtures, teams. The fixtures
   * no longer followed (by any league, fixture or team left) are forgotten at once, each with a `fixture`
   * event (removed: true), and frames for them still on the way are dropped; the next connection asks only
   * for what is left.
   * @param {{ leagues?: number[] | '*', fixtures?: number[], teams?: number[] }} [what]
   */
  unsubscribe (what = {}) {
    const drop = { leagues: what.leagues === '*' ? /** @type {'*'} */ ('*') : idsOf(what.leagues), fixtures: idsOf(what.fixtures), teams: idsOf(what.teams) }
    for (const set of [this.wanted, this.unsynced]) {
      if (drop.leagues === '*') set.all = false
      else for (const id of drop.leagues) set.leagues.delete(id)
      for (const id of drop.fixtures) set.fixtures.delete(id)
      for (const id of drop.teams) set.teams.delete(id)
    }
    if (this.ready) {
      this.send({
        op: 'unsubscribe',
        ref: `unsub-${++this.refs}`,
        ...(drop.leagues === '*' || drop.leagues.length > 0 ? { leagues: drop.leagues } : {}),
        ...(drop.fixtures.length > 0 ? { fixtures: drop.fixtures } : {}),
        ...(drop.teams.length > 0 ? { teams: drop.teams } : {})
      })
    }
    for (const [id, f] of this.fixtures) {
      if (this.follows(f)) continue
      this.fixtures.delete(id)
      this.appliedAt.delete(id)
      this.dropped.add(id)
      this.emit('fixture', { fixture: f, removed: true })
    }
    return this
  }

  /**
   * Whether what is followed takes in this fixture.
   * @param {{ id: number, league_id: number, home?: { id: number }, away?: { id: number } }} f
   */
  follows (f) {
    const w = this.wanted
    return w.all || w.leagues.has(f.league_id) || w.fixtures.has(f.id) ||
      (f.home !== undefined && w.teams.has(f.home.id)) || (f.away !== undefined && w.teams.has(f.away.id))
  }

  /**
   * Opens the connection (once; later calls only wait). Resolves with the status once the client is live
   * or refused, or when close() is called first (state `closed`); it never rejects.
   * @returns {Promise<{ state: string, retryInMs?: number, message?: string, reason?: string }>}
   */
  connect () {
    if (!this.started) {
      this.started = true
      globalThis.addEventListener?.('online', this.online)
      this.open()
    }
    return new Promise((resolve) => {
      if (this.status.state === 'live' || this.stopped) return resolve(this.status)
      const done = (/** @type {any} */ s) => { off(); this.waiting.delete(done); resolve(s) }
      const off = this.on('status', (/** @type {any} */ s) => {
        if (s.state === 'live' || s.state === 'refused') done(s)
      })
      this.waiting.add(done)
    })
  }

  /** Closes the connection for good (no status event: the caller knows; a connect() still waiting resolves with state `closed`). */
  close () {
    this.stopped = true
    globalThis.removeEventListener?.('online', this.online)
    clearTimeout(this.retryTimer)
    if (this.ws !== undefined) this.detach(this.ws, 1000)
    if (this.status.state !== 'refused') this.status = { state: 'closed' }
    for (const done of [...this.waiting]) done(this.status)
  }

  /** Retries at once, without waiting out the backoff. */
  reconnectNow () {
    clearTimeout(this.retryTimer)
    this.open()
  }

  /** Query string with the key, for the gateway's HTTP endpoints. */
  query (extra = '') {
    return `api_token=${encodeURIComponent(this.key)}${extra}`
  }

  async open () {
    if (this.stopped) return
    // Never two sockets: a stray one would count against the key's connections and keep its heartbeat.
    if (this.ws !== undefined) this.detach(this.ws)
    const generation = ++this.generation
    this.ready = false
    this.requests.clear()
    this.healing = undefined
    this.setStatus({ state: this.cursor === undefined && this.attempt === 0 ? 'connecting' : 'reconnecting' })
    const WebSocketImpl = this.WebSocketImpl ?? globalThis.WebSocket ?? (this.WebSocketImpl = (await import('ws')).WebSocket)
    if (this.stopped || generation !== this.generation) return
    const ws = new WebSocketImpl(`${this.base.replace(/^http/, 'ws')}/v1/live?${this.query()}`)
    this.ws = ws
    let opened = false
    ws.onopen = () => { opened = true; this.lastFrameAt = Date.now() }
    ws.onerror = () => {} // the close that follows says what happened (and `ws` throws on an unheard error)
    ws.onmessage = (/** @type {{ data: any }} */ ev) => {
      this.lastFrameAt = Date.now()
      let frame
      try { frame = JSON.parse(String(ev.data)) } catch { return }
      this.handle(frame)
    }
    ws.onclose = (/** @type {{ code: number, reason?: string }} */ ev) => {
      if (this.ws !== ws) return
      this.forget(ws)
      this.closed(ev.code, opened)
    }
  }

  /**
   * Forgets a socket: no more events from it, its heartbeat stopped, closed.
   * @param {any} ws @param {number} [code] @param {string} [reason]
   */
  detach (ws, code = 1000, reason = '') {
    ws.onopen = ws.onmessage = ws.onclose = null
    ws.onerror = () => {}
    try { ws.close(code, reason) } catch {}
    this.forget(ws)
  }

  /** @param {any} ws */
  forget (ws) {
    clearInterval(this.heartbeat)
    this.heartbeat = undefined
    this.ready = false
    if (this.ws === ws) this.ws = undefined
  }

  /** @param {any} frame */
  handle (frame) {
    switch (frame.type) {
      case 'hello': return this.hello(frame.heartbeat_ms)
      case 'subscribed':
        this.attempt = 0
        if (this.status.state !== 'live') this.setStatus({ state: 'live' })
        return
      case 'snapshot': return this.snapshot(frame)
      case 'replay': return this.replay(frame)
      case 'change': return this.change(frame)
      case 'error': return this.failed(frame)
    }
  }

  /** @param {number} heartbeatMs */
  hello (heartbeatMs) {
    this.ready = true
    // First time: the current state. After a drop: everything since the last applied change, then live.
    if (this.following()) this.resubscribe()
    else { this.attempt = 0; this.setStatus({ state: 'live' }) }
    // The server pings at the protocol level, which browsers do not show; this ping catches a half-open
    // connection on our side too. Judged on the last ping's answer: background tabs run timers late.
    let pingedAt = 0
    clearInterval(this.heartbeat)
    this.heartbeat = setInterval(() => {
      if (pingedAt > this.lastFrameAt && Date.now() - pingedAt > DEAD_AFTER_MS) {
        const ws = this.ws
        if (ws !== undefined) this.detach(ws, 4000, 'heartbeat timeout')
        return this.closed(4000, true)
      }
      pingedAt = Date.now()
      this.send({ op: 'ping', ref: 'hb' })
    }, Math.max(1000, heartbeatMs || 25_000))
  }

  /** Whether anything is followed. */
  following () {
    const w = this.wanted
    return w.all || w.leagues.size + w.fixtures.size + w.teams.size > 0
  }

  /**
   * The connection's whole subscription again: from the last cursor when there is one, else with a snapshot;
   * what was added while no connection was up comes apart, with its snapshot.
   */
  resubscribe () {
    const w = this.wanted
    const u = this.unsynced
    this.unsynced = { all: false, leagues: new Set(), fixtures: new Set(), teams: new Set() }
    if (this.cursor === undefined) return this.request('sub', this.everything(), { snapshot: true })
    const known = {
      leagues: w.all && !u.all ? /** @type {'*'} */ ('*') : [...w.leagues].filter((id) => !u.leagues.has(id)),
      fixtures: [...w.fixtures].filter((id) => !u.fixtures.has(id)),
      teams: [...w.teams].filter((id) => !u.teams.has(id))
    }
    const fresh = { leagues: u.all ? /** @type {'*'} */ ('*') : [...u.leagues], fixtures: [...u.fixtures], teams: [...u.teams] }
    const some = (/** @type {{ leagues: number[] | '*', fixtures: number[], teams: number[] }} */ what) =>
      what.leagues === '*' || what.leagues.length + what.fixtures.length + what.teams.length > 0
    if (some(known)) this.request('sub', known, { since: this.cursor, snapshot: false })
    if (some(fresh)) this.request('more', fresh, { snapshot: true })
  }

  /** Everything followed, as a subscribe asks it. */
  everything () {
    const w = this.wanted
    return { leagues: w.all ? /** @type {'*'} */ ('*') : [...w.leagues], fixtures: [...w.fixtures], teams: [...w.teams] }
  }

  /**
   * Sends a subscribe and remembers what it asked (to answer its errors).
   * @param {'sub' | 'more'} kind `sub`: the whole subscription (its snapshot replaces the state); `more`: an addition
   * @param {{ leagues: number[] | '*', fixtures: number[], teams: number[] }} what
   * @param {{ snapshot: boolean, since?: string }} how
   */
  request (kind, what, how) {
    const ref = `${kind}-${++this.refs}`
    this.requests.set(ref, { kind, ...what })
    const w = this.wanted
    const format = w.format ?? (w.kinds !== undefined ? 'full' : 'delta')
    this.send({
      op: 'subscribe',
      ref,
      ...(what.leagues === '*' || what.leagues.length > 0 ? { leagues: what.leagues } : {}),
      ...(what.fixtures.length > 0 ? { fixtures: what.fixtures } : {}),
      ...(what.teams.length > 0 ? { teams: what.teams } : {}),
      ...(w.kinds !== undefined ? { kinds: w.kinds } : {}),
      format,
      ...how
    })
    return ref
  }

  /** @param {{ ref?: string, cursor: string, fixtures: any[] }} frame */
  snapshot (frame) {
    // A snapshot answering an addition joins the state; any other (the whole subscription's, or the one
    // after replay recovered:false, which has no ref) replaces it.
    const partial = typeof frame.ref === 'string' && frame.ref.startsWith('more-')
    if (frame.ref === this.healing) this.healing = undefined
    if (!partial) {
      const kept = new Set(frame.fixtures.map((f) => f.id))
      for (const [id, f] of this.fixtures) {
        if (kept.has(id)) continue
        this.fixtures.delete(id)
        this.appliedAt.delete(id)
        this.emit('fixture', { fixture: f, removed: true })
      }
      this.cursor = frame.cursor
      // The whole subscription's state: frames sent before it (for fixtures let go) are behind it on the socket.
      this.dropped.clear()
    }
    for (const f of frame.fixtures) {
      this.fixtures.set(f.id, f)
      this.appliedAt.set(f.id, frame.cursor)
      this.dropped.delete(f.id)
    }
    this.emit('snapshot', { partial, fixtures: frame.fixtures })
    for (const f of frame.fixtures) this.emit('fixture', { fixture: f, removed: false })
  }

  /** @param {{ ref?: string, recovered: boolean, count: number, cursor?: string }} frame */
  replay (frame) {
    // recovered:false: a fresh snapshot follows and replaces the state (see snapshot).
    this.replayLeft = frame.recovered ? frame.count : 0
    // Once the replay's changes are in, everything up to its cursor was received or filtered out.
    this.replayCursor = frame.recovered ? frame.cursor : undefined
    this.replayRef = frame.ref
    if (frame.recovered && frame.count === 0) this.replayDone()
  }

  replayDone () {
    if (this.replayCursor !== undefined) this.cursor = this.replayCursor
    this.replayCursor = undefined
    if (this.replayRef === this.healing) this.healing = undefined
  }

  /** @param {any} frame a change frame, full or delta */
  change (frame) {
    const replayed = this.replayLeft > 0
    if (replayed) this.replayLeft--
    observeServerTime(frame.at)
    const id = frame.fixture_id
    if (this.dropped.has(id)) {
      // Unsubscribed: sent before the server heard it. Followed again (a new subscribe, a full frame): take it.
      if (frame.fixture === undefined || !this.follows(frame.fixture)) {
        if (replayed && this.replayLeft === 0) this.replayDone()
        return
      }
      this.dropped.delete(id)
    }
    const next = nextFixture(this.fixtures.get(id), frame)
    if (next.status === 'gap') this.lost(id)
    if (next.status === 'applied') this.applied(frame, next.fixture, replayed)
    if (replayed && this.replayLeft === 0) this.replayDone()
  }

  /**
   * @param {any} frame @param {any} fixture the fixture after the change @param {boolean} replayed
   */
  applied (frame, fixture, replayed) {
    const id = frame.fixture_id
    const previous = this.fixtures.get(id)
    this.cursor = frame.cursor
    this.appliedAt.set(id, frame.cursor)
    this.fixtures.set(id, fixture)
    // A delta is handed out as a full frame: with the fixture after it and every change's previous values.
    const full = frame.fixture === undefined ? { ...frame, changes: completeChanges(frame.changes, previous, fixture), fixture } : frame
    this.emit('change', { frame: full, fixture, replayed })
    for (const [type, payload] of eventsOf(full, fixture, previous, replayed)) this.emit(type, payload)
    const removed = frame.changes.some((/** @type {any} */ c) => c.kind === 'fixture_removed')
    this.emit('fixture', { fixture, removed: false })
    if (removed) setTimeout(() => this.expire(id, fixture.version), this.keepRemovedMs)
  }

  /**
   * A fixture that left the live set (usually full time), dropped unless it changed again since.
   * @param {number} id @param {number} version
   */
  expire (id, version) {
    const f = this.fixtures.get(id)
    if (f?.version !== version) return
    this.fixtures.delete(id)
    this.appliedAt.delete(id)
    this.emit('fixture', { fixture: f, removed: true })
  }

  /**
   * A delta skipped a version of the fixture: a frame was lost. Everything since the last frame applied for
   * it is asked again (a snapshot when none was); the replay's full frames put the fixture right.
   * @param {number} fixtureId
   */
  lost (fixtureId) {
    if (this.healing !== undefined) return // the replay under way covers this frame too
    const since = this.appliedAt.get(fixtureId)
    this.healing = this.request('sub', this.everything(), since === undefined ? { snapshot: true } : { since, snapshot: false })
  }

  /** @param {{ ref?: string, code: string, message?: string, leagues?: number[], fixtures?: number[], teams?: number[] }} frame */
  failed (frame) {
    const asked = typeof frame.ref === 'string' ? this.requests.get(frame.ref) : undefined
    if (frame.code === 'internal' && asked !== undefined) {
      const ws = this.ws
      setTimeout(() => {
        if (this.ws !== ws || this.stopped) return
        if (asked.kind === 'more' || this.cursor === undefined) this.request(/** @type {any} */ (asked.kind), asked, { snapshot: true })
        else this.request('sub', asked, { since: this.cursor, snapshot: false })
      }, 1000)
      return
    }
    if (frame.code === 'forbidden') return this.forbidden(frame, asked)
    if (frame.code !== 'unavailable') this.emit('error', { code: frame.code, message: frame.message ?? '', ref: frame.ref })
  }

  /**
   * Drops what a `forbidden` frame lists (all of the request's leagues when it lists nothing) and asks again
   * for the rest; stops when nothing is left to follow.
   * @param {{ leagues?: number[], fixtures?: number[], teams?: number[] }} frame
   * @param {{ kind: string, leagues: number[] | '*', fixtures: number[], teams: number[] } | undefined} asked
   */
  forbidden (frame, asked) {
    const listed = { leagues: idsOf(frame.leagues), fixtures: idsOf(frame.fixtures), teams: idsOf(frame.teams) }
    if (listed.leagues.length + listed.fixtures.length + listed.teams.length === 0 && asked !== undefined && asked.leagues !== '*') listed.leagues = asked.leagues
    for (const id of listed.leagues) this.wanted.leagues.delete(id)
    for (const id of listed.fixtures) this.wanted.fixtures.delete(id)
    for (const id of listed.teams) this.wanted.teams.delete(id)
    if (!this.following()) return this.refuse('forbidden')
    if (asked === undefined) return
    const drop = (/** @type {number[]} */ ids, /** @type {number[]} */ out) => ids.filter((id) => !out.includes(id))
    const rest = {
      leagues: asked.leagues === '*' ? asked.leagues : drop(asked.leagues, listed.leagues),
      fixtures: drop(asked.fixtures, listed.fixtures),
      teams: drop(asked.teams, listed.teams)
    }
    if (rest.leagues.length + rest.fixtures.length + rest.teams.length === 0) return
    if (asked.kind === 'more') this.request('more', rest, { snapshot: true })
    else this.resubscribe()
  }

  /**
   * @param {number} code close code
   * @param {boolean} opened whether the upgrade succeeded
   */
  async closed (code, opened) {
    if (this.stopped) return
    if (code === 4001) return this.refuse('revoked')
    if (code === 4029) return this.refuse('too_many_connections')
    const generation = this.generation
    // A socket that never opened: the upgrade was refused or the gateway is unreachable; ask why over HTTP,
    // naming one league followed (a league-limited key is refused others: that would read as forbidden).
    const league = [...this.wanted.leagues][0]
    const why = opened ? undefined : await diagnose(this.base, this.query(league === undefined ? '' : `&leagues=${league}`))
    if (this.stopped || generation !== this.generation) return
    // A refusal does not go away by retrying: say which and stop.
    if (why?.reason === 'unauthorized' || why?.reason === 'origin_refused') return this.refuse(why.reason)
    this.attempt++
    // 1001: the server is shutting down; another instance (or this one restarted) answers at once.
    const delay = backoffDelay(code === 1001 ? 1 : this.attempt, this.backoff)
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.open(), delay)
    if (why === undefined) this.setStatus({ state: 'reconnecting', retryInMs: delay })
    else this.setStatus({ state: why.reason === 'offline' ? 'offline' : 'reconnecting', retryInMs: delay, ...why })
  }

  /**
   * Stops for good: retrying cannot help.
   * @param {keyof typeof REFUSALS} reason
   * @param {string} [message]
   */
  refuse (reason, message = REFUSALS[reason]) {
    this.stopped = true
    clearTimeout(this.retryTimer)
    globalThis.removeEventListener?.('online', this.online)
    if (this.ws !== undefined) this.detach(this.ws)
    this.setStatus({ state: 'refused', reason, message })
  }

  /** @param {object} frame */
  send (frame) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(frame))
  }

  /** @param {{ state: string, retryInMs?: number, message?: string, reason?: string }} status */
  setStatus (status) {
    this.status = status
    this.emit('status', status)
  }
}
