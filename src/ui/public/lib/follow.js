/**
 * Goal alerts on the scoreboard: a bell on each match row and a settings panel, over lib/push.js.
 *
 * - The row's bell opens a small menu of bells, each a toggle button (`aria-pressed`) named after what it
 *   follows: the match itself, each of its teams (every match of that team) and its league. A match
 *   followed through a team or a league can be muted there. The row's bell is filled while the match would alert.
 * - The settings panel (the header's "Alerts" button): which kinds (goals, red cards, kick-off, half time,
 *   full time), what is followed and muted (each with a button to stop), and one to turn everything off.
 * - Every change is sent at once: this browser's PushSubscription with what it follows, posted to the
 *   gateway (lib/push.js). Following nothing any more deletes it there. What is followed is kept here too
 *   (localStorage, with the names to show), and the gateway's copy wins when the page opens.
 * - Nothing moves: the bell sits in a margin the rows get before their first drawing (only when the
 *   gateway offers alerts), and the menu and the panel float above the page.
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {import('./push.js').AlertChoice} AlertChoice
 * @typedef {'teams' | 'fixtures' | 'leagues'} What
 */
import { h, setText } from './format.js'
import { AlertsError, KINDS } from './push.js'

const STORAGE = 'touchline.alerts'
const BELL_PATH = 'M8 1.6c-2.4 0-4.2 1.9-4.2 4.3v2.6L2.4 11v.9h11.2V11l-1.4-2.5V5.9c0-2.4-1.8-4.3-4.2-4.3zM6.3 13a1.7 1.7 0 003.4 0z'

/** A bell icon (decorative: the button's name says what it does). */
function bellIcon () {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
  svg.setAttribute('viewBox', '0 0 16 16')
  svg.setAttribute('class', 'tl-icon tl-bell-icon')
  svg.setAttribute('aria-hidden', 'true')
  svg.setAttribute('focusable', 'false')
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path')
  path.setAttribute('d', BELL_PATH)
  svg.append(path)
  return svg
}

/** @param {LiveFixture} f */
const matchName = (f) => `${f.home.name} v ${f.away.name}`

export class Follow {
  /**
   * @param {import('./push.js').PushChannel} channel
   * @param {(text: string) => void} announce says a sentence to screen readers
   * @param {(id: number) => string} leagueName
   */
  constructor (channel, announce, leagueName) {
    this.channel = channel
    this.announce = announce
    this.leagueName = leagueName
    /** @type {Record<What, Map<number, string>>} what is followed, with the names to show */
    this.followed = { teams: new Map(), fixtures: new Map(), leagues: new Map() }
    /** @type {Map<number, string>} matches muted */ this.muted = new Map()
    /** @type {Set<string>} */ this.kinds = new Set(KINDS.map(([k]) => k))
    /** @type {Map<number, { bell: HTMLButtonElement, f: LiveFixture, row: object }>} the bell of each row */ this.bells = new Map()
    /** @type {Promise<void>} changes are sent one after another, in order */ this.sending = Promise.resolve()
    this.load()
    this.menu = new BellMenu(this)
    this.panel = new SettingsPanel(this)
  }

  /** Takes what the gateway holds for this browser (it wins over the page's own copy). */
  async sync () {
    const stored = await this.channel.stored().catch(() => undefined)
    if (stored === undefined) {
      // The gateway holds nothing for this browser: nothing is followed, whatever the page remembered.
      if (this.channel.subscription !== undefined) this.replace({ follow: { teams: [], fixtures: [], leagues: [] }, kinds: [...this.kinds], muted: [] })
      return
    }
    this.replace(stored)
  }

  /** @param {AlertChoice} c */
  replace (c) {
    for (const what of /** @type {What[]} */ (['teams', 'fixtures', 'leagues'])) {
      const before = this.followed[what]
      this.followed[what] = new Map((c.follow[what] ?? []).map((id) => [id, before.get(id) ?? `${what === 'teams' ? 'Team' : what === 'leagues' ? 'League' : 'Match'} ${id}`]))
    }
    this.muted = new Map((c.muted ?? []).map((id) => [id, this.muted.get(id) ?? `Match ${id}`]))
    if (Array.isArray(c.kinds) && c.kinds.length > 0) this.kinds = new Set(c.kinds)
    this.store()
    this.drawAll()
  }

  load () {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE) ?? 'null')
      if (saved === null) return
      for (const what of /** @type {What[]} */ (['teams', 'fixtures', 'leagues'])) this.followed[what] = new Map(saved[what] ?? [])
      this.muted = new Map(saved.muted ?? [])
      if (Array.isArray(saved.kinds) && saved.kinds.length > 0) this.kinds = new Set(saved.kinds)
    } catch { /* nothing saved, or unreadable: start empty */ }
  }

  store () {
    const { teams, fixtures, leagues } = this.followed
    try {
      localStorage.setItem(STORAGE, JSON.stringify({ teams: [...teams], fixtures: [...fixtures], leagues: [...leagues], muted: [...this.muted], kinds: [...this.kinds] }))
    } catch { /* storage full or refused: the gateway's copy remains */ }
  }

  /** @returns {AlertChoice} */
  choice () {
    const ids = (/** @type {Map<number, string>} */ m) => [...m.keys()]
    return { follow: { teams: ids(this.followed.teams), fixtures: ids(this.followed.fixtures), leagues: ids(this.followed.leagues) }, kinds: [...this.kinds], muted: ids(this.muted) }
  }

  /** Whether anything is followed. */
  any () {
    return this.followed.teams.size + this.followed.fixtures.size + this.followed.leagues.size > 0
  }

  /** Whether a match would alert: followed (itself, a team, its league) and not muted. @param {LiveFixture} f */
  alerts (f) {
    const through = this.followed.fixtures.has(f.id) || this.followed.teams.has(f.home.id) || this.followed.teams.has(f.away.id) || this.followed.leagues.has(f.league_id)
    return through && !this.muted.has(f.id)
  }

  /**
   * Changes what is followed, draws it at once, and sends it; when the gateway cannot take it, the change
   * is undone and the reason shown (and said).
   * @param {() => void} change
   * @param {string} done what to say once saved
   * @returns {Promise<boolean>} whether it was saved
   */
  async change (change, done) {
    const before = { followed: { ...this.followed }, muted: this.muted, kinds: this.kinds }
    for (const what of /** @type {What[]} */ (['teams', 'fixtures', 'leagues'])) this.followed[what] = new Map(this.followed[what])
    this.muted = new Map(this.muted)
    this.kinds = new Set(this.kinds)
    change()
    this.drawAll()
    const send = this.sending.then(() => this.any() ? this.channel.save(this.choice()) : this.channel.forget())
    this.sending = send.catch(() => {})
    try {
      await send
      this.store()
      this.say(done, false)
      return true
    } catch (err) {
      Object.assign(this, before)
      this.drawAll()
      this.say(err instanceof AlertsError ? err.message : 'Alerts could not be saved.', true)
      return false
    }
  }

  /** @param {string} text @param {boolean} problem */
  say (text, problem) {
    this.menu.status(text, problem)
    this.panel.status(text, problem)
    this.announce(text)
  }

  /**
   * A row was drawn: a new one gets its bell (in the margin `.tl-alerts` on the board gives rows), one whose
   * fixture changed (names, teams) has its bell follow.
   * @param {{ id: number, el: HTMLElement }} row @param {LiveFixture} f
   */
  row (row, f) {
    const b = this.bells.get(row.id)
    if (b !== undefined && b.row === row) {
      if (b.f === f) return
      b.f = f
      return this.drawBell(f.id)
    }
    const bell = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'tl-bell', 'aria-haspopup': 'true', 'aria-expanded': 'false', 'aria-controls': this.menu.el.id }))
    bell.append(bellIcon())
    bell.addEventListener('click', (ev) => {
      ev.stopPropagation() // the row's own click opens its events
      const current = this.bells.get(row.id)
      if (current !== undefined) this.menu.toggle(current.f, bell)
    })
    row.el.querySelector('.tl-row')?.append(bell)
    this.bells.set(row.id, { bell, f, row })
    this.drawBell(row.id)
  }

  /** @param {number} id */
  drawBell (id) {
    const b = this.bells.get(id)
    if (b === undefined) return
    const on = this.alerts(b.f)
    b.bell.dataset.on = String(on)
    const label = `Alerts for ${matchName(b.f)}${on ? ' (on)' : this.muted.has(id) ? ' (muted)' : ''}`
    if (b.bell.getAttribute('aria-label') !== label) b.bell.setAttribute('aria-label', label)
    b.bell.title = label
  }

  drawAll () {
    for (const [id, b] of [...this.bells]) {
      if (b.bell.isConnected) this.drawBell(id)
      else this.bells.delete(id) // its row left the board
    }
    this.menu.draw()
    this.panel.draw()
  }
}

/** The row bell's menu: a bell for the match and one for each team, and "Mute this match". */
class BellMenu {
  /** @param {Follow} follow */
  constructor (follow) {
    this.follow = follow
    /** @type {{ f: LiveFixture, bell: HTMLButtonElement } | undefined} */ this.open = undefined
    this.title = h('p', { class: 'tl-alerts-title' })
    this.list = h('div', { class: 'tl-alerts-list' })
    this.note = h('p', { class: 'tl-alerts-status', role: 'status' })
    this.settings = h('button', { type: 'button', class: 'tl-alerts-link', text: 'Alert settings' })
    this.el = h('div', { class: 'tl-alerts-menu', id: 'tl-alerts-menu', role: 'group', hidden: true }, this.title, this.list, this.note, this.settings)
    this.el.setAttribute('aria-label', 'Alerts')
    this.settings.addEventListener('click', () => { const bell = this.open?.bell; this.close(false); follow.panel.show(bell) })
    this.el.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') this.close(true) })
    // Tabbing out of the menu closes it (as a click elsewhere does).
    this.el.addEventListener('focusout', (ev) => {
      const to = /** @type {Node | null} */ (ev.relatedTarget)
      if (to !== null && !this.el.contains(to) && to !== this.open?.bell) this.close(false)
    })
    document.addEventListener('click', (ev) => {
      const t = /** @type {Node} */ (ev.target)
      if (this.open !== undefined && !this.el.contains(t) && !this.open.bell.contains(t)) this.close(false)
    })
    window.addEventListener('resize', () => this.place())
    window.addEventListener('scroll', () => this.place(), { passive: true })
    // In the page's main landmark (it floats: where it sits in the document moves nothing).
    ;(document.querySelector('main') ?? document.body).append(this.el)
  }

  /** @param {LiveFixture} f @param {HTMLButtonElement} bell */
  toggle (f, bell) {
    if (this.open?.bell === bell) return this.close(true)
    if (this.open !== undefined) this.close(false)
    this.open = { f, bell }
    bell.setAttribute('aria-expanded', 'true')
    setText(this.note, '')
    this.el.hidden = false
    this.draw()
    this.place()
    const first = /** @type {HTMLElement | null} */ (this.list.querySelector('button'))
    first?.focus()
  }

  /** @param {boolean} refocus */
  close (refocus) {
    const open = this.open
    if (open === undefined) return
    this.open = undefined
    this.el.hidden = true
    open.bell.setAttribute('aria-expanded', 'false')
    if (refocus) open.bell.focus({ preventScroll: true })
  }

  /** Floats the menu under (or above) its bell, inside the window. */
  place () {
    if (this.open === undefined) return
    const r = this.open.bell.getBoundingClientRect()
    const width = this.el.offsetWidth
    const height = this.el.offsetHeight
    const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8))
    const below = r.bottom + 4 + height <= window.innerHeight
    this.el.style.left = `${left}px`
    this.el.style.top = `${below ? r.bottom + 4 : Math.max(8, r.top - height - 4)}px`
  }

  draw () {
    const open = this.open
    if (open === undefined) return
    const f = this.follow.bells.get(open.f.id)?.f ?? open.f
    const fl = this.follow
    setText(this.title, matchName(f))
    const league = fl.leagueName(f.league_id)
    const through = fl.followed.teams.has(f.home.id) || fl.followed.teams.has(f.away.id) || fl.followed.leagues.has(f.league_id)
    /** @type {Array<[string, string, boolean, () => Promise<boolean>]>} text, accessible name, pressed, action */
    const items = [
      ['This match', `Alerts for this match: ${matchName(f)}`, fl.followed.fixtures.has(f.id), () => this.flip('fixtures', f.id, matchName(f))],
      [f.home.name, `Alerts for every ${f.home.name} match`, fl.followed.teams.has(f.home.id), () => this.flip('teams', f.home.id, f.home.name)],
      [f.away.name, `Alerts for every ${f.away.name} match`, fl.followed.teams.has(f.away.id), () => this.flip('teams', f.away.id, f.away.name)],
      [league, `Alerts for every ${league} match`, fl.followed.leagues.has(f.league_id), () => this.flip('leagues', f.league_id, league)]
    ]
    if (through) items.push(['Mute this match', `Mute ${matchName(f)}`, fl.muted.has(f.id), () => fl.change(() => { if (!fl.muted.delete(f.id)) fl.muted.set(f.id, matchName(f)) }, fl.muted.has(f.id) ? `${matchName(f)} unmuted.` : `${matchName(f)} muted.`)])
    const buttons = /** @type {HTMLButtonElement[]} */ ([...this.list.querySelectorAll('button')])
    items.forEach(([text, label, pressed, act], i) => {
      let b = buttons[i]
      if (b === undefined) {
        b = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'tl-follow' }, bellIcon(), h('span')))
        this.list.append(b)
      }
      setText(/** @type {HTMLElement} */ (b.lastElementChild), text)
      b.setAttribute('aria-label', label)
      b.setAttribute('aria-pressed', String(pressed))
      b.onclick = () => { act() }
    })
    for (const extra of buttons.slice(items.length)) extra.remove()
  }

  /** @param {What} what @param {number} id @param {string} name */
  flip (what, id, name) {
    const fl = this.follow
    const on = !fl.followed[what].has(id)
    const whose = what === 'fixtures' ? name : `every ${name} match`
    return fl.change(() => { if (on) fl.followed[what].set(id, name); else fl.followed[what].delete(id) }, on ? `Alerts on for ${whose}.` : `Alerts off for ${whose}.`)
  }

  /** @param {string} text @param {boolean} problem */
  status (text, problem) {
    if (this.open === undefined) return
    setText(this.note, text)
    this.note.classList.toggle('tl-problem', problem)
    this.place()
  }
}

/** The settings panel: kinds, what is followed and muted, all off. A modal dialog. */
class SettingsPanel {
  /** @param {Follow} follow */
  constructor (follow) {
    this.follow = follow
    /** @type {HTMLElement | undefined} where focus goes back to */ this.from = undefined
    this.kinds = h('fieldset', { class: 'tl-kinds' }, h('legend', { text: 'Alert me for' }),
      ...KINDS.map(([kind, name]) => h('label', {}, h('input', { type: 'checkbox', name: 'kind', value: kind }), ` ${name}`)))
    this.kinds.addEventListener('change', (ev) => this.pickKind(/** @type {HTMLInputElement} */ (ev.target)))
    this.list = h('ul', { class: 'tl-followed' })
    this.mutedList = h('ul', { class: 'tl-followed' })
    this.off = h('button', { type: 'button', class: 'tl-alerts-off', text: 'Turn off all alerts' })
    this.off.addEventListener('click', () => follow.change(() => {
      for (const m of Object.values(follow.followed)) m.clear()
      follow.muted.clear()
    }, 'All alerts are off.'))
    this.note = h('p', { class: 'tl-alerts-status', role: 'status' })
    const close = h('button', { type: 'button', class: 'tl-alerts-close', 'aria-label': 'Close alert settings', text: '×' })
    close.addEventListener('click', () => this.el.close())
    this.el = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'tl-alerts-panel', 'aria-labelledby': 'tl-alerts-heading' },
      h('div', { class: 'tl-alerts-head' }, h('h2', { id: 'tl-alerts-heading', text: 'Goal alerts' }), close),
      h('p', { class: 'tl-alerts-hint', text: 'Notifications on this device for the teams and matches you follow: use the bell on a match.' }),
      this.kinds, h('h3', { text: 'Following' }), this.list, h('h3', { text: 'Muted matches' }), this.mutedList, this.note, this.off))
    this.el.addEventListener('close', () => this.from?.focus({ preventScroll: true }))
    document.body.append(this.el)
  }

  /** @param {HTMLElement} [from] */
  show (from) {
    this.from = from ?? /** @type {HTMLElement | undefined} */ (document.activeElement ?? undefined)
    setText(this.note, '')
    this.draw()
    this.el.showModal()
  }

  /** @param {HTMLInputElement} box */
  pickKind (box) {
    const fl = this.follow
    const name = KINDS.find(([k]) => k === box.value)?.[1] ?? box.value
    if (!box.checked && fl.kinds.size === 1) { box.checked = true; return this.status('At least one kind of alert: turn alerts off below instead.', true) }
    if (!fl.any()) { if (box.checked) fl.kinds.add(box.value); else fl.kinds.delete(box.value); fl.store(); return }
    fl.change(() => { if (box.checked) fl.kinds.add(box.value); else fl.kinds.delete(box.value) }, `${name} ${box.checked ? 'on' : 'off'}.`)
  }

  draw () {
    const fl = this.follow
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (this.kinds.querySelectorAll('input'))) box.checked = fl.kinds.has(box.value)
    /** @param {string} name @param {string} stop @param {() => void} act */
    const item = (name, stop, act) => {
      const b = h('button', { type: 'button', text: 'Stop', 'aria-label': stop })
      b.addEventListener('click', act)
      return h('li', {}, h('span', { text: name }), b)
    }
    const followed = [
      ...[...fl.followed.teams].map(([id, name]) => item(`${name} (every match)`, `Stop alerts for every ${name} match`, () => fl.change(() => fl.followed.teams.delete(id), `Alerts off for every ${name} match.`))),
      ...[...fl.followed.fixtures].map(([id, name]) => item(name, `Stop alerts for ${name}`, () => fl.change(() => fl.followed.fixtures.delete(id), `Alerts off for ${name}.`))),
      ...[...fl.followed.leagues].map(([id, name]) => item(`${name} (every match)`, `Stop alerts for every ${name} match`, () => fl.change(() => fl.followed.leagues.delete(id), `Alerts off for every ${name} match.`)))
    ]
    this.list.replaceChildren(...(followed.length > 0 ? followed : [h('li', { class: 'tl-none', text: 'Nothing yet.' })]))
    const muted = [...fl.muted].map(([id, name]) => {
      const b = h('button', { type: 'button', text: 'Unmute', 'aria-label': `Unmute ${name}` })
      b.addEventListener('click', () => fl.change(() => fl.muted.delete(id), `${name} unmuted.`))
      return h('li', {}, h('span', { text: name }), b)
    })
    this.mutedList.replaceChildren(...(muted.length > 0 ? muted : [h('li', { class: 'tl-none', text: 'None.' })]))
    this.off.toggleAttribute('disabled', !fl.any() && fl.muted.size === 0)
  }

  /** @param {string} text @param {boolean} problem */
  status (text, problem) {
    if (!this.el.open) return
    setText(this.note, text)
    this.note.classList.toggle('tl-problem', problem)
  }
}
