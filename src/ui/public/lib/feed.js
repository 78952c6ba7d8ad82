/**
 * LiveFeed: the scoreboard's and the widget's view of the live feed, on the one protocol client
 * (TouchlineClient, client.js, which owns reconnection, resume, deltas and refusals). What it adds is what
 * the screens need:
 *
 * - `discover` follows every league the key may see (`leagues: "*"`, which also picks up leagues whose
 *   first match starts later): the live set, whatever the day of its matches;
 * - `day` follows one day of the reader's (`dates`, in the browser's time zone): every fixture kicking off
 *   in it, scheduled, in play, finished or postponed, kept current by the feed (a kick-off moved, a
 *   postponement, a result corrected), with no read of its own; with `dayApart` it is subscribed once the
 *   live set is in (the Live tab does not wait for it). followDay() switches to another day: the old one is
 *   unsubscribed, the new one subscribed, and dayHeld() says once its fixtures are in;
 * - fixtures followed by id (the one-match widget's) are held whatever they are, live or not;
 * - which fixtures the Live tab lists (liveFixtures()): those in play, and a match that stopped playing
 *   while the page watched until two minutes after it left the live set;
 * - `carried`: the last state of every fixture seen in the live set (a match of yesterday's still in play
 *   after midnight is today's business too, and stays so once the client lets it go);
 * - `odds` takes one bookmaker's result prices (lib/odds.js; nothing of odds is asked without it);
 * - the client's events folded into the one `onUpdate` callback Board takes.
 *
 * @typedef {import('./client.js').LiveFixture} LiveFixture
 * @typedef {import('./client.js').ClientChangeFrame} ChangeFrame
 * @typedef {import('./client.js').ConnectionState} FeedState
 * @typedef {import('./client.js').ClientStatus} FeedStatus
 * @typedef {{ kind: 'snapshot', partial: boolean } | { kind: 'change', frame: ChangeFrame, replayed: boolean }
 *   | { kind: 'expired', fixtureId: number } | { kind: 'left', fixtureId: number }
 *   | { kind: 'odds', fixtureId: number, changes: import('./client.js').OddsChange[], replayed: boolean }} FeedUpdate
 *   `expired`: the client let a fixture go; `left`: a match's time on the Live tab after it left the live set is over
 */

import { MAX_SUBSCRIPTIONS, TouchlineClient } from './client.js'
import { dayRange, kicksOffIn, TIME_ZONE } from './days.js'
import { oddsSubscription } from './odds.js'

export { MAX_SUBSCRIPTIONS }

/** How long a fixture that left the live set (usually full time) stays on the Live tab. */
const KEEP_ENDED_MS = 120_000

/** Phases of a match in play (the Live tab, and its count). */
export const IN_PLAY = new Set(['live', 'break', 'suspended', 'unknown'])

/** @param {LiveFixture} f */
export const inPlay = (f) => IN_PLAY.has(f.state.phase)

export class LiveFeed {
  /**
   * @param {object} opts
   * @param {string} opts.base gateway origin, e.g. `https://scores.example.com`
   * @param {string} [opts.key] client key (sent as `api_token`); or, instead:
   * @param {() => string | Promise<string>} [opts.getToken] where signed connection tokens come from
   *   (docs/tokens.md): asked for one per connection and again before it expires
   * @param {number[]} [opts.leagues] leagues to follow (their live set)
   * @param {number[]} [opts.fixtures] fixtures to follow, live or not
   * @param {boolean} [opts.discover] follow every league the key may see instead
   * @param {string} [opts.day] a date (`YYYY-MM-DD`, the reader's) whose fixtures to follow
   * @param {boolean} [opts.dayApart] subscribe the day once the live set is in, not with it
   * @param {number} [opts.odds] take this bookmaker's full-time result odds too (lib/odds.js); none unless given
   * @param {(u: FeedUpdate) => void} [opts.onUpdate] called after the state changed
   * @param {(s: FeedStatus) => void} [opts.onStatus] called when the connection state changes
   */
  constructor (opts) {
    /** @type {Set<number>} */ this.leagues = new Set(opts.leagues ?? [])
    /** @type {Set<number>} */ this.fixtureIds = new Set(opts.fixtures ?? [])
    this.discover = opts.discover === true
    /** @type {string | undefined} the day followed */ this.day = opts.day
    this.dayApart = opts.dayApart === true
    this.oddsBookmaker = opts.odds
    this.onUpdate = opts.onUpdate ?? (() => {})
    this.onStatus = opts.onStatus ?? (() => {})
    const credential = opts.getToken === undefined ? { key: opts.key ?? '' } : { getToken: opts.getToken }
    this.client = new TouchlineClient({ url: opts.base, ...credential, keepRemovedMs: KEEP_ENDED_MS })
    /** @type {Map<number, LiveFixture>} current state by fixture id */ this.fixtures = this.client.fixtures
    /** @type {FeedStatus} */ this.status = this.client.status
    /** @type {Map<number, LiveFixture>} the last state of every fixture seen in the live set */ this.carried = new Map()
    /**
     * Matches that stopped playing while the page watched: until when each stays on the Live tab (Infinity
     * while it is still in the live set; two minutes after it left it).
     * @type {Map<number, number>}
     */
    this.ended = new Map()
    /** @type {string | undefined} the day subscribed on the connection (once the live set is in) */
    this.subscribed = undefined
    /** Whether the followed day's fixtures are in (its snapshot applied). */
    this.dayIn = false
    /**
     * The days subscribed since the last whole snapshot, in the order sent: each is answered by one snapshot
     * that joins the state, in that order.
     * @type {string[]}
     */
    this.awaiting = []
    this.client.on('status', (s) => this.setStatus(s))
    this.client.on('snapshot', ({ partial, fixtures }) => {
      this.tookSnapshot(partial, fixtures)
      this.onUpdate({ kind: 'snapshot', partial })
    })
    this.client.on('change', ({ frame, fixture, replayed }) => {
      this.tookChange(frame, fixture)
      this.onUpdate({ kind: 'change', frame, replayed })
    })
    this.client.on('fixture', ({ fixture, removed }) => { if (removed) this.onUpdate({ kind: 'expired', fixtureId: fixture.id }) })
    this.client.on('odds', ({ odds, changes, replayed }) => this.onUpdate({ kind: 'odds', fixtureId: odds.fixture_id, changes, replayed }))
    // What the client passes on as errors (odds refused to a key without the odds feature, a limit reached)
    // goes to the console, once each: the scores go on.
    this.client.on('error', (e) => console.warn(`touchline: ${e.code}: ${e.message}${e.code === 'forbidden' ? ' (the scores go on without odds)' : ''}`))
  }

  /**
   * Opens the connection. The day, when one is followed, is subscribed with the rest, or with `dayApart`
   * once the live set is in: then the Live tab (and the connection's "Live") does not wait for a day of
   * hundreds of fixtures.
   */
  async start () {
    const odds = this.oddsBookmaker === undefined ? {} : oddsSubscription(this.oddsBookmaker)
    const ids = this.discover ? { leagues: /** @type {'*'} */ ('*') } : { leagues: [...this.leagues], fixtures: [...this.fixtureIds] }
    const day = this.day === undefined || this.dayApart ? {} : { dates: [this.day], tz: TIME_ZONE }
    if (!this.dayApart) this.subscribed = this.day
    this.client.subscribe({ ...ids, ...day, ...odds })
    const status = await this.client.connect()
    if (status.state === 'live' && this.dayApart && this.day !== undefined) this.subscribeDay(this.day)
  }

  stop () {
    this.client.close()
  }

  /**
   * Follows another day instead of the one followed (the day shown): the old one is unsubscribed, the new one
   * subscribed; its fixtures come with the snapshot that answers it (dayHeld() until then says no).
   * @param {string} date `YYYY-MM-DD`, the reader's
   */
  followDay (date) {
    if (date === this.day) return
    const before = this.day
    this.day = date
    this.dayIn = false
    if (before !== undefined) {
      // The old day's matches that are over are its own business now (at midnight: yesterday's results).
      const range = dayRange(before, TIME_ZONE)
      const live = this.liveFixtures()
      for (const [id, f] of this.carried) if (kicksOffIn(f, range) && !live.has(id)) this.carried.delete(id)
    }
    // Not subscribed yet (the live set is not in): start() subscribes the day followed then.
    if (this.subscribed === undefined) return
    this.client.unsubscribe({ dates: [this.subscribed] })
    this.subscribeDay(date)
  }

  /** Subscribes a day; the snapshot that answers it is awaited in turn. @param {string} date */
  subscribeDay (date) {
    this.subscribed = date
    this.client.subscribe({ dates: [date], tz: TIME_ZONE })
    this.awaiting.push(date)
  }

  /** Whether the fixtures of this date are held: it is the day followed and its snapshot is in. @param {string} date */
  dayHeld (date) {
    return date === this.day && this.dayIn
  }

  /** The fixtures held that kick off on this date (the reader's), by id. @param {string} date @returns {Map<number, LiveFixture>} */
  dayFixtures (date) {
    const range = dayRange(date, TIME_ZONE)
    return new Map([...this.fixtures].filter(([, f]) => kicksOffIn(f, range)))
  }

  /** What the Live tab lists: the matches in play, and those that stopped while the page watched, for a while. */
  liveFixtures () {
    const now = Date.now()
    /** @type {Map<number, LiveFixture>} */
    const out = new Map()
    for (const [id, f] of this.fixtures) {
      if (f.state.phase === 'scheduled' || f.state.phase === 'postponed') continue
      const until = this.ended.get(id)
      if (until === undefined ? inPlay(f) : until > now) out.set(id, f)
    }
    return out
  }

  /**
   * Whether a fixture is in the live set now: carried by it, and not left it (a match that stopped playing
   * stays in it until its `fixture_removed`: a cup tie level at full time may go on).
   * @param {number} id
   */
  inLiveSet (id) {
    return this.carried.has(id) && (this.ended.get(id) ?? Infinity) === Infinity
  }

  /** Whether the fixture is held for a day or an id followed (else only the live set can have brought it). @param {LiveFixture} f */
  heldForItself (f) {
    return this.fixtureIds.has(f.id) || (this.day !== undefined && kicksOffIn(f, dayRange(this.day, TIME_ZONE)))
  }

  /**
   * A snapshot: one that joins the state answers the oldest subscribe waiting (the day's, when it is the day
   * followed); a whole one holds everything followed. Its fixtures in play, and in a whole one those that
   * nothing but the leagues followed can have brought, are of the live set.
   * @param {boolean} partial @param {LiveFixture[]} fixtures
   */
  tookSnapshot (partial, fixtures) {
    if (partial) {
      const answered = this.awaiting.shift()
      if (answered === this.day) this.dayIn = true
    } else {
      // The whole subscription: the day too, once it was subscribed.
      this.awaiting = []
      this.dayIn = this.subscribed !== undefined && this.subscribed === this.day
    }
    for (const f of fixtures) if (inPlay(f) || (!partial && !this.heldForItself(f))) this.carried.set(f.id, f)
  }

  /**
   * A change: a fixture in play, entering the live set, or brought by the leagues followed alone is of the
   * live set; one that stops playing stays on the Live tab until two minutes after it leaves the live set.
   * @param {ChangeFrame} frame @param {LiveFixture} fixture the fixture after it
   */
  tookChange (frame, fixture) {
    const id = fixture.id
    const has = (/** @type {string} */ kind) => frame.changes.some((c) => c.kind === kind)
    // A kick-off moved out of the day followed reaches this page too: that is no sign of the live set.
    const moved = frame.changes.some((c) => c.kind === 'fixture_updated' && 'starting_at' in c.fields)
    if (inPlay(fixture) || has('fixture_added') || this.carried.has(id) || (!moved && !this.heldForItself(fixture))) this.carried.set(id, fixture)
    if (has('fixture_added') || (inPlay(fixture) && this.ended.get(id) === Infinity)) this.ended.delete(id)
    const state = /** @type {{ previous?: { phase: string } } | undefined} */ (frame.changes.find((c) => c.kind === 'state_changed'))
    if (state !== undefined && IN_PLAY.has(state.previous?.phase ?? '') && !inPlay(fixture)) this.ended.set(id, Infinity)
    if (has('fixture_removed') && this.carried.has(id)) {
      this.ended.set(id, Date.now() + KEEP_ENDED_MS)
      setTimeout(() => this.onUpdate({ kind: 'left', fixtureId: id }), KEEP_ENDED_MS + 50)
    }
  }

  /** @param {FeedStatus} status */
  setStatus (status) {
    this.status = status
    this.onStatus(status)
  }
}
