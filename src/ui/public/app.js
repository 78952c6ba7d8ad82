/**
 * The scoreboard (`/`): every live fixture the key may see, grouped by league, updated live.
 *
 * Which leagues: every league the key may see (`leagues: "*"`, lib/live.js), including leagues whose first
 * match starts later; the passthrough's league list only gives the headings their names. Subscribing to
 * whole leagues, not just to the fixtures live now, means a match that kicks off later appears at once.
 *
 * Below the live matches: today's results and kick-offs of the same leagues, from the passthrough
 * (lib/schedule.js), refreshed every minute; a match leaves that list while it is in the live one.
 *
 * The connection line counts down to the next attempt ("Reconnecting in 4 s"); a refusal (bad key, revoked
 * key, refused origin) is said once, in plain words, and ends the retries.
 *
 * The key comes from `?key=` in the page URL (default `demo`).
 */
import { Board } from './lib/board.js'
import { connectionText } from './lib/format.js'
import { LiveFeed } from './lib/live.js'
import { fetchLeagues, leagueTitle } from './lib/leagues.js'
import { fetchFixtures, localDate } from './lib/schedule.js'

const key = new URLSearchParams(location.search).get('key') || 'demo'
const base = location.origin

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/** @type {Map<number, import('./lib/leagues.js').League>} */
let leagues = new Map()
const board = new Board(byId('board'), byId('announcer'), {
  grouped: true,
  leagueName: (id) => leagueTitle(leagues.get(id), id)
})

const today = new Board(byId('today-board'), byId('announcer'), {
  grouped: true,
  headingLevel: 'h3',
  idPrefix: 'today',
  labelledBy: 'today-h',
  leagueName: (id) => leagueTitle(leagues.get(id), id)
})

/** @type {import('./lib/live.js').FeedStatus} */
let status = { state: 'connecting' }
/** @type {number | undefined} when the next connection attempt is due */
let retryAt

function drawStatus () {
  const el = byId('connection')
  const text = connectionText(status, retryAt)
  const label = /** @type {HTMLElement} */ (el.querySelector('.conn-label'))
  if (label.textContent !== text) label.textContent = text
  el.title = text
}

/** @param {import('./lib/live.js').FeedStatus} s */
function showStatus (s) {
  status = s
  retryAt = s.retryInMs === undefined ? undefined : Date.now() + s.retryInMs
  const el = byId('connection')
  el.dataset.state = s.state
  if (s.reason) el.dataset.reason = s.reason
  else delete el.dataset.reason
  document.body.dataset.conn = s.state
  drawStatus()
  if (s.state === 'refused') {
    const refusal = byId('refusal')
    refusal.textContent = s.message ?? 'The gateway refused this key.'
    refusal.hidden = false
    byId('summary').textContent = 'Not connected: the gateway refused this key.'
    byId('board').removeAttribute('aria-busy')
  }
}
setInterval(() => { if (retryAt !== undefined) drawStatus() }, 1000)

function summarize () {
  const all = [...feed.fixtures.values()]
  const live = all.filter((f) => f.state.phase === 'live' || f.state.phase === 'break').length
  const groups = new Set(all.map((f) => f.league_id)).size
  byId('summary').textContent = all.length === 0
    ? 'Nothing in play at the moment.'
    : `${live} ${live === 1 ? 'match' : 'matches'} in play · ${all.length} on the board · ${groups} ${groups === 1 ? 'league' : 'leagues'}`
  byId('empty').hidden = all.length > 0
  byId('board').removeAttribute('aria-busy')
}

const feed = new LiveFeed({
  base,
  key,
  discover: true,
  onUpdate: (u) => {
    board.update(feed.fixtures, u)
    summarize()
    // A match that leaves the live list (after full time) goes to today's, as it ended.
    if (u.kind === 'change') { const f = feed.fixtures.get(u.frame.fixture_id); if (f !== undefined) ended.set(f.id, f) }
    if (u.kind === 'expired') {
      const last = ended.get(u.fixtureId)
      if (last !== undefined) todays = [...todays.filter((f) => f.id !== last.id), last]
    }
    if (u.kind !== 'change') showToday()
  },
  onStatus: showStatus
})

byId('snippet').textContent =
  `<div data-touchline-widget></div>\n<script src="${base}/widget.js" data-league="271" data-key="${key}" async></script>`

// League names are a nicety: wait for them briefly, then start either way and fill them in when they come.
const names = fetchLeagues(base, key).then((m) => {
  leagues = m
  board.refresh()
  return m
})
await Promise.race([names, new Promise((resolve) => setTimeout(resolve, 1500, undefined))])
/** @type {import('./lib/live.js').LiveFixture[]} */
let todays = []
/** @type {Map<number, import('./lib/live.js').LiveFixture>} the last state of each fixture the feed changed */
const ended = new Map()
/** Today's fixtures that are not in the live list. */
function showToday () {
  const rest = new Map(todays.filter((f) => !feed.fixtures.has(f.id)).map((f) => [f.id, f]))
  byId('today').hidden = rest.size === 0
  today.show(rest)
}
/** The key's leagues (named by the passthrough) and any with a live fixture: the feed follows them all ("*"). */
function followed () {
  return [...new Set([...leagues.keys(), ...[...feed.fixtures.values()].map((f) => f.league_id)])]
}
async function loadToday () {
  if (feed.status.state === 'refused') return
  const fetched = await fetchFixtures(base, key, { leagues: followed(), from: localDate(), to: localDate() })
  // What the feed saw last is newer than the passthrough's cached copy.
  todays = fetched.map((f) => ended.get(f.id) ?? f)
  showToday()
}
setInterval(loadToday, 60_000)

await feed.start()
loadToday()
