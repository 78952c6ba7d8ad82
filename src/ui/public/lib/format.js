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

/** Event types shown on a card, with their CSS modifier and spoken name. */
const SHOWN = {
  GOAL: { cls: 'goal', label: 'Goal' },
  PENALTY: { cls: 'goal', label: 'Penalty goal' },
  OWNGOAL: { cls: 'own-goal', label: 'Own goal' },
  MISSED_PENALTY: { cls: 'missed', label: 'Missed penalty' },
  YELLOWCARD: { cls: 'yellow', label: 'Yellow card' },
  YELLOWREDCARD: { cls: 'second-yellow', label: 'Second yellow card' },
  REDCARD: { cls: 'red', label: 'Red card' }
}

/** @param {string} type */
export const isGoalType = (type) => type === 'GOAL' || type === 'PENALTY' || type === 'OWNGOAL'

/** @param {LiveEvent} e @returns {{ cls: string, label: string } | undefined} */
export const eventStyle = (e) => SHOWN[/** @type {keyof typeof SHOWN} */ (e.type)]

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

/**
 * What the clock column shows: the running minute, a state label, or the local kick-off time.
 * @param {LiveFixture} f
 */
export function clockLabel (f) {
  const label = STATE_LABELS[/** @type {keyof typeof STATE_LABELS} */ (f.state.code)]
  if (label !== undefined) return label
  const minute = runningMinute(f)
  if (f.state.phase === 'live') return minute === null ? 'Live' : `${minute}'`
  if (f.state.phase === 'scheduled' && f.starting_at) {
    return new Date(f.starting_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  }
  return f.state.name
}

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
