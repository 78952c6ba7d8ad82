/**
 * LiveFeed: the scoreboard's and the widget's view of the live feed, on the one protocol client
 * (TouchlineClient, client.js, which owns reconnection, resume, deltas and refusals). What it adds is what
 * the screens need: `discover` follows every league the key may see (`leagues: "*"`, which also picks up
 * leagues whose first match starts later), a finished fixture stays on screen for two minutes, `odds` takes
 * one bookmaker's result prices (lib/odds.js; nothing of odds is asked without it), and the client's events
 * are folded into the one `onUpdate` callback Board takes.
 *
 * @typedef {import('./client.js').LiveFixture} LiveFixture
 * @typedef {import('./client.js').ChangeFrame} ChangeFrame
 * @typedef {import('./client.js').ConnectionState} FeedState
 * @typedef {import('./client.js').ClientStatus} FeedStatus
 * @typedef {{ kind: 'snapshot', partial: boolean } | { kind: 'change', frame: ChangeFrame, replayed: boolean }
 *   | { kind: 'expired', fixtureId: number }
 *   | { kind: 'odds', fixtureId: number, changes: import('./client.js').OddsChange[], replayed: boolean }} FeedUpdate
 */

import { MAX_SUBSCRIPTIONS, TouchlineClient } from './client.js'
import { oddsSubscription } from './odds.js'

export { MAX_SUBSCRIPTIONS }

/** How long a fixture that left the live set (usually full time) stays on screen. */
const KEEP_ENDED_MS = 120_000

export class LiveFeed {
  /**
   * @param {object} opts
   * @param {string} opts.base gateway origin, e.g. `https://scores.example.com`
   * @param {string} opts.key client key (sent as `api_token`)
   * @param {number[]} [opts.leagues] leagues to follow
   * @param {number[]} [opts.fixtures] fixtures to follow
   * @param {boolean} [opts.discover] follow every league the key may see instead
   * @param {number} [opts.odds] take this bookmaker's full-time result odds too (lib/odds.js); none unless given
   * @param {(u: FeedUpdate) => void} [opts.onUpdate] called after the state changed
   * @param {(s: FeedStatus) => void} [opts.onStatus] called when the connection state changes
   */
  constructor (opts) {
    /** @type {Set<number>} */ this.leagues = new Set(opts.leagues ?? [])
    /** @type {Set<number>} */ this.fixtureIds = new Set(opts.fixtures ?? [])
    this.discover = opts.discover === true
    this.oddsBookmaker = opts.odds
    this.onUpdate = opts.onUpdate ?? (() => {})
    this.onStatus = opts.onStatus ?? (() => {})
    this.client = new TouchlineClient({ url: opts.base, key: opts.key, keepRemovedMs: KEEP_ENDED_MS })
    /** @type {Map<number, LiveFixture>} current state by fixture id */ this.fixtures = this.client.fixtures
    /** @type {FeedStatus} */ this.status = this.client.status
    this.client.on('status', (s) => this.setStatus(s))
    this.client.on('snapshot', ({ partial }) => this.onUpdate({ kind: 'snapshot', partial }))
    this.client.on('change', ({ frame, replayed }) => this.onUpdate({ kind: 'change', frame, replayed }))
    this.client.on('fixture', ({ fixture, removed }) => { if (removed) this.onUpdate({ kind: 'expired', fixtureId: fixture.id }) })
    this.client.on('odds', ({ odds, changes, replayed }) => this.onUpdate({ kind: 'odds', fixtureId: odds.fixture_id, changes, replayed }))
    // What the client passes on as errors (odds refused to a key without the odds feature, a limit reached)
    // goes to the console, once each: the scores go on.
    this.client.on('error', (e) => console.warn(`touchline: ${e.code}: ${e.message}${e.code === 'forbidden' ? ' (the scores go on without odds)' : ''}`))
  }

  /** Opens the connection. */
  async start () {
    const odds = this.oddsBookmaker === undefined ? {} : oddsSubscription(this.oddsBookmaker)
    this.client.subscribe({ ...(this.discover ? { leagues: '*' } : { leagues: [...this.leagues], fixtures: [...this.fixtureIds] }), ...odds })
    this.client.connect()
  }

  stop () {
    this.client.close()
  }

  /** @param {FeedStatus} status */
  setStatus (status) {
    this.status = status
    this.onStatus(status)
  }
}
