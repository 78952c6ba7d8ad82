/**
 * One match row, built once and updated in place: the clock (a live mark while in play), each team with a
 * red-card badge per red card (second yellows included), the score (or, for a match postponed, cancelled
 * or abandoned, its state in words), the latest goal under the side that scored, a result's note (`4-3
 * pens`), and a button that opens the match's events.
 *
 * Updated in place, never rebuilt: a row that changes keeps its elements, so keyboard focus stays on its
 * button while the score or the clock moves, and a goal's flash is not restarted by a clock tick.
 *
 * The open events list every event kind with an icon and a word: goals (`(og)`, `(pen)`), missed
 * penalties, yellow, second yellow and red cards, substitutions (the player on and the player off), VAR
 * with its decision; goals cancelled by VAR stay, struck through. Goals, red cards, missed penalties and
 * VAR always show; the others show the three latest and "+N more", which then offers "Show fewer".
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {import('./format.js').LiveEvent} LiveEvent
 * @typedef {{ open: boolean, all: boolean, scoredUntil: { home: number, away: number }, cancelled: LiveEvent[], mayGoOn?: boolean }} RowView
 *   `mayGoOn`: the match is still in the live set (a level FT of a knock-out tie is then awaiting extra time)
 */
import { awaitingExtraTime, clockLabel, clockReading, creditedSide, eventKind, eventMinute, eventText, goalsText, h, isKeyEvent, latestGoal, noScoreWord, notStarted, playerName, redCards, resultNote, setText, varDecision, winner } from './format.js'
import { icon } from './icons.js'

/** Events other than goals, red cards, missed penalties and VAR listed before "+N more" (the latest ones). */
const MAX_OTHER_EVENTS = 3

const SIDES = /** @type {const} */ (['home', 'away'])

export class Row {
  /**
   * @param {LiveFixture} f
   * @param {object} opts
   * @param {string} opts.idPrefix prefix of element ids, unique per board on a page
   * @param {(id: number, what: 'toggle' | 'more' | 'fewer') => void} opts.onAction
   * @param {{ el: HTMLElement }} [opts.odds] the row's odds cells (lib/odds.js, drawn by the board), when odds are on
   * @param {(id: number) => string} [opts.matchHref] the address of the match's page, linked under its open events
   */
  constructor (f, opts) {
    this.id = f.id
    this.odds = opts.odds
    this.detailsId = `${opts.idPrefix}-events-${f.id}`
    /** @type {LiveFixture | undefined} */ this.fixture = undefined
    this.signature = ''
    /** When the row last flashed (Date.now() time). */
    this.flashedAt = 0
    const team = (/** @type {'home' | 'away'} */ side) => {
      const name = h('span', { class: 'tl-name' })
      const reds = h('span', { class: 'tl-reds', 'aria-hidden': 'true' })
      return { el: h('span', { class: `tl-team tl-${side}` }, name, reds), name, reds }
    }
    this.teams = { home: team('home'), away: team('away') }
    this.clockText = h('span', { class: 'tl-clock-text' })
    this.clock = h('span', { class: 'tl-clock' }, h('span', { class: 'tl-dot', 'aria-hidden': 'true' }), this.clockText)
    this.goals = { home: h('span', { class: 'tl-goals' }), away: h('span', { class: 'tl-goals' }) }
    this.word = h('span', { class: 'tl-word' })
    this.score = h('span', { class: 'tl-score', 'aria-hidden': 'true' }, this.goals.home, h('span', { class: 'tl-sep', text: '-' }), this.goals.away, this.word)
    this.scorers = { home: h('span', { class: 'tl-scorer tl-scorer-home' }), away: h('span', { class: 'tl-scorer tl-scorer-away' }) }
    this.note = h('span', { class: 'tl-note' })
    this.toggleHint = h('span', { class: 'tl-visually-hidden' })
    this.toggle = h('button', { type: 'button', class: 'tl-toggle', 'aria-expanded': 'false', 'aria-controls': this.detailsId },
      h('span', { class: 'tl-toggle-word', text: 'Events' }), this.toggleHint, h('span', { class: 'tl-chevron', 'aria-hidden': 'true' }))
    this.list = h('ul', { class: 'tl-events', tabindex: '-1' })
    this.more = h('button', { type: 'button', class: 'tl-more' })
    /** The half-time score and the match page's link, under the open events (the scoreboard's rows). */
    this.halfTime = h('span', { class: 'tl-ht' })
    this.matchLink = opts.matchHref === undefined ? null : h('a', { class: 'tl-match-link', href: opts.matchHref(f.id), text: 'Match centre' })
    this.details = h('div', { class: 'tl-details', id: this.detailsId }, this.list, this.more,
      this.matchLink === null ? null : h('p', { class: 'tl-details-foot' }, this.halfTime, this.matchLink))
    this.el = h('article', { class: 'tl-match', 'data-fixture': f.id },
      h('div', { class: 'tl-row' }, this.clock, this.teams.home.el, this.score, this.teams.away.el,
        this.scorers.home, this.note, this.scorers.away, opts.odds?.el ?? null, this.toggle))
    this.el.addEventListener('animationend', () => this.el.classList.remove('tl-flash'))
    // A click anywhere on the row opens the events, as on livescore sites; the button is the keyboard way.
    this.el.addEventListener('click', (ev) => {
      const target = /** @type {Element} */ (ev.target)
      if (target.closest('.tl-more') !== null) opts.onAction(this.id, this.more.dataset.action === 'fewer' ? 'fewer' : 'more')
      else if (target.closest('.tl-row') !== null && !this.toggle.hidden) opts.onAction(this.id, 'toggle')
    })
  }

  /**
   * Brings the row up to date with `f`; does nothing when neither the fixture nor the view changed.
   * @param {LiveFixture} f
   * @param {RowView} view
   */
  update (f, view) {
    const now = Date.now()
    const scored = { home: view.scoredUntil.home > now, away: view.scoredUntil.away > now }
    const awaiting = awaitingExtraTime(f, view.mayGoOn === true)
    const signature = `${view.open}|${view.all}|${scored.home}|${scored.away}|${view.cancelled.length}|${awaiting}`
    if (f === this.fixture && signature === this.signature) return
    this.fixture = f
    this.signature = signature
    const el = this.el
    const word = noScoreWord(f)
    const won = winner(f)
    el.dataset.phase = f.state.phase
    el.dataset.league = String(f.league_id)
    el.toggleAttribute('data-no-score', word !== '')
    el.toggleAttribute('data-awaiting', awaiting)
    el.setAttribute('aria-label', awaiting ? `${f.home.name} ${goalsText(f.home.score)}, ${f.away.name} ${goalsText(f.away.score)}, awaiting extra time` : rowLabel(f))
    this.clock.title = awaiting ? 'Awaiting extra time' : f.state.name
    // Not a result yet: a cup tie level at full time goes on.
    setText(this.clockText, awaiting ? 'Await ET' : clockLabel(f))
    const reds = redCards(f)
    const goal = latestGoal(f)
    const goalSide = goal === undefined ? null : creditedSide(goal)
    for (const side of SIDES) {
      const t = this.teams[side]
      setText(t.name, f[side].name)
      t.el.classList.toggle('tl-win', won === side)
      drawReds(t.reds, reds[side])
      this.goals[side].classList.toggle('tl-scored', scored[side])
      setText(this.goals[side], notStarted(f) || word !== '' ? '' : goalsText(f[side].score))
      const line = this.scorers[side]
      if (goal !== undefined && goalSide === side) drawScorer(line, goal)
      else if (line.firstChild !== null) line.replaceChildren()
    }
    this.score.classList.toggle('tl-not-started', notStarted(f) && word === '')
    setText(this.word, word)
    setText(this.note, resultNote(f))
    const events = listed(f, view.cancelled)
    this.toggle.hidden = events.length === 0
    this.toggle.setAttribute('aria-expanded', String(view.open && events.length > 0))
    setText(this.toggleHint, ` (${events.length}): ${f.home.name} v ${f.away.name}`)
    el.dataset.open = String(view.open && events.length > 0)
    if (view.open && events.length > 0) {
      this.drawDetails(f, events, view.all)
      if (this.details.parentNode !== el) el.append(this.details)
    } else if (this.details.parentNode === el) {
      this.details.remove()
    }
  }

  /**
   * The open events: goals, red cards, missed penalties and VAR always; the others capped, with "+N more"
   * (and, once all are shown, "Show fewer"). The list is redrawn; its buttons stay (focus stays on them).
   * @param {LiveFixture} f @param {Array<{ e: LiveEvent, cancelled: boolean }>} shown @param {boolean} all
   */
  drawDetails (f, shown, all) {
    const others = shown.filter(({ e, cancelled }) => !cancelled && !isKeyEvent(e))
    const extra = Math.max(0, others.length - MAX_OTHER_EVENTS)
    const hidden = new Set(all ? [] : others.slice(0, extra).map(({ e }) => e.id))
    this.list.setAttribute('aria-label', `Match events: ${f.home.name} v ${f.away.name}`)
    const first = f.scores?.['1st_half']
    setText(this.halfTime, first === undefined || f.state.code === 'INPLAY_1ST_HALF' ? '' : `Half time ${first.home}-${first.away}`)
    this.matchLink?.setAttribute('aria-label', `Match centre: ${f.home.name} v ${f.away.name}`)
    this.list.replaceChildren(...shown.filter(({ e, cancelled }) => cancelled || !hidden.has(e.id)).map(({ e, cancelled }) => eventItem(e, cancelled)))
    this.more.hidden = extra === 0
    this.more.dataset.action = all ? 'fewer' : 'more'
    setText(this.more, all ? 'Show fewer' : `+${extra} more`)
    this.more.setAttribute('aria-label', all ? `Show fewer events (hide ${extra} cards and substitutions)` : `Show ${extra} more ${extra === 1 ? 'event' : 'events'} (cards, substitutions)`)
  }

  /** Moves the clock only (a clock-only change, or a second passing). */
  tick () {
    const f = this.fixture
    if (f === undefined) return
    const text = clockLabel(f)
    if (this.clockText.textContent === text) return
    this.clockText.textContent = text
    this.el.setAttribute('aria-label', rowLabel(f))
  }
}

/**
 * A placeholder row of the final height, shown while the first scores load (no names, no numbers).
 * @returns {HTMLElement}
 */
export function placeholderRow () {
  const bar = (/** @type {string} */ cls) => h('span', { class: `tl-team ${cls}` }, h('span', { class: 'tl-name' }, h('span', { class: 'tl-bone', text: '\u00a0' })))
  return h('div', { class: 'tl-match tl-placeholder', 'aria-hidden': 'true' },
    h('div', { class: 'tl-row' },
      h('span', { class: 'tl-clock' }, h('span', { class: 'tl-clock-text' }, h('span', { class: 'tl-bone tl-bone-short', text: '\u00a0' }))),
      bar('tl-home'),
      h('span', { class: 'tl-score' }, h('span', { class: 'tl-goals', text: '\u00a0' }), h('span', { class: 'tl-sep', text: '\u00a0' }), h('span', { class: 'tl-goals', text: '\u00a0' })),
      bar('tl-away'),
      h('span', { class: 'tl-toggle tl-toggle-bone' }, h('span', { class: 'tl-toggle-word', text: '\u00a0' }))))
}

/** One red card badge per red card. @param {HTMLElement} el @param {number} n */
function drawReds (el, n) {
  if (el.childElementCount === n) return
  el.replaceChildren(...Array.from({ length: n }, () => h('span', { class: 'tl-red-card' })))
  el.title = n === 0 ? '' : `${n} red ${n === 1 ? 'card' : 'cards'}`
}

/** The latest goal under the side it counts for: icon, minute, scorer. @param {HTMLElement} el @param {LiveEvent} goal */
function drawScorer (el, goal) {
  const text = `${eventMinute(goal)} ${eventText(goal)}`.trim()
  if (el.textContent === text && el.dataset.type === goal.type) return
  el.dataset.type = goal.type
  el.title = 'Latest goal'
  el.replaceChildren(icon(goal.type === 'OWNGOAL' ? 'own-goal' : 'goal'), h('span', { text }))
}

/**
 * Every event a row can list (VAR-cancelled goals kept struck through), in match order.
 * @param {LiveFixture} f @param {LiveEvent[]} cancelled
 * @returns {Array<{ e: LiveEvent, cancelled: boolean }>}
 */
function listed (f, cancelled) {
  const shown = (f.events ?? []).filter((e) => eventKind(e) !== undefined && e.side).map((e) => ({ e, cancelled: false }))
  for (const e of cancelled) if (!f.events.some((x) => x.id === e.id)) shown.push({ e, cancelled: true })
  return shown.sort((a, b) => (a.e.minute ?? 0) - (b.e.minute ?? 0) || (a.e.extra_minute ?? 0) - (b.e.extra_minute ?? 0) || a.e.id - b.e.id)
}

/** One line of the open events: minute, icon, who, and the kind in a word. @param {LiveEvent} e @param {boolean} cancelled */
function eventItem (e, cancelled) {
  const kind = eventKind(e) ?? { icon: 'goal', word: e.type, spoken: e.type, note: '', key: false }
  const decision = e.type === 'VAR' || e.type === 'VAR_CARD' ? varDecision(e) : ''
  /** @type {Array<Node | null>} */
  let who
  if (cancelled) {
    who = [h('s', { text: playerName(e) || kind.spoken }), h('span', { class: 'tl-var', text: 'VAR' })]
  } else if (e.type === 'SUBSTITUTION') {
    const off = e.related_player?.name ?? ''
    who = [h('span', { class: 'tl-who' }, h('span', { class: 'tl-on', text: playerName(e) || 'Substitution' }),
      off ? h('span', { class: 'tl-off' }, icon('off', 'off:'), off) : null)]
  } else {
    who = [h('span', { class: 'tl-who', text: playerName(e) ? eventText(e) : '' })]
  }
  const word = decision ? `${kind.word}: ${decision}` : kind.word
  return h('li', {
    class: `tl-ev tl-${creditedSide(e)}${cancelled ? ' tl-cancelled' : ''}${kind.key ? ' tl-key' : ''}`,
    'data-type': e.type,
    title: `${kind.spoken}${decision ? `: ${decision}` : ''}${cancelled ? ', cancelled by VAR' : ''}`
  },
  h('span', { class: 'tl-min', text: eventMinute(e) }),
  // A substitution's icon has both arrows; the player coming on is named first, the one going off after his own arrow.
  icon(kind.icon, cancelled ? `${kind.spoken} cancelled by VAR` : e.type === 'SUBSTITUTION' ? 'Substitution, on:' : kind.spoken),
  ...who,
  cancelled ? null : h('span', { class: 'tl-kind', text: word }))
}

/**
 * The row's accessible name: the sides with their scores (none before kick-off, none for a match postponed
 * or cancelled), red cards, the winner, and the clock or state.
 * @param {LiveFixture} f
 */
function rowLabel (f) {
  const r = clockReading(f)
  const word = noScoreWord(f)
  const reds = redCards(f)
  const redText = SIDES.filter((s) => reds[s] > 0).map((s) => `${f[s].name} ${reds[s]} red ${reds[s] === 1 ? 'card' : 'cards'}`)
  const when = word !== ''
    ? word
    : f.state.phase === 'live' && r !== null
      ? `minute ${r.minute}${r.extra ? ` plus ${r.extra}` : ''}`
      : f.state.phase === 'scheduled' ? `kick-off ${clockLabel(f)}` : f.state.name
  const won = winner(f)
  const note = resultNote(f)
  const score = notStarted(f) || word !== '' ? `${f.home.name} v ${f.away.name}` : `${f.home.name} ${goalsText(f.home.score)}, ${f.away.name} ${goalsText(f.away.score)}`
  return [score, ...redText, when, note, won === null ? '' : `${f[won].name} won`].filter((x) => x !== '').join(', ')
}
