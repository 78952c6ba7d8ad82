/**
 * Connection states in words: the scoreboard counts down "Reconnecting in N s" while the gateway
 * cannot be reached (no host or port shown) and comes back live; a bad key is refused in plain words
 * ("bad key"), once, with no retry loop; a day switched to while the feed is down is not taken for a day
 * without matches (placeholders hold its place) and comes once the feed is back; `/status` marks every figure stale while the gateway does not answer, shows one cache figure in
 * its tile and its chart, keeps the cursor on one line, and has no axe-core violation.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'
import { LEAGUE_ORDER } from './busy-board.ts'
import { dayOf, seedDays } from './seed-days.ts'

describe.skipIf(!HAVE_CHROMIUM)('connection states', () => {
  let browser: Browser
  let gw: UiGateway
  let proxy: TcpProxy

  beforeAll(async () => {
    gw = await startUiGateway([{ key: 'good-key', name: 'good', allowed_origins: '*' }])
    proxy = await startTcpProxy(Number(new URL(gw.url).port))
    browser = await launchBrowser()
    await gw.matches.start(9501, 501, 'Celtic', 'Kilmarnock', 20)
    // One passthrough call, so the status page has a budget row and a cache figure.
    await fetch(`${gw.url}/v3/football/leagues?api_token=good-key`)
    // The days of half the provider's leagues (seven of fourteen: yesterday has results in them).
    await seedDays(gw.gw, { leagues: LEAGUE_ORDER })
  }, 60_000)
  // A test that failed while the proxy refused connections must not leave it so for the next.
  afterEach(() => { proxy?.resume() })
  afterAll(async () => {
    await browser?.close()
    await proxy?.close()
    await gw?.close()
  })

  async function open (url: string, width = 1366): Promise<{ page: Page, errors: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 800 } })
    const errors = watchErrors(page)
    await page.goto(url)
    return { page, errors }
  }

  it('says it is offline within 2 s of the browser going offline: the pill, every row dimmed; live again after', async () => {
    const { page, errors } = await open(`${gw.url}/?key=good-key`, 1366)
    await whenLive(page)
    await page.locator('#board article[data-fixture="9501"]').waitFor()
    await page.context().setOffline(true)
    await page.locator('#connection[data-state="offline"]').waitFor({ timeout: 2000 })
    expect(await page.locator('#board.tl-dim').count()).toBe(1)
    await page.context().setOffline(false)
    await whenLive(page)
    expect(await page.locator('#board.tl-dim').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  }, 40_000)

  it('says "Reconnecting in N s" while the gateway is down, then comes back live', async () => {
    const { page, errors } = await open(`${proxy.url}/?key=good-key`, 390)
    const conn = page.locator('#connection .conn-label')
    await whenLive(page)
    proxy.pause()
    proxy.cut()
    await page.locator('#connection[data-state="reconnecting"]').waitFor()
    await expect.poll(async () => await conn.textContent(), { timeout: 20_000 }).toMatch(/^(Reconnecting in \d+ s|No connection · retrying (in \d+ s|now))$/)
    // Once the page has asked why: the gateway cannot be reached (not the key's fault), said in a fan's words,
    // with no host or port, on one line.
    await expect.poll(async () => await conn.textContent(), { timeout: 15_000 }).toMatch(/^No connection · retrying (in \d+ s|now)$/)
    expect(await conn.textContent()).not.toMatch(/key/)
    expect(await page.locator('body').innerText()).not.toMatch(/127\.0\.0\.1|localhost|:\d{2,5}\b/)
    const pill = await page.locator('#connection').boundingBox()
    expect(pill !== null && pill.height < 40).toBe(true)
    await shot(page, 'page-reconnecting', { docs: true })
    proxy.resume()
    await whenLive(page)
    expect(await conn.textContent()).toBe('Live')
    expect(errors).toEqual([])
    await page.close()
  })

  it('a day switched to while the feed is down is not taken for a day without matches: it comes once the feed is back', async () => {
    const { page, errors } = await open(`${proxy.url}/?key=good-key#all`)
    await whenLive(page)
    await page.locator('#board article[data-fixture="9501"]').waitFor()
    const tz = await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone') as string
    const yesterday = await page.evaluate('(() => { const d = new Date(); d.setDate(d.getDate() - 1); return d.toLocaleDateString("en-CA") })()') as string
    const expected = (await dayOf(gw.url, 'good-key', yesterday, tz)).map((f) => f.id).sort((a, b) => a - b)
    expect(expected.length, 'results of yesterday in the provider\'s data').toBeGreaterThan(0)
    proxy.pause()
    proxy.cut()
    await page.locator('#connection[data-state="reconnecting"]').waitFor()
    await page.locator('#days a[data-day="yesterday"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#all/yesterday')
    // The day cannot come while the feed is down: its place is held, and it is not said to be empty.
    await expect.poll(async () => await page.locator('#board .tl-placeholder').count()).toBeGreaterThan(0)
    expect(await page.locator('#board article.tl-match').count()).toBe(0)
    expect(await page.locator('#empty').isVisible()).toBe(false)
    expect(await page.locator('.tabs a[data-tab="all"] .count').textContent()).toBe('')
    proxy.resume()
    await whenLive(page)
    await expect.poll(async () => await page.locator('.tabs a[data-tab="all"] .count').textContent(), { timeout: 20_000 }).toBe(String(expected.length))
    const shown = (await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fixture'))))).sort((a, b) => a - b)
    expect(shown).toEqual(expected)
    expect(await page.locator('#board .tl-placeholder').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  }, 40_000)

  it('refuses a bad key in plain words and stops trying', async () => {
    const { page } = await open(`${gw.url}/?key=not-a-key`)
    let sockets = 0
    page.on('websocket', () => { sockets++ })
    await page.locator('#connection[data-state="refused"][data-reason="unauthorized"]').waitFor()
    // Said once, in place of the matches: not again in the pill (a word), the summary or an empty section.
    expect(await page.locator('#refusal').textContent()).toBe('Live scores can\'t be shown: the key in this address is not valid (bad key).')
    expect(await page.locator('#refusal').isVisible()).toBe(true)
    expect(await page.locator('#connection .conn-label').textContent()).toBe('Not connected')
    expect(await page.locator('body').innerText()).not.toMatch(/\bkey\b[\s\S]*\bkey\b[\s\S]*\bkey\b/)
    for (const id of ['#summary', '#controls', '#board', '#empty']) expect(await page.locator(id).isVisible(), id).toBe(false)
    // One attempt at most (the socket's 401, then asked over HTTP why), and none after the refusal.
    const tried = sockets
    expect(tried).toBeLessThanOrEqual(1)
    await page.waitForTimeout(4000)
    expect(sockets).toBe(tried)
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('refused')
    await shot(page, 'page-bad-key', { docs: true })
    await page.close()
  })

  it('marks every figure of /status stale while the gateway does not answer', async () => {
    const { page, errors } = await open(`${proxy.url}/status`, 390)
    await whenLive(page)
    await page.locator('#budget tr', { hasText: 'League' }).waitFor()
    // One cache figure: the tile and the chart's "now" say the same.
    const tile = await page.locator('.tile', { hasText: 'Cache hit ratio' }).locator('.tile-value').textContent()
    const chart = await page.locator('figure.chart', { hasText: 'Cache hit ratio' }).locator('.chart-now').textContent()
    expect(tile).toBe(chart)
    // The cursor (the store's log head) is on one line.
    const cursor = page.locator('#store dd.cursor')
    expect(await cursor.textContent()).toMatch(/\S{6,}/)
    const lines = await page.evaluate('(() => { const e = document.querySelector(\'#store dd.cursor\'); return Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)) })()')
    expect(lines).toBe(1)
    expect(await page.locator('body[data-stale]').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])

    proxy.pause()
    proxy.cut()
    await page.locator('body[data-stale]').waitFor({ timeout: 12_000 })
    expect(await page.locator('#stale').textContent()).toMatch(/^Stale: figures as of .+\. The gateway does not answer \(.+\)\.$/)
    await expect.poll(async () => await page.locator('#connection .conn-label').textContent()).toMatch(/^Cannot reach the gateway · retrying (in \d+ s|now)$/)
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('offline')
    // Every figure says so: tiles, charts, budget, the pollers' and the store's facts.
    const marked = await page.evaluate(`[...document.querySelectorAll('.tile-value, .chart-now, .meter-text, #poller dd, #odds-poller dd, #store dd')]
      .map((e) => getComputedStyle(e, '::after').content)`)
    expect((marked as string[]).every((c) => c.includes('stale'))).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'status-stale', { docs: true, fullPage: true })
    proxy.resume()
    await expect.poll(async () => await page.locator('body[data-stale]').count(), { timeout: 12_000 }).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
