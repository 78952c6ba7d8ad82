/**
 * The widget itself, mounted by /widget.js into a shadow root on the host page: its styles cannot leak
 * out, the host's cannot leak in (except the documented --tl-* custom properties, which inherit).
 * Same feed and cards as the scoreboard: reconnects with backoff, resumes from the last cursor, flashes
 * goals and announces them through an aria-live="polite" region.
 */
import { Board } from '../lib/board.js'
import { h } from '../lib/format.js'
import { LiveFeed } from '../lib/live.js'
import { fetchLeague, leagueTitle } from '../lib/leagues.js'

/**
 * @typedef {{ base: string, key: string, league: string | null, fixture: string | null, theme: string | null,
 *   title: string | null }} WidgetConfig
 */

/** @param {string | null} list `271` or `271,501` @returns {number[]} */
const ids = (list) => (list ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)

const STATUS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline', refused: 'Unavailable' }

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
  const title = h('h2', { class: 'tlw-title', text: titleText })
  const state = h('span', { class: 'tlw-conn-label', text: STATUS.connecting })
  const conn = h('span', { class: 'tlw-conn', role: 'status', 'data-state': 'connecting' }, h('span', { class: 'tlw-dot', 'aria-hidden': 'true' }), state)
  const boardEl = h('div', { class: 'tl-list' })
  const empty = h('p', { class: 'tlw-empty', hidden: true, text: 'No match in play right now.' })
  const message = h('p', { class: 'tlw-message', hidden: true })
  const announcer = h('div', { class: 'tl-visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'false' })
  const frame = h('section', { class: 'tlw', 'aria-label': titleText },
    h('header', { class: 'tlw-head' }, title, conn),
    message, boardEl, empty,
    h('footer', { class: 'tlw-foot' }, h('a', { href: config.base + '/', target: '_blank', rel: 'noopener', text: 'touchline' })),
    announcer)
  const sheets = ['lib/card.css', 'widget/widget.css'].map((path) => h('link', { rel: 'stylesheet', href: `${config.base}/${path}` }))
  // CSSOM, not a style attribute: a host page's CSP may forbid inline style attributes.
  frame.style.visibility = 'hidden'
  root.replaceChildren(...sheets, frame)
  // Shown once styled (or after 2 s whatever happens), never as a flash of unstyled markup.
  let pending = sheets.length
  const show = () => { if (--pending <= 0) frame.style.removeProperty('visibility') }
  for (const link of sheets) { link.addEventListener('load', show); link.addEventListener('error', show) }
  setTimeout(() => { pending = 0; show() }, 2000)

  /** @type {Map<number, import('../lib/leagues.js').League>} */
  const names = new Map()
  const board = new Board(boardEl, announcer, { leagueName: (id) => leagueTitle(names.get(id), id) })

  /** @param {number} id */
  const nameLeague = (id) => {
    if (names.has(id) || config.title) return
    names.set(id, { id, name: `League ${id}`, country: null })
    fetchLeague(config.base, config.key, id).then((l) => {
      if (l === undefined) return
      names.set(id, l)
      if (leagues.length === 1 || fixtures.length > 0) title.textContent = leagueTitle(l, id)
      frame.setAttribute('aria-label', `Live scores: ${title.textContent}`)
    })
  }
  if (leagues.length === 1) nameLeague(/** @type {number} */ (leagues[0]))

  const feed = new LiveFeed({
    base: config.base,
    key: config.key,
    leagues,
    fixtures,
    onUpdate: (u) => {
      board.update(feed.fixtures, u)
      empty.hidden = feed.fixtures.size > 0
      if (fixtures.length > 0) for (const f of feed.fixtures.values()) nameLeague(f.league_id)
    },
    onStatus: (s) => {
      conn.dataset.state = s.state
      state.textContent = STATUS[s.state]
      message.hidden = s.message === undefined || s.state === 'live'
      message.textContent = s.message ?? ''
      if (s.state === 'refused' || s.state === 'offline') empty.hidden = true
    }
  })
  if (leagues.length === 0 && fixtures.length === 0) {
    feed.setStatus({ state: 'refused', message: 'Set data-league or data-fixture on the widget\'s script tag.' })
    return feed
  }
  feed.start()
  return feed
}
