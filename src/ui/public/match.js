/**
 * The match page (`/match/{id}`): one match, live, as livescore sites show it. A header with the teams, the
 * score, the running clock and the state in a fan's words (the half-time score under it); four tabs: Summary
 * (the events as a timeline, home on the left and away on the right, with the half-time line), Statistics
 * (paired bars per statistic, live), Line-ups (each team's formation on a pitch and its bench, the
 * substitutions and cards marked) and Table (the league's live table, this match's teams marked); Odds with
 * `?odds=<bookmaker id>`. The tab is in the address (`/match/19000744#statistics`), so a link opens it, and
 * switching tabs does not add to the history: the back button goes back to where the fan came from.
 *
 * One connection (the client library): the fixture followed by id (its changes whatever its state: before
 * kick-off its line-ups, after the end its result), and once its league is known that league with its live
 * table (`standings: true`). Nothing is read on a timer; the clock runs here. Offline (the browser says so,
 * or the connection drops), the page says it at once: the pill, the header dimmed, the clock stopped at its
 * last minute.
 *
 * @typedef {import('./lib/feed.js').LiveFixture} LiveFixture
 * @typedef {import('./lib/format.js').LiveEvent} LiveEvent
 * @typedef {import('./lib/client.js').LeagueStandings} LeagueStandings
 * @typedef {import('./lib/client.js').ClientStatus} ClientStatus
 */
import { TouchlineClient } from './lib/client.js'
import { connectionText, problemText } from './lib/connection.js'
import { clockLabel, creditedSide, eventKind, eventMinute, goalsText, h, noScoreWord, notStarted, playerName, setText, varDecision } from './lib/format.js'
import { icon } from './lib/icons.js'
import { fetchLeague, leagueTitle } from './lib/leagues.js'
import { Favourites } from './lib/favourites.js'
import { tabReached } from './lib/tabs.js'
import { credentialOf, fetchToken, withCredential } from './lib/credential.js'
import { benchList, halfTimeScore, pitchLines, stateWords, statisticRows, tableOf, timeline } from './lib/match.js'

const params = new URLSearchParams(location.search)
// A client key (`?key=`), or a fan's signed tokens from the site's backend (`?token_url=`), as the board has.
const credential = credentialOf(params)
const oddsBookmaker = Number(params.get('odds') ?? '') || undefined
const id = Number(/\/match\/(\d+)/.exec(location.pathname)?.[1] ?? NaN)

/** @param {string} name */
const byId = (name) => /** @type {HTMLElement} */ (document.getElementById(name))

const TABS = /** @type {const} */ (['summary', 'statistics', 'lineups', 'table', 'odds'])
/** @typedef {typeof TABS[number]} Tab */

const client = new TouchlineClient('key' in credential
  ? { url: location.origin, key: credential.key }
  : { url: location.origin, getToken: () => fetchToken(credential.tokenUrl) })
/** The credential of an HTTP read: the key, or the connection's current token (the client holds one once live). */
const reads = () => 'key' in credential ? credential : { token: client.token ?? '' }
const favourites = new Favourites()
/** @type {string | undefined} the league's name */
let leagueName
/** Whether the match is a knock-out (decided on the day: FT level may go on to extra time). */
let knockout = false
/** Whether the page shows its state as stale (offline, or the connection down). */
let stale = false
let leagueAsked = false
/** The match left the live set (`fixture_removed`) while the page watched: its state is final. */
let left = false
/** What the page says when the gateway does not hold the match ('' while it does): kept through status changes. */
let notHeld = ''

// Links back keep the key or the token URL (and the odds) of this page.
const back = `/${location.search}`
byId('all-matches').setAttribute('href', back)
byId('back').setAttribute('href', back)

// ---- tabs -------------------------------------------------------------------------------------------------

const tabs = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll('[role="tab"]')])
if (oddsBookmaker !== undefined) byId('tab-odds').hidden = false

/** @param {Tab} tab @param {{ focus?: boolean }} [opts] */
function select (tab, opts = {}) {
  for (const t of tabs) {
    const on = t.dataset.tab === tab
    t.setAttribute('aria-selected', String(on))
    t.tabIndex = on ? 0 : -1
    byId(`panel-${t.dataset.tab}`).hidden = !on
    if (on && opts.focus === true) t.focus()
  }
  // The tab in the address without a history entry: back leaves the page, not the tab.
  history.replaceState(null, '', `${location.pathname}${location.search}${tab === 'summary' ? '' : `#${tab}`}`)
}

for (const t of tabs) {
  t.addEventListener('click', () => select(/** @type {Tab} */ (t.dataset.tab)))
  t.addEventListener('keydown', (ev) => {
    const to = tabReached(tabs.filter((x) => !x.hidden), t, ev.key)
    if (to === undefined) return
    ev.preventDefault()
    select(/** @type {Tab} */ (to.dataset.tab), { focus: true })
  })
}
const asked = /** @type {Tab} */ (location.hash.slice(1))
select(TABS.includes(asked) && !(asked === 'odds' && oddsBookmaker === undefined) ? asked : 'summary')

// ---- the header ---------------------------------------------------------------------------------------------

/** @param {LiveFixture} f */
function drawHeader (f) {
  const word = noScoreWord(f)
  setText(byId('home-name'), f.home.name)
  setText(byId('away-name'), f.away.name)
  setText(byId('score'), word !== '' ? word : notStarted(f) ? 'v' : `${goalsText(f.home.score)} - ${goalsText(f.away.score)}`)
  drawClock(f)
  drawStars(f)
  const ht = halfTimeScore(f)
  setText(byId('halftime'), ht === '' ? '' : `HT ${ht}`)
  document.title = `${f.home.name} v ${f.away.name} · touchline`
  setText(byId('match-title'), `${f.home.name} v ${f.away.name}`)
  const main = byId('main')
  main.dataset.phase = f.state.phase
  main.dataset.state = f.state.code
  if (!leagueAsked) {
    leagueAsked = true
    // The league's live table comes with the league followed on the same connection.
    client.subscribe({ leagues: [f.league_id], standings: true })
    fetchLeague(location.origin, reads(), f.league_id).then((l) => {
      leagueName = leagueTitle(l, f.league_id)
      setText(byId('league'), leagueName)
      drawTable(f)
    }, () => {})
    // The header redrawn from the fixture as it is when the answer comes, not as it was when asked.
    if (f.stage_id !== null) fetchKnockout(f.stage_id).then((k) => { knockout = k; draw() }, () => {})
  }
}

/**
 * The stars of the two teams and of the match: pressed when starred (kept in this browser; the board's My
 * matches lists their matches).
 * @param {LiveFixture} f
 */
function drawStars (f) {
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.mh-star'))) {
    const which = /** @type {'home' | 'away' | 'match'} */ (b.dataset.star)
    const [kind, starId, name] = which === 'match' ? /** @type {const} */ (['matches', f.id, 'This match']) : /** @type {const} */ (['teams', f[which].id, f[which].name])
    b.disabled = false
    b.dataset.id = String(starId)
    setText(/** @type {HTMLElement} */ (b.querySelector('.mh-star-name')), name)
    b.setAttribute('aria-pressed', String(favourites.has(kind, starId)))
    b.title = `${favourites.has(kind, starId) ? 'Unstar' : 'Star'} ${which === 'match' ? 'this match' : name}`
  }
}

for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.mh-star'))) {
  b.addEventListener('click', () => {
    const starId = Number(b.dataset.id)
    if (starId > 0) favourites.toggle(b.dataset.star === 'match' ? 'matches' : 'teams', starId)
  })
}
favourites.onChange(() => { const f = client.fixtures.get(id); if (f !== undefined) drawStars(f) })
window.addEventListener('storage', (ev) => favourites.heard(ev))

/** Whether the stage is decided on the day (a knock-out round), from the passthrough. @param {number} stageId */
async function fetchKnockout (stageId) {
  const { url, init } = withCredential(`/v3/football/stages/${stageId}?select=name,type_id`, reads())
  const res = await fetch(url, init)
  if (!res.ok) return false
  const body = /** @type {{ data?: { type_id?: number, name?: string } }} */ (await res.json())
  return body.data?.type_id === 224 || /final|knock|round of/i.test(body.data?.name ?? '')
}

/** The clock and the state words; stopped (and said) while the page is stale. @param {LiveFixture} f */
function drawClock (f) {
  const words = stateWords(f, { mayGoOn: !left, knockout })
  const live = f.state.phase === 'live'
  const label = f.state.phase === 'scheduled' && f.starting_at !== null
    ? `Kick-off ${new Date(f.starting_at).toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`
    : live ? clockLabel(f) : words
  const clock = byId('clock')
  if (!stale || clock.textContent === '\u00a0') setText(clock, label)
  clock.dataset.live = String(live)
  setText(byId('spoken'), `${f.home.name} ${notStarted(f) ? '' : goalsText(f.home.score)}, ${f.away.name} ${notStarted(f) ? '' : goalsText(f.away.score)}, ${live ? `minute ${label}` : words}`)
}

// ---- the panels -------------------------------------------------------------------------------------------

/** @param {LiveFixture} f */
function drawSummary (f) {
  const items = timeline(f)
  const panel = byId('panel-summary')
  if (items.every((i) => i.kind === 'break')) {
    panel.replaceChildren(h('p', { class: 'mempty', text: notStarted(f) ? 'The match has not started.' : 'No events yet.' }))
    return
  }
  const list = h('ol', { class: 'mtimeline', 'aria-label': `Events: ${f.home.name} v ${f.away.name}` })
  for (const item of items) {
    if (item.kind === 'break') {
      list.append(h('li', { class: 'mbreak' }, h('span', { text: item.label }), item.score === '' ? null : h('span', { class: 'mbreak-score', text: item.score })))
      continue
    }
    list.append(eventItem(item.event))
  }
  panel.replaceChildren(list)
}

/** One event of the timeline: on its team's side, the minute, the icon, who, and the kind in a word. @param {LiveEvent} e */
function eventItem (e) {
  const kind = eventKind(e) ?? { icon: 'goal', word: e.type.replaceAll('_', ' ').toLowerCase(), spoken: e.type, note: '', key: false }
  const decision = e.type === 'VAR' || e.type === 'VAR_CARD' ? varDecision(e) : ''
  const side = creditedSide(e) ?? 'home'
  const who = e.type === 'SUBSTITUTION'
    ? h('span', { class: 'mwho' }, h('span', { class: 'mon', text: playerName(e) || 'Substitution' }), e.related_player?.name ? h('span', { class: 'moff' }, icon('off', 'off:'), e.related_player.name) : null)
    : h('span', { class: 'mwho', text: `${playerName(e) || kind.spoken}${kind.note}` })
  return h('li', { class: `mev mev-${side}`, 'data-type': e.type },
    h('span', { class: 'mmin', text: eventMinute(e) }),
    icon(kind.icon, e.type === 'SUBSTITUTION' ? 'Substitution, on:' : kind.spoken),
    who,
    h('span', { class: 'mkind', text: decision ? `${kind.word}: ${decision}` : kind.word }))
}

/** @param {LiveFixture} f */
function drawStatistics (f) {
  const rows = statisticRows(f.statistics ?? {})
  const panel = byId('panel-statistics')
  if (rows.length === 0) {
    panel.replaceChildren(h('p', { class: 'mempty', text: notStarted(f) ? 'Statistics come once the match starts.' : 'No statistics for this match.' }))
    return
  }
  const list = h('ul', { class: 'mstats', 'aria-label': `Statistics: ${f.home.name} v ${f.away.name}` })
  for (const r of rows) {
    const bar = (/** @type {'home' | 'away'} */ side, /** @type {number} */ share) => {
      const fill = h('span', { class: 'mbar-fill' })
      // Through the CSSOM: the page's CSP allows no style attribute.
      fill.style.inlineSize = `${Math.round(share * 100)}%`
      return h('span', { class: `mbar mbar-${side}${r.leader === side ? ' mbar-lead' : ''}` }, fill)
    }
    list.append(h('li', { class: 'mstat', 'data-stat': r.name, 'aria-label': r.spoken },
      h('span', { class: 'mstat-line', 'aria-hidden': 'true' },
        h('span', { class: `mval${r.leader === 'home' ? ' mval-lead' : ''}`, 'data-side': 'home', text: r.home }),
        h('span', { class: 'mlabel', text: r.label }),
        h('span', { class: `mval${r.leader === 'away' ? ' mval-lead' : ''}`, 'data-side': 'away', text: r.away })),
      h('span', { class: 'mbars', 'aria-hidden': 'true' }, bar('home', r.homeShare), bar('away', r.awayShare))))
  }
  panel.replaceChildren(list)
}

/** @param {LiveFixture} f */
function drawLineups (f) {
  const panel = byId('panel-lineups')
  const lineups = f.lineups
  if (lineups === null || lineups === undefined) {
    panel.replaceChildren(h('p', { class: 'mempty', text: 'The line-ups are not published yet (usually about an hour before kick-off).' }))
    return
  }
  const team = (/** @type {'home' | 'away'} */ side) => {
    const lineup = lineups[side]
    const events = (f.events ?? []).filter((e) => e.side === side)
    const lines = pitchLines(lineup, events)
    const pitch = h('ol', { class: `mpitch mpitch-${side}`, 'aria-label': `${f[side].name} starting eleven${lineup.formation ? `, ${lineup.formation}` : ''}` },
      ...lines.map((line) => h('li', { class: 'mline' }, h('ol', { class: 'mline-players' }, ...line.map((p) => playerItem(p))))))
    const bench = h('ul', { class: 'mbench', 'aria-label': `${f[side].name} substitutes` }, ...benchList(lineup, events).map((p) => playerItem(p)))
    return h('section', { class: 'mteam', 'data-side': side, 'aria-label': f[side].name },
      h('h2', { class: 'mteam-name' }, h('span', { text: f[side].name }), lineup.formation ? h('span', { class: 'mformation', text: lineup.formation }) : null),
      pitch, h('h3', { class: 'mbench-title', text: 'Substitutes' }), bench)
  }
  panel.replaceChildren(h('div', { class: 'mlineups' }, team('home'), team('away')))
}

/** @param {{ player: import('./lib/client.js').LineupPlayer, off: string | null, on: string | null, booked: string | null }} p */
function playerItem (p) {
  const marks = []
  if (p.on !== null) marks.push(h('span', { class: 'mmark mmark-on' }, icon('sub', 'came on'), p.on))
  if (p.off !== null) marks.push(h('span', { class: 'mmark mmark-off' }, icon('off', 'went off'), p.off))
  if (p.booked !== null) marks.push(icon(p.booked === 'YELLOWCARD' ? 'yellow' : p.booked === 'REDCARD' ? 'red' : 'second-yellow', p.booked === 'YELLOWCARD' ? 'booked' : 'sent off'))
  return h('li', { class: `mplayer${p.off !== null ? ' mplayer-off' : ''}`, 'data-player': p.player.player_id ?? '' },
    h('span', { class: 'mnum', text: p.player.number === null ? '' : String(p.player.number) }),
    h('span', { class: 'mpname', text: p.player.name ?? '' }), ...marks)
}

/** @param {LiveFixture} f */
function drawTable (f) {
  const panel = byId('panel-table')
  // The client holds the league's table: from the snapshot that came with the league, then from its frames.
  const standings = client.standings.get(f.league_id)
  const table = tableOf(standings, f)
  if (table === undefined) {
    panel.replaceChildren(h('p', { class: 'mempty', text: standings === undefined ? 'The live table comes while the league has a match in play.' : 'This competition has no table.' }))
    return
  }
  const head = h('tr', {}, ...['#', 'Team', 'P', 'W', 'D', 'L', 'GD', 'Pts'].map((c, i) => h('th', { scope: 'col', class: i === 1 ? 'mt-team' : '', title: ['Position', 'Team', 'Played', 'Won', 'Drawn', 'Lost', 'Goal difference', 'Points'][i], text: c })))
  const mine = new Set([f.home.id, f.away.id])
  const cell = (/** @type {number | null} */ v) => h('td', { text: v === null ? '–' : String(v) })
  const body = table.rows.map((r) => h('tr', { class: mine.has(r.team.id) ? 'mt-mine' : '', 'data-team': r.team.id, ...(mine.has(r.team.id) ? { 'aria-current': 'true' } : {}) },
    h('td', { text: String(r.position) }),
    h('th', { scope: 'row', class: 'mt-team' }, h('span', { text: r.team.name ?? `Team ${r.team.id}` }), r.result === 'up' || r.result === 'down' ? h('span', { class: `mt-move mt-${r.result}`, title: r.result === 'up' ? 'Up' : 'Down', text: r.result === 'up' ? '▲' : '▼' }) : null),
    cell(r.played), cell(r.won), cell(r.drawn), cell(r.lost),
    h('td', { text: r.goal_difference === null ? '–' : r.goal_difference > 0 ? `+${r.goal_difference}` : String(r.goal_difference) }),
    h('td', { class: 'mt-pts', text: String(r.points) })))
  panel.replaceChildren(h('table', { class: 'mtable' },
    h('caption', { text: `${leagueName ?? 'League'}: live table` }),
    h('thead', {}, head), h('tbody', {}, ...body)))
}

/** @param {LiveFixture} f */
function drawOdds (f) {
  if (oddsBookmaker === undefined) return
  const panel = byId('panel-odds')
  const image = client.odds.get(f.id)
  if (image === undefined || image.markets.length === 0) {
    panel.replaceChildren(h('p', { class: 'mempty', text: 'No odds for this match from this bookmaker.' }))
    return
  }
  panel.replaceChildren(h('div', { class: 'modds' }, ...image.markets.map((m) => h('section', { class: 'mmarket', 'data-status': m.status },
    h('h2', { class: 'mmarket-name', text: `${m.market ?? `Market ${m.market_id}`}${m.line === null ? '' : ` ${m.line}`}${m.status === 'open' ? '' : ` · ${m.status}`}` }),
    h('ul', { class: 'mselections' }, ...m.selections.map((s) => h('li', {}, h('span', { text: s.name ?? s.label }), h('span', { class: 'mprice', text: s.price }))))))))
}

function draw () {
  const f = client.fixtures.get(id)
  if (f === undefined) return
  drawHeader(f)
  drawSummary(f)
  drawStatistics(f)
  drawLineups(f)
  drawTable(f)
  drawOdds(f)
}

// ---- the connection ---------------------------------------------------------------------------------------

/** @param {ClientStatus} s */
function drawStatus (s) {
  const conn = byId('connection')
  conn.dataset.state = s.state
  document.body.dataset.conn = s.state
  setText(/** @type {HTMLElement} */ (conn.querySelector('.conn-label')), connectionText(s))
  setStale(s.state !== 'live' && s.state !== 'connecting')
  const problem = problemText(s, 'page') || notHeld
  const refusal = byId('refusal')
  refusal.hidden = problem === ''
  setText(refusal, problem)
}

/** Marks the page stale (dimmed, the clock stopped where it was) or live again. @param {boolean} on */
function setStale (on) {
  stale = on
  document.body.toggleAttribute('data-stale', on)
}

if (!Number.isSafeInteger(id) || id <= 0) {
  byId('refusal').hidden = false
  setText(byId('refusal'), 'This address names no match.')
} else {
  client.on('status', drawStatus)
  client.on('snapshot', draw)
  client.on('change', ({ frame }) => {
    if (frame.fixture_id !== id) return
    if (frame.changes.some((c) => c.kind === 'fixture_removed')) left = true
    draw()
  })
  client.on('standings', () => {
    const f = client.fixtures.get(id)
    if (f !== undefined) drawTable(f)
  })
  client.on('odds', ({ odds }) => { if (odds.fixture_id === id) { const f = client.fixtures.get(id); if (f !== undefined) drawOdds(f) } })
  client.subscribe({ fixtures: [id], ...(oddsBookmaker !== undefined ? { odds: true, bookmakers: [oddsBookmaker], format: 'full' } : {}) })
  client.connect().then((s) => {
    if (s.state !== 'live') return
    const f = client.fixtures.get(id)
    if (f !== undefined) draw()
    else {
      notHeld = 'This match is not one the gateway holds (it holds the days around today).'
      drawStatus(client.status)
    }
  }, () => {})
  // The browser knows first when the network is gone: stale at once, not at the next missed heartbeat.
  // A refused page stays refused: its reason is what it says.
  window.addEventListener('offline', () => {
    if (client.status.state === 'refused') return
    setStale(true)
    drawStatus({ state: 'offline', message: 'offline' })
  })
  // Back online: a socket that outlived the outage may be dead; a fresh one resumes from the cursor (nothing
  // lost), and its `live` ends the stale state. (The client retries at once by itself when it knew it was down.)
  window.addEventListener('online', () => { if (client.status.state === 'live') client.reconnectNow() })
  // The clock runs here: a second at a time, stopped while stale.
  setInterval(() => {
    const f = client.fixtures.get(id)
    if (f !== undefined && !stale) drawClock(f)
  }, 1000)
}
