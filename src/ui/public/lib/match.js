/**
 * The match centre's contents, as plain data (no DOM): the statistics as paired rows, the events as a
 * timeline with its half-time line, each team's line-up on a pitch (lines from the goalkeeper up, the
 * substitutions marked), the league table with this match's teams, and the header's half-time score and
 * state. The match page (match.js) draws them; they are unit-tested in Node (test/unit/ui/match.test.ts).
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {import('./format.js').LiveEvent} LiveEvent
 * @typedef {import('./client.js').LeagueStandings} LeagueStandings
 * @typedef {import('./client.js').StandingsTable} StandingsTable
 * @typedef {import('./client.js').TeamLineup} TeamLineup
 * @typedef {import('./client.js').LineupPlayer} LineupPlayer
 */

/** The statistics a match page shows, in the order fans read them, with their words; others are left out. */
const STATISTICS = /** @type {const} */ ([
  ['possession', 'Ball possession', '%'],
  ['expected_goals', 'Expected goals (xG)', ''],
  ['shots_total', 'Total shots', ''],
  ['shots_on_target', 'Shots on target', ''],
  ['shots_off_target', 'Shots off target', ''],
  ['shots_blocked', 'Blocked shots', ''],
  ['corners', 'Corner kicks', ''],
  ['offsides', 'Offsides', ''],
  ['fouls', 'Fouls', ''],
  ['yellow_cards', 'Yellow cards', ''],
  ['red_cards', 'Red cards', ''],
  ['saves', 'Goalkeeper saves', ''],
  ['attacks', 'Attacks', ''],
  ['dangerous_attacks', 'Dangerous attacks', ''],
  ['passes', 'Passes', ''],
  ['accurate_passes', 'Accurate passes', ''],
  ['pass_accuracy', 'Pass accuracy', '%']
])

/**
 * @typedef {{ name: string, label: string, home: string, away: string, homeShare: number, awayShare: number,
 *   leader: 'home' | 'away' | null, spoken: string }} StatisticRow
 */

/** A value as written: xG with two decimals, counts as they are. @param {number | null} v @param {string} name @param {string} unit */
const statText = (v, name, unit) => v === null ? '–' : `${name === 'expected_goals' ? v.toFixed(2) : String(v)}${unit}`

/**
 * The statistics the fixture has, in the page's order: each side's value as text, each side's share of the
 * two (for the paired bars; 0.5 each when both are 0), which side leads, and a sentence for screen readers.
 * @param {Record<string, { home: number | null, away: number | null }>} statistics
 * @returns {StatisticRow[]}
 */
export function statisticRows (statistics) {
  /** @type {StatisticRow[]} */
  const rows = []
  for (const [name, label, unit] of STATISTICS) {
    const pair = statistics[name]
    if (pair === undefined || (pair.home === null && pair.away === null)) continue
    const home = pair.home ?? 0
    const away = pair.away ?? 0
    const total = home + away
    const homeShare = total > 0 ? home / total : 0.5
    const leader = home > away ? 'home' : away > home ? 'away' : null
    const h = statText(pair.home, name, unit)
    const a = statText(pair.away, name, unit)
    rows.push({ name, label, home: h, away: a, homeShare, awayShare: 1 - homeShare, leader, spoken: `${label}: ${h} to ${a}` })
  }
  return rows
}

/** The half-time score (`1-0`), once the first half is over; '' before or without one. @param {LiveFixture} f */
export function halfTimeScore (f) {
  const first = f.scores?.['1st_half']
  if (first === undefined || f.state.phase === 'scheduled') return ''
  const period = String(f.period ?? '').toLowerCase()
  if (f.state.code === 'INPLAY_1ST_HALF' || (period === '1st-half' && f.state.phase === 'live')) return ''
  return `${first.home}-${first.away}`
}

/**
 * @typedef {{ kind: 'event', event: LiveEvent, side: 'home' | 'away' | null } |
 *   { kind: 'break', label: string, score: string }} TimelineItem
 */

/** Shoot-out kicks go last, in their order; the rest by minute. */
const SHOOTOUT = new Set(['PENALTY_SHOOTOUT_GOAL', 'PENALTY_SHOOTOUT_MISS'])

/**
 * The summary's timeline: the match's events in match order, with a half-time line (and its score) between
 * the halves once the first is over, and a line before extra time and before the shoot-out.
 * @param {LiveFixture} f
 * @returns {TimelineItem[]}
 */
export function timeline (f) {
  const events = [...f.events ?? []]
  const shootout = events.filter((e) => SHOOTOUT.has(e.type))
  const play = events.filter((e) => !SHOOTOUT.has(e.type))
  /** @type {TimelineItem[]} */
  const items = []
  const ht = halfTimeScore(f)
  let htPlaced = ht === ''
  let etPlaced = false
  for (const e of play) {
    const minute = e.minute ?? 0
    if (!htPlaced && minute > 45) { items.push({ kind: 'break', label: 'Half time', score: ht }); htPlaced = true }
    if (!etPlaced && minute > 90 && (f.scores?.['2nd_half'] !== undefined) && String(f.period ?? '').includes('et')) {
      items.push({ kind: 'break', label: 'Extra time', score: '' })
      etPlaced = true
    }
    items.push({ kind: 'event', event: e, side: e.side })
  }
  if (!htPlaced) items.push({ kind: 'break', label: 'Half time', score: ht })
  if (shootout.length > 0) {
    const pens = f.scores?.penalty_shootout
    items.push({ kind: 'break', label: 'Penalty shoot-out', score: pens === undefined ? '' : `${pens.home}-${pens.away}` })
    for (const e of shootout) items.push({ kind: 'event', event: e, side: e.side })
  }
  return items
}

/**
 * @typedef {{ player: LineupPlayer, off: string | null, on: string | null, booked: string | null }} PitchPlayer
 *   `off`/`on`: the minute the player was substituted off or came on; `booked`: a card's kind
 */

/**
 * A team's starting eleven as lines on a pitch, the goalkeeper's first: from the formation (`4-3-3` is
 * 1, 4, 3, 3 players by formation position), else by position (goalkeeper, defenders, midfielders,
 * attackers). Each player with the minute they went off, if they did.
 * @param {TeamLineup} lineup
 * @param {LiveEvent[]} events the match's events (substitutions, cards) of this team's side
 * @returns {PitchPlayer[][]}
 */
export function pitchLines (lineup, events) {
  const marks = substitutions(events)
  const mark = (/** @type {LineupPlayer} */ p) => ({ player: p, off: marks.off.get(key(p)) ?? null, on: marks.on.get(key(p)) ?? null, booked: marks.cards.get(key(p)) ?? null })
  const starting = [...lineup.starting].sort((a, b) => (a.formation_position ?? 99) - (b.formation_position ?? 99))
  const counts = (lineup.formation ?? '').split('-').map(Number)
  const fits = counts.length > 0 && counts.every((n) => Number.isInteger(n) && n > 0) && 1 + counts.reduce((a, b) => a + b, 0) === starting.length
  if (fits) {
    /** @type {PitchPlayer[][]} */
    const lines = []
    let i = 0
    for (const n of [1, ...counts]) {
      lines.push(starting.slice(i, i + n).map(mark))
      i += n
    }
    return lines
  }
  const order = ['goalkeeper', 'defender', 'midfielder', 'attacker']
  const lines = order.map((pos) => starting.filter((p) => p.position === pos).map(mark))
  const unplaced = starting.filter((p) => p.position === null || !order.includes(p.position)).map(mark)
  if (unplaced.length > 0) lines.push(unplaced)
  return lines.filter((l) => l.length > 0)
}

/** The bench, each player with the minute they came on, if they did. @param {TeamLineup} lineup @param {LiveEvent[]} events */
export function benchList (lineup, events) {
  const marks = substitutions(events)
  return lineup.bench.map((p) => ({ player: p, off: marks.off.get(key(p)) ?? null, on: marks.on.get(key(p)) ?? null, booked: marks.cards.get(key(p)) ?? null }))
}

/** A player's name as events name them (ids differ between the line-ups and the events on some feeds). @param {{ name: string | null }} p */
const key = (p) => (p.name ?? '').trim().toLowerCase()

/**
 * Who came on and who went off, and when; who was booked. A substitution event names the player on
 * (`player`) and the player off (`related_player`).
 * @param {LiveEvent[]} events
 */
function substitutions (events) {
  /** @type {Map<string, string>} */ const on = new Map()
  /** @type {Map<string, string>} */ const off = new Map()
  /** @type {Map<string, string>} */ const cards = new Map()
  for (const e of events) {
    const minute = e.minute === null ? '' : `${e.minute}${e.extra_minute ? `+${e.extra_minute}` : ''}'`
    if (e.type === 'SUBSTITUTION') {
      if (e.player?.name) on.set(key(e.player), minute)
      if (e.related_player?.name) off.set(key(e.related_player), minute)
    } else if ((e.type === 'YELLOWCARD' || e.type === 'REDCARD' || e.type === 'YELLOWREDCARD') && e.player?.name) {
      const before = cards.get(key(e.player))
      cards.set(key(e.player), before === undefined || e.type !== 'YELLOWCARD' ? e.type : before)
    }
  }
  return { on, off, cards }
}

/**
 * The table this match is played in: the one holding both teams (a group of a league with several), else
 * the one of its stage, else the first. Undefined without standings.
 * @param {LeagueStandings | undefined} standings
 * @param {Pick<LiveFixture, 'stage_id' | 'home' | 'away'>} f
 * @returns {StandingsTable | undefined}
 */
export function tableOf (standings, f) {
  if (standings === undefined || standings.tables.length === 0) return undefined
  const has = (/** @type {StandingsTable} */ t, /** @type {number} */ team) => t.rows.some((r) => r.team.id === team)
  return standings.tables.find((t) => has(t, f.home.id) && has(t, f.away.id)) ??
    standings.tables.find((t) => t.stage_id === f.stage_id) ??
    standings.tables[0]
}

/**
 * What the header says of the state, for fans: a final word only when the match is over for good. `FT` in a
 * knock-out tie that is level while the match is still in the live set may go on to extra time: "Awaiting
 * extra time", not "Full time". A shoot-out's winner in words.
 * @param {LiveFixture} f
 * @param {{ mayGoOn?: boolean, knockout?: boolean }} [opts] `mayGoOn`: still in the live set; `knockout`: a stage decided on the day
 */
export function stateWords (f, opts = {}) {
  const pens = f.scores?.penalty_shootout
  if (f.state.code === 'FT_PEN' && pens !== undefined) {
    const winner = pens.home > pens.away ? f.home.name : f.away.name
    return `${winner} win ${Math.max(pens.home, pens.away)}-${Math.min(pens.home, pens.away)} on pens`
  }
  if (f.state.code === 'FT' && opts.mayGoOn === true && opts.knockout === true && f.home.score !== null && f.home.score === f.away.score) return 'Awaiting extra time'
  if (f.state.code === 'AET') return 'After extra time'
  return f.state.name
}
