/**
 * The widget on a host page of another origin: its layout follows its own width (container queries: the
 * names stacked at 320 px, side by side at 650 px, on a 1366 px page either way); a fixture widget after
 * full time says "Full time" with no live dot; a refused widget says why in one line, no empty frame; and
 * through a reconnection (a goal scored meanwhile included) the widget keeps its height and the host page
 * does not shift at all (layout-shift sum 0), the goal flashing and said once it is back.
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import type { Match } from '../../helpers/matches.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, watchErrors, type UiGateway } from './harness.ts'

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

  /** Boxes of a row's two names, read at one instant. */
  async function names (page: Page, widget: string, fixture: number): Promise<Array<{ y: number, height: number, lineHeight: number }>> {
    const row = page.locator(`#${widget} article[data-fixture="${fixture}"]`)
    await row.waitFor({ timeout: 8000 })
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
    const today = await (await fetch(`${gw.url}/v3/football/fixtures/date/${new Date().toISOString().slice(0, 10)}?api_token=host-key&include=state&per_page=50`)).json() as
      { data: Array<{ id: number, league_id: number, state: { state: string } }> }
    const ended = today.data.find((f) => f.state.state === 'FT')
    expect(ended, 'a match of today that is over').toBeDefined()
    const { page, errors } = await openHost('/ended', [[420, `data-key="host-key" data-fixture="${ended?.id ?? 0}"`]])
    const widget = page.locator('#w1')
    await widget.locator(`article[data-fixture="${ended?.id ?? 0}"]`).waitFor({ timeout: 8000 })
    await expect.poll(async () => await widget.locator('.tlw-conn').getAttribute('data-state')).toBe('finished')
    expect(await widget.locator('.tlw-conn-label').textContent()).toBe('Full time')
    expect(await widget.locator('.tlw-dot').isVisible()).toBe(false)
    // Titled by its league, not "Live match".
    const league = await (await fetch(`${gw.url}/v3/football/leagues/${ended?.league_id ?? 0}?api_token=host-key&include=country`)).json() as { data: { name: string } }
    await expect.poll(async () => await widget.locator('.tlw-title').textContent()).toContain(league.data.name)
    await shot(page, 'widget-full-time', { docs: true })
    expect(errors).toEqual([])
    await page.close()
  })

  it('says why it is refused, in one line, with no empty frame', async () => {
    for (const [key, words] of [['elsewhere-key', 'This site may not show these scores.'], ['no-such-key', 'The widget\'s key is not valid.']] as const) {
      const { page } = await openHost(`/refused-${key}`, [[320, `data-key="${key}" data-league="501"`]])
      const widget = page.locator('#w1')
      await widget.locator('.tlw-conn[data-state="refused"]').waitFor({ timeout: 10_000 })
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
      for (const w of ['w1', 'w2']) await page.locator(`#${w} .tlw-conn[data-state="live"]`).waitFor({ timeout: 8000 })
      await page.locator('#w2 article[data-fixture="8502"]').waitFor()
      const heights = async (): Promise<number[]> => await page.locator('[data-touchline-widget]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
      const before = await heights()
      // The host page's layout shift from here on (the widgets are in place).
      await page.evaluate('window.__cls = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__cls += e.value }).observe({ type: "layout-shift" })')
      await page.evaluate('window.__flashes = 0; document.querySelector("#w2").shadowRoot.addEventListener("animationstart", (e) => { if (e.animationName === "tl-goal") window.__flashes++ })')
      proxy.pause()
      proxy.cut()
      for (const w of ['w1', 'w2']) {
        await page.locator(`#${w} .tlw-conn[data-state="reconnecting"]`).waitFor({ timeout: 5000 })
        await expect.poll(async () => await page.locator(`#${w} .tlw-message`).textContent(), { timeout: 5000 }).toMatch(/^(Reconnecting in \d+ s|No connection · retrying (in \d+ s|now))$/)
      }
      expect(await heights()).toEqual(before)
      await shot(page, 'widget-reconnecting-widths', { docs: true })
      // Hearts' first goal, while the widgets are away.
      await hearts.goal('home', 'Lawrence Shankland', 66)
      proxy.resume()
      for (const w of ['w1', 'w2']) await page.locator(`#${w} .tlw-conn[data-state="live"]`).waitFor({ timeout: 20_000 })
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
})
