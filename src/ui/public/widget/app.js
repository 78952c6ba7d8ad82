/**
 * The widget itself, mounted by /widget.js into a shadow root on the host page: its styles cannot leak
 * out, the host's cannot leak in (except the documented --tl-* custom properties, which inherit).
 * Same feed and rows as the scoreboard: reconnects with backoff, resumes from the last cursor, flashes
 * goals (replayed ones too) and announces them through its own aria-live="polite" region.
 *
 * Its layout follows its own width, not the page's: the rows are in a size container (card.css), so a
 * widget under ~480 px stacks the names as on a phone, wherever it sits.
 *
 * Its height does not move the host page for a connection's sake: the connection is written on the footer's
 * line, which is always there ("Live", "Reconnecting in 4 s", "Full time"), and a widget keeps each started
 * match's scorer line (tl-steady). A refusal says why in one line, in place of the rows.
 *
 * What stays on screen when nothing is live: a fixture widget keeps its match as it ended ("Full time"; the
 * feed drops a match a little after full time; a widget loaded after it fetches the match from the
 * passthrough), and a league widget shows today's results and the next fixtures (lib/schedule.js).
 *
 * `data-odds="<bookmaker id>"` shows that bookmaker's full-time result prices on each live row (lib/odds.js),
 * named in the header; without it no odds are asked for.
 */
import { Board } from '../lib/board.js'
import { connectionAnnouncement, connectionText, problemText } from '../lib/connection.js'
import { h } from '../lib/format.js'
import { LiveFeed } from '../lib/live.js'
import { fetchLeague, leagueTitle } from '../lib/leagues.js'
import { bookmakerOf } from '../lib/odds.js'
import { dateOf, fetchFixture, fetchFixtures, localDate } from '../lib/schedule.js'

/**
 * @typedef {{ base: string, key: string, league: string | null, fixture: string | null, theme: string | null,
 *   title: string | null, odds?: string | null }} WidgetConfig
 * @typedef {import('../lib/live.js').LiveFixture} LiveFixture
 */

/** @param {string | null} list `271` or `271,501` @returns {number[]} */
const ids = (list) => (list ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)

/** The word beside the dot; while a connection waits, what it waits for (connectionText) replaces it. */
const STATUS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting', offline: 'Offline', refused: 'Not connected', closed: 'Not connected', finished: 'Full time' }
/** Upcoming fixtures a league widget lists when nothing is live. */
const NEXT_FIXTURES = 5

/**
 * @param {HTMLElement} host the placeholder element
 * @param {WidgetConfig} config
 */
export function mount (host, config) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  const leagues = ids(config.league)
  const fixtures = ids(config.fixture)
  const oneMatch = fixtures.length > 0 && leagues.length === 0
  if (config.theme === 'light' || config.theme === 'dark') host.dataset.theme = config.theme

  const titleText = config.title ?? (oneMatch ? 'Match' : 'Live scores')
  const bookmaker = bookmakerOf(config.odds)
  const ui = render(root, config.base, titleText, bookmaker)
  const { frame, title, state, conn, boardEl, empty, later, message, announcer, oddsName } = ui

  /** @type {Map<number, import('../lib/leagues.js').League>} */
  const names = new Map()
  const board = new Board(boardEl, announcer, {
    leagueName: (id) => leagueTitle(names.get(id), id),
    expanded: oneMatch,
    idPrefix: 'tlw',
    odds: bookmaker === undefined ? undefined : { bookmaker, images: () => feed.client.odds }
  })
  boardEl.classList.add('tl-steady')

  /** Names the widget after its league (one league, or the league of its match). @param {number} id */
  const nameLeague = (id) => {
    if (names.has(id) || config.title) return
    names.set(id, { id, name: `League ${id}`, country: null, category: null })
    fetchLeague(config.base, config.key, id).then((l) => {
      if (l === undefined) return
      names.set(id, l)
      if (leagues.length === 1 || oneMatch) title.textContent = leagueTitle(l, id)
      if (!oneMatch) frame.setAttribute('aria-label', `${titleText}: ${title.textContent}`)
    })
  }
  if (leagues.length === 1) nameLeague(/** @type {number} */ (leagues[0]))

  /** @type {Map<number, LiveFixture>} the last state of each followed fixture: kept after full time */
  const kept = new Map()
  /** @type {Map<number, LiveFixture>} today's results and the next fixtures (league widget, nothing live) */
  let schedule = new Map()
  let scheduleAsked = false

  /** What the board shows: the live fixtures, else what was kept or scheduled. */
  const shown = () => {
    if (feed.fixtures.size > 0) return new Map([...kept, ...feed.fixtures])
    return kept.size > 0 ? kept : schedule
  }
  /** A one-match widget whose match is over says "Full time", not "Live". */
  const over = () => oneMatch && kept.size > 0 && [...kept.values()].every((f) => f.state.phase === 'finished' || f.state.phase === 'cancelled' || f.state.phase === 'postponed')
  const draw = () => {
    if (feed.status.state === 'refused') return
    const all = shown()
    board.show(all)
    later.hidden = feed.fixtures.size > 0 || all.size === 0 || oneMatch
    empty.hidden = all.size > 0
    drawStatus(feed.status)
    if (oddsName !== undefined && board.odds?.name !== undefined && oddsName.textContent !== board.odds.name) oddsName.textContent = board.odds.name
  }

  /** Today's results and the next few fixtures of the widget's leagues, when none is live. */
  const loadSchedule = async () => {
    if (scheduleAsked || leagues.length === 0) return
    scheduleAsked = true
    /** @type {import('../lib/live.js').LiveFixture[]} */
    let list
    try {
      list = await fetchFixtures(config.base, config.key, { leagues, from: localDate(), to: localDate(7) })
    } catch {
      scheduleAsked = false // unreadable: asked again at the next whole snapshot (after a reconnection)
      return
    }
    const today = localDate()
    const upcoming = list.filter((f) => f.state.phase === 'scheduled').slice(0, NEXT_FIXTURES)
    const done = list.filter((f) => f.state.phase !== 'scheduled' && (f.starting_at === null || dateOf(new Date(f.starting_at)) === today))
    schedule = new Map([...done, ...upcoming].map((f) => [f.id, f]))
    draw()
  }

  /** A fixture widget loaded after its match left the feed: the match from the passthrough. */
  const loadEnded = async () => {
    for (const id of fixtures) {
      if (feed.fixtures.has(id) || kept.has(id)) continue
      // Unreadable: asked again at the next whole snapshot (after a reconnection).
      const f = await fetchFixture(config.base, config.key, id).catch(() => undefined)
      if (f === undefined || feed.fixtures.has(id)) continue
      kept.set(id, f)
      nameLeague(f.league_id)
      if (!config.title) frame.setAttribute('aria-label', `${titleText}: ${f.home.name} v ${f.away.name}`)
    }
    draw()
  }

  /** @type {number | undefined} */
  let retryAt
  /** @param {import('../lib/live.js').FeedStatus} s */
  const drawStatus = (s) => {
    const word = over() ? 'finished' : s.state
    conn.dataset.state = word
    if (state.textContent !== STATUS[word]) state.textContent = STATUS[word]
    const text = s.state === 'live' || s.state === 'connecting' || s.state === 'refused' || over() ? '' : connectionText(s, retryAt)
    if (message.textContent !== text) message.textContent = text
    boardEl.classList.toggle('tl-dim', (s.state === 'reconnecting' || s.state === 'offline') && !over())
  }

  let frameRequest = 0
  const feed = new LiveFeed({
    base: config.base,
    key: config.key,
    leagues,
    fixtures,
    odds: bookmaker,
    onUpdate: (u) => {
      board.feed(u, feed.fixtures)
      if (oneMatch) for (const [id, f] of feed.fixtures) kept.set(id, f)
      // A one-match widget is named after its match: two on a page are two different regions.
      if (oneMatch && !config.title) for (const f of kept.values()) frame.setAttribute('aria-label', `${titleText}: ${f.home.name} v ${f.away.name}`)
      if (fixtures.length > 0) for (const f of feed.fixtures.values()) nameLeague(f.league_id)
      if (frameRequest === 0) frameRequest = window.requestAnimationFrame(() => { frameRequest = 0; draw() })
      if (u.kind === 'snapshot' && !u.partial) {
        if (oneMatch) loadEnded()
        else if (feed.fixtures.size === 0) loadSchedule()
      }
      if (u.kind === 'expired' && feed.fixtures.size === 0 && !oneMatch) { scheduleAsked = false; loadSchedule() }
    },
    onStatus: (s) => {
      retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
      drawStatus(s)
      const said = over() ? '' : connectionAnnouncement(s, before)
      before = s
      if (said !== '') board.announce(said)
      if (s.state === 'refused') refuse(problemText(s, 'widget'), s.message)
    }
  })
  /** @type {import('../lib/live.js').FeedStatus} */
  let before = feed.status

  /** Says in one line, in place of the rows, why the widget shows nothing; the owner's detail goes to the console. @param {string} text @param {string} [detail] */
  const refuse = (text, detail) => {
    board.show(new Map())
    later.hidden = true
    empty.textContent = text
    empty.classList.add('tlw-refused')
    empty.hidden = false
    board.announce(text)
    if (detail) console.warn(`touchline widget: ${detail}`)
  }

  setInterval(() => { if (retryAt !== undefined && feed.status.state !== 'live') drawStatus(feed.status) }, 1000)
  if (leagues.length === 0 && fixtures.length === 0) {
    drawStatus({ state: 'refused', reason: 'forbidden', message: '' })
    refuse('No league or match chosen (data-league, data-fixture).', 'set data-league or data-fixture on the widget\'s script tag.')
    return feed
  }
  feed.start()
  return feed
}

/**
 * Builds the widget's markup in `root`, hidden until its stylesheets are loaded (or after 2 s whatever
 * happens), so it never flashes unstyled; returns the elements the widget updates.
 * @param {ShadowRoot} root
 * @param {string} base the gateway's URL
 * @param {string} titleText
 * @param {number | undefined} bookmaker whose odds the rows show, if any
 */
function render (root, base, titleText, bookmaker) {
  const title = h('h2', { class: 'tlw-title', text: titleText })
  // Whose prices the rows show (the bookmaker's name once the odds have said it), on the header's line.
  const oddsName = bookmaker === undefined ? undefined : h('span', { text: `bookmaker ${bookmaker}` })
  const legend = oddsName === undefined ? null : h('p', { class: 'tlw-odds' }, '1 X 2 · ', oddsName)
  const state = h('span', { class: 'tlw-conn-label', text: STATUS.connecting })
  // Not a live region: the countdown would be read out every second. The announcer says what changed.
  const message = h('span', { class: 'tlw-message' })
  // On the footer's line, which is always there: its words change, nothing around them moves.
  const conn = h('span', { class: 'tlw-conn', 'data-state': 'connecting' }, h('span', { class: 'tlw-dot', 'aria-hidden': 'true' }), state, message)
  const boardEl = h('div', { class: 'tl-list' })
  const empty = h('p', { class: 'tlw-empty', hidden: true, text: 'No match in play right now.' })
  const later = h('p', { class: 'tlw-later', hidden: true, text: 'Nothing live now · today and next' })
  const announcer = h('div', { class: 'tl-visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'false' })
  const frame = h('section', { class: 'tlw', 'aria-label': titleText },
    h('header', { class: 'tlw-head' }, title, legend),
    later, boardEl, empty,
    h('footer', { class: 'tlw-foot' }, conn, h('a', { href: base + '/', target: '_blank', rel: 'noopener', text: 'touchline' })),
    announcer)
  const sheets = ['lib/card.css', 'widget/widget.css'].map((path) => h('link', { rel: 'stylesheet', href: `${base}/${path}` }))
  // CSSOM, not a style attribute: a host page's CSP may forbid inline style attributes.
  frame.style.visibility = 'hidden'
  root.replaceChildren(...sheets, frame)
  // Shown once styled (or after 2 s whatever happens), never as a flash of unstyled markup.
  let pending = sheets.length
  const show = () => { if (--pending <= 0) frame.style.removeProperty('visibility') }
  for (const link of sheets) { link.addEventListener('load', show); link.addEventListener('error', show) }
  setTimeout(() => { pending = 0; show() }, 2000)
  return { frame, title, state, conn, boardEl, empty, later, message, announcer, oddsName }
}
