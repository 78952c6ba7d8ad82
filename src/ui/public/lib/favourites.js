/**
 * Favourites: the matches, teams and leagues a fan stars on the scoreboard and the match page, kept in this
 * browser (localStorage), with no permission asked and nothing sent anywhere. A starred league is pinned to
 * the top of the board, in the order starred; the "My matches" tab lists every match that is starred, or
 * plays a starred team, or is of a starred league. Goal alerts (lib/follow.js) stay a step on top of this.
 *
 * The leagues a fan folded away on the board are kept here too, so they stay folded across a reload.
 * Another tab of the same page that changes them is heard (the `storage` event), so two tabs agree.
 *
 * @typedef {'matches' | 'teams' | 'leagues'} Kind
 * @typedef {{ matches: number[], teams: number[], leagues: number[], folded: number[] }} Saved
 * @typedef {Pick<Storage, 'getItem' | 'setItem'>} Store
 */

/** The localStorage key. */
export const STORAGE_KEY = 'touchline.favourites'

/** Ids kept per kind at most (an old one goes first): a bound on what a page keeps for ever. */
const MAX_PER_KIND = 500

/** @returns {Saved} */
const empty = () => ({ matches: [], teams: [], leagues: [], folded: [] })

/**
 * What was saved, read leniently: anything unreadable (another version's shape, a hand edit) counts as none.
 * @param {string | null} text
 * @returns {Saved}
 */
export function parseSaved (text) {
  const out = empty()
  if (text === null) return out
  let value
  try { value = JSON.parse(text) } catch { return out }
  if (typeof value !== 'object' || value === null) return out
  for (const kind of /** @type {const} */ (['matches', 'teams', 'leagues', 'folded'])) {
    const list = value[kind]
    if (Array.isArray(list)) out[kind] = [...new Set(list.filter((id) => Number.isSafeInteger(id) && id > 0))].slice(-MAX_PER_KIND)
  }
  return out
}

/** This browser's localStorage, or a store in memory where there is none (a private window that refuses it). @returns {Store} */
function browserStore () {
  try {
    const s = window.localStorage
    s.getItem(STORAGE_KEY)
    return s
  } catch {
    /** @type {Map<string, string>} */
    const m = new Map()
    return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => { m.set(k, v) } }
  }
}

export class Favourites {
  /** @param {Store} [store] @default this browser's localStorage */
  constructor (store = browserStore()) {
    this.store = store
    this.saved = parseSaved(store.getItem(STORAGE_KEY))
    /** @type {Set<() => void>} */
    this.listeners = new Set()
  }

  /** Whether an id of a kind is starred. @param {Kind} kind @param {number} id */
  has (kind, id) {
    return this.saved[kind].includes(id)
  }

  /** Stars or unstars; returns whether it is starred now. @param {Kind} kind @param {number} id */
  toggle (kind, id) {
    const list = this.saved[kind]
    const on = !list.includes(id)
    this.saved[kind] = on ? [...list, id].slice(-MAX_PER_KIND) : list.filter((x) => x !== id)
    this.save()
    return on
  }

  /**
   * Whether a match is one of the fan's: starred, of a starred team, or of a starred league.
   * @param {{ id: number, league_id: number, home: { id: number }, away: { id: number } }} f
   */
  mine (f) {
    return this.has('matches', f.id) || this.has('teams', f.home.id) || this.has('teams', f.away.id) || this.has('leagues', f.league_id)
  }

  /** The starred leagues, in the order starred: pinned to the top of the board. */
  get pinned () {
    return this.saved.leagues
  }

  /** Whether a league's matches are folded away on the board. @param {number} id */
  folded (id) {
    return this.saved.folded.includes(id)
  }

  /** Folds a league away or opens it; returns whether it is folded now. @param {number} id */
  toggleFolded (id) {
    const on = !this.folded(id)
    this.saved.folded = on ? [...this.saved.folded, id].slice(-MAX_PER_KIND) : this.saved.folded.filter((x) => x !== id)
    this.save()
    return on
  }

  /** Calls `fn` after every change, made here or in another tab. @param {() => void} fn */
  onChange (fn) {
    this.listeners.add(fn)
  }

  /** Takes another tab's change (the window's `storage` event). @param {{ key: string | null, newValue: string | null }} ev */
  heard (ev) {
    if (ev.key !== STORAGE_KEY) return
    this.saved = parseSaved(ev.newValue)
    for (const fn of this.listeners) fn()
  }

  save () {
    try {
      this.store.setItem(STORAGE_KEY, JSON.stringify(this.saved))
    } catch {
      // Full or refused: kept for this page's life.
    }
    for (const fn of this.listeners) fn()
  }
}

/**
 * The order of leagues with the fan's pinned ones first, in the order pinned, then `order`'s.
 * @param {(a: number, b: number) => number} order
 * @param {() => number[]} pinned
 * @returns {(a: number, b: number) => number}
 */
export function pinnedFirst (order, pinned) {
  return (a, b) => {
    const list = pinned()
    const pa = list.indexOf(a)
    const pb = list.indexOf(b)
    if (pa !== pb) return pa === -1 ? 1 : pb === -1 ? -1 : pa - pb
    return order(a, b)
  }
}
