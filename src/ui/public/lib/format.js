/**
 * Small pure helpers shared by the scoreboard and the widget: a DOM builder (text only, never HTML, so
 * names from the feed cannot inject markup), and the wording of clocks, results and events.
 * Times are written in 24-hour form everywhere (19:45, 20:23:05), as livescore sites do.
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {import('./feed.js').ChangeFrame} ChangeFrame
 * @typedef {import('./client.js').LiveEvent} LiveEvent
 */

import { isGoalType, minuteText, runningMinute, scoringSide } from './core.js'

export { isGoalType }

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

/** Sets an element's text only when it differs (no mutation, no re-announcement, no layout work). @param {Element} el @param {string} text */
export function setText (el, text) {
  if (el.textContent !== text) el.textContent = text
}

/**
 * Every event kind a row lists: its icon (CSS modifier), the word shown beside it, what follows the
 * player's name, and whether it is always listed (goals, missed penalties, red cards, VAR) rather than
 * counted in "+N more".
 */
const KINDS = {
  GOAL: { icon: 'goal', word: 'Goal', note: '', key: true },
  PENALTY: { icon: 'goal', word: 'Penalty', note: ' (pen)', key: true },
  OWNGOAL: { icon: 'own-goal', word: 'Own goal', note: ' (og)', key: true },
  MISSED_PENALTY: { icon: 'missed', word: 'Missed pen', note: ' (pen missed)', key: true },
  REDCARD: { icon: 'red', word: 'Red card', note: '', key: true },
  YELLOWREDCARD: { icon: 'second-yellow', word: '2nd yellow', note: '', key: true },
  VAR: { icon: 'var', word: 'VAR', note: '', key: true },
  VAR_CARD: { icon: 'var', word: 'VAR', note: '', key: true },
  YELLOWCARD: { icon: 'yellow', word: 'Yellow', note: '', key: false },
  SUBSTITUTION: { icon: 'sub', word: 'Sub', note: '', key: false }
}

/** The spoken name of each kind (the visible word is short). */
const SPOKEN = {
  GOAL: 'Goal',
  PENALTY: 'Penalty goal',
  OWNGOAL: 'Own goal',
  MISSED_PENALTY: 'Missed penalty',
  REDCARD: 'Red card',
  YELLOWREDCARD: 'Second yellow card',
  VAR: 'VAR decision',
  VAR_CARD: 'Card reviewed by VAR',
  YELLOWCARD: 'Yellow card',
  SUBSTITUTION: 'Substitution'
}

/** @param {string} type */
const isRed = (type) => type === 'REDCARD' || type === 'YELLOWREDCARD'

/**
 * How an event is shown, or undefined for a kind rows do not list (shoot-out kicks...).
 * @param {LiveEvent} e
 * @returns {{ icon: string, word: string, spoken: string, note: string, key: boolean } | undefined}
 */
export function eventKind (e) {
  const k = KINDS[/** @type {keyof typeof KINDS} */ (e.type)]
  return k === undefined ? undefined : { ...k, spoken: SPOKEN[/** @type {keyof typeof SPOKEN} */ (e.type)] }
}

/** Whether an event is always listed rather than counted in "+N more". @param {LiveEvent} e */
export const isKeyEvent = (e) => eventKind(e)?.key === true

/** @param {LiveEvent | undefined} e */
export const playerName = (e) => e?.player?.name ?? ''

/** The VAR decision in words ("Goal disallowed"), or ''. @param {LiveEvent} e */
export function varDecision (e) {
  const raw = e.info ?? e.result ?? e.addition ?? ''
  return raw === '' ? '' : raw.charAt(0).toUpperCase() + raw.slice(1).toLowerCase()
}

/** `Name (og)`: the player (or the kind's word) and the kind of goal. @param {LiveEvent} e */
export function eventText (e) {
  const kind = eventKind(e)
  return (playerName(e) || kind?.spoken || e.type) + (kind?.note ?? '')
}

/** `45+2'`, or '' when upstream gave no minute (the core package's rule, as the gateway's alerts write it). */
export const eventMinute = minuteText

/** A side's goals; '–' when unknown (upstream sent no score) @param {number | null} score */
export const goalsText = (score) => score === null || score === undefined ? '–' : String(score)

/** `19:45`: a local time in 24-hour form. @param {Date} d */
export const hhmm = (d) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`

/** `20:23:05` @param {Date} d */
export const hhmmss = (d) => `${hhmm(d)}:${String(d.getSeconds()).padStart(2, '0')}`

/** Short labels for states that are not a running clock. */
const STATE_LABELS = {
  HT: 'HT',
  BREAK: 'Break',
  EXTRA_TIME_BREAK: 'ET break',
  PEN_BREAK: 'Pens',
  INPLAY_PENALTIES: 'Pens',
  FT: 'FT',
  AET: 'AET',
  FT_PEN: 'FT',
  SUSPENDED: 'Susp.',
  INTERRUPTED: 'Int.',
  DELAYED: 'Delayed',
  AWARDED: 'Awd.',
  WO: 'W/O',
  TBA: 'TBA'
}

/** States whose match has no score to show (never played, or stopped for good), in words. */
const NO_SCORE = { POSTPONED: 'Postponed', CANCELLED: 'Cancelled', ABANDONED: 'Abandoned', DELETED: 'Cancelled' }

/** The state in words instead of a score (postponed, cancelled, abandoned), or ''. @param {LiveFixture} f */
export const noScoreWord = (f) => NO_SCORE[/** @type {keyof typeof NO_SCORE} */ (f.state.code)] ?? (f.state.phase === 'postponed' || f.state.phase === 'cancelled' ? f.state.name : '')

/** Where each period's regulation time ends, for a clock that has no `length` (older frames). */
const PERIOD_ENDS = { '1st-half': 45, '2nd-half': 90, 'extra-time': 105, 'et-1st-half': 105, 'et-2nd-half': 120 }

/** Shoot-out kicks count kicks, not minutes: never a clock reading. */
const SHOOTOUT = new Set(['PENALTY_SHOOTOUT_GOAL', 'PENALTY_SHOOTOUT_MISS'])

/**
 * The live clock as minute and added minute, as events are written (93 in the second half is 90+3), and
 * never behind the last event (the clock may be a little late when a goal arrives: the goal's minute wins);
 * a period's first minute is its first (1' at kick-off).
 * @param {LiveFixture} f
 * @returns {{ minute: number, extra: number } | null}
 */
export function clockReading (f) {
  const minute = runningMinute(f)
  if (minute === null || minute === undefined) return null
  const c = f.clock
  // A period's first minute reads as its first: 1' at kick-off (not 0'), 46' at the second half's.
  const running = c ? Math.max(minute, c.counts_from + 1) : minute
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
 * What the clock column shows: the running minute (`67'`, `90+3'`), a state label, or the local kick-off
 * time (also for a match postponed or cancelled, whose state is written where the score would be).
 * @param {LiveFixture} f
 */
export function clockLabel (f) {
  const label = STATE_LABELS[/** @type {keyof typeof STATE_LABELS} */ (f.state.code)]
  if (label !== undefined) return label
  if (f.state.phase === 'live') {
    const r = clockReading(f)
    return r === null ? 'Live' : eventMinute({ minute: r.minute, extra_minute: r.extra })
  }
  if ((f.state.phase === 'scheduled' || noScoreWord(f) !== '') && f.starting_at) return hhmm(new Date(f.starting_at))
  return f.state.name
}

/** Whether the match has not started: its score is shown as "-", not 0-0. @param {LiveFixture} f */
export const notStarted = (f) => f.state.phase === 'scheduled' || f.state.code === 'NS'

/** Shoot-out score as `4-3 pens`, or '' @param {LiveFixture} f */
export function shootout (f) {
  const p = f.scores?.penalty_shootout
  return p && (p.home > 0 || p.away > 0) ? `${p.home}-${p.away} pens` : ''
}

/** What a result says beside its score: the shoot-out (`4-3 pens`), or ''. @param {LiveFixture} f */
export const resultNote = (f) => shootout(f) || (f.state.code === 'FT_PEN' ? 'on pens' : '')

/**
 * The side that won a finished match (on the score, else on the shoot-out), or null for a draw, a match
 * not over, or an unknown score.
 * @param {LiveFixture} f
 * @returns {'home' | 'away' | null}
 */
export function winner (f) {
  if (f.state.phase !== 'finished') return null
  const home = f.home.score
  const away = f.away.score
  if (home === null || away === null || home === undefined || away === undefined) return null
  if (home !== away) return home > away ? 'home' : 'away'
  const p = f.scores?.penalty_shootout
  return p && p.home !== p.away ? (p.home > p.away ? 'home' : 'away') : null
}

/**
 * The side an event counts for: its team's, except an own goal, which the feed files under the team of the
 * player who put it in and which counts for the other side.
 * @param {LiveEvent} e
 * @returns {'home' | 'away' | null}
 */
export const creditedSide = (e) => scoringSide(e) ?? e.side

/** Red cards (second yellows included) each side has had. @param {LiveFixture} f */
export function redCards (f) {
  const out = { home: 0, away: 0 }
  for (const e of f.events ?? []) if (isRed(e.type) && e.side) out[e.side]++
  return out
}

/** The last goal that stands, for the row's scorer line. @param {LiveFixture} f */
export const latestGoal = (f) => (f.events ?? []).filter((e) => isGoalType(e.type) && e.side).at(-1)

/**
 * @typedef {{ side: 'home' | 'away', scorer: string, minute: string, own: boolean }} Goal
 */

/**
 * The goals a change frame reports, for the flash and the announcement: a rise of the main score, with the
 * goals it carries (or the goal events added beside it), else one bare goal per side whose score went up.
 * A goal event that arrives a poll after its score is no new goal: it only names the scorer.
 * @param {ChangeFrame} frame
 * @returns {Goal[]}
 */
export function goalsIn (frame) {
  const score = frame.changes.filter((c) => c.kind === 'score_changed').find((c) => !c.score_type)
  if (score === undefined) return []
  const events = score.goals ?? frame.changes.filter((c) => c.kind === 'event_added').map((c) => c.event).filter((e) => isGoalType(e.type))
  /** @type {Goal[]} */
  const goals = events.filter((e) => creditedSide(e) !== null)
    .map((e) => ({ side: /** @type {'home' | 'away'} */ (creditedSide(e)), scorer: playerName(e), minute: eventMinute(e), own: e.type === 'OWNGOAL' }))
  for (const side of /** @type {const} */ (['home', 'away'])) {
    if ((score[side] ?? 0) > (score.previous?.[side] ?? 0) && !goals.some((g) => g.side === side)) goals.push({ side, scorer: '', minute: '', own: false })
  }
  return goals
}

/** Goals cancelled in a change frame (an event that disappeared: VAR). @param {ChangeFrame} frame @returns {LiveEvent[]} */
export const cancelledIn = (frame) => frame.changes
  .filter((c) => c.kind === 'event_removed').map((c) => c.event).filter((e) => isGoalType(e.type))

/** `Celtic 1, Kilmarnock 0` @param {LiveFixture} f */
export const scoreLine = (f) => `${f.home.name} ${goalsText(f.home.score)}, ${f.away.name} ${goalsText(f.away.score)}`

/**
 * Sentences for the aria-live region: goals, cancelled goals and the final whistle; goals replayed after a
 * reconnection say that they happened while the page was away.
 * @param {ChangeFrame} frame
 * @param {boolean} [replayed]
 * @returns {string[]}
 */
export function announcements (frame, replayed = false) {
  const f = frame.fixture
  const line = scoreLine(f)
  const lead = replayed ? 'While reconnecting: goal' : 'Goal'
  const out = goalsIn(frame).map((g) => `${lead} for ${f[g.side].name}${g.scorer ? g.own ? `, own goal by ${g.scorer}` : ` by ${g.scorer}` : ''}${g.minute ? `, ${g.minute}` : ''}. ${line}.`)
  for (const e of cancelledIn(frame)) out.push(`Goal${playerName(e) ? ` by ${playerName(e)}` : ''} cancelled by VAR. ${line}.`)
  if (!replayed) {
    const final = finalWords(frame)
    if (final !== '') out.push(`${final}: ${line}.`)
  }
  return out
}

/**
 * Whether a fixture may be a tie decided on the day: the upstream gives every league fixture its round, and
 * many cup and knock-out fixtures none.
 * @param {Pick<LiveFixture, 'round_id'>} f
 */
export const mayBeKnockout = (f) => f.round_id === null

/**
 * Whether a match stands at full time level in a tie that may go on to extra time (mayBeKnockout), while it
 * is still in the live set: shown as "awaiting extra time", not as a result, and ranked with the matches in
 * play. The board and its rows ask this one question.
 * @param {LiveFixture} f
 * @param {boolean} inLiveSet
 */
export const awaitingExtraTime = (f, inLiveSet) => inLiveSet && f.state.code === 'FT' && f.home.score !== null && f.home.score === f.away.score && mayBeKnockout(f)

/**
 * How the final whistle is said, or '' when this frame is not it. `FT` with the score level in a match that
 * may be a knock-out tie (mayBeKnockout), still in the live set, is not final: it may go on to extra time;
 * it is said when the match leaves the live set, at full time for good. A league match's is said at once. A
 * shoot-out says its winner.
 * @param {ChangeFrame} frame
 */
function finalWords (frame) {
  const f = frame.fixture
  const state = frame.changes.find((c) => c.kind === 'state_changed')
  const removed = frame.changes.some((c) => c.kind === 'fixture_removed')
  const level = f.home.score !== null && f.home.score === f.away.score && mayBeKnockout(f)
  if (state !== undefined && state.state.phase === 'finished') {
    if (state.state.code === 'FT_PEN') {
      const p = f.scores?.penalty_shootout
      const won = winner(f)
      return won === null || p === undefined ? 'Full time after penalties' : `Full time, ${f[won].name} win ${Math.max(p.home, p.away)}-${Math.min(p.home, p.away)} on penalties`
    }
    if (state.state.code === 'AET') return 'After extra time'
    if (state.state.code === 'FT' && level && !removed) return ''
    return 'Full time'
  }
  // A level FT said once the match left the live set: it did not go on.
  return removed && state === undefined && f.state.code === 'FT' && level ? 'Full time' : ''
}
