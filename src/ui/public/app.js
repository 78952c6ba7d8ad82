/**
 * The scoreboard (`/`): the matches of every league the key may see, by league (most important first),
 * updated live, in four tabs as on livescore sites: Live (in play; the default), All, Finished and
 * Scheduled, the last three for yesterday, today or tomorrow. The tab and the day are in the URL's hash
 * (`#finished/yesterday`), so they survive a reload and can be linked to.
 *
 * Where the rows come from: the live feed (lib/live.js) follows every league the key may see (`leagues:
 * "*"`), so a match that kicks off appears at once, with its clock instead of its kick-off time; the days'
 * results and kick-offs come from the REST passthrough (lib/days.js), read when first shown, today's again
 * every minute. What the feed says is newer than the passthrough's copy: it is laid over it.
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
import { DAYS, Days, longDate } from './lib/days.js'
import { connectionAnnouncement, connectionText, problemText } from './lib/connection.js'
import { h, hhmm, setText } from './lib/format.js'
import { LiveFeed } from './lib/live.js'
import { fetchLeagues, leagueOrder, leagueTitle, priorityList } from './lib/leagues.js'
import { Follow } from './lib/follow.js'
import { matchInUrl, PushChannel } from './lib/push.js'
import { bookmakerOf } from './lib/odds.js'

const params = new URLSearchParams(location.search)
const key = params.get('key') || 'demo'
const bookmaker = bookmakerOf(params.get('odds'))
const base = location.origin

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/** @typedef {import('./lib/live.js').LiveFixture} LiveFixture */
/** @typedef {'live' | 'all' | 'finished' | 'scheduled'} Tab */
/** @typedef {import('./lib/days.js').Day} Day */

const TABS = /** @type {Tab[]} */ (['live', 'all', 'finished', 'scheduled'])
/** Phases of a match in play (Live tab, and its count). */
const IN_PLAY = new Set(['live', 'break', 'suspended', 'unknown'])
/** Which phases each day tab lists. */
const TAB_PHASES = { finished: new Set(['finished', 'cancelled', 'postponed']), scheduled: new Set(['scheduled']) }

/** @type {Map<number, import('./lib/leagues.js').League>} */
let leagues = new Map()
/** @type {Follow | undefined} the alert bells, once the gateway said it offers them */
let follow
const board = new Board(byId('board'), byId('announcer'), {
  grouped: true,
  leagueName: (id) => leagueTitle(leagues.get(id), id),
  leagueOrder: leagueOrder(() => leagues, priorityList(document)),
  onRow: (row, f) => follow?.row(row, f),
  odds: bookmaker === undefined ? undefined : { bookmaker, images: () => feed.client.odds }
})
board.loading()

/** @returns {{ tab: Tab, day: Day } | undefined} the view a hash names (`#all/yesterday`), if any */
function parseHash () {
  const [tab, day] = location.hash.slice(1).split('/')
  if (!TABS.includes(/** @type {Tab} */ (tab))) return undefined
  return { tab: /** @type {Tab} */ (tab), day: tab !== 'live' && day !== undefined && day in DAYS ? /** @type {Day} */ (day) : 'today' }
}
let view = parseHash() ?? { tab: 'live', day: 'today' }
drawTabs()

/** The key's leagues (named by the passthrough) and any with a live fixture. */
const followed = () => [...new Set([...leagues.keys(), ...[...feed.fixtures.values()].map((f) => f.league_id)])]
const days = new Days(base, key, followed)
/** @type {Map<number, LiveFixture>} the last state of each fixture the feed carried (a match it dropped ended so) */
const lastSeen = new Map()
/** Rows are drawn once the feed's first snapshot (and, briefly awaited, the league names) are in. */
let ready = false
/** Days are read once the league names are in (else a day would be read for the live leagues only). */
let namesIn = false

/** @type {import('./lib/live.js').FeedStatus} */
let status = { state: 'connecting' }
/** @type {number | undefined} when the next connection attempt is due */
let retryAt

const feed = new LiveFeed({
  base,
  key,
  discover: true,
  odds: bookmaker,
  onUpdate: (u) => {
    board.feed(u, feed.fixtures)
    if (u.kind === 'change') { const f = feed.fixtures.get(u.frame.fixture_id); if (f !== undefined) lastSeen.set(f.id, f) }
    if (u.kind === 'snapshot') for (const f of feed.fixtures.values()) lastSeen.set(f.id, f)
    schedule()
  },
  onStatus: showStatus
})

/**
 * The fixtures of a day, each as the feed last saw it when it did: today's also has every match the feed
 * carries or carried (a match of yesterday's still in play after midnight is today's business too).
 * @param {Day} day
 * @returns {Map<number, LiveFixture> | undefined} undefined until the day's list has been read
 */
function dayFixtures (day) {
  const listed = days.get(day)
  if (listed === undefined) return undefined
  const out = new Map(listed.map((f) => [f.id, lastSeen.get(f.id) ?? f]))
  if (day === 'today') for (const f of lastSeen.values()) out.set(f.id, feed.fixtures.get(f.id) ?? f)
  return out
}

/** @param {Tab} tab @param {Map<number, LiveFixture>} all */
const inTab = (tab, all) => tab === 'all' ? all : new Map([...all].filter(([, f]) => tab === 'live' ? IN_PLAY.has(f.state.phase) : TAB_PHASES[tab].has(f.state.phase)))

/** What the Live tab lists: the feed's matches, in play or just over (the feed keeps a finished one 2 minutes). */
const liveRows = () => new Map([...feed.fixtures].filter(([, f]) => f.state.phase !== 'scheduled' && f.state.phase !== 'postponed'))

let frame = 0
/** Draws on the next frame: a burst of changes (a replay) is drawn once. */
function schedule () {
  if (frame === 0) frame = window.requestAnimationFrame(() => { frame = 0; render() })
}

function render () {
  if (!ready || status.state === 'refused') return
  const dayRows = view.tab === 'live' ? liveRows() : dayFixtures(view.day)
  if (dayRows === undefined) {
    board.loading()
    if (namesIn) days.load(view.day).then(schedule)
  } else {
    board.show(inTab(view.tab === 'live' ? 'all' : view.tab, dayRows))
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
    if (view.tab !== tab || view.day !== 'today') location.hash = `#${tab}`
    else if (tab === 'all' && days.get('today') !== undefined) wanted = undefined
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
  const live = [...feed.fixtures.values()].filter((f) => IN_PLAY.has(f.state.phase)).length
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

/** Which tab and day are current, and where each link leads (drawn at once too, before any row: nothing moves later). */
function drawTabs () {
  for (const a of document.querySelectorAll('.tabs a')) {
    const el = /** @type {HTMLAnchorElement} */ (a)
    const tab = el.dataset.tab
    if (tab !== 'live') el.setAttribute('href', `#${tab}${view.day === 'today' ? '' : `/${view.day}`}`)
    if (tab === view.tab) el.setAttribute('aria-current', 'page')
    else el.removeAttribute('aria-current')
  }
  const daysNav = byId('days')
  daysNav.hidden = view.tab === 'live'
  for (const a of daysNav.querySelectorAll('a')) {
    const el = /** @type {HTMLAnchorElement} */ (a)
    const day = /** @type {Day} */ (el.dataset.day)
    el.setAttribute('href', `#${view.tab === 'live' ? 'all' : view.tab}${day === 'today' ? '' : `/${day}`}`)
    el.title = longDate(day)
    if (day === view.day) el.setAttribute('aria-current', 'date')
    else el.removeAttribute('aria-current')
  }
}

/** Says so when a tab has nothing to show (and, with nothing live, when the next match kicks off). @param {Map<number, LiveFixture> | undefined} rows */
function drawEmpty (rows) {
  const el = byId('empty')
  const empty = rows !== undefined && inTab(view.tab === 'live' ? 'all' : view.tab, rows).size === 0
  el.hidden = !empty
  if (!empty) return
  const when = view.day === 'today' ? 'today' : view.day
  if (view.tab === 'live') {
    const next = [...(dayFixtures('today')?.values() ?? [])].filter((f) => f.state.phase === 'scheduled' && f.starting_at !== null)
      .sort((a, b) => (a.starting_at ?? '').localeCompare(b.starting_at ?? ''))[0]
    el.replaceChildren(h('p', { text: 'No matches in play right now. They appear here as they kick off.' }),
      next === undefined ? null : h('p', {}, `Next kick-off: ${hhmm(new Date(next.starting_at ?? 0))}, ${next.home.name} v ${next.away.name}. `, h('a', { href: '#scheduled', text: 'All of today\'s kick-offs' })))
  } else {
    const what = { all: `No matches ${when} in these leagues.`, finished: `No results ${when} yet.`, scheduled: `No more kick-offs ${when}.` }[view.tab]
    el.replaceChildren(h('p', { text: what }))
  }
}

function drawStatus () {
  const el = byId('connection')
  const text = connectionText(status, retryAt)
  const label = /** @type {HTMLElement} */ (el.querySelector('.conn-label'))
  if (label.textContent !== text) label.textContent = text
}

/** @param {import('./lib/live.js').FeedStatus} s */
function showStatus (s) {
  const before = status
  status = s
  retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
  const el = byId('connection')
  el.dataset.state = s.state
  if (s.reason) el.dataset.reason = s.reason
  else delete el.dataset.reason
  document.body.dataset.conn = s.state
  byId('board').classList.toggle('tl-dim', s.state === 'reconnecting' || s.state === 'offline')
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

window.addEventListener('hashchange', () => {
  const next = parseHash()
  if (next === undefined) return
  view = next
  // A tab's rows take their places at once: nothing slides from where another tab had it.
  const root = byId('board')
  root.classList.add('tl-instant')
  render()
  window.requestAnimationFrame(() => window.requestAnimationFrame(() => root.classList.remove('tl-instant')))
})

byId('snippet').textContent =
  `<div data-touchline-widget></div>\n<script src="${base}/widget.js" data-league="271" data-key="${key}" async></script>`

// Alerts: the bells are given their margin before the first rows are drawn, so nothing moves then.
const channel = new PushChannel(base, key)
const alerts = channel.start().then((offered) => {
  if (!offered) return
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

// League names (and their order) are a nicety: wait for them briefly, then start either way.
const names = fetchLeagues(base, key).then((m) => {
  leagues = m
  namesIn = true
  board.refresh()
  days.load('today').then(schedule)
  if (view.day !== 'today') days.load(view.day).then(schedule)
  return m
})
feed.start()
await Promise.all([
  feed.client.connect(),
  Promise.race([Promise.all([names, alerts]), new Promise((resolve) => setTimeout(resolve, 1500, undefined))])
])
ready = true
render()
setInterval(() => { days.load('today').then(schedule) }, 60_000)
