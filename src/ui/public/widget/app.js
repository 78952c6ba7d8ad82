/**
 * The widget itself, mounted by /widget.js into a shadow root on the host page: its styles cannot leak
 * out, the host's cannot leak in (except the documented --tl-* custom properties, which inherit).
 * Same feed and rows as the scoreboard: reconnects with backoff, resumes from the last cursor, flashes
 * goals and announces them through an aria-live="polite" region.
 *
 * What stays on screen when nothing is live: a fixture widget keeps its match as it ended (the feed drops
 * a match a little after full time; a widget loaded after it fetches the match from the passthrough), and a
 * league widget shows today's results and the next fixtures (lib/schedule.js).
 */
import { Board } from '../lib/board.js'
import { connectionText, h } from '../lib/format.js'
import { LiveFeed } from '../lib/live.js'
import { fetchLeague, leagueTitle } from '../lib/leagues.js'
import { dateOf, fetchFixture, fetchFixtures, localDate } from '../lib/schedule.js'

/**
 * @typedef {{ base: string, key: string, league: string | null, fixture: string | null, theme: string | null,
 *   title: string | null }} WidgetConfig
 */

/** @param {string | null} list `271` or `271,501` @returns {number[]} */
const ids = (list) => (list ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)

/** The short word beside the dot; the sentence (connectionText) goes in the message line. */
const STATUS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting', offline: 'Offline', refused: 'Refused' }
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
  if (config.theme === 'light' || config.theme === 'dark') host.dataset.theme = config.theme

  const titleText = config.title ?? (fixtures.length > 0 && leagues.length === 0 ? 'Live match' : 'Live scores')
  const { frame, title, state, conn, boardEl, empty, later, message, announcer } = render(root, config.base, titleText)

  /** @type {Map<number, import('../lib/leagues.js').League>} */
  const names = new Map()
  const board = new Board(boardEl, announcer, { leagueName: (id) => leagueTitle(names.get(id), id), expanded: fixtures.length > 0 && leagues.length === 0, idPrefix: 'tlw' })
  const oneMatch = fixtures.length > 0 && leagues.length === 0

  /** @param {number} id */
  const nameLeague = (id) => {
    if (names.has(id) || config.title) return
    names.set(id, { id, name: `League ${id}`, country: null })
    fetchLeague(config.base, config.key, id).then((l) => {
      if (l === undefined) return
      names.set(id, l)
      if (leagues.length === 1 || fixtures.length > 0) title.textContent = leagueTitle(l, id)
      if (!oneMatch) frame.setAttribute('aria-label', `${titleText}: ${title.textContent}`)
    })
  }
  if (leagues.length === 1) nameLeague(/** @type {number} */ (leagues[0]))

  /** @type {Map<number, import('../lib/live.js').LiveFixture>} the last state of each followed fixture: kept after full time */
  const kept = new Map()
  /** @type {Map<number, import('../lib/live.js').LiveFixture>} today's results and the next fixtures (league widget, nothing live) */
  let schedule = new Map()
  let scheduleAsked = false

  /** What the board shows: the live fixtures, else what was kept or scheduled. */
  const shown = () => {
    if (feed.fixtures.size > 0) return new Map([...kept, ...feed.fixtures])
    return kept.size > 0 ? kept : schedule
  }
  const draw = () => {
    const all = shown()
    board.show(all)
    later.hidden = feed.fixtures.size > 0 || all.size === 0 || oneMatch
    empty.hidden = all.size > 0 || feed.status.state === 'refused'
  }

  /** Today's results and the next few fixtures of the widget's leagues, when none is live. */
  const loadSchedule = async () => {
    if (scheduleAsked || leagues.length === 0) return
    scheduleAsked = true
    const list = await fetchFixtures(config.base, config.key, { leagues, from: localDate(), to: localDate(7) })
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
      const f = await fetchFixture(config.base, config.key, id)
      if (f !== undefined && !feed.fixtures.has(id)) kept.set(id, f)
      if (f !== undefined && !config.title) frame.setAttribute('aria-label', `${titleText}: ${f.home.name} v ${f.away.name}`)
    }
    draw()
  }

  /** @type {number | undefined} */
  let retryAt
  /** @param {import('../lib/live.js').FeedStatus} s */
  const drawStatus = (s) => {
    const text = connectionText(s, retryAt)
    message.hidden = s.state === 'live' || s.state === 'connecting'
    if (message.textContent !== text) message.textContent = text
  }

  const feed = new LiveFeed({
    base: config.base,
    key: config.key,
    leagues,
    fixtures,
    onUpdate: (u) => {
      board.update(feed.fixtures, u)
      if (oneMatch) for (const [id, f] of feed.fixtures) kept.set(id, f)
      // A one-match widget is named after its match: two on a page are two different regions.
      if (oneMatch && !config.title) for (const f of kept.values()) frame.setAttribute('aria-label', `${titleText}: ${f.home.name} v ${f.away.name}`)
      if (fixtures.length > 0) for (const f of feed.fixtures.values()) nameLeague(f.league_id)
      if (u.kind !== 'change' || feed.fixtures.size === 0 || kept.size > 0) draw()
      if (u.kind === 'snapshot' && !u.partial) {
        if (oneMatch) loadEnded()
        else if (feed.fixtures.size === 0) loadSchedule()
      }
      if (u.kind === 'expired' && feed.fixtures.size === 0 && !oneMatch) { scheduleAsked = false; loadSchedule() }
    },
    onStatus: (s) => {
      conn.dataset.state = s.state
      state.textContent = STATUS[s.state]
      retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
      drawStatus(s)
      if (s.state === 'refused') empty.hidden = true
    }
  })
  setInterval(() => { if (retryAt !== undefined && feed.status.state !== 'live') drawStatus(feed.status) }, 1000)
  if (leagues.length === 0 && fixtures.length === 0) {
    feed.setStatus({ state: 'refused', message: 'Set data-league or data-fixture on the widget\'s script tag.' })
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
 */
function render (root, base, titleText) {
  const title = h('h2', { class: 'tlw-title', text: titleText })
  const state = h('span', { class: 'tlw-conn-label', text: STATUS.connecting })
  const conn = h('span', { class: 'tlw-conn', role: 'status', 'data-state': 'connecting' }, h('span', { class: 'tlw-dot', 'aria-hidden': 'true' }), state)
  const boardEl = h('div', { class: 'tl-list' })
  const empty = h('p', { class: 'tlw-empty', hidden: true, text: 'No match in play right now.' })
  const later = h('p', { class: 'tlw-later', hidden: true, text: 'Nothing live now · today and next' })
  const message = h('p', { class: 'tlw-message', hidden: true })
  const announcer = h('div', { class: 'tl-visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'false' })
  const frame = h('section', { class: 'tlw', 'aria-label': titleText },
    h('header', { class: 'tlw-head' }, title, conn),
    message, later, boardEl, empty,
    h('footer', { class: 'tlw-foot' }, h('a', { href: base + '/', target: '_blank', rel: 'noopener', text: 'touchline' })),
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
  return { frame, title, state, conn, boardEl, empty, later, message, announcer }
}
