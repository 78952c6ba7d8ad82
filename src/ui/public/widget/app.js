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
 * match's scorer line (lib/card.css). A refusal says why in one line, in place of the rows.
 *
 * What it shows, from the gateway's day model (never the upstream's rows):
 * - a league widget: every match of its league today (the reader's day, in the browser's time zone), in
 *   play first, then results, then kick-offs, and its league's matches in play whatever their day. The feed
 *   follows the league (its live set) and today (`dates`, lib/feed.js): each fixture of the day comes with
 *   the snapshot and every change of it is pushed (a kick-off moved, a postponement, a result); nothing is
 *   read again. At midnight it follows the new day.
 * - a fixture widget: its match, followed by id: the gateway holds it live or not, so one loaded after full
 *   time shows the result, and it keeps the final result and the events ("Full time").
 *
 * `data-odds="<bookmaker id>"` shows that bookmaker's full-time result prices on each live row (lib/odds.js),
 * named in the header; without it no odds are asked for.
 *
 * Signed connection tokens instead of a key (docs/tokens.md): `data-token-url` names a route of the host
 * site's backend that answers a fresh token, asked with the site's cookies whenever the client needs one (a
 * connection, a renewal before the token expires); `data-token` is a fixed token the page was rendered with,
 * which cannot be renewed: the connection ends when it expires, and the widget stops and says so. With a
 * token the widget holds no key: the league's name is read with the token (its Authorization header) once live.
 */
import { Board } from '../lib/board.js'
import { connectionAnnouncement, connectionText, problemText } from '../lib/connection.js'
import { h } from '../lib/format.js'
import { inPlay, LiveFeed } from '../lib/feed.js'
import { fetchToken } from '../lib/credential.js'
import { fetchLeague, leagueTitle } from '../lib/leagues.js'
import { bookmakerOf } from '../lib/odds.js'
import { today } from '../lib/days.js'

/**
 * @typedef {{ base: string, key: string | null, tokenUrl?: string | null, token?: string | null, league: string | null,
 *   fixture: string | null, theme: string | null, title: string | null, odds?: string | null }} WidgetConfig
 *   `key` is null when a token option is given
 * @typedef {import('../lib/feed.js').LiveFixture} LiveFixture
 */

/** @param {string | null} list `271` or `271,501` @returns {number[]} */
const ids = (list) => (list ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)

/** The word beside the dot; while a connection waits, what it waits for (connectionText) replaces it. */
const STATUS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting', offline: 'Offline', refused: 'Not connected', closed: 'Not connected', finished: 'Full time' }
/** How often the widget looks whether midnight made "today" another date. */
const DAY_CHECK_MS = 30_000

/**
 * When a token expires (its `exp` claim, epoch ms), read without checking its signature (the gateway does);
 * Infinity when it cannot be read.
 * @param {string} token
 */
function expiryOf (token) {
  try {
    const claims = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')))
    return typeof claims.exp === 'number' ? claims.exp * 1000 : Infinity
  } catch {
    return Infinity
  }
}

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

  /** Names the widget after its league (one league, or the league of its match). @param {number} id */
  const nameLeague = (id) => {
    if (names.has(id) || config.title) return
    names.set(id, { id, name: `League ${id}`, country: null, category: null, kind: 'other' })
    // With a token, the league is read with the fan's token once the feed holds one (when it is live).
    if (config.key) readName(id, { key: config.key })
    else unnamed.push(id)
  }
  /** @type {number[]} leagues to name once a token is held */
  const unnamed = []
  /** @param {number} id @param {import('../lib/leagues.js').Credential} credential */
  const readName = (id, credential) => {
    fetchLeague(config.base, credential, id).then((l) => {
      if (l === undefined) return
      names.set(id, l)
      if (leagues.length === 1 || oneMatch) title.textContent = leagueTitle(l, id)
      if (!oneMatch) frame.setAttribute('aria-label', `${titleText}: ${title.textContent}`)
    })
  }
  if (leagues.length === 1) nameLeague(/** @type {number} */ (leagues[0]))

  /** @type {Map<number, LiveFixture>} the last state of each followed fixture: kept after full time */
  const kept = new Map()

  /**
   * What the board shows: a one-match widget its match; a league widget its league's fixtures of the day
   * (a kick-off moved to another day leaves), its league's live set whatever the day (the feed lets a match
   * go two minutes after it leaves it), and a fixture it names.
   */
  const shown = () => {
    if (oneMatch) return new Map([...kept, ...feed.fixtures])
    const day = feed.day === undefined ? new Map() : feed.dayFixtures(feed.day)
    /** @type {Map<number, LiveFixture>} */
    const out = new Map()
    for (const f of day.values()) if (leagues.includes(f.league_id)) out.set(f.id, f)
    for (const id of feed.carried.keys()) { const f = feed.fixtures.get(id); if (f !== undefined && leagues.includes(f.league_id)) out.set(id, f) }
    for (const id of fixtures) { const f = feed.fixtures.get(id); if (f !== undefined) out.set(id, f) }
    return out
  }
  /** A one-match widget whose match is over says "Full time", not "Live". */
  const over = () => oneMatch && kept.size > 0 && [...kept.values()].every((f) => f.state.phase === 'finished' || f.state.phase === 'cancelled' || f.state.phase === 'postponed')
  const draw = () => {
    if (feed.status.state === 'refused') return
    // A new day (midnight) is drawn once its fixtures are in: until then the old one stays.
    if (!oneMatch && !feed.dayHeld(feed.day ?? '')) return
    const all = shown()
    board.show(all)
    later.hidden = oneMatch || all.size === 0 || [...all.values()].some(inPlay)
    empty.hidden = all.size > 0
    drawStatus(feed.status)
    if (oddsName !== undefined && board.odds?.name !== undefined && oddsName.textContent !== board.odds.name) oddsName.textContent = board.odds.name
  }
  let frameRequest = 0
  const drawSoon = () => { if (frameRequest === 0) frameRequest = window.requestAnimationFrame(() => { frameRequest = 0; draw() }) }

  /** @type {number | undefined} */
  let retryAt
  /** @param {import('../lib/feed.js').FeedStatus} s */
  const drawStatus = (s) => {
    const word = over() ? 'finished' : s.state
    conn.dataset.state = word
    if (state.textContent !== STATUS[word]) state.textContent = STATUS[word]
    const text = s.state === 'live' || s.state === 'connecting' || s.state === 'refused' || over() ? '' : connectionText(s, retryAt)
    if (message.textContent !== text) message.textContent = text
    boardEl.classList.toggle('tl-dim', (s.state === 'reconnecting' || s.state === 'offline') && !over())
  }

  /**
   * A fixed token (data-token) for a connection, while it lasts. It cannot be renewed: asked for while the
   * connection is live (a renewal; the same token again would move nothing, and sent again and again as its
   * expiry nears), it refuses, which the console says, and the connection ends when the token expires; once
   * it has expired, the widget stops and says so rather than retry with it.
   * @param {string} token
   */
  const fixedToken = (token) => {
    if (expiryOf(token) <= Date.now()) {
      stopExpired()
      throw new Error('data-token has expired')
    }
    if (feed.status.state === 'live') throw new Error('data-token cannot be renewed: the connection ends when it expires (data-token-url renews tokens)')
    return token
  }
  const { tokenUrl, token } = config
  const credential = tokenUrl
    ? { getToken: () => fetchToken(tokenUrl) }
    : token ? { getToken: () => fixedToken(token) } : { key: config.key ?? 'demo' }

  const feed = new LiveFeed({
    base: config.base,
    ...credential,
    leagues,
    fixtures,
    ...(oneMatch ? {} : { day: today() }),
    odds: bookmaker,
    onUpdate: (u) => {
      board.feed(u, feed.fixtures)
      if (oneMatch) for (const [id, f] of feed.fixtures) kept.set(id, f)
      // A one-match widget is named after its match: two on a page are two different regions.
      if (oneMatch && !config.title) for (const f of kept.values()) frame.setAttribute('aria-label', `${titleText}: ${f.home.name} v ${f.away.name}`)
      for (const id of fixtures) { const f = feed.fixtures.get(id); if (f !== undefined) nameLeague(f.league_id) }
      drawSoon()
    },
    onStatus: (s) => {
      if (s.state === 'live') for (const id of unnamed.splice(0)) readName(id, { token: feed.client.token ?? '' })
      retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
      drawStatus(s)
      const said = over() ? '' : connectionAnnouncement(s, before)
      before = s
      if (said !== '') board.announce(said)
      if (s.state === 'refused') refuse(problemText(s, 'widget'), s.message)
    }
  })
  /** @type {import('../lib/feed.js').FeedStatus} */
  let before = feed.status

  /** The page's fixed token (data-token) has expired: no connection can be made with it, so the widget stops. */
  const stopExpired = () => {
    feed.stop()
    retryAt = undefined
    feed.status = { state: 'refused', reason: 'unauthorized', message: 'the page\'s token (data-token) has expired' }
    drawStatus(feed.status)
    refuse('Live scores have stopped: reload the page to follow them again.', 'the page\'s data-token has expired, and a fixed token cannot be renewed: render the page with a new one, or use data-token-url.')
  }

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
  // Midnight: the new day is followed instead of the old one (the feed brings it).
  if (!oneMatch) setInterval(() => { if (feed.day !== today()) feed.followDay(today()) }, DAY_CHECK_MS)
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
  const empty = h('p', { class: 'tlw-empty', hidden: true, text: 'No match today.' })
  const later = h('p', { class: 'tlw-later', hidden: true, text: 'Nothing live now · today\'s matches' })
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
