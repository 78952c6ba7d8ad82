/**
 * Board: a set of fixtures as livescore rows (lib/row.js), optionally grouped by league, shared by the
 * scoreboard page and the widget; styles are in `card.css`.
 *
 * - Order: leagues by the caller's order (importance), and within a league the matches in play first,
 *   then results, then kick-offs, each by kick-off time (or by kick-off time only: show()).
 * - Rows and league sections are placed by transform (lib/stack.js), so a match that starts or ends slides
 *   the others instead of pushing them: the page does not jump. Nothing else moves a row: a started match
 *   holds its scorer line from kick-off (card.css), so a goal changes no row's height.
 * - Each row is built once and updated in place, so focus stays on a row's button while it updates.
 * - A goal flashes its row once and is announced in the aria-live region, once. Goals replayed after a
 *   reconnection (or found in the fresh snapshot that replaced a lost replay) flash and are announced too,
 *   saying they happened while the page was away.
 * - With favourites (the scoreboard's, lib/favourites.js): a star on each row stars its match, and each
 *   league's heading folds its matches away and pins the league to the top (its star); the margin the row
 *   stars sit in is given before the first rows are drawn, so nothing moves when they come.
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {import('./feed.js').FeedUpdate} FeedUpdate
 * @typedef {import('./format.js').LiveEvent} LiveEvent
 */
import { announcements, awaitingExtraTime, cancelledIn, goalsIn, h, scoreLine, setText } from './format.js'
import { icon } from './icons.js'
import { OddsView } from './odds.js'
import { placeholderRow, Row } from './row.js'
import { Stack } from './stack.js'

/** How long the scoring side's score stays highlighted after a goal. */
const SCORED_MS = 8000
/** A row asked to flash again within this time (goals replayed in a burst) flashes once. */
const FLASH_ONCE_MS = 1000
/** The same sentence is not said twice within this time. */
const REPEAT_MS = 10_000
/** Sentences the live region holds at most. */
const MAX_SAID = 8
/** Placeholder rows shown while the first scores load: enough to fill a screen. */
const PLACEHOLDER_ROWS = 12

/** Order of phases within a league: in play, then results (and matches stopped for good), then kick-offs. */
const RANK = { live: 0, break: 0, suspended: 0, unknown: 0, finished: 1, cancelled: 1, scheduled: 2, postponed: 2 }

/** @param {LiveFixture} a @param {LiveFixture} b */
const byKickOff = (a, b) => (a.starting_at ?? '').localeCompare(b.starting_at ?? '') || a.id - b.id

export class Board {
  /**
   * @param {HTMLElement} root where the rows (or league sections) go
   * @param {HTMLElement} announcer an aria-live="polite" element
   * @param {object} [opts]
   * @param {boolean} [opts.grouped] one section per league, with a heading
   * @param {(leagueId: number) => string} [opts.leagueName]
   * @param {(a: number, b: number) => number} [opts.leagueOrder] league ids, most important first (default: by name)
   * @param {string} [opts.headingLevel] heading tag of league sections (default: h2)
   * @param {boolean} [opts.expanded] events open from the start (a one-match widget)
   * @param {string} [opts.idPrefix] prefix of element ids, unique per board on a page (default: tl)
   * @param {(row: Row, f: LiveFixture) => void} [opts.onRow] called after a row is drawn (the scoreboard's alert bells)
   * @param {(id: number) => string} [opts.matchHref] the address of a match's page, linked from its open events (the scoreboard's)
   * @param {{ bookmaker: number, images: () => Map<number, import('./odds.js').FixtureOdds> }} [opts.odds] show this
   *   bookmaker's result prices on each row (lib/odds.js), from these odds images (the client's `odds`)
   * @param {import('./favourites.js').Favourites} [opts.favourites] stars on rows and league headings, leagues folded (the scoreboard's)
   * @param {(id: number) => boolean} [opts.inLiveSet] whether a match is still in the live set (a level FT of a cup tie then awaits extra time)
   */
  constructor (root, announcer, opts = {}) {
    this.root = root
    this.announcer = announcer
    this.grouped = opts.grouped === true
    this.leagueName = opts.leagueName ?? ((id) => `League ${id}`)
    this.leagueOrder = opts.leagueOrder ?? ((a, b) => this.leagueName(a).localeCompare(this.leagueName(b)) || a - b)
    this.headingLevel = opts.headingLevel ?? 'h2'
    this.expanded = opts.expanded === true
    this.idPrefix = opts.idPrefix ?? 'tl'
    this.onRow = opts.onRow
    this.matchHref = opts.matchHref
    this.favourites = opts.favourites
    this.inLiveSet = opts.inLiveSet ?? (() => false)
    root.classList.toggle('tl-stars', this.favourites !== undefined)
    /** @type {Map<number, HTMLButtonElement>} each row's star, by fixture */ this.stars = new Map()
    this.stack = new Stack(root, { gap: this.grouped ? 8 : 0 })
    const odds = opts.odds
    /** The odds on the rows, when asked for: the space is kept on every row. */
    this.odds = odds === undefined ? undefined : new OddsView(odds.bookmaker, odds.images, (id) => this.redraw(id))
    root.classList.toggle('tl-with-odds', this.odds !== undefined)
    /** @type {Map<number, { open: boolean, all: boolean }>} which rows show their events, and all of them */
    this.open = new Map()
    /** @type {Map<number, Row>} */ this.rows = new Map()
    /** @type {Map<number, { section: HTMLElement, heading: HTMLElement, list: HTMLElement, stack: Stack }>} */ this.sections = new Map()
    /** @type {Map<number, { home: number, away: number }>} when each side's score highlight ends */ this.scored = new Map()
    /** @type {Map<number, LiveEvent[]>} goals removed (VAR), by fixture */ this.cancelled = new Map()
    /** @type {Map<number, { home: number | null, away: number | null }>} the last score seen of each fixture the feed carried */
    this.seen = new Map()
    /** @type {Map<number, LiveFixture>} what is on screen */ this.fixtures = new Map()
    /** @type {Map<string, number>} when each sentence was last said */ this.said = new Map()
    /** @type {Set<number>} fixtures whose row has a goal to flash (it may only appear with the next show()) */
    this.pendingFlash = new Set()
    /** @type {{ inPlayFirst?: boolean }} the order of the last show() */ this.shownWith = {}
    /** Whether placeholder rows are shown. */
    this.placeholders = false
    /** Whether the scores may be stale (the feed down, the browser offline): the clocks stand still. */
    this.stale = false
    // The clocks run here: the gateway sends no tick a running clock shows anyway.
    this.ticker = setInterval(() => this.tickClocks(), 1000)
  }

  /** Placeholder rows of the final height while the first scores load. */
  loading () {
    if (this.placeholders) return
    this.placeholders = true
    this.fixtures = new Map()
    const rows = Array.from({ length: PLACEHOLDER_ROWS }, () => placeholderRow())
    if (!this.grouped) return this.stack.set(rows)
    const list = h('div', { class: 'tl-list' })
    const section = h('div', { class: 'tl-group tl-placeholder-group', 'aria-hidden': 'true' }, h('div', { class: 'tl-league' }, h('span', { class: 'tl-bone tl-bone-heading', text: '\u00a0' })), list)
    this.stack.set([section])
    new Stack(list).set(rows)
  }

  /**
   * Moves the clock of every row whose match clock runs; none while the board is stale (`stale`: the feed is
   * down or the browser offline): a clock that ran on would claim minutes nobody saw.
   */
  tickClocks () {
    if (this.stale === true) return
    for (const f of this.fixtures.values()) if (f.clock?.ticking === true) this.rows.get(f.id)?.tick()
  }

  /**
   * Takes one live-feed update: remembers goals cancelled by VAR, flashes and announces goals (replayed
   * ones too), and after a fresh snapshot flashes the matches whose score rose while the page was away.
   * Clock-only changes move the clock only. The caller then shows the fixtures (show()).
   * @param {FeedUpdate} u
   * @param {Map<number, LiveFixture>} live the feed's fixtures
   */
  feed (u, live) {
    if (u.kind === 'snapshot') {
      if (!u.partial) this.awayGoals(live)
      for (const f of live.values()) this.seen.set(f.id, { home: f.home.score, away: f.away.score })
      return
    }
    if (u.kind === 'odds') return // the rows' cells are drawn with the rows (show())
    if (u.kind === 'expired') {
      // Gone from the feed: what the board remembered of its goals goes too.
      for (const memory of [this.scored, this.cancelled, this.seen]) memory.delete(u.fixtureId)
      return
    }
    if (u.kind !== 'change') return
    const id = u.frame.fixture_id
    const gone = cancelledIn(u.frame)
    if (gone.length > 0) this.cancelled.set(id, [...(this.cancelled.get(id) ?? []), ...gone])
    const goals = goalsIn(u.frame)
    if (goals.length > 0) {
      const until = this.scored.get(id) ?? { home: 0, away: 0 }
      for (const g of goals) until[g.side] = Date.now() + SCORED_MS
      this.scored.set(id, until)
      setTimeout(() => this.redraw(id), SCORED_MS + 50)
      this.pendingFlash.add(id)
    }
    for (const text of announcements(u.frame, u.replayed)) this.announce(text)
    const f = live.get(id)
    if (f !== undefined) this.seen.set(id, { home: f.home.score, away: f.away.score })
  }

  /**
   * After a snapshot replaced what the page held (a replay the server could not serve): the matches whose
   * score rose meanwhile flash and are announced, as live goals are.
   * @param {Map<number, LiveFixture>} live
   */
  awayGoals (live) {
    for (const f of live.values()) {
      const before = this.seen.get(f.id)
      if (before === undefined) continue
      const rose = /** @type {const} */ (['home', 'away']).filter((s) => (f[s].score ?? 0) > (before[s] ?? 0))
      if (rose.length === 0) continue
      const until = this.scored.get(f.id) ?? { home: 0, away: 0 }
      for (const s of rose) until[s] = Date.now() + SCORED_MS
      this.scored.set(f.id, until)
      setTimeout(() => this.redraw(f.id), SCORED_MS + 50)
      this.pendingFlash.add(f.id)
      this.announce(`While reconnecting: ${rose.map((s) => `goal for ${f[s].name}`).join(' and ')}. ${scoreLine(f)}.`)
    }
  }

  /** @param {string} text */
  announce (text) {
    const now = Date.now()
    if ((this.said.get(text) ?? 0) > now - REPEAT_MS) return
    this.said.set(text, now)
    for (const [t, at] of this.said) if (at <= now - REPEAT_MS) this.said.delete(t)
    // Kept a while (a burst, e.g. the goals replayed after a reconnection, is read to its end), then let go.
    this.announcer.append(h('p', { text }))
    while (this.announcer.childElementCount > MAX_SAID) this.announcer.firstElementChild?.remove()
  }

  /**
   * Shows exactly these fixtures: rows updated in place, added and removed, sections and rows put in order.
   * @param {Map<number, LiveFixture>} fixtures
   * @param {{ inPlayFirst?: boolean }} [opts] `inPlayFirst` (default true): within a league, the matches in
   *   play first, then results, then kick-offs; false: by kick-off only (a list of matches in play, where
   *   one that ends keeps its place until it leaves the list)
   */
  show (fixtures, opts = {}) {
    const inPlayFirst = opts.inPlayFirst !== false
    this.shownWith = opts
    this.placeholders = false
    this.fixtures = fixtures
    const active = document.activeElement
    const focusedRow = [...this.rows.values()].find((r) => active instanceof HTMLElement && r.el.contains(active))
    for (const f of fixtures.values()) this.draw(f)
    const all = [...fixtures.values()].sort(inPlayFirst ? (a, b) => this.rank(a) - this.rank(b) || byKickOff(a, b) : byKickOff)
    // Only a change of which rows or in what order moves anything (a row that grows is the stack's to follow).
    if (!this.grouped) {
      setIfChanged(this.stack, all.map((f) => this.rowOf(f).el))
    } else {
      /** @type {Map<number, LiveFixture[]>} */
      const groups = new Map()
      for (const f of all) groups.set(f.league_id, [...(groups.get(f.league_id) ?? []), f])
      for (const [id] of this.sections) if (!groups.has(id)) this.sections.delete(id)
      const order = [...groups.keys()].sort(this.leagueOrder)
      for (const [id, list] of groups) setIfChanged(this.section(id).stack, list.map((f) => this.rowOf(f).el))
      setIfChanged(this.stack, order.map((id) => this.section(id).section))
    }
    for (const [id, row] of this.rows) {
      if (fixtures.has(id)) continue
      this.rows.delete(id)
      this.stars.delete(id)
      if (row === focusedRow) this.refocus(all)
    }
    for (const id of this.pendingFlash) { const row = this.rows.get(id); if (row !== undefined) this.flash(row) }
    this.pendingFlash.clear()
  }

  /**
   * Where a match stands in its league's order (in play, results, kick-offs). A cup tie level at full time
   * that is still in the live set is in play: it awaits extra time, and does not go down to the results
   * and back up when extra time starts.
   * @param {LiveFixture} f
   */
  rank (f) {
    if (awaitingExtraTime(f, this.inLiveSet(f.id))) return RANK.live
    return RANK[/** @type {keyof typeof RANK} */ (f.state.phase)] ?? 0
  }

  /** Re-renders every row and heading (league names arrived, a favourite changed...). */
  refresh () {
    for (const [id, s] of this.sections) this.drawHeading(id, s)
    for (const row of this.rows.values()) row.signature = ''
    this.show(this.fixtures, this.shownWith)
  }

  /** @param {number} id */
  redraw (id) {
    const f = this.fixtures.get(id)
    if (f !== undefined) this.draw(f)
  }

  /** @param {LiveFixture} f */
  draw (f) {
    const o = this.openState(f.id)
    const row = this.rowOf(f)
    row.update(f, { open: o.open, all: o.all, scoredUntil: this.scored.get(f.id) ?? { home: 0, away: 0 }, cancelled: this.cancelled.get(f.id) ?? [], mayGoOn: this.inLiveSet(f.id) })
    this.onRow?.(row, f)
    if (this.favourites !== undefined) this.drawStar(row, f, this.favourites)
    if (this.odds !== undefined && row.odds !== undefined) this.odds.draw(/** @type {any} */ (row.odds), f)
  }

  /**
   * A row's star: pressed when the match is starred; shown filled, unpressed, when the match is the fan's by
   * its team or league (pressing it stars the match itself).
   * @param {Row} row @param {LiveFixture} f @param {import('./favourites.js').Favourites} favourites
   */
  drawStar (row, f, favourites) {
    let star = this.stars.get(row.id)
    if (star === undefined || !row.el.contains(star)) {
      star = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'tl-star' }, icon('star')))
      star.addEventListener('click', (ev) => {
        ev.stopPropagation() // the row's own click opens its events
        favourites.toggle('matches', row.id)
      })
      row.el.querySelector('.tl-row')?.append(star)
      this.stars.set(row.id, star)
    }
    const on = favourites.has('matches', f.id)
    const pressed = String(on)
    if (star.getAttribute('aria-pressed') !== pressed) star.setAttribute('aria-pressed', pressed)
    star.dataset.mine = String(favourites.mine(f))
    const label = `Star ${f.home.name} v ${f.away.name}`
    if (star.getAttribute('aria-label') !== label) { star.setAttribute('aria-label', label); star.title = label }
  }

  /** The focused row left the screen: focus goes to the first row shown, else to the board. @param {LiveFixture[]} shown */
  refocus (shown) {
    const next = shown.map((f) => this.rows.get(f.id)).find((r) => r !== undefined)
    const target = next === undefined ? this.root : next.toggle.hidden ? next.el : next.toggle
    if (!target.hasAttribute('tabindex') && target === this.root) target.setAttribute('tabindex', '-1')
    target.focus({ preventScroll: true })
  }

  /** Flashes a row once (a burst of replayed goals restarts nothing). @param {Row} row */
  flash (row) {
    const now = Date.now()
    if ((row.flashedAt ?? 0) > now - FLASH_ONCE_MS) return
    row.flashedAt = now
    row.el.classList.remove('tl-flash')
    row.el.getBoundingClientRect() // restarts the animation when two goals come close together
    row.el.classList.add('tl-flash')
  }

  /** The row of a fixture, created on first use. @param {LiveFixture} f */
  rowOf (f) {
    let row = this.rows.get(f.id)
    if (row === undefined) {
      row = new Row(f, { idPrefix: this.idPrefix, onAction: (id, what) => this.act(id, what), odds: this.odds?.cells(), matchHref: this.matchHref })
      this.rows.set(f.id, row)
      const o = this.openState(f.id)
      row.update(f, { open: o.open, all: o.all, scoredUntil: this.scored.get(f.id) ?? { home: 0, away: 0 }, cancelled: this.cancelled.get(f.id) ?? [], mayGoOn: this.inLiveSet(f.id) })
    }
    return row
  }

  /**
   * A row's button: open or close its events, show them all, or fewer. Focus stays on what was pressed
   * (the list once "+N more" opened it, the "+N more" button again after "Show fewer").
   * @param {number} id @param {'toggle' | 'more' | 'fewer'} what
   */
  act (id, what) {
    const o = this.openState(id)
    this.open.set(id, what === 'toggle' ? { open: !o.open, all: o.all } : { open: true, all: what === 'more' })
    this.redraw(id)
    const row = this.rows.get(id)
    if (row === undefined) return
    const target = what === 'toggle' ? row.toggle : what === 'more' ? row.list : row.more
    if (document.activeElement !== target) target.focus({ preventScroll: true })
  }

  /** @param {number} id */
  openState (id) {
    return this.open.get(id) ?? { open: this.expanded, all: false }
  }

  /** @param {number} id league id */
  section (id) {
    let s = this.sections.get(id)
    if (s === undefined) {
      const headingId = `${this.idPrefix}-league-${id}`
      const listId = `${this.idPrefix}-list-${id}`
      const heading = h(this.headingLevel, { class: 'tl-league', id: headingId })
      const list = h('div', { class: 'tl-list', id: listId })
      s = { section: h('section', { class: 'tl-group', 'aria-labelledby': headingId, 'data-league': id }, heading, list), heading, list, stack: new Stack(list) }
      this.sections.set(id, s)
      this.drawHeading(id, s)
    }
    return s
  }

  /**
   * A league's heading: its name; with favourites, a button that folds its matches away (the name) and a
   * star that pins the league to the top.
   * @param {number} id @param {{ heading: HTMLElement, list: HTMLElement, section: HTMLElement }} s
   */
  drawHeading (id, s) {
    const name = this.leagueName(id)
    const favourites = this.favourites
    if (favourites === undefined) {
      setText(s.heading, name)
      return
    }
    let fold = /** @type {HTMLButtonElement | null} */ (s.heading.querySelector('.tl-fold'))
    let pin = /** @type {HTMLButtonElement | null} */ (s.heading.querySelector('.tl-pin'))
    if (fold === null || pin === null) {
      fold = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'tl-fold', 'aria-controls': s.list.id }, h('span', { class: 'tl-league-name' })))
      fold.addEventListener('click', () => favourites.toggleFolded(id))
      pin = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'tl-pin' }, icon('star')))
      pin.addEventListener('click', () => favourites.toggle('leagues', id))
      s.heading.replaceChildren(fold, pin)
    }
    setText(/** @type {HTMLElement} */ (fold.firstElementChild), name)
    const folded = favourites.folded(id)
    fold.setAttribute('aria-expanded', String(!folded))
    s.list.hidden = folded
    s.section.classList.toggle('tl-folded', folded)
    pin.setAttribute('aria-pressed', String(favourites.has('leagues', id)))
    const label = `Pin ${name} to the top`
    if (pin.getAttribute('aria-label') !== label) { pin.setAttribute('aria-label', label); pin.title = label }
  }
}

/** Sets a stack's items unless they are already these, in this order. @param {Stack} stack @param {HTMLElement[]} items */
function setIfChanged (stack, items) {
  if (items.length === stack.items.length && items.every((item, i) => stack.items[i] === item && item.parentNode === stack.el)) return
  stack.set(items)
}
