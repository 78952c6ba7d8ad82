/**
 * Board: renders fixtures as compact livescore rows (clock with a live mark, teams, score, latest goal),
 * optionally grouped by league, with each match's events behind a button (keyboard-operable, also opened by
 * a click anywhere on the row). Goals (og, pen, missed pen), red cards and VAR decisions are always listed
 * when the events are open; other events (yellow cards...) are capped, with a "+N more" button.
 * Keeps each row's element stable across updates (so the goal flash animation is not restarted by a clock
 * tick), flashes a row on a goal, keeps goals cancelled by VAR struck through, and speaks goals in an
 * aria-live region. Shared by the scoreboard page and the widget; styles are in `card.css`.
 *
 * @typedef {import('./live.js').LiveFixture} LiveFixture
 * @typedef {import('./live.js').FeedUpdate} FeedUpdate
 * @typedef {import('./format.js').LiveEvent} LiveEvent
 */
import { announcements, cancelledIn, clockLabel, clockReading, creditedSide, eventMinute, eventStyle, eventText, goalsIn, goalsText, h, isGoalType, isKeyEvent, notStarted, playerName, shootout } from './format.js'

/** How long the scoring side's score stays highlighted after a goal. */
const SCORED_MS = 8000
/** Events other than goals, red cards and VAR listed before "+N more" (the most recent ones). */
const MAX_OTHER_EVENTS = 3

export class Board {
  /**
   * @param {HTMLElement} root where the cards (or league sections) go
   * @param {HTMLElement} announcer an aria-live="polite" element
   * @param {object} [opts]
   * @param {boolean} [opts.grouped] one section per league, with a heading
   * @param {(leagueId: number) => string} [opts.leagueName]
   * @param {string} [opts.headingLevel] heading tag of league sections @default 'h2'
   * @param {boolean} [opts.expanded] events open from the start (a one-match widget) @default false
   * @param {string} [opts.idPrefix] prefix of element ids, unique per board on a page @default 'tl'
   * @param {string} [opts.labelledBy] id of an element whose text starts each league section's name (two
   *   boards on a page: "Today Premiership" is not the live board's "Premiership")
   */
  constructor (root, announcer, opts = {}) {
    this.root = root
    this.announcer = announcer
    this.grouped = opts.grouped === true
    this.leagueName = opts.leagueName ?? ((id) => `League ${id}`)
    this.headingLevel = opts.headingLevel ?? 'h2'
    this.expanded = opts.expanded === true
    this.idPrefix = opts.idPrefix ?? 'tl'
    this.labelledBy = opts.labelledBy === undefined ? '' : `${opts.labelledBy} `
    /** @type {Map<number, { open: boolean, all: boolean }>} which rows show their events, and all of them */
    this.open = new Map()
    /** @type {Map<number, HTMLElement>} */ this.cards = new Map()
    /** @type {Map<number, { section: HTMLElement, heading: HTMLElement, list: HTMLElement }>} */ this.sections = new Map()
    /** @type {Map<number, { home: number, away: number }>} when each side's score highlight ends */ this.scored = new Map()
    /** @type {Map<number, LiveEvent[]>} goals removed (VAR), by fixture */ this.cancelled = new Map()
    /** @type {Map<number, LiveFixture>} */ this.fixtures = new Map()
    // The clocks run here: the gateway sends no tick a running clock shows anyway.
    this.ticker = setInterval(() => this.tickClocks(), 1000)
  }

  /** Moves the clock of every card whose match clock runs. */
  tickClocks () {
    for (const f of this.fixtures.values()) if (f.clock?.ticking === true && this.cards.has(f.id)) this.tick(f)
  }

  /**
   * Applies one feed update to the screen.
   * @param {Map<number, LiveFixture>} fixtures the feed's current fixtures
   * @param {FeedUpdate} u
   */
  update (fixtures, u) {
    this.fixtures = fixtures
    if (u.kind === 'change') {
      const id = u.frame.fixture_id
      const gone = cancelledIn(u.frame)
      if (gone.length > 0) this.cancelled.set(id, [...(this.cancelled.get(id) ?? []), ...gone])
      if (!u.replayed) this.celebrate(u.frame)
      const f = fixtures.get(id)
      // Most frames are clock ticks: touch the clock text only, no rebuild, no layout pass.
      if (f !== undefined && this.cards.has(id) && u.frame.changes.length > 0 && u.frame.changes.every((c) => c.kind === 'clock')) {
        this.tick(f)
        return
      }
      if (f !== undefined) this.renderCard(f)
      this.layout()
      return
    }
    if (u.kind === 'snapshot') for (const f of fixtures.values()) this.renderCard(f)
    this.layout()
  }

  /** Re-renders every card (league names arrived, a minute passed for kick-off times...). */
  refresh () {
    for (const f of this.fixtures.values()) this.renderCard(f)
    for (const [id, s] of this.sections) s.heading.textContent = this.leagueName(id)
    this.layout()
  }

  /**
   * Shows exactly these fixtures (a list fetched over HTTP rather than a feed's).
   * @param {Map<number, LiveFixture>} fixtures
   */
  show (fixtures) {
    this.fixtures = fixtures
    this.refresh()
  }

  /** @param {import('./live.js').ChangeFrame} frame */
  celebrate (frame) {
    const goals = goalsIn(frame)
    if (goals.length > 0) {
      const until = this.scored.get(frame.fixture_id) ?? { home: 0, away: 0 }
      for (const g of goals) until[g.side] = Date.now() + SCORED_MS
      this.scored.set(frame.fixture_id, until)
      setTimeout(() => { const f = this.fixtures.get(frame.fixture_id); if (f) this.renderCard(f) }, SCORED_MS + 50)
      const card = this.card(frame.fixture)
      card.classList.remove('tl-flash')
      card.getBoundingClientRect() // reflow: restarts the animation when two goals come close together
      card.classList.add('tl-flash')
    }
    for (const text of announcements(frame)) this.announce(text)
  }

  /** @param {string} text */
  announce (text) {
    this.announcer.append(h('p', { text }))
    while (this.announcer.childElementCount > 3) this.announcer.firstElementChild?.remove()
  }

  /** The stable element of a fixture's card, created on first use. @param {LiveFixture} f */
  card (f) {
    let el = this.cards.get(f.id)
    if (el === undefined) {
      el = h('article', { class: 'tl-match', 'data-fixture': f.id })
      el.addEventListener('animationend', () => el?.classList.remove('tl-flash'))
      // A click anywhere on the row opens the events, as on livescore sites; the button is the keyboard way.
      el.addEventListener('click', (ev) => {
        const target = /** @type {Element} */ (ev.target)
        if (target.closest('.tl-more') !== null) this.toggle(f.id, true)
        else if (target.closest('.tl-row') !== null && el?.querySelector('.tl-toggle') !== null) this.toggle(f.id)
      })
      this.cards.set(f.id, el)
    }
    return el
  }

  /** Updates a rendered card's clock and label only (a clock-only change). @param {LiveFixture} f */
  tick (f) {
    const el = this.card(f)
    const clock = el.querySelector('.tl-clock-text')
    if (clock === null) return this.renderCard(f)
    const text = clockLabel(f)
    if (clock.textContent === text) return
    clock.textContent = text
    el.setAttribute('aria-label', cardLabel(f))
  }

  /** Opens or closes a row's events. @param {number} id @param {boolean} [all] also list every event */
  toggle (id, all) {
    const o = this.openState(id)
    this.open.set(id, all === undefined ? { open: !o.open, all: o.all } : { open: true, all })
    const f = this.fixtures.get(id)
    if (f !== undefined) this.renderCard(f)
    const focus = this.cards.get(id)?.querySelector(all === undefined ? '.tl-toggle' : '.tl-events')
    if (focus instanceof HTMLElement) focus.focus()
  }

  /** @param {number} id */
  openState (id) {
    return this.open.get(id) ?? { open: this.expanded, all: false }
  }

  /** @param {LiveFixture} f */
  renderCard (f) {
    const el = this.card(f)
    const scored = this.scored.get(f.id) ?? { home: 0, away: 0 }
    const now = Date.now()
    const pens = shootout(f)
    const before = notStarted(f)
    const events = this.listed(f)
    const state = this.openState(f.id)
    const detailsId = `${this.idPrefix}-events-${f.id}`
    el.dataset.phase = f.state.phase
    el.dataset.league = String(f.league_id)
    el.dataset.open = String(state.open && events.length > 0)
    el.setAttribute('aria-label', cardLabel(f))
    const goal = latestGoal(f)
    el.replaceChildren(
      h('div', { class: 'tl-row' },
        h('span', { class: 'tl-clock', title: f.state.name }, f.state.phase === 'live' ? h('span', { class: 'tl-dot', 'aria-hidden': 'true' }) : null,
          h('span', { class: 'tl-clock-text', text: clockLabel(f) })),
        h('span', { class: 'tl-team tl-home' }, h('span', { class: 'tl-name', text: f.home.name })),
        h('span', { class: `tl-score${before ? ' tl-not-started' : ''}`, 'aria-hidden': 'true' },
          h('span', { class: `tl-goals${scored.home > now ? ' tl-scored' : ''}`, text: before ? '' : goalsText(f.home.score) }),
          h('span', { class: 'tl-sep', text: '-' }),
          h('span', { class: `tl-goals${scored.away > now ? ' tl-scored' : ''}`, text: before ? '' : goalsText(f.away.score) })),
        h('span', { class: 'tl-team tl-away' }, h('span', { class: 'tl-name', text: f.away.name })),
        goal ? h('span', { class: 'tl-latest', title: 'Latest goal' }, h('span', { class: 'tl-icon tl-icon-goal', 'aria-hidden': 'true' }), ` ${eventMinute(goal)} ${eventText(goal)}`) : h('span', { class: 'tl-latest' }),
        events.length > 0
          ? h('button', { type: 'button', class: 'tl-toggle', 'aria-expanded': String(state.open), 'aria-controls': detailsId, title: `${state.open ? 'Hide' : 'Show'} the match events` },
            h('span', { class: 'tl-count', text: String(events.length) }), h('span', { class: 'tl-visually-hidden', text: ` ${events.length === 1 ? 'event' : 'events'}` }),
            h('span', { class: 'tl-chevron', 'aria-hidden': 'true' }))
          : h('span', { class: 'tl-toggle-space' })),
      ...[pens ? h('div', { class: 'tl-pens', text: pens }) : null,
        state.open && events.length > 0 ? this.details(f, events, state.all, detailsId) : null].filter((x) => x !== null))
  }

  /**
   * Every event a row can list (goals, cards, VAR; VAR-cancelled goals kept struck through), oldest first.
   * @param {LiveFixture} f
   * @returns {Array<{ e: LiveEvent, cancelled: boolean }>}
   */
  listed (f) {
    const shown = (f.events ?? []).filter((e) => eventStyle(e) !== undefined && e.side).map((e) => ({ e, cancelled: false }))
    for (const e of this.cancelled.get(f.id) ?? []) if (!f.events.some((x) => x.id === e.id)) shown.push({ e, cancelled: true })
    return shown.sort((a, b) => (a.e.minute ?? 0) - (b.e.minute ?? 0) || (a.e.extra_minute ?? 0) - (b.e.extra_minute ?? 0) || a.e.id - b.e.id)
  }

  /**
   * The open events: goals, red cards and VAR always; the other events capped, with "+N more".
   * @param {LiveFixture} f @param {Array<{ e: LiveEvent, cancelled: boolean }>} shown @param {boolean} all @param {string} id
   */
  details (f, shown, all, id) {
    const others = shown.filter(({ e, cancelled }) => !cancelled && !isKeyEvent(e))
    const hidden = new Set(all ? [] : others.slice(0, Math.max(0, others.length - MAX_OTHER_EVENTS)).map(({ e }) => e.id))
    const list = h('ul', { class: 'tl-events', 'aria-label': `Match events: ${f.home.name} v ${f.away.name}`, tabindex: '-1' },
      ...shown.filter(({ e, cancelled }) => cancelled || !hidden.has(e.id)).map(({ e, cancelled }) => eventItem(e, cancelled)))
    return h('div', { class: 'tl-details', id },
      list,
      hidden.size > 0
        ? h('button', { type: 'button', class: 'tl-more', 'aria-label': `Show ${hidden.size} more ${hidden.size === 1 ? 'event' : 'events'} (cards, substitutions)` }, `+${hidden.size} more`)
        : null)
  }

  /** Puts sections and cards in order, moving only what is out of place; drops cards of gone fixtures. */
  layout () {
    for (const [id, el] of this.cards) {
      if (!this.fixtures.has(id)) { el.remove(); this.cards.delete(id); this.cancelled.delete(id); this.scored.delete(id) }
    }
    const byKickoff = (/** @type {LiveFixture} */ a, /** @type {LiveFixture} */ b) =>
      (a.starting_at ?? '').localeCompare(b.starting_at ?? '') || a.id - b.id
    const all = [...this.fixtures.values()].sort(byKickoff)
    if (!this.grouped) return place(this.root, all.map((f) => this.card(f)))
    /** @type {Map<number, LiveFixture[]>} */
    const groups = new Map()
    for (const f of all) groups.set(f.league_id, [...(groups.get(f.league_id) ?? []), f])
    for (const [id, s] of this.sections) if (!groups.has(id)) { s.section.remove(); this.sections.delete(id) }
    const order = [...groups.keys()].sort((a, b) => this.leagueName(a).localeCompare(this.leagueName(b)) || a - b)
    place(this.root, order.map((id) => this.section(id).section))
    for (const [id, list] of groups) place(this.section(id).list, list.map((f) => this.card(f)))
  }

  /** @param {number} id league id */
  section (id) {
    let s = this.sections.get(id)
    if (s === undefined) {
      const heading = h(this.headingLevel, { class: 'tl-league', id: `${this.idPrefix}-league-${id}`, text: this.leagueName(id) })
      const list = h('div', { class: 'tl-list' })
      s = { section: h('section', { class: 'tl-group', 'aria-labelledby': `${this.labelledBy}${this.idPrefix}-league-${id}` }, heading, list), heading, list }
      this.sections.set(id, s)
    }
    return s
  }
}

/** The row's accessible name: both sides' scores (none before kick-off) and the clock. @param {LiveFixture} f */
function cardLabel (f) {
  const r = clockReading(f)
  const when = f.state.phase === 'live' && r !== null ? `minute ${r.minute}${r.extra ? ` plus ${r.extra}` : ''}` : f.state.phase === 'scheduled' ? `kick-off ${clockLabel(f)}` : f.state.name
  return notStarted(f) ? `${f.home.name} v ${f.away.name}, ${when}` : `${f.home.name} ${goalsText(f.home.score)}, ${f.away.name} ${goalsText(f.away.score)}, ${when}`
}

/** The last goal that stands, for the row's summary. @param {LiveFixture} f */
const latestGoal = (f) => (f.events ?? []).filter((e) => isGoalType(e.type)).at(-1)

/** One line of the open events. @param {LiveEvent} e @param {boolean} cancelled */
function eventItem (e, cancelled) {
  const style = eventStyle(e) ?? { cls: 'other', label: e.type }
  return h('li', { class: `tl-ev tl-${creditedSide(e)}${cancelled ? ' tl-cancelled' : ''}${isKeyEvent(e) ? ' tl-key' : ''}`, 'data-type': e.type, title: `${style.label}${cancelled ? ', cancelled by VAR' : ''}` },
    h('span', { class: 'tl-min', text: eventMinute(e) }),
    h('span', { class: `tl-icon tl-icon-${style.cls}`, role: 'img', 'aria-label': cancelled ? `${style.label} cancelled by VAR` : style.label }),
    cancelled ? h('s', { text: playerName(e) || style.label }) : h('span', { class: 'tl-who', text: eventText(e) }),
    cancelled ? h('span', { class: 'tl-var', text: 'VAR' }) : null)
}

/**
 * Makes `parent`'s children exactly `items`, in order, touching only misplaced nodes.
 * @param {HTMLElement} parent
 * @param {HTMLElement[]} items
 */
function place (parent, items) {
  items.forEach((item, i) => {
    if (parent.children[i] !== item) parent.insertBefore(item, parent.children[i] ?? null)
  })
  while (parent.children.length > items.length) parent.lastElementChild?.remove()
}
