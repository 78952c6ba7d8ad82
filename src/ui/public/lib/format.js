/**
 * Small pure helpers shared by the scoreboard and the widget: a DOM builder (text only, never HTML, so
 * names from the feed cannot inject markup), and the wording of clocks, events and goals.
 *
 * @typedef {import('./live.js').LiveFixture} LiveFixture
 * @typedef {import('./live.js').ChangeFrame} ChangeFrame
 * @typedef {{ id: number, type: string, minute: number | null, extra_minute: number | null, side: 'home' | 'away' | null,
 *   player: { name: string | null } | null, related_player: { name: string | null } | null, result: string | null }} LiveEvent
 */

import { runningMinute } from './clock.js'

/**
 * Creates an element. Attributes set to null/undefined/false are skipped; `class` and `text` are shortcuts.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {Array<Node | string | null | undefined | false>} children
 * @returns {HTMLElement}
 */
export function h (tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue
    if (name === 'text') el.textContent = String(value)
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child)
  return el
}

/** Event types shown on a card, with their CSS modifier, spoken name and whether they always show. */
const SHOWN = {
  GOAL: { cls: 'goal', label: 'Goal', key: true },
  PENALTY: { cls: 'goal', label: 'Penalty goal', key: true },
  OWNGOAL: { cls: 'own-goal', label: 'Own goal', key: true },
  MISSED_PENALTY: { cls: 'missed', label: 'Missed penalty', key: true },
  REDCARD: { cls: 'red', label: 'Red card', key: true },
  YELLOWREDCARD: { cls: 'second-yellow', label: 'Second yellow card', key: true },
  VAR: { cls: 'var', label: 'VAR decision', key: true },
  VAR_CARD: { cls: 'var', label: 'Card reviewed by VAR', key: true },
  YELLOWCARD: { cls: 'yellow', label: 'Yellow card', key: false },
  SUBSTITUTION: { cls: 'sub', label: 'Substitution', key: false }
}

/** What follows a player's name: the kind of goal, so "(og)" or "(pen missed)" is never lost. */
const NOTES = { OWNGOAL: ' (og)', PENALTY: ' (pen)', MISSED_PENALTY: ' (pen missed)' }

/** @param {string} type */
export const isGoalType = (type) => type === 'GOAL' || type === 'PENALTY' || type === 'OWNGOAL'

/** @param {LiveEvent} e @returns {{ cls: string, label: string, key: boolean } | undefined} */
export const eventStyle = (e) => SHOWN[/** @type {keyof typeof SHOWN} */ (e.type)]

/** Whether an event is always listed (goals, missed penalties, red cards, VAR) rather than counted in "+N more". */
export const isKeyEvent = (/** @type {LiveEvent} */ e) => eventStyle(e)?.key === true

/** `Name (og)`: the player (or the event's name) and the kind of goal. @param {LiveEvent} e */
export const eventText = (e) => {
  const name = playerName(e) || eventStyle(e)?.label || e.type
  const note = NOTES[/** @type {keyof typeof NOTES} */ (e.type)] ?? ''
  const info = (e.type === 'VAR' || e.type === 'VAR_CARD') && e.result ? `: ${e.result}` : ''
  return name + note + info
}

/** `45+2'`, or '' when upstream gave no minute @param {{ minute: number | null, extra_minute: number | null }} e */
export const eventMinute = (e) => e.minute === null ? '' : `${e.minute}${e.extra_minute ? `+${e.extra_minute}` : ''}'`

/** A side's goals; '–' when unknown (upstream sent no score) @param {number | null} score */
export const goalsText = (score) => score === null || score === undefined ? '–' : String(score)

/** Short labels for states that are not a running clock. */
const STATE_LABELS = {
  HT: 'HT',
  BREAK: 'Break',
  EXTRA_TIME_BREAK: 'ET break',
  PEN_BREAK: 'Pens break',
  INPLAY_PENALTIES: 'Pens',
  FT: 'FT',
  AET: 'AET',
  FT_PEN: 'FT (pens)',
  POSTPONED: 'Postp.',
  SUSPENDED: 'Susp.',
  INTERRUPTED: 'Int.',
  CANCELLED: 'Canc.',
  ABANDONED: 'Aband.',
  DELAYED: 'Delayed',
  AWARDED: 'Awarded',
  WO: 'W/O',
  TBA: 'TBA'
}

/** Where each period's regulation time ends, for a clock that has no `length` (older frames). */
const PERIOD_ENDS = { '1st-half': 45, '2nd-half': 90, 'extra-time': 105, 'et-1st-half': 105, 'et-2nd-half': 120 }

/** Shoot-out kicks count kicks, not minutes: never a clock reading. */
const SHOOTOUT = new Set(['PENALTY_SHOOTOUT_GOAL', 'PENALTY_SHOOTOUT_MISS'])

/**
 * The live clock as minute and added minute, as events are written (93 in the second half is 90+3), and
 * never behind the last event (the clock may be a little late when a goal arrives: the goal's minute wins).
 * @param {LiveFixture} f
 * @returns {{ minute: number, extra: number } | null}
 */
export function clockReading (f) {
  const running = runningMinute(f)
  if (running === null || running === undefined) return null
  const c = f.clock
  const end = c && c.length !== null && c.length !== undefined
    ? c.counts_from + c.length
    : PERIOD_ENDS[/** @type {keyof typeof PERIOD_ENDS} */ (String(/** @type {any} */ (f).period ?? '').toLowerCase())]
  /** @type {{ minute: number, extra: number }} */
  let reading = end !== undefined && running > end ? { minute: end, extra: running - end } : { minute: running, extra: 0 }
  const from = c?.counts_from ?? 0
  for (const e of f.events ?? []) {
    if (e.minute === null || e.minute === undefined || SHOOTOUT.has(e.type) || e.minute < from) continue
    const extra = e.extra_minute ?? 0
    if (e.minute > reading.minute || (e.minute === reading.minute && extra > reading.extra)) reading = { minute: e.minute, extra }
  }
  return reading
}

/**
 * What the clock column shows: the running minute (`67'`, `90+3'`), a state label, or the local kick-off time.
 * @param {LiveFixture} f
 */
export function clockLabel (f) {
  const label = STATE_LABELS[/** @type {keyof typeof STATE_LABELS} */ (f.state.code)]
  if (label !== undefined) return label
  if (f.state.phase === 'live') {
    const r = clockReading(f)
    return r === null ? 'Live' : eventMinute({ minute: r.minute, extra_minute: r.extra })
  }
  if (f.state.phase === 'scheduled' && f.starting_at) {
    return new Date(f.starting_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  }
  return f.state.name
}

/** Whether the match has not started: its score is shown as "-", not 0-0. @param {LiveFixture} f */
export const notStarted = (f) => f.state.phase === 'scheduled' || f.state.code === 'NS'

/** Shoot-out score as `(4-3 pens)`, or '' @param {LiveFixture} f */
export function shootout (f) {
  const p = f.scores?.penalty_shootout
  return p && (p.home > 0 || p.away > 0) ? `${p.home}-${p.away} pens` : ''
}

/** @param {LiveEvent | undefined} e */
export const playerName = (e) => e?.player?.name ?? ''

/**
 * The side an event counts for: its team's, except an own goal, which the feed files under the team of the
 * player who put it in and which counts for the other side.
 * @param {LiveEvent} e
 * @returns {'home' | 'away' | null}
 */
export const creditedSide = (e) => e.type === 'OWNGOAL' && e.side ? (e.side === 'home' ? 'away' : 'home') : e.side

/**
 * @typedef {{ side: 'home' | 'away', scorer: string, minute: string, own: boolean }} Goal
 */

/**
 * The goals a change frame reports, for the flash and the announcement: each added goal event (own goals
 * on the side they count for), or a bare score increase when the event is not in the frame.
 * @param {ChangeFrame} frame
 * @returns {Goal[]}
 */
export function goalsIn (frame) {
  const added = frame.changes.filter((c) => c.kind === 'event_added' && isGoalType(c.event.type) && c.event.side)
  if (added.length > 0) {
    return added.map((c) => ({ side: creditedSide(c.event) ?? 'home', scorer: playerName(c.event), minute: eventMinute(c.event), own: c.event.type === 'OWNGOAL' }))
  }
  const score = frame.changes.find((c) => c.kind === 'score_changed' && !c.score_type)
  if (score === undefined) return []
  /** @type {Goal[]} */
  const goals = []
  if (score.home > score.previous.home) goals.push({ side: 'home', scorer: '', minute: '', own: false })
  if (score.away > score.previous.away) goals.push({ side: 'away', scorer: '', minute: '', own: false })
  return goals
}

/** Goals cancelled in a change frame (an event that disappeared: VAR). @param {ChangeFrame} frame @returns {LiveEvent[]} */
export const cancelledIn = (frame) => frame.changes
  .filter((c) => c.kind === 'event_removed' && isGoalType(c.event.type)).map((c) => c.event)

/**
 * Sentences for the aria-live region: goals, cancelled goals and the final whistle.
 * @param {ChangeFrame} frame
 * @returns {string[]}
 */
export function announcements (frame) {
  const f = frame.fixture
  const line = `${f.home.name} ${goalsText(f.home.score)}, ${f.away.name} ${goalsText(f.away.score)}`
  const out = goalsIn(frame).map((g) => `Goal for ${f[g.side].name}${g.scorer ? g.own ? `, own goal by ${g.scorer}` : ` by ${g.scorer}` : ''}${g.minute ? `, ${g.minute}` : ''}. ${line}.`)
  for (const e of cancelledIn(frame)) out.push(`Goal${playerName(e) ? ` by ${playerName(e)}` : ''} cancelled by VAR. ${line}.`)
  const state = frame.changes.find((c) => c.kind === 'state_changed')
  if (state && state.state.phase === 'finished') out.push(`Full time: ${line}.`)
  return out
}

/**
 * The connection state in words, for the page's and the widget's status line: "Reconnecting in 4 s" (counted
 * down by the caller), or a refusal that says which (bad key, revoked key, refused origin).
 * @param {import('./live.js').FeedStatus} s
 * @param {number} [retryAt] when the next attempt is due (Date.now() time)
 */
export function connectionText (s, retryAt) {
  if (s.state === 'live') return 'Live'
  if (s.state === 'connecting') return 'Connecting…'
  if (s.state === 'refused') return s.message ?? 'The gateway refused this key.'
  const secs = retryAt === undefined ? undefined : Math.max(0, Math.ceil((retryAt - Date.now()) / 1000))
  const when = secs === undefined ? 'Reconnecting…' : secs === 0 ? 'Reconnecting now…' : `Reconnecting in ${secs} s`
  const head = s.state === 'offline' ? `Offline · ${when.toLowerCase()}` : when
  return s.message ? `${head} · ${s.message}` : head
}
