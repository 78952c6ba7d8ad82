/**
 * The scoreboard (`/`): the matches of every league the key may see, by league (most important first, the
 * leagues a fan pinned before all), updated live, in tabs as on livescore sites: Live (in play; the
 * default), All, Finished, Scheduled and My matches (the fan's favourites, lib/favourites.js), the last four
 * for a day of the week around today (a strip of 3 days back and 3 ahead, and a calendar). The tab and the
 * day are in the URL's hash (`#finished/yesterday`, `#all/2026-11-29`), so they survive a reload and can be
 * linked to; a switch shows the tab from its top.
 *
 * Favourites are kept in this browser, with no permission asked: a star on each row stars the match, a
 * league's star pins it to the top (its name folds it away), a team is starred on its match page.
 *
 * Where the rows come from: one live feed (lib/feed.js) follows every league the key may see (`leagues:
 * "*"`: the live set, so a match in play is on the Live tab whatever its day) and the day shown, in the
 * browser's time zone (`dates`: every fixture kicking off in it, from the gateway's day model, kept current
 * by the feed: a kick-off moved, a postponement, a result). Switching day follows the new day instead of
 * the old one; nothing is read again on a timer. A day is the fixtures kicking off in it (lib/days.js);
 * today's also has every match the feed carried in the live set (a match of yesterday's still in play
 * after midnight is today's business too). `#all/2026-11-29` shows any day the gateway holds (3 back, 3
 * ahead).
 *
 * While the first scores load, placeholder rows of the final height hold their place. The connection pill
 * counts down to the next attempt ("Reconnecting in 4 s") in a fan's words; a refusal (bad key, revoked
 * key, refused origin) is said once, in place of the matches, and ends the retries. While the feed is down
 * every row is dimmed. Goals scored while the page was away flash and are announced when it is back.
 *
 * Goal alerts (lib/follow.js, lib/push.js): when the gateway offers Web Push, each row gets a bell and the
 * header an "Alerts" button; the service worker (sw.js) shows the alerts. An alert's URL (`?fixture=<id>`)
 * opens its match: the row scrolled to, highlighted and its events open, on the Live tab while it is in
 * play, else on today's All tab. A tab already open is told by the service worker instead.
 *
 * The key comes from `?key=` in the page URL (default `demo`). `?odds=<bookmaker id>` shows that
 * bookmaker's full-time result prices on each live row (lib/odds.js); off without it.
 */
import { Board } from './lib/board.js'
import { dateOfDay, dayOfWord, DAYS_AHEAD, DAYS_BACK, longDate, shortDate, wordOfDay } from './lib/days.js'
import { Favourites, pinnedFirst } from './lib/favourites.js'
import { tabReached } from './lib/tabs.js'
import { connectionAnnouncement, connectionText, problemText } from './lib/connection.js'
import { h, hhmm, setText } from './lib/format.js'
import { IN_PLAY, LiveFeed } from './lib/feed.js'
import { credentialOf, fetchToken } from './lib/credential.js'
import { fetchLeagues, leagueOrder, leagueTitle, priorityList } from './lib/leagues.js'
import { matchInUrl, PushChannel } from './lib/push.js'
import { bookmakerOf } from './lib/odds.js'

const params = new URLSearchParams(location.search)
// A client key (`?key=`), or a fan's signed tokens from the site's backend (`?token_url=`): no key in the page.
const credential = credentialOf(params)
const bookmaker = bookmakerOf(params.get('odds'))
const base = location.origin

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/** @typedef {import('./lib/feed.js').LiveFixture} LiveFixture */
/** @typedef {'live' | 'all' | 'finished' | 'scheduled' | 'mine'} Tab */
/** @typedef {import('./lib/days.js').Day} Day */

const TABS = /** @type {Tab[]} */ (['live', 'all', 'finished', 'scheduled', 'mine'])
/** The tabs: links to their views, with the tab semantics of a tablist (the board is their panel). */
const tabLinks = /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll('.tabs [role="tab"]')])

/** What the tabs and the strip were last drawn for: drawn again only when it changes (not at every render). */
let tabsDrawnFor = ''

/** Which phases each day tab lists. */
const TAB_PHASES = { finished: new Set(['finished', 'cancelled', 'postponed']), scheduled: new Set(['scheduled']) }

/** @type {Map<number, import('./lib/leagues.js').League>} */
let leagues = new Map()
/** @type {import('./lib/follow.js').Follow | undefined} the alert bells, once the gateway said it offers them (loaded only then) */
let follow
const favourites = new Favourites()
const board = new Board(byId('board'), byId('announcer'), {
  grouped: true,
  leagueName: (id) => leagueTitle(leagues.get(id), id),
  leagueOrder: pinnedFirst(leagueOrder(() => leagues, priorityList(document)), () => favourites.pinned),
  favourites,
  inLiveSet: (id) => feed.inLiveSet(id),
  onRow: (row, f) => follow?.row(row, f),
  matchHref: (id) => `/match/${id}${location.search}`,
  odds: bookmaker === undefined ? undefined : { bookmaker, images: () => feed.client.odds }
})
board.loading()

/** @returns {{ tab: Tab, day: Day } | undefined} the view a hash names (`#all/yesterday`, `#finished/2026-11-29`), if any */
function parseHash () {
  const [tab, word] = location.hash.slice(1).split('/')
  if (!TABS.includes(/** @type {Tab} */ (tab))) return undefined
  return { tab: /** @type {Tab} */ (tab), day: tab === 'live' ? 0 : dayOfWord(word) ?? 0 }
}
/** @type {{ tab: Tab, day: Day }} */
let view = parseHash() ?? { tab: 'live', day: 0 }
drawTabs()

/** Rows are drawn once the feed's first snapshot (and, briefly awaited, the league names) are in. */
let ready = false

/** @type {import('./lib/feed.js').FeedStatus} */
let status = { state: 'connecting' }
/** @type {number | undefined} when the next connection attempt is due */
let retryAt

const feed = new LiveFeed({
  base,
  ...('key' in credential ? { key: credential.key } : { getToken: () => fetchToken(credential.tokenUrl) }),
  discover: true,
  day: dateOfDay(view.day),
  dayApart: true,
  odds: bookmaker,
  onUpdate: (u) => {
    board.feed(u, feed.fixtures)
    schedule()
  },
  onStatus: showStatus
})

/**
 * The fixtures of a day, as the feed holds them: those kicking off in it, and today's also every match the
 * feed carried in the live set (a match of yesterday's still in play after midnight is today's business too).
 * @param {Day} day
 * @returns {Map<number, LiveFixture> | undefined} undefined until the day's fixtures are in (or for a day not followed)
 */
function dayFixtures (day) {
  const date = dateOfDay(day)
  if (!feed.dayHeld(date)) return undefined
  const out = feed.dayFixtures(date)
  if (day === 0) for (const f of feed.carried.values()) out.set(f.id, feed.fixtures.get(f.id) ?? f)
  return out
}

/** @param {LiveFixture} f @param {Tab} tab */
const shownIn = (f, tab) => tab === 'all' || (tab === 'live' ? IN_PLAY.has(f.state.phase) : tab === 'mine' ? favourites.mine(f) : TAB_PHASES[tab].has(f.state.phase))

/** @param {Tab} tab @param {Map<number, LiveFixture>} all */
const inTab = (tab, all) => tab === 'all' ? all : new Map([...all].filter(([, f]) => shownIn(f, tab)))

/** What the Live tab lists: the matches in play, and one that ended while watched, for two minutes after it left the live set. */
const liveRows = () => feed.liveFixtures()

/** Follows the day shown (the old one is let go): at a switch, and when midnight makes "today" another date. */
function followShownDay () {
  feed.followDay(dateOfDay(view.day))
}

let frame = 0
/** Draws on the next frame: a burst of changes (a replay) is drawn once. */
function schedule () {
  if (frame === 0) frame = window.requestAnimationFrame(() => { frame = 0; render() })
}

function render () {
  if (!ready || status.state === 'refused') return
  const dayRows = view.tab === 'live' ? liveRows() : dayFixtures(view.day)
  if (dayRows === undefined) {
    // The day's fixtures are on their way (a day switched to): its place is held, and said to be loading.
    board.loading()
    byId('board').setAttribute('aria-busy', 'true')
  } else {
    // The Live tab keeps a match that ended in its place until it leaves (one move, not two).
    board.show(inTab(view.tab === 'live' ? 'all' : view.tab, dayRows), { inPlayFirst: view.tab !== 'live' })
    byId('board').removeAttribute('aria-busy')
  }
  drawControls()
  drawEmpty(dayRows)
  drawOddsLegend()
  if (dayRows !== undefined) showMatch()
}

/** @type {number | undefined} the match an alert asked to open, until it is shown */
let wanted = matchInUrl(location.href)

/**
 * Opens the match an alert named: its row scrolled to the middle, highlighted and its events open. A match
 * not in the current view is looked for in today's All tab (a match that left the Live tab).
 */
function showMatch () {
  if (wanted === undefined) return
  const row = board.fixtures.has(wanted) ? board.rows.get(wanted) : undefined
  if (row === undefined) {
    // In play: the Live tab; else today's All tab (results and kick-offs); not there either: left as it is.
    const tab = liveRows().has(wanted) ? 'live' : 'all'
    if (view.tab !== tab || view.day !== 0) location.hash = `#${tab}`
    else if (tab === 'all' && dayFixtures(0) !== undefined) wanted = undefined
    return
  }
  wanted = undefined
  const url = new URL(location.href)
  if (url.searchParams.has('fixture') || url.searchParams.has('match')) {
    for (const name of ['fixture', 'match']) url.searchParams.delete(name)
    history.replaceState(history.state, '', url)
  }
  if (!row.toggle.hidden && !board.openState(row.id).open) board.act(row.id, 'toggle')
  row.el.classList.remove('tl-target')
  row.el.getBoundingClientRect() // restarts the highlight when the same match is opened again
  row.el.classList.add('tl-target')
  window.requestAnimationFrame(() => row.el.scrollIntoView({ block: 'center' }))
  const focus = row.toggle.hidden ? row.el : row.toggle
  if (focus === row.el) row.el.setAttribute('tabindex', '-1')
  focus.focus({ preventScroll: true })
}

/**
 * Whose odds the rows show, on the summary's line: shown with the first rows (as the summary's own words
 * change), so it moves nothing that was already there.
 */
function drawOddsLegend () {
  if (bookmaker === undefined) return
  setText(byId('odds-name'), board.odds?.name ?? `bookmaker ${bookmaker}`)
  byId('odds-legend').hidden = false
}

/** The tabs' counts, the tabs, and the summary line. */
function drawControls () {
  const live = [...liveRows().values()].filter((f) => IN_PLAY.has(f.state.phase)).length
  const day = dayFixtures(view.day)
  for (const el of document.querySelectorAll('[data-count]')) {
    const tab = /** @type {Tab} */ (/** @type {HTMLElement} */ (el).dataset.count)
    const n = tab === 'live' ? live : day === undefined ? undefined : inTab(tab, day).size
    const text = n === undefined ? '' : String(n)
    if (el.textContent !== text) el.textContent = text
  }
  drawTabs()
  const summary = view.tab === 'live'
    ? live === 0 ? 'Nothing in play right now' : `${live} ${live === 1 ? 'match' : 'matches'} in play`
    : longDate(view.day)
  if (byId('summary').textContent !== summary) byId('summary').textContent = summary
}

/**
 * Which tab and day are current, and where each link leads (drawn at once too, before any row: nothing moves
 * later). The day strip is the week around today, 3 days back and 3 ahead, named (yesterday, today,
 * tomorrow) or dated; the calendar picks any of them.
 */
function drawTabs () {
  const drawnFor = `${view.tab}|${view.day}|${dateOfDay(0)}`
  if (drawnFor === tabsDrawnFor) return
  tabsDrawnFor = drawnFor
  for (const el of tabLinks) {
    const tab = el.dataset.tab
    if (tab !== 'live') el.setAttribute('href', `#${tab}${view.day === 0 ? '' : `/${wordOfDay(view.day)}`}`)
    const on = tab === view.tab
    if (el.getAttribute('aria-selected') !== String(on)) {
      el.setAttribute('aria-selected', String(on))
      el.tabIndex = on ? 0 : -1
      // Only when the tab changes: measuring forces a layout, which every render would pay.
      if (on) {
        byId('board').setAttribute('aria-labelledby', el.id)
        inView(el, /** @type {HTMLElement} */ (el.parentElement))
      }
    }
  }
  const daysNav = byId('days')
  daysNav.hidden = view.tab === 'live'
  const strip = byId('day-strip')
  if (strip.childElementCount === 0) {
    for (let day = -DAYS_BACK; day <= DAYS_AHEAD; day++) strip.append(h('a', { 'data-offset': day }))
  }
  const tab = view.tab === 'live' ? 'all' : view.tab
  for (const a of strip.children) {
    const el = /** @type {HTMLAnchorElement} */ (a)
    const day = Number(el.dataset.offset)
    const word = wordOfDay(day)
    el.dataset.day = word
    el.setAttribute('href', `#${tab}${day === 0 ? '' : `/${word}`}`)
    setText(el, shortDate(day))
    el.title = longDate(day)
    if (day === view.day) {
      if (el.getAttribute('aria-current') !== 'date') {
        el.setAttribute('aria-current', 'date')
        if (!daysNav.hidden) inView(el, daysNav)
      }
    } else el.removeAttribute('aria-current')
  }
  const calendar = /** @type {HTMLInputElement} */ (byId('calendar'))
  calendar.min = dateOfDay(-DAYS_BACK)
  calendar.max = dateOfDay(DAYS_AHEAD)
  if (calendar.value !== dateOfDay(view.day)) calendar.value = dateOfDay(view.day)
}

/**
 * On a phone the tabs and the days scroll sideways: the one shown is brought into view (its strip scrolled,
 * not the page).
 * @param {HTMLElement} el @param {HTMLElement} strip
 */
function inView (el, strip) {
  const left = el.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft
  if (left < strip.scrollLeft || left + el.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = Math.max(0, left - (strip.clientWidth - el.offsetWidth) / 2)
}

// The calendar: a day of the week around today (the days the gateway holds), in the tab shown.
byId('calendar').addEventListener('change', (ev) => {
  const value = /** @type {HTMLInputElement} */ (ev.target).value
  const day = dayOfWord(value)
  if (value === '' || day === undefined) return
  location.hash = `#${view.tab === 'live' ? 'all' : view.tab}${day === 0 ? '' : `/${wordOfDay(day)}`}`
})

// Arrow keys, Home and End move between the tabs (and show the one reached), as in any tablist.
for (const el of tabLinks) {
  el.addEventListener('keydown', (ev) => {
    const to = tabReached(tabLinks, el, ev.key)
    if (to === undefined) return
    ev.preventDefault()
    to.focus()
    to.click()
  })
}

/** Says so when a tab has nothing to show (and, with nothing live, when the next match kicks off). @param {Map<number, LiveFixture> | undefined} rows */
function drawEmpty (rows) {
  const el = byId('empty')
  const empty = rows !== undefined && inTab(view.tab === 'live' ? 'all' : view.tab, rows).size === 0
  el.hidden = !empty
  if (!empty) return
  const when = Math.abs(view.day) <= 1 ? wordOfDay(view.day) : `on ${longDate(view.day)}`
  if (view.tab === 'mine') {
    el.replaceChildren(h('p', { text: `None of your matches ${when}.` }),
      h('p', { text: 'Star a match (the star on its row), a league (the star on its name) or a team (on a match page) to see its matches here. Your stars stay in this browser.' }))
  } else if (view.tab === 'live') {
    const next = [...(dayFixtures(0)?.values() ?? [])].filter((f) => f.state.phase === 'scheduled' && f.starting_at !== null)
      .sort((a, b) => (a.starting_at ?? '').localeCompare(b.starting_at ?? ''))[0]
    el.replaceChildren(h('p', { text: 'No matches in play right now. They appear here as they kick off.' }),
      ...(next === undefined ? [] : [h('p', {}, `Next kick-off: ${hhmm(new Date(next.starting_at ?? 0))}, ${next.home.name} v ${next.away.name}. `, h('a', { href: '#scheduled', text: 'All of today\'s kick-offs' }))]))
  } else {
    const what = { all: `No matches ${when} in these leagues.`, finished: `No results ${when} yet.`, scheduled: `No more kick-offs ${when}.` }[/** @type {'all' | 'finished' | 'scheduled'} */ (view.tab)]
    el.replaceChildren(h('p', { text: what }))
  }
}

function drawStatus () {
  const el = byId('connection')
  const text = connectionText(status, retryAt)
  const label = /** @type {HTMLElement} */ (el.querySelector('.conn-label'))
  if (label.textContent !== text) label.textContent = text
}

/** @param {import('./lib/feed.js').FeedStatus} s */
function showStatus (s) {
  const before = status
  status = s
  retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
  const el = byId('connection')
  el.dataset.state = s.state
  if (s.reason) el.dataset.reason = s.reason
  else delete el.dataset.reason
  document.body.dataset.conn = s.state
  const down = s.state === 'reconnecting' || s.state === 'offline'
  byId('board').classList.toggle('tl-dim', down)
  // The clocks stop at their last known minute while the scores may be stale.
  board.stale = down
  drawStatus()
  const said = connectionAnnouncement(s, before)
  if (said !== '') board.announce(said)
  if (s.state === 'refused') {
    // Said once, in place of the matches (the alert is the announcement); nothing else repeats it.
    const refusal = byId('refusal')
    refusal.textContent = problemText(s, 'page')
    refusal.hidden = false
    for (const id of ['controls', 'board', 'empty', 'summary']) byId(id).hidden = true
    byId('board').removeAttribute('aria-busy')
  }
}
setInterval(() => { if (retryAt !== undefined) drawStatus() }, 1000)

// The browser knows first when the network is gone: the board is stale at once (the pill, the rows dimmed,
// the clocks stopped), not when the socket is found dead. Back online, a socket that outlived the outage may
// be dead too: a fresh one resumes from the cursor (nothing lost), and its `live` ends the stale state.
window.addEventListener('offline', () => { if (status.state !== 'refused') showStatus({ state: 'offline', message: 'The browser is offline.' }) })
window.addEventListener('online', () => { if (feed.client.status.state === 'live') feed.client.reconnectNow() })

window.addEventListener('hashchange', () => {
  const next = parseHash()
  if (next === undefined) return
  const switched = next.tab !== view.tab || next.day !== view.day
  view = next
  followShownDay()
  // Another tab or day is read from its top, not from wherever the last one was scrolled to.
  if (switched && window.scrollY > 0) window.scrollTo({ top: 0 })
  // A tab's rows take their places at once: nothing slides from where another tab had it.
  const root = byId('board')
  root.classList.add('tl-instant')
  render()
  window.requestAnimationFrame(() => window.requestAnimationFrame(() => root.classList.remove('tl-instant')))
})

byId('snippet').textContent =
  `<div data-touchline-widget></div>\n<script src="${base}/widget.js" data-league="271" ${'key' in credential ? `data-key="${credential.key}"` : `data-token-url="${credential.tokenUrl}"`} async></script>`

// Alerts: the bells are given their margin before the first rows are drawn, so nothing moves then.
const channel = new PushChannel(base, 'key' in credential ? credential : { token: () => feed.client.token })
const alerts = channel.start().then(async (offered) => {
  if (!offered) return
  const { Follow } = await import('./lib/follow.js')
  follow = new Follow(channel, (text) => board.announce(text), (id) => leagueTitle(leagues.get(id), id))
  byId('board').classList.add('tl-alerts')
  const button = byId('alerts')
  button.hidden = false
  button.addEventListener('click', () => follow?.panel.show(button))
  board.refresh()
  follow.sync()
}, () => {})
navigator.serviceWorker?.addEventListener('message', (ev) => {
  if (ev.data?.type !== 'open-match') return
  wanted = matchInUrl(String(ev.data.url))
  schedule()
})

// A star pressed (here or in another tab of this page): stars, pins and folds redrawn, My matches recounted.
favourites.onChange(() => { board.refresh(); schedule() })
window.addEventListener('storage', (ev) => favourites.heard(ev))

// League names (and their order) are a nicety: wait for them briefly, then start either way. With a token
// they are read once the feed holds one (it is live).
feed.start()
const names = ('key' in credential ? Promise.resolve(credential) : feed.client.connect().then(() => ({ token: feed.client.token ?? '' })))
  .then((c) => fetchLeagues(base, c)).then((m) => {
    leagues = m
    board.refresh()
    return m
  })
await Promise.all([
  feed.client.connect(),
  Promise.race([Promise.all([names, alerts]), new Promise((resolve) => setTimeout(resolve, 1500, undefined))])
])
ready = true
render()
// At midnight "today" is another date: the day shown follows it (nothing is read; the feed brings the day).
// A day named by its date in the address stays that date.
setInterval(() => {
  view = parseHash() ?? view
  if (feed.day !== dateOfDay(view.day)) { followShownDay(); schedule() }
}, 30_000)
