/**
 * Live odds on the rows (docs/ui.md, "Odds"), against a gateway polling the embedded provider's simulated
 * matches (30x, so a suspension lasts about 3 s) with its odds poller: at 390 and 1366, `/?odds=2` shows
 * bet365's full-time result prices on each live row, equal to the odds the gateway holds; each price that
 * moves gets an arrow the way it moved; a market suspended by a goal (a penalty, a VAR review) is greyed and
 * marked with a lock, then reopens; the cells never set a row's height, the page does not jump, and axe
 * finds nothing. The widget takes odds only with `data-odds`; a key without the odds feature keeps its
 * scores, with the odds cells empty and a console message.
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FixtureOdds, OddsChange } from '../../../src/wire-model/model.ts'
import { cls, CLS_METER, openView, VIEWS, viewName } from './board-page.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

const [PHONE, , DESK] = VIEWS as [typeof VIEWS[number], typeof VIEWS[number], typeof VIEWS[number]]
const BET365 = 2

/** A price as the page showed it change: from, to, and the arrow it had then. */
interface Move { fixture: string, label: string, from: string, to: string, move: string }
/** A market's status as the page showed it, with the time (ms since the page opened). */
interface Status { fixture: string, status: string, at: number }

/**
 * Records, from the page's first byte, every price change the rows show (with the arrow drawn with it) and
 * every change of a row's odds status, as they happen (a suspension lasts seconds: polling could miss it).
 */
const ODDS_LOG = `
  window.__moves = []
  window.__statuses = []
  window.__faded = []
  const seen = new WeakMap()
  const arrowSince = new WeakMap()
  new MutationObserver((records) => {
    const cells = new Set()
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement
      const odds = el && el.closest ? el.closest('.tl-odds') : null
      if (odds) cells.add(odds)
    }
    for (const odds of cells) {
      const fixture = odds.closest('article').dataset.fixture
      if (seen.get(odds) !== odds.dataset.status) {
        seen.set(odds, odds.dataset.status)
        window.__statuses.push({ fixture, status: odds.dataset.status, at: Math.round(performance.now()) })
      }
      for (const cell of odds.querySelectorAll('.tl-price')) {
        const value = cell.querySelector('.tl-odds-value').textContent
        const before = seen.get(cell)
        if (value === before) continue
        seen.set(cell, value)
        if (before) window.__moves.push({ fixture, label: cell.dataset.label, from: before, to: value, move: cell.dataset.move || '' })
      }
      for (const cell of odds.querySelectorAll('.tl-price')) {
        // How long each arrow showed, when it went by itself (the price did not move again meanwhile).
        const since = arrowSince.get(cell)
        if (cell.dataset.move && (!since || since.value !== cell.querySelector('.tl-odds-value').textContent || since.move !== cell.dataset.move)) {
          arrowSince.set(cell, { at: performance.now(), value: cell.querySelector('.tl-odds-value').textContent, move: cell.dataset.move })
        } else if (!cell.dataset.move && since) {
          arrowSince.delete(cell)
          if (since.value === cell.querySelector('.tl-odds-value').textContent) window.__faded.push(Math.round(performance.now() - since.at))
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-move', 'data-status'] })
`

/** The prices a page shows for a fixture (1, X, 2), and its odds status. */
async function shown (page: Page, fixture: number): Promise<{ prices: string[], status: string | null }> {
  const cells = page.locator(`article[data-fixture="${fixture}"] .tl-odds`)
  return { prices: await cells.locator('.tl-odds-value').allTextContents(), status: await cells.getAttribute('data-status') }
}

/** bet365's result market of a fixture as the gateway holds it now. */
async function held (gw: UiGateway, fixture: number): Promise<{ prices: string[], status: string | null }> {
  const [image] = await gw.gw.store.getOdds([fixture]) as Array<FixtureOdds | undefined>
  const market = image?.markets.find((m) => m.bookmaker_id === BET365 && m.market_id === 1 && m.line === null)
  return { prices: ['1', 'X', '2'].map((l) => market?.selections.find((s) => s.label === l)?.price ?? ''), status: market?.status ?? null }
}

/**
 * Whether no row's height depends on its odds cells: each row measured with its cells, then without them
 * (display: none), in one go.
 */
async function oddsSetNoHeight (page: Page): Promise<string[]> {
  return await page.evaluate(`(() => {
    const out = []
    for (const row of document.querySelectorAll('article.tl-match')) {
      const odds = row.querySelector('.tl-odds')
      if (!odds) { out.push(row.dataset.fixture + ': no odds cells'); continue }
      const withOdds = row.getBoundingClientRect().height
      odds.style.display = 'none'
      const without = row.getBoundingClientRect().height
      odds.style.removeProperty('display')
      if (Math.abs(withOdds - without) > 0.5) out.push(row.dataset.fixture + ': ' + withOdds + ' with odds, ' + without + ' without')
    }
    return out
  })()`) as string[]
}

describe.skipIf(!HAVE_CHROMIUM)('live odds on the rows', () => {
  let browser: Browser
  let gw: UiGateway
  beforeAll(async () => {
    gw = await startUiGateway([
      { key: 'demo', name: 'demo' },
      { key: 'no-odds-key', name: 'no-odds', features: [] }
    ], { poll: true, env: { TOUCHLINE_SIM_SPEED: '30' } })
    browser = await launchBrowser()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  it('at 390 and 1366: the gateway\'s prices, arrows the way they moved, greyed and locked while suspended, then open again', async () => {
    const pages = await Promise.all([PHONE, DESK].map(async (view) => {
      const page = await browser.newPage({ viewport: { width: view.width, height: view.height }, hasTouch: view.width < 500, locale: 'en-US' })
      const errors = watchErrors(page)
      await page.addInitScript(CLS_METER)
      await page.addInitScript(ODDS_LOG)
      await page.goto(`${gw.url}/?odds=${BET365}`)
      return { page, errors, view }
    }))
    for (const { page } of pages) {
      // Prices on the live rows, and the legend names the bookmaker.
      await page.locator('.tl-odds[data-status="open"] .tl-odds-value:not(:empty)').first().waitFor({ timeout: 30_000 })
      await expect.poll(async () => await page.locator('#odds-legend').innerText(), { timeout: 20_000 }).toBe('1X2 odds: bet365')
    }

    // The prices the rows show are the gateway's, as the upstream wrote them (two decimals, never re-rounded).
    for (const { page } of pages) {
      const fixture = Number(await page.locator('article:has(.tl-odds[data-status="open"] .tl-odds-value:not(:empty))').first().getAttribute('data-fixture'))
      await expect.poll(async () => JSON.stringify(await shown(page, fixture)) === JSON.stringify(await held(gw, fixture)), { timeout: 10_000, interval: 100 }).toBe(true)
      expect((await shown(page, fixture)).prices.every((p) => /^\d+\.\d\d$/.test(p))).toBe(true)
    }

    // Prices move, each with an arrow the way it went (up: longer odds); the arrow fades and goes.
    for (const { page } of pages) {
      await expect.poll(async () => (await page.evaluate('window.__moves') as Move[]).filter((m) => m.move !== '').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
      const moves = await page.evaluate('window.__moves') as Move[]
      const arrowed = moves.filter((m) => m.move !== '')
      for (const m of arrowed) expect(`${m.fixture} ${m.label} ${m.from} -> ${m.to}: ${m.move}`).toBe(`${m.fixture} ${m.label} ${m.from} -> ${m.to}: ${Number(m.to) > Number(m.from) ? 'up' : 'down'}`)
      const arrow = page.locator('.tl-price[data-move]').first()
      await arrow.waitFor()
      expect(await arrow.locator('.tl-visually-hidden').last().textContent()).toMatch(/^, (up|down)$/)
      expect(await oddsSetNoHeight(page)).toEqual([])
    }
    for (const { page, view } of pages) await shot(page, `odds-${viewName(view)}`, { docs: true })
    // An arrow fades (CSS) and goes after 4 s when its price stays put (at half time, say); with reduced motion it does not fade.
    const desk = pages[1]?.page as Page
    const fading = await desk.evaluate('(() => { const s = getComputedStyle(document.querySelector(".tl-odds:not([data-status=suspended]) .tl-price[data-move]"), "::before"); return s.animationName + " " + s.animationDuration })()')
    expect(fading).toMatch(/^tl-arrow(-again)? 4s$/)
    await expect.poll(async () => await desk.evaluate('window.__faded') as number[], { timeout: 60_000, interval: 500 }).not.toEqual([])
    // Measured from the mutation callbacks, which run after the task that drew: a long task (a busy machine)
    // shortens or lengthens one reading by its length, hence the margin on each and the median.
    const faded = (await desk.evaluate('window.__faded') as number[]).sort((a, b) => a - b)
    for (const ms of faded) expect(ms).toBeGreaterThanOrEqual(3000)
    expect(faded[Math.floor(faded.length / 2)]).toBeGreaterThanOrEqual(3500)
    await desk.emulateMedia({ reducedMotion: 'reduce' })
    await desk.locator('.tl-odds:not([data-status=suspended]) .tl-price[data-move]').first().waitFor()
    expect(await desk.evaluate('(() => getComputedStyle(document.querySelector(".tl-odds:not([data-status=suspended]) .tl-price[data-move]"), "::before").animationName)()')).toBe('none')
    await desk.emulateMedia({ reducedMotion: 'no-preference' })

    // A goal (or a penalty, a VAR review) suspends every market of its match: greyed, locked, the same height; then open again.
    for (const { page, view } of pages) {
      const at = await page.evaluate(`new Promise((resolve) => {
        const look = () => {
          const odds = document.querySelector('.tl-odds[data-status="suspended"]')
          if (!odds) return false
          const row = odds.closest('article')
          const open = document.querySelector('.tl-odds[data-status="open"] .tl-odds-value')
          const mark = odds.querySelector('.tl-odds-mark')
          resolve({
            fixture: Number(row.dataset.fixture),
            suspendedColour: getComputedStyle(odds.querySelector('.tl-odds-value')).color,
            openColour: open ? getComputedStyle(open).color : null,
            muted: getComputedStyle(odds.querySelector('.tl-odds-label')).color,
            mark: { visible: getComputedStyle(mark).visibility, role: mark.getAttribute('role'), label: mark.getAttribute('aria-label') },
            group: odds.getAttribute('aria-label'),
            prices: [...odds.querySelectorAll('.tl-odds-value')].map((v) => v.textContent)
          })
          return true
        }
        if (!look()) new MutationObserver((_, obs) => { if (look()) obs.disconnect() }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status'] })
      })`) as { fixture: number, suspendedColour: string, openColour: string | null, muted: string, mark: Record<string, string>, group: string, prices: string[] }
      expect(at.mark).toEqual({ visible: 'visible', role: 'img', label: 'Suspended' })
      expect(at.group).toBe('Odds, bet365, suspended')
      expect(at.suspendedColour).toBe(at.muted)
      if (at.openColour !== null) expect(at.openColour).not.toBe(at.suspendedColour)
      expect(at.prices.every((p) => p !== '')).toBe(true)
      expect(await oddsSetNoHeight(page)).toEqual([])
      if (view.width > 500) await shot(page, 'odds-suspended-1366-light', { docs: true })
      // The gateway held that market suspended, and it reopens, as the page then shows.
      const statuses = async (): Promise<string[]> => (await page.evaluate('window.__statuses') as Status[]).filter((s) => s.fixture === String(at.fixture)).map((s) => s.status)
      await expect.poll(async () => (await statuses()).slice((await statuses()).lastIndexOf('suspended')), { timeout: 30_000, interval: 200 }).toContain('open')
      expect((await statuses())).toContain('suspended')
      await expect.poll(async () => JSON.stringify(await shown(page, at.fixture)) === JSON.stringify(await held(gw, at.fixture)), { timeout: 10_000, interval: 100 }).toBe(true)
    }

    for (const { page, errors } of pages) {
      expect(await axeViolations(page)).toEqual([])
      expect(await cls(page)).toBeLessThan(0.05)
      expect(errors).toEqual([])
      await page.close()
    }
  }, 180_000)
})

describe.skipIf(!HAVE_CHROMIUM)('odds in the widget, and a key without odds', () => {
  let browser: Browser
  let gw: UiGateway
  let host: Server
  let hostUrl = ''
  let league = 0
  beforeAll(async () => {
    gw = await startUiGateway([
      { key: 'demo', name: 'demo' },
      { key: 'no-odds-key', name: 'no-odds', features: [] }
    ], { poll: true, env: { TOUCHLINE_SIM_SPEED: '30' } })
    host = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://host')
      const odds = url.searchParams.get('odds')
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body style="max-width: 650px">
<main><h1>Scores</h1><div data-touchline-widget></div>
<script src="${gw.url}/widget.js" data-league="${url.searchParams.get('league') ?? ''}" data-key="${url.searchParams.get('key') ?? 'demo'}"${odds === null ? '' : ` data-odds="${odds}"`} async></script></main></body></html>`)
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    hostUrl = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`
    browser = await launchBrowser()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await new Promise((resolve) => host?.close(resolve))
  })

  /** A league with a match in play whose odds the gateway holds (bet365's result market open). */
  async function leagueWithOdds (): Promise<number> {
    let found = 0
    await expect.poll(async () => {
      const res = await fetch(`${gw.url}/v1/fixtures/live?api_token=demo&leagues=*&odds=true`)
      const body = await res.json() as { data: Array<{ id: number, league_id: number, state: { phase: string } }>, odds: FixtureOdds[] }
      const priced = body.odds.find((o) => o.markets.some((m) => m.bookmaker_id === BET365 && m.market_id === 1 && m.status === 'open'))
      found = body.data.find((f) => f.id === priced?.fixture_id && f.state.phase === 'live')?.league_id ?? 0
      return found
    }, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0)
    return found
  }

  /** Opens the host page; returns the page, the subscribe frames its widget sent and the frame types it received. */
  async function openHost (query: string): Promise<{ page: Page, sent: Array<Record<string, unknown>>, received: string[], console: string[], errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 700, height: 900 } })
    const errors = watchErrors(page)
    const sent: Array<Record<string, unknown>> = []
    const received: string[] = []
    const messages: string[] = []
    page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`))
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => { const frame = JSON.parse(String(f.payload)); if (frame.op === 'subscribe') sent.push(frame) })
      ws.on('framereceived', (f) => { received.push(String(JSON.parse(String(f.payload)).type)) })
    })
    await page.goto(`${hostUrl}/?${query}`)
    return { page, sent, received, console: messages, errors }
  }

  it('data-odds: the bookmaker\'s prices on the live rows, named in the header; without it no odds are asked for', async () => {
    league = await leagueWithOdds()
    const withOdds = await openHost(`league=${league}&odds=${BET365}`)
    const priced = withOdds.page.locator('[data-touchline-widget] .tl-odds[data-status="open"] .tl-odds-value:not(:empty)').first()
    await priced.waitFor({ timeout: 60_000 })
    expect(withOdds.sent[0]).toMatchObject({ leagues: [league], bookmakers: [BET365], markets: [1], odds: true })
    const fixture = Number(await withOdds.page.locator('[data-touchline-widget] article:has(.tl-odds[data-status="open"] .tl-odds-value:not(:empty))').first().getAttribute('data-fixture'))
    await expect.poll(async () => JSON.stringify(await shown(withOdds.page, fixture)) === JSON.stringify(await held(gw, fixture)), { timeout: 10_000, interval: 100 }).toBe(true)
    await expect.poll(async () => await withOdds.page.locator('[data-touchline-widget] .tlw-odds').innerText(), { timeout: 20_000 }).toBe('1 X 2 · bet365')
    // An odds frame comes when a price moves: a minute is a ceiling, on a machine as slow as CI's (20 s was not).
    await expect.poll(() => withOdds.received, { timeout: 60_000 }).toContain('odds')
    expect(await axeViolations(withOdds.page)).toEqual([])
    await shot(withOdds.page, 'widget-odds', { docs: true })
    expect(withOdds.errors).toEqual([])

    const without = await openHost(`league=${league}`)
    await without.page.locator(`[data-touchline-widget] article[data-fixture="${fixture}"]`).waitFor({ timeout: 20_000 })
    await without.page.waitForTimeout(2000)
    expect(without.sent.length).toBeGreaterThan(0)
    for (const frame of without.sent) {
      expect(frame).not.toHaveProperty('odds')
      expect(frame).not.toHaveProperty('bookmakers')
      expect(frame).not.toHaveProperty('markets')
    }
    expect(without.received).not.toContain('odds')
    expect(await without.page.locator('[data-touchline-widget] .tl-odds').count()).toBe(0)
    expect(await without.page.locator('[data-touchline-widget] .tlw-odds').count()).toBe(0)
    await withOdds.page.close()
    await without.page.close()
  }, 180_000)

  it('a key without the odds feature: the scores flow, the odds cells stay empty, one console message, the page and the widget do not break', async () => {
    if (league === 0) league = await leagueWithOdds()
    const { page, errors } = await openView(browser, `${gw.url}/?key=no-odds-key&odds=${BET365}`, PHONE, { wait: 'none' })
    await whenLive(page)
    await page.locator('#board article.tl-match[data-phase="live"]').first().waitFor()
    await page.waitForTimeout(2000)
    expect(await page.locator('#refusal').isHidden()).toBe(true)
    expect(await page.locator('#board article .tl-odds').count()).toBe(await page.locator('#board article').count())
    expect(await page.locator('#board .tl-odds[data-status="none"]').count()).toBe(await page.locator('#board article').count())
    expect((await page.locator('#board .tl-odds-value').allTextContents()).join('')).toBe('')
    expect(errors).toEqual([])

    const widget = await openHost(`league=${league}&odds=${BET365}&key=no-odds-key`)
    await widget.page.locator('[data-touchline-widget] article.tl-match').first().waitFor({ timeout: 20_000 })
    await expect.poll(() => widget.console.filter((m) => m.includes('odds')).length, { timeout: 20_000 }).toBe(1)
    expect(widget.console.find((m) => m.includes('odds'))).toMatch(/^warning: touchline: forbidden: this key has no odds/)
    expect(await widget.page.locator('[data-touchline-widget] .tlw-conn').getAttribute('data-state')).toBe('live')
    expect(await widget.page.locator('[data-touchline-widget] .tlw-empty').isHidden()).toBe(true)
    expect((await widget.page.locator('[data-touchline-widget] .tl-odds-value').allTextContents()).join('')).toBe('')
    // Asked once with odds, refused, then again without: the scores' subscription stands.
    expect(widget.sent.map((f) => f.odds === true)).toEqual([true, false])
    expect(widget.received).not.toContain('odds')
    expect(widget.errors).toEqual([])
    await page.close()
    await widget.page.close()
  }, 60_000)
})

describe.skipIf(!HAVE_CHROMIUM)('odds on a row, step by step (a store written by hand)', () => {
  let browser: Browser
  let gw: UiGateway
  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  it('at 390 and 1366: prices as written, an arrow each way, suspended, reopened, stale, then the winner ticked; the row\'s height never moves', async () => {
    const match = await gw.matches.start(9101, 501, 'Celtic', 'Kilmarnock', 80)
    let version = 0
    let prices: Record<string, string> = { 1: '1.50', X: '4.20', 2: '6.00' }
    let status: 'open' | 'suspended' | 'stopped' = 'open'
    const settled: { winner?: string } = {}
    let stale = false
    const ref = { bookmaker_id: BET365, market_id: 1, line: null }
    const image = (): FixtureOdds => ({
      fixture_id: match.id,
      league_id: 501,
      home_id: match.fixture.home.id,
      away_id: match.fixture.away.id,
      stale,
      updated_at: new Date().toISOString(),
      version,
      markets: [{
        ...ref,
        bookmaker: 'bet365',
        market: 'Fulltime Result',
        status,
        selections: ['1', 'X', '2'].map((label) => ({
          label, total: null, handicap: null, name: label === 'X' ? 'Draw' : label === '1' ? 'Celtic' : 'Kilmarnock', price: prices[label] as string, decimal: Number(prices[label]), winning: settled.winner === undefined ? null : settled.winner === label
        }))
      }]
    })
    /** Stores the image as it is now (move the prices first), with its changes. */
    const put = async (changes: (odds: FixtureOdds) => OddsChange[]): Promise<void> => {
      const odds = image()
      const done = await gw.gw.store.applyOdds({ odds, changes: changes(odds), expectedVersion: version, at: new Date().toISOString() })
      if (!done.ok) throw new Error('odds not applied')
      version++
    }
    const moved = (label: string, price: string): OddsChange => {
      const previous = prices[label] as string
      prices = { ...prices, [label]: price }
      return { kind: 'odds_changed', ...ref, selection: { label, total: null, handicap: null }, price, decimal: Number(price), previous: { price: previous, decimal: Number(previous) }, direction: Number(price) > Number(previous) ? 'up' : 'down' }
    }
    await put((odds) => [{ kind: 'market_added', market: odds.markets[0] as FixtureOdds['markets'][number] }])

    const pages = await Promise.all([PHONE, DESK].map(async (view) => (await openView(browser, `${gw.url}/?odds=${BET365}`, view)).page))
    const cells = (page: Page) => page.locator(`article[data-fixture="${match.id}"] .tl-odds`)
    const rowHeight = async (page: Page): Promise<number> => (await page.locator(`article[data-fixture="${match.id}"]`).boundingBox())?.height ?? 0
    for (const page of pages) await expect.poll(async () => await cells(page).locator('.tl-odds-value').allTextContents()).toEqual(['1.50', '4.20', '6.00'])
    const heights = await Promise.all(pages.map(rowHeight))

    // 1.50 -> 1.45 (shorter: down), 4.20 -> 4.60 (longer: up), 6.00 as it was: no arrow.
    const changes = [moved('1', '1.45'), moved('X', '4.60')]
    await put(() => changes)
    for (const page of pages) {
      await expect.poll(async () => await cells(page).locator('.tl-odds-value').allTextContents()).toEqual(['1.45', '4.60', '6.00'])
      expect(await cells(page).locator('.tl-price').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset.move ?? ''))).toEqual(['down', 'up', ''])
      expect(await cells(page).locator('.tl-price[data-label="X"]').innerText()).toContain('4.60')
      expect(await cells(page).locator('.tl-price[data-label="X"] .tl-visually-hidden').allTextContents()).toEqual(['Draw ', ', up'])
    }
    // The arrows go after 4 s.
    for (const page of pages) await expect.poll(async () => await cells(page).locator('.tl-price[data-move]').count(), { timeout: 20_000 }).toBe(0)

    status = 'suspended'
    await put(() => [{ kind: 'market_suspended', ...ref }])
    for (const page of pages) {
      await expect.poll(async () => await cells(page).getAttribute('data-status')).toBe('suspended')
      expect(await cells(page).locator('.tl-odds-mark').getAttribute('aria-label')).toBe('Suspended')
      expect(await cells(page).locator('.tl-odds-mark').isVisible()).toBe(true)
      expect(await cells(page).locator('.tl-odds-value').allTextContents()).toEqual(['1.45', '4.60', '6.00'])
    }
    await shot(pages[0] as Page, 'odds-suspended-390-light')

    status = 'open'
    const reopened: OddsChange[] = [{ kind: 'market_reopened', ...ref }, moved('1', '1.20'), moved('X', '6.50'), moved('2', '13.00')]
    await put(() => reopened)
    for (const page of pages) {
      await expect.poll(async () => await cells(page).getAttribute('data-status')).toBe('open')
      expect(await cells(page).locator('.tl-odds-value').allTextContents()).toEqual(['1.20', '6.50', '13.00'])
      expect(await cells(page).locator('.tl-odds-mark').isVisible()).toBe(false)
    }

    stale = true
    await put(() => [{ kind: 'odds_stale', stale: true, confirmed_at: new Date(Date.now() - 31_000).toISOString() }])
    for (const page of pages) await expect.poll(async () => await cells(page).getAttribute('data-stale')).toBe('')
    stale = false
    status = 'stopped'
    settled.winner = '1'
    await put(() => [{ kind: 'odds_stale', stale: false, confirmed_at: new Date().toISOString() }, { kind: 'market_settled', ...ref, winning: [{ label: '1', total: null, handicap: null }] }])
    for (const page of pages) {
      await expect.poll(async () => await cells(page).getAttribute('data-status')).toBe('stopped')
      expect(await cells(page).getAttribute('data-stale')).toBeNull()
      expect(await cells(page).locator('.tl-price[data-won]').getAttribute('data-label')).toBe('1')
      expect(await cells(page).locator('.tl-price[data-label="1"] .tl-visually-hidden').allTextContents()).toEqual(['Celtic ', ', won'])
      expect(await cells(page).getAttribute('aria-label')).toBe('Odds, bet365, settled')
    }
    expect(await Promise.all(pages.map(rowHeight))).toEqual(heights)
    for (const page of pages) {
      expect(await axeViolations(page)).toEqual([])
      await page.close()
    }
  }, 60_000)
})
