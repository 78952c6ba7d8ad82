/**
 * Helpers of the scoreboard's browser tests: the four views (390×844 and 1366×768, light and dark), a page
 * opened with a layout-shift meter running from its first byte, the rows fully in the first screen, and
 * WCAG contrast read from computed colours.
 */
import type { Browser, Locator, Page } from 'playwright-core'
import { watchErrors, whenLive } from './harness.ts'

export interface View { width: number, height: number, dark: boolean }

export const VIEWS: View[] = [
  { width: 390, height: 844, dark: false },
  { width: 390, height: 844, dark: true },
  { width: 1366, height: 768, dark: false },
  { width: 1366, height: 768, dark: true }
]

export const viewName = (v: View): string => `${v.width}-${v.dark ? 'dark' : 'light'}`

/**
 * Sums every `layout-shift` entry not caused by input into `window.__cls`, from the page's first byte
 * (buffered), and keeps the entries in `window.__shifts`.
 */
export const CLS_METER = `
  window.__cls = 0
  window.__shifts = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue
      window.__cls += e.value
      window.__shifts.push({ at: Math.round(e.startTime), value: e.value, nodes: (e.sources || []).map((s) => s.node && s.node.nodeName + (s.node.className ? '.' + String(s.node.className).split(' ')[0] : '')) })
    }
  }).observe({ type: 'layout-shift', buffered: true })
`

/**
 * Counts how rows move by transform, from `window.__moveMeter.start()` on. A row's place is the sum of the
 * `translateY` of its own element and of its league section (lib/stack.js places both); it is read after a
 * frame's rendering when anything on the board changed, so a row whose place changed between two reads
 * moved once (in one frame, one paint).
 * What may move rows is a match starting or ending: a row that appears on the board or leaves it, or a row
 * whose phase passes from kick-off to in play or from in play to result (either way). A read in which rows
 * moved with no such change since the last read is kept in `unexplained`, with the rows that moved.
 */
export const MOVE_METER = `
(() => {
  const GROUP = { scheduled: 'kick-off', postponed: 'kick-off', live: 'in play', break: 'in play', suspended: 'in play', unknown: 'in play', finished: 'result', cancelled: 'result' }
  const m = window.__moveMeter = { on: false, reads: 0, moves: 0, events: 0, perRow: {}, unexplained: [], start: () => { m.on = true; last = places(); sizes = measure() } }
  let last = new Map()
  let phases = []
  let due = false
  const place = (row) => {
    let y = 0
    for (let el = row; el !== null && el.id !== 'board'; el = el.parentElement) {
      const t = /translateY\\((-?[0-9.]+)px\\)/.exec(el.style.transform)
      if (t !== null) y += Number(t[1])
    }
    return y
  }
  const places = () => new Map([...document.querySelectorAll('#board article.tl-match')].map((r) => [r.getAttribute('data-fixture'), place(r)]))
  // What the board's sections and rows measured at the last read: the diagnosis of a move not explained.
  let sizes = new Map()
  const measure = () => new Map([...document.querySelectorAll('#board .tl-stack > *')].map((e) => [(e.getAttribute('data-fixture') || 'league ' + e.getAttribute('data-league')), e.offsetHeight]))
  const read = () => {
    due = false
    if (!m.on) return
    const now = places()
    const came = [...now.keys()].filter((id) => !last.has(id))
    const left = [...last.keys()].filter((id) => !now.has(id))
    const events = came.length + left.length + phases.length
    const moved = [...now].filter(([id, y]) => last.has(id) && Math.abs(last.get(id) - y) > 0.5).map(([id]) => id)
    m.reads++
    m.events += events
    m.moves += moved.length
    for (const id of moved) m.perRow[id] = (m.perRow[id] || 0) + 1
    const measured = measure()
    if (moved.length > 0 && events === 0) {
      const grew = [...measured].filter(([k, h]) => sizes.has(k) && sizes.get(k) !== h).map(([k, h]) => k + ' ' + sizes.get(k) + '->' + h)
      m.unexplained.push({ at: Math.round(performance.now()), moved: moved.map((id) => id + ' ' + last.get(id) + '->' + now.get(id)), grew })
    }
    sizes = measured
    last = now
    phases = []
  }
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type !== 'attributes' || r.attributeName !== 'data-phase' || r.oldValue === null) continue
      const to = r.target.getAttribute('data-phase')
      if (GROUP[r.oldValue] !== GROUP[to]) phases.push(r.target.getAttribute('data-fixture') + ' ' + r.oldValue + '->' + to)
    }
    // Read after the frame's rendering: its layout, and the stacks' own layout after it (a ResizeObserver's,
    // lib/stack.js) that places the sections below one that grew, all in the same frame before its paint.
    if (!due) { due = true; requestAnimationFrame(() => setTimeout(read, 0)) }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'data-phase'], attributeOldValue: true })
})()
`

export interface Moves { reads: number, moves: number, events: number, perRow: Record<string, number>, unexplained: Array<{ at: number, moved: string[], grew: string[] }> }

/** What the move meter (MOVE_METER) counted since it was started. */
export async function moves (page: Page): Promise<Moves> {
  return await page.evaluate(() => {
    const { reads, moves, events, perRow, unexplained } = (globalThis as unknown as { __moveMeter: Moves }).__moveMeter
    return { reads, moves, events, perRow, unexplained }
  })
}

/**
 * Starts the move meter once the board's fonts are in and a frame has been rendered. The meter reads where
 * rows are placed (their transforms' targets), not where a slide has brought them, so it need not wait for
 * slides to end: on a busy day at 60x a row is sliding somewhere almost all the time.
 */
export async function startMoveMeter (page: Page): Promise<void> {
  await page.evaluate(async () => {
    const g = globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } }, requestAnimationFrame: (f: () => void) => void, __moveMeter: { start: () => void } }
    await g.document.fonts.ready
    await new Promise<void>((resolve) => { g.requestAnimationFrame(() => { g.requestAnimationFrame(resolve) }) })
    g.__moveMeter.start()
  })
}

/**
 * Opens a page of the gateway in a view (a phone is a touch screen), with the layout-shift meter and an
 * `en-US` locale (whose own clock is 12-hour: the page must still write 24-hour times).
 */
export async function openView (browser: Browser, url: string, view: View, opts: { wait?: 'live' | 'none' } = {}): Promise<{ page: Page, errors: string[] }> {
  const page = await browser.newPage({
    viewport: { width: view.width, height: view.height },
    colorScheme: view.dark ? 'dark' : 'light',
    hasTouch: view.width < 500,
    locale: 'en-US'
  })
  const errors = watchErrors(page)
  await page.addInitScript(CLS_METER)
  await page.goto(url)
  if (opts.wait !== 'none') {
    await whenLive(page)
    await page.locator('#board article.tl-match').first().waitFor()
  }
  return { page, errors }
}

/** The layout shift summed so far. */
export async function cls (page: Page): Promise<number> {
  return await page.evaluate('window.__cls') as number
}

/** Match rows wholly inside the first screen (the page not scrolled). */
export async function rowsAboveFold (page: Page): Promise<number> {
  await settled(page)
  return await page.evaluate(`[...document.querySelectorAll('#board article.tl-match')]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight }).length`) as number
}

/** Waits until no row or league is sliding to its place (the transitions of lib/stack.js have ended). */
export async function settled (page: Page): Promise<void> {
  // A function, not a string: the pages' CSP forbids evaluating strings.
  await page.waitForFunction(() => (globalThis as unknown as { document: { getAnimations: () => Array<{ constructor: { name: string }, playState: string }> } })
    .document.getAnimations().every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running'), undefined, { timeout: 15_000 })
}

export interface Box { x: number, y: number, width: number, height: number }

/** The boxes of several elements read at one instant (first match of each selector), once nothing slides. */
export async function boxes (page: Page, selectors: string[]): Promise<Box[]> {
  await settled(page)
  return await page.evaluate(`${JSON.stringify(selectors)}.map((s) => {
    const el = document.querySelector(s)
    if (el === null) throw new Error('no element for ' + s)
    const r = el.getBoundingClientRect()
    return { x: r.x, y: r.y, width: r.width, height: r.height }
  })`)
}

/** The row of a fixture on the board. */
export const row = (page: Page, id: number): Locator => page.locator(`#board article[data-fixture="${id}"]`)

/** `rgb(1, 2, 3)` or `rgba(...)`, as computed styles give colours. */
export function parseRgb (css: string): [number, number, number] {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css)
  if (m === null) throw new Error(`not a colour: ${css}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** WCAG 2 contrast ratio of two colours. */
export function contrast (a: [number, number, number], b: [number, number, number]): number {
  const lum = ([r, g, bl]: [number, number, number]): number => {
    const c = [r, g, bl].map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4 })
    return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0)
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}
