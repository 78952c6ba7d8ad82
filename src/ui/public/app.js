/**
 * The scoreboard (`/`): every live fixture the key may see, grouped by league, updated live.
 *
 * Which leagues: every league the key may see (`leagues: "*"`, lib/live.js), including leagues whose first
 * match starts later; the passthrough's league list only gives the headings their names. Subscribing to
 * whole leagues, not just to the fixtures live now, means a match that kicks off later appears at once.
 *
 * The key comes from `?key=` in the page URL (default `demo`).
 */
import { Board } from './lib/board.js'
import { LiveFeed } from './lib/live.js'
import { fetchLeagues, leagueTitle } from './lib/leagues.js'

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

const STATUS_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline', refused: 'Refused' }

/** @param {import('./lib/live.js').FeedStatus} s */
function showStatus (s) {
  const el = byId('connection')
  el.dataset.state = s.state
  document.body.dataset.conn = s.state
  let text = STATUS_TEXT[s.state]
  if (s.state === 'reconnecting' && s.retryInMs !== undefined) text = `Reconnecting in ${Math.max(1, Math.round(s.retryInMs / 1000))} s…`
  if (s.message && s.state !== 'live') text = `${text}: ${s.message}`
  const label = /** @type {HTMLElement} */ (el.querySelector('.conn-label'))
  label.textContent = text
  el.title = s.message ?? text
  if (s.state === 'refused') byId('summary').textContent = s.message ?? 'The gateway refused this key.'
}

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
  onUpdate: (u) => { board.update(feed.fixtures, u); summarize() },
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
await feed.start()
