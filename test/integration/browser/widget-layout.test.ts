/**
 * The widget on a host page of another origin: its layout follows its own width (container queries: the
 * names stacked at 320 px, side by side at 650 px, on a 1366 px page either way); a fixture widget after
 * full time says "Full time" with no live dot; a refused widget says why in one line, no empty frame;
 * through a reconnection (a goal scored meanwhile included) the widget keeps its height and the host page
 * does not shift at all (layout-shift sum 0), the goal flashing and said once it is back; at 600 px, with
 * odds or without, the names are whole on one line and each open event is one line; and no text of the
 * widget is smaller than 11 px at 320, 600 and 650 px.
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import type { Match } from '../../helpers/matches.ts'
import type { FixtureOdds } from '../../../src/wire-model/model.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

describe.skipIf(!HAVE_CHROMIUM)('the widget\'s own layout', () => {
  let browser: Browser
  let gw: UiGateway
  let host: Server
  let hostOrigin = ''
  let hearts: Match
  const pages = new Map<string, string>()

  beforeAll(async () => {
    gw = await startUiGateway([
      { key: 'host-key', name: 'host', allowed_origins: '*' },
      { key: 'elsewhere-key', name: 'elsewhere', allowed_origins: ['https://elsewhere.example'] }
    ])
    host = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(pages.get(new URL(req.url ?? '/', 'http://host').pathname) ?? '')
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    hostOrigin = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`
    const celtic = await gw.matches.start(8501, 501, 'Celtic', 'Kilmarnock', 20)
    await celtic.goal('home', 'Kyogo Furuhashi', 12)
    await celtic.card('away', 'Stuart Findlay', 18, 'REDCARD')
    hearts = await gw.matches.start(8502, 501, 'Heart of Midlothian', 'Hibernian', 64)
    const fcm = await gw.matches.start(8503, 271, 'FC Midtjylland', 'Brøndby IF', 30)
    await fcm.goal('away', 'Nicolai Vallys', 22)
    await gw.matches.start(8504, 271, 'FC København', 'Randers FC', 55)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await new Promise((resolve) => host?.close(resolve))
  })

  /** A host page: `columns` are [width, widget attributes] pairs, one widget per column. */
  async function openHost (path: string, columns: Array<[number, string]>, gateway = gw.url, viewport = { width: 1366, height: 900 }): Promise<{ page: Page, errors: string[] }> {
    const body = columns.map(([width, attrs], i) => `<div class="col" style="width:${width}px"><div data-touchline-widget id="w${i + 1}"></div>
<script src="${gw.url}/widget.js" data-gateway="${gateway}" ${attrs} async></script></div>`).join('\n')
    pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<style>body { font-family: Georgia, serif; margin: 24px; background: #fbf8f1; color: #222 } .cols { display: flex; gap: 24px; align-items: flex-start }</style></head>
<body><main><h1>The Daily Match</h1><p>Scores from around the grounds:</p><div class="cols">${body}</div><p id="after">More news below.</p></main></body></html>`)
    const page = await browser.newPage({ viewport })
    const errors = watchErrors(page)
    await page.goto(`${hostOrigin}${path}`)
    return { page, errors }
  }

  /** Opens every row's events in a widget, and waits until they are open. */
  async function openEvents (page: Page, widget: string): Promise<void> {
    const toggles = page.locator(`#${widget} .tl-toggle:visible`)
    for (const toggle of await toggles.all()) {
      await toggle.click()
      await expect.poll(async () => await toggle.getAttribute('aria-expanded')).toBe('true')
    }
  }

  /** The smallest computed font size of any text of a widget (its shadow root's text nodes), with the text. */
  async function smallestText (page: Page, widget: string): Promise<{ size: number, text: string }> {
    return await page.evaluate(`(() => {
      let min = { size: Infinity, text: '' }
      const walk = (n) => {
        if (n.nodeType === 3 && n.textContent.trim() !== '') {
          const size = parseFloat(getComputedStyle(n.parentElement).fontSize)
          if (size < min.size) min = { size, text: n.parentElement.className + ': ' + n.textContent.trim() }
        }
        if (n.shadowRoot) walk(n.shadowRoot)
        for (const c of n.childNodes) walk(c)
      }
      walk(document.getElementById(${JSON.stringify(widget)}))
      return min
    })()`)
  }

  /** Boxes of a row's two names, read at one instant. */
  async function names (page: Page, widget: string, fixture: number): Promise<Array<{ y: number, height: number, lineHeight: number }>> {
    const row = page.locator(`#${widget} article[data-fixture="${fixture}"]`)
    await row.waitFor()
    return await row.locator('.tl-name').evaluateAll((els) => els.map((e) => {
      const r = e.getBoundingClientRect()
      return { y: r.y, height: r.height, lineHeight: parseFloat((globalThis as unknown as { getComputedStyle: (x: unknown) => { lineHeight: string } }).getComputedStyle(e).lineHeight) }
    }))
  }

  it('lays out by its own width: names stacked at 320 px, side by side and whole at 650 px, on a 1366 px page', async () => {
    // Two widgets of one league on a page: each its own title, so each is its own region.
    const { page, errors } = await openHost('/widths', [[320, 'data-key="host-key" data-league="501"'], [650, 'data-key="host-key" data-league="501" data-title="Scottish Premiership"']])
    const [narrowHome, narrowAway] = await names(page, 'w1', 8502) as unknown as [{ y: number, height: number }, { y: number }]
    expect(narrowAway.y).toBeGreaterThanOrEqual(narrowHome.y + narrowHome.height - 1)
    const wide = await names(page, 'w2', 8502)
    expect(Math.abs((wide[0]?.y ?? 0) - (wide[1]?.y ?? 99))).toBeLessThan(2)
    // "Heart of Midlothian" on one line: nothing wraps at 650 px.
    for (const n of wide) expect(n.height).toBeLessThan(n.lineHeight * 1.5)
    // The red card and the scorer line are there at both widths.
    for (const w of ['w1', 'w2']) {
      expect(await page.locator(`#${w} article[data-fixture="8501"] .tl-away .tl-red-card`).count()).toBe(1)
      expect(await page.locator(`#${w} article[data-fixture="8501"] .tl-scorer-home`).textContent()).toBe("12' Kyogo Furuhashi")
    }
    await shot(page, 'widget-widths', { docs: true })
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 30_000)

  it('says "Full time", with no live dot, for a match that is over', async () => {
    // Over before the widget loads: the gateway holds it out of the live set, and the widget follows it by id.
    const ended = await gw.matches.start(8505, 271, 'Silkeborg IF', 'Viborg FF', 80)
    await ended.goal('home', 'Tonni Adamsen', 84)
    await ended.state('FT')
    const { page, errors } = await openHost('/ended', [[420, `data-key="host-key" data-fixture="${ended.id}"`]])
    const widget = page.locator('#w1')
    await widget.locator(`article[data-fixture="${ended.id}"]`).waitFor()
    await expect.poll(async () => await widget.locator('.tlw-conn').getAttribute('data-state')).toBe('finished')
    expect(await widget.locator('.tlw-conn-label').textContent()).toBe('Full time')
    expect(await widget.locator('.tlw-dot').isVisible()).toBe(false)
    // Titled by its league, not "Live match".
    const league = await (await fetch(`${gw.url}/v3/football/leagues/${ended.fixture.league_id}?api_token=host-key&include=country`)).json() as { data: { name: string } }
    await expect.poll(async () => await widget.locator('.tlw-title').textContent()).toContain(league.data.name)
    await shot(page, 'widget-full-time', { docs: true })
    expect(errors).toEqual([])
    await page.close()
  })

  it('says why it is refused, in one line, with no empty frame', async () => {
    for (const [key, words] of [['elsewhere-key', 'This site may not show these scores.'], ['no-such-key', 'The widget\'s key is not valid.']] as const) {
      const { page } = await openHost(`/refused-${key}`, [[320, `data-key="${key}" data-league="501"`]])
      const widget = page.locator('#w1')
      await widget.locator('.tlw-conn[data-state="refused"]').waitFor()
      const line = widget.locator('.tlw-refused')
      expect(await line.textContent()).toBe(words)
      // Line boxes of its text: one.
      const lines = await line.evaluate((e) => {
        const range = (e.ownerDocument as unknown as { createRange: () => { selectNodeContents: (n: unknown) => void, getClientRects: () => Iterable<{ top: number }> } }).createRange()
        range.selectNodeContents(e)
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
      })
      expect(lines).toBe(1)
      expect(await widget.locator('.tl-list').isVisible()).toBe(false)
      expect(await widget.locator('.tlw-message').textContent()).toBe('')
      if (key === 'elsewhere-key') await shot(page, 'widget-refused-320', { docs: true })
      await page.close()
    }
  }, 30_000)

  it('keeps its height through a reconnection: the host page does not move, the goal scored meanwhile flashes', async () => {
    const proxy = await startTcpProxy(Number(new URL(gw.url).port))
    try {
      const { page, errors } = await openHost('/reconnect', [[320, 'data-key="host-key" data-league="271"'], [650, 'data-key="host-key" data-league="501"']], proxy.url, { width: 1366, height: 800 })
      for (const w of ['w1', 'w2']) await whenLive(page, `#${w} .tlw-conn`)
      await page.locator('#w2 article[data-fixture="8502"]').waitFor()
      const heights = async (): Promise<number[]> => await page.locator('[data-touchline-widget]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
      const before = await heights()
      // The host page's layout shift from here on (the widgets are in place).
      await page.evaluate('window.__cls = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__cls += e.value }).observe({ type: "layout-shift" })')
      await page.evaluate('window.__flashes = 0; document.querySelector("#w2").shadowRoot.addEventListener("animationstart", (e) => { if (e.animationName === "tl-goal") window.__flashes++ })')
      proxy.pause()
      proxy.cut()
      for (const w of ['w1', 'w2']) {
        await page.locator(`#${w} .tlw-conn[data-state="reconnecting"]`).waitFor()
        await expect.poll(async () => await page.locator(`#${w} .tlw-message`).textContent(), { timeout: 20_000 }).toMatch(/^(Reconnecting in \d+ s|No connection · retrying (in \d+ s|now))$/)
      }
      expect(await heights()).toEqual(before)
      await shot(page, 'widget-reconnecting-widths', { docs: true })
      // Hearts' first goal, while the widgets are away.
      await hearts.goal('home', 'Lawrence Shankland', 66)
      proxy.resume()
      for (const w of ['w1', 'w2']) await whenLive(page, `#${w} .tlw-conn`)
      const row = page.locator('#w2 article[data-fixture="8502"]')
      await expect.poll(async () => await row.locator('.tl-goals').allTextContents()).toEqual(['1', '0'])
      expect(await row.locator('.tl-scorer-home').textContent()).toBe("66' Lawrence Shankland")
      await expect.poll(async () => await page.evaluate('window.__flashes')).toBe(1)
      await expect.poll(async () => await page.locator('#w2 [aria-live="polite"]').textContent()).toContain('While reconnecting: goal for Heart of Midlothian by Lawrence Shankland')
      expect(await page.locator('#w1 .tlw-message').textContent()).toBe('')
      expect(await heights()).toEqual(before)
      expect(await page.evaluate('window.__cls')).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    } finally {
      await proxy.close()
    }
  }, 60_000)

  it('at 600 px gives the names their room and keeps each event on one line, odds or not; no text under 11 px at 320, 600 and 650 px', async () => {
    // Long names, long events: a scorer with a double-barrelled name, a substitution, a red card, a VAR decision.
    const holbaek = await gw.matches.start(8506, 271, 'AC Holbæk', 'FC Frederikshavn', 30)
    await holbaek.goal('home', 'Christoffer Jørgensen-Mikkelsen', 12)
    await holbaek.card('away', 'Mads Emil Kristensen', 18, 'REDCARD')
    await holbaek.event('home', 'SUBSTITUTION', 'Oliver Villadsen', 25, { related: 'Kasper Lunding Jakobsen' })
    await holbaek.event('away', 'VAR', 'Nicolai Vallys', 27, { info: 'Goal cancelled' })
    await holbaek.goal('away', 'Nicolai Vallys', 28, 'PENALTY')
    const prices = [['1', '2.10'], ['X', '3.40'], ['2', '3.25']]
    const selections = prices.map(([label, price]) => ({ label: label as string, total: null, handicap: null, name: label as string, price: price as string, decimal: Number(price), winning: null }))
    const market: FixtureOdds['markets'][number] = { bookmaker_id: 2, market_id: 1, line: null, bookmaker: 'bet365', market: 'Fulltime Result', status: 'open', selections }
    const odds: FixtureOdds = { fixture_id: holbaek.id, league_id: 271, home_id: holbaek.fixture.home.id, away_id: holbaek.fixture.away.id, stale: false, updated_at: new Date().toISOString(), version: 0, markets: [market] }
    expect((await gw.gw.store.applyOdds({ odds, changes: [{ kind: 'market_added', market }], expectedVersion: 0, at: new Date().toISOString() })).ok).toBe(true)

    for (const width of [320, 600, 650]) {
      // Two widgets of that width: one with bet365's prices (titled: each widget its own region), one without.
      const { page, errors } = await openHost(`/sizes-${width}`, [[width, 'data-key="host-key" data-league="271" data-odds="2" data-title="Superliga odds"'], [width, 'data-key="host-key" data-league="271"']], gw.url, { width: 1500, height: 1000 })
      await expect.poll(async () => await page.locator(`#w1 article[data-fixture="${holbaek.id}"] .tl-odds-value`).allTextContents(), { timeout: 20_000 }).toEqual(['2.10', '3.40', '3.25'])
      for (const w of ['w1', 'w2']) {
        await page.locator(`#${w} article[data-fixture="${holbaek.id}"]`).waitFor()
        await openEvents(page, w)
        const smallest = await smallestText(page, w)
        expect(smallest.size, `${w} at ${width} px: ${smallest.text}`).toBeGreaterThanOrEqual(11)
      }
      if (width === 600) {
        for (const w of ['w1', 'w2']) {
          // Each name whole (not cut, nothing hidden) on one line.
          const names = await page.locator(`#${w} .tl-name`).evaluateAll((els) => els.map((e) => {
            const box = e.getBoundingClientRect()
            const style = (globalThis as unknown as { getComputedStyle: (x: unknown) => { lineHeight: string } }).getComputedStyle(e)
            const el = e as unknown as { scrollWidth: number, clientWidth: number }
            return { text: e.textContent, lines: box.height / parseFloat(style.lineHeight), cut: el.scrollWidth > el.clientWidth + 1 }
          }))
          expect(names.map((n) => n.text)).toEqual(expect.arrayContaining(['AC Holbæk', 'FC Frederikshavn', 'FC Midtjylland', 'Brøndby IF']))
          for (const n of names) expect(n, `${w}: ${n.text ?? ''}`).toMatchObject({ lines: expect.any(Number), cut: false })
          for (const n of names) expect(n.lines, `${w}: ${n.text ?? ''} on one line`).toBeLessThan(1.5)
          // Each open event one line tall: the names cut with an ellipsis if they must.
          const events = await page.locator(`#${w} .tl-ev`).evaluateAll((els) => els.map((e) => {
            const style = (globalThis as unknown as { getComputedStyle: (x: unknown) => { lineHeight: string } }).getComputedStyle(e)
            return { text: e.textContent, lines: e.getBoundingClientRect().height / parseFloat(style.lineHeight) }
          }))
          expect(events.length).toBeGreaterThanOrEqual(6)
          for (const e of events) expect(e.lines, `${w}: ${e.text ?? ''} on one line`).toBeLessThan(1.5)
        }
        await shot(page, 'widget-600', { docs: true })
        expect(await axeViolations(page)).toEqual([])
      }
      expect(errors).toEqual([])
      await page.close()
    }
  }, 60_000)
})
