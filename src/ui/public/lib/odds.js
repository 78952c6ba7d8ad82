/**
 * Live odds on the rows: one bookmaker's full-time result (1X2) prices of each match, beside its score, for
 * the scoreboard (`?odds=<bookmaker id>`) and the widget (`data-odds="<bookmaker id>"`). Off unless asked.
 *
 * - The prices are the upstream's decimal strings as they came (`"2.10"`), never re-rounded.
 * - A price that moved shows an arrow (up: longer odds, down: shorter), against the price the row showed
 *   before, that fades out and is gone after ARROW_MS; without motion (prefers-reduced-motion) it just goes then.
 * - A suspended market (a goal, a penalty, a VAR review) keeps its prices, greyed, with a lock marked
 *   "Suspended"; odds the upstream has not confirmed for a while (`stale`) are greyed too.
 * - A settled market (full time) shows its winner: a tick beside the winning price, the others greyed.
 * - The cells are there, at their size, on every row while odds are on, priced or not: a row never changes
 *   height or width when odds come, go or stop. When odds are off nothing of this is drawn.
 *
 * What the live feed must ask for (LiveFeed's `odds`): only that bookmaker's market 1, so a connection
 * carries three prices a match. A key without the odds feature is refused the odds alone (the client
 * library asks again without them): the scores flow, the cells stay empty, and the console says why.
 *
 * @typedef {import('./client.js').FixtureOdds} FixtureOdds
 * @typedef {import('./client.js').OddsChange} OddsChange
 * @typedef {import('./client.js').OddsMarket} OddsMarket
 * @typedef {{ label: string, el: HTMLElement, who: HTMLElement, value: HTMLElement, note: HTMLElement,
 *   shown: { price: string, decimal: number } | undefined, direction: 'up' | 'down', until: number, drawnUntil: number }} Price
 *   a price's cell: what it showed last, and its arrow (which way, until when)
 */
import { h, setText } from './format.js'

/** The full-time result market (1X2), as the upstream numbers it. */
export const RESULT_MARKET = 1
/** How long a price's arrow shows after it moved. */
export const ARROW_MS = 4000
const LABELS = /** @type {const} */ (['1', 'X', '2'])
const SVG = 'http://www.w3.org/2000/svg'

/**
 * The bookmaker id a page or a widget asks for (`?odds=2`, `data-odds="2"`), or undefined: odds off.
 * @param {string | null | undefined} value
 */
export function bookmakerOf (value) {
  if (value === null || value === undefined || value === '') return undefined
  const id = Number(value)
  if (Number.isSafeInteger(id) && id > 0) return id
  console.warn(`touchline: odds "${value}" is not a bookmaker id; odds are off`)
  return undefined
}

/** The subscribe that takes one bookmaker's result market. @param {number} bookmaker */
export const oddsSubscription = (bookmaker) => ({ bookmakers: [bookmaker], markets: [RESULT_MARKET] })

/** The bookmaker's result market in an image, if it prices one. @param {FixtureOdds | undefined} image @param {number} bookmaker */
export function resultMarket (image, bookmaker) {
  return image?.markets.find((m) => m.bookmaker_id === bookmaker && m.market_id === RESULT_MARKET && m.line === null)
}

/** A lock, drawn in the text's colour (decorative: its element carries the words). */
function lock () {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 16 16')
  svg.setAttribute('class', 'tl-icon tl-lock')
  svg.setAttribute('aria-hidden', 'true')
  const body = document.createElementNS(SVG, 'rect')
  for (const [k, v] of Object.entries({ x: 3, y: 7, width: 10, height: 7.5, rx: 1.5 })) body.setAttribute(k, String(v))
  const shackle = document.createElementNS(SVG, 'path')
  shackle.setAttribute('d', 'M5.5 7V5a2.5 2.5 0 0 1 5 0v2')
  svg.append(body, shackle)
  return svg
}

/** The cells of one row: a mark (the lock), and a price per selection, built once and updated in place. */
class Cells {
  constructor () {
    this.mark = h('span', { class: 'tl-odds-mark' }, lock())
    this.prices = LABELS.map((label) => {
      const who = h('span', { class: 'tl-visually-hidden' })
      const value = h('span', { class: 'tl-odds-value' })
      const note = h('span', { class: 'tl-visually-hidden' })
      const el = h('span', { class: 'tl-price', 'data-label': label }, h('span', { class: 'tl-odds-label', 'aria-hidden': 'true', text: label }), who, value, note)
      /** @type {Price} */
      const price = { label, el, who, value, note, shown: undefined, direction: 'up', until: 0, drawnUntil: 0 }
      return price
    })
    this.el = h('span', { class: 'tl-odds', role: 'group', 'aria-label': 'Odds', 'data-status': 'none' }, this.mark, ...this.prices.map((p) => p.el))
    this.signature = ''
  }
}

export class OddsView {
  /**
   * @param {number} bookmaker the bookmaker whose prices are shown
   * @param {() => Map<number, FixtureOdds>} images the odds held, by fixture id (the client library's `client.odds`)
   * @param {(fixtureId: number) => void} redraw called when a fixture's arrows have faded
   */
  constructor (bookmaker, images, redraw) {
    this.bookmaker = bookmaker
    this.images = images
    this.redraw = redraw
    /** The bookmaker's name, once an image has said it. @type {string | undefined} */
    this.name = undefined
  }

  /** New cells for a row. */
  cells () {
    return new Cells()
  }

  /**
   * Brings a row's cells up to date; does nothing when neither the prices nor the arrows changed. A price
   * that differs from the one the cell showed gets an arrow the way it went (from the decimal values), so an
   * arrow always tells the move a reader saw, however many frames came between two draws.
   * @param {Cells} cells
   * @param {import('./feed.js').LiveFixture} f
   */
  draw (cells, f) {
    const image = this.images().get(f.id)
    const market = resultMarket(image, this.bookmaker)
    if (market !== undefined && market.bookmaker) this.name = market.bookmaker
    // Monotonic: a wall clock that is stepped (NTP) would cut an arrow short or keep it.
    const now = performance.now()
    for (const p of cells.prices) {
      const s = market?.selections.find((x) => x.label === p.label)
      if (s !== undefined && p.shown !== undefined && s.price !== p.shown.price) {
        p.direction = s.decimal > p.shown.decimal ? 'up' : 'down'
        p.until = now + ARROW_MS
        setTimeout(() => this.redraw(f.id), ARROW_MS + 20)
      }
      p.shown = s === undefined ? undefined : { price: s.price, decimal: s.decimal }
    }
    const arrows = cells.prices.map((p) => p.until > now ? `${p.direction}@${p.until}` : '')
    const signature = JSON.stringify([this.name, market?.status, image?.stale, market?.selections.map((s) => [s.label, s.price, s.winning, s.name]), arrows, f.home.name, f.away.name])
    if (signature === cells.signature) return
    cells.signature = signature
    const status = market === undefined ? 'none' : market.status
    cells.el.dataset.status = status
    cells.el.toggleAttribute('data-stale', image?.stale === true && status === 'open')
    cells.el.setAttribute('aria-label', `Odds${this.name ? `, ${this.name}` : ''}${status === 'suspended' ? ', suspended' : status === 'stopped' ? ', settled' : ''}`)
    if (status === 'suspended') cells.mark.setAttribute('aria-label', 'Suspended')
    else cells.mark.removeAttribute('aria-label')
    cells.mark.setAttribute('role', status === 'suspended' ? 'img' : 'none')
    cells.mark.title = status === 'suspended' ? 'Suspended: no bets for now' : ''
    for (const p of cells.prices) drawPrice(p, market, f, now)
  }
}

/**
 * One price: the selection's label, its price as the upstream wrote it, its arrow while it shows, and words
 * for screen readers (who, and which way it moved or that it won).
 * @param {Price} p
 * @param {OddsMarket | undefined} market
 * @param {import('./feed.js').LiveFixture} f
 * @param {number} now
 */
function drawPrice (p, market, f, now) {
  const s = market?.selections.find((x) => x.label === p.label)
  setText(p.value, s?.price ?? '')
  setText(p.who, s === undefined ? '' : `${p.label === '1' ? f.home.name : p.label === '2' ? f.away.name : 'Draw'} `)
  const arrow = s !== undefined && p.until > now ? p.direction : ''
  if (arrow === '') {
    delete p.el.dataset.move
  } else if (p.drawnUntil !== p.until) {
    // A new move (the same way again, too) restarts the fade: the other of two identical animations (no
    // forced layout, which a board of moving prices would pay once per price).
    p.el.dataset.move = arrow
    p.el.dataset.beat = p.el.dataset.beat === '1' ? '0' : '1'
  }
  p.drawnUntil = arrow === '' ? 0 : p.until
  p.el.toggleAttribute('data-won', s?.winning === true)
  setText(p.note, s?.winning === true ? ', won' : arrow === '' ? '' : `, ${arrow}`)
}
