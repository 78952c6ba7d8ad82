/**
 * The board's order, density, tabs and days, on a busy simulated board: leagues by importance (the
 * TOUCHLINE_LEAGUE_PRIORITY list, then the best-known competitions, then the upstream's category, then country
 * and name), the matches in
 * play first in each league; at least 10 rows in a phone's first screen and 12 at 1366×768; Live / All /
 * Finished / Scheduled tabs and yesterday / today / tomorrow kept in the address across a reload; a day
 * listed once per league with results and kick-offs apart, every fixture of the gateway's day model
 * (`/v1/fixtures?date=`; the provider's days read into the store as the poller reads them); a kick-off time
 * that becomes the live clock as soon as the live feed says the match started.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { busyBoard, LEAGUE_ORDER } from './busy-board.ts'
import { openView, row, rowsAboveFold, settled, VIEWS, viewName } from './board-page.ts'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, whenLive } from './harness.ts'
import { dayOf, kickOff, seedDays } from './seed-days.ts'

/** Rows a first screen must hold on a busy board. */
const FOLD = { 390: 10, 1366: 12 }

/** The leagues of the board's sections, top to bottom. */
async function sections (page: Page): Promise<number[]> {
  await settled(page)
  return (await page.locator('#board section.tl-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-league')))).map(Number)
}

/** The browser's time zone: this machine's. */
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone

/** The reader's local date `days` from today (the browser runs in this machine's time zone). */
function localDate (days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/**
 * The whole-hour zone (`Etc/GMT-2` is UTC+2) whose today, as the gateway holds it, is the smallest day of
 * more than `least` matches. The provider plays its days from the moment it starts, so what is left of
 * today shrinks through the evening (in UTC: 488 matches at 20:00, 145 at 23:00); a zone further east
 * starts its day later in UTC time and has more of it ahead.
 */
async function zoneWithADayOf (url: string, least: number): Promise<{ zone: string, date: string, matches: number }> {
  const found: Array<{ zone: string, date: string, matches: number }> = []
  for (let hours = -12; hours <= 14; hours++) {
    const zone = hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`
    const date = new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 10)
    found.push({ zone, date, matches: (await dayOf(url, 'demo', date, zone)).length })
  }
  const bigEnough = found.filter((f) => f.matches > least).sort((a, b) => a.matches - b.matches)
  if (bigEnough[0] === undefined) throw new Error(`no zone has a day of more than ${least} matches: ${JSON.stringify(found)}`)
  return bigEnough[0]
}

describe.skipIf(!HAVE_CHROMIUM)('the board: order, tabs and days', () => {
  let browser: Browser
  let gw: UiGateway
  /** Above-the-fold row counts, by view, for the record. */
  const counted: Record<string, number> = {}

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    await busyBoard(gw.matches)
    // The days of the board's seven leagues (of the provider's fourteen).
    await seedDays(gw.gw, { leagues: LEAGUE_ORDER })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    process.stdout.write(`rows in the first screen: ${JSON.stringify(counted)}\n`)
  })

  for (const view of VIEWS) {
    const name = viewName(view)
    it(`puts leagues by importance, the matches in play first, ${FOLD[view.width as 390 | 1366]}+ rows in the first screen (${name})`, async () => {
      const { page, errors } = await openView(browser, `${gw.url}/`, view)
      await expect.poll(async () => await sections(page)).toEqual(LEAGUE_ORDER)
      expect(await page.locator('#board .tl-league').first().textContent()).toBe('Champions League · Europe')
      // The postponed match is not in play: not on the Live tab.
      expect(await row(page, 7006).count()).toBe(0)
      const above = await rowsAboveFold(page)
      counted[name] = above
      expect(above).toBeGreaterThanOrEqual(FOLD[view.width as 390 | 1366])
      // The tab says how many are in play.
      expect(await page.locator('.tabs a[data-tab="live"] .count').textContent()).toBe('21')
      await shot(page, `board-${name}`)
      expect(errors).toEqual([])
      await page.close()
    })
  }

  it('asks for no push key when the gateway offers no push (its page says so): no 404 on every load', async () => {
    const page = await browser.newPage()
    const asked: string[] = []
    page.on('request', (r) => { asked.push(new URL(r.url()).pathname) })
    try {
      await page.goto(`${gw.url}/`)
      await whenLive(page)
      expect(await page.locator('meta[name="touchline-push"]').getAttribute('content')).toBe('off')
      // Its leagues asked for (the page's requests after the socket's have been made).
      await expect.poll(() => asked.includes('/v3/football/leagues')).toBe(true)
      expect(asked.filter((p) => p.startsWith('/v1/push/'))).toEqual([])
      expect(await page.locator('#alerts').isHidden()).toBe(true)
    } finally {
      await page.close()
    }
  })

  it('loads a day of more than 300 matches in at most 150 KB on the wire (pages, modules and the feed\'s snapshot compressed)', async () => {
    // Through a proxy that counts what the gateway sends: HTTP headers and bodies, WebSocket frames, as on the wire.
    const proxy = await startTcpProxy(Number(new URL(gw.url).port))
    // A reader in a zone whose today is a day of a little more than 300 matches, whatever the hour here (its
    // All tab adds the test's own live matches to them).
    const { zone } = await zoneWithADayOf(gw.url, 300)
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, timezoneId: zone })
    try {
      await page.goto(`${proxy.url}/#all`)
      await whenLive(page)
      const count = async (): Promise<number> => Number(await page.locator('.tabs a[data-tab="all"] .count').textContent())
      await expect.poll(count).toBeGreaterThan(300)
      const rows = await count()
      await expect.poll(async () => await page.locator('#board article.tl-match').count()).toBe(rows)
      const kb = proxy.bytesDown() / 1024
      process.stdout.write(`first load of a day of ${rows} matches (today in ${zone}): ${kb.toFixed(1)} KB on the wire\n`)
      expect(kb).toBeLessThanOrEqual(150)
    } finally {
      await page.close()
      await proxy.close()
    }
  })

  it('puts the leagues of TOUCHLINE_LEAGUE_PRIORITY first, in its order', async () => {
    const other = await startUiGateway(undefined, { env: { TOUCHLINE_LEAGUE_PRIORITY: '1101,501' } })
    try {
      await busyBoard(other.matches)
      const { page } = await openView(browser, `${other.url}/`, VIEWS[2] as typeof VIEWS[number])
      await expect.poll(async () => await sections(page)).toEqual([1101, 501, 2, 8, 564, 82, 271])
      await page.close()
    } finally {
      await other.close()
    }
  }, 30_000)

  it('keeps the tab and the day in the address, across a reload', async () => {
    const { page, errors } = await openView(browser, `${gw.url}/`, VIEWS[0] as typeof VIEWS[number])
    expect(await page.locator('.tabs a[aria-selected="true"]').getAttribute('data-tab')).toBe('live')
    expect(await page.locator('#days').isVisible()).toBe(false)
    await page.locator('.tabs a[data-tab="finished"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#finished')
    // The address changes before the page's hashchange handler has run: its effects are awaited.
    await expect.poll(async () => await page.locator('#days').isVisible()).toBe(true)
    await page.locator('#days a[data-day="yesterday"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#finished/yesterday')
    await page.reload()
    await page.locator('#board article.tl-match').first().waitFor()
    expect(await page.locator('.tabs a[aria-selected="true"]').getAttribute('data-tab')).toBe('finished')
    expect(await page.locator('#days a[aria-current="date"]').getAttribute('data-day')).toBe('yesterday')
    const phases = new Set(await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase'))))
    expect([...phases].every((p) => p === 'finished' || p === 'cancelled' || p === 'postponed')).toBe(true)
    await page.locator('.tabs a[data-tab="live"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#live')
    await expect.poll(async () => await page.locator('#days').isVisible()).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it('lists each day once per league, results apart from kick-offs, as the gateway\'s day model has it', async () => {
    const { page, errors } = await openView(browser, `${gw.url}/#all`, VIEWS[2] as typeof VIEWS[number], { wait: 'none' })
    await page.locator('#board article.tl-match').first().waitFor()
    // Once per league: no heading twice, and nothing below the board repeats them.
    const headings = await page.locator('main .tl-league').allTextContents()
    expect(new Set(headings).size).toBe(headings.length)
    // In each league: in play, then results, then kick-offs.
    const rank: Record<string, number> = { live: 0, break: 0, suspended: 0, unknown: 0, finished: 1, cancelled: 1, scheduled: 2, postponed: 2 }
    for (const section of await page.locator('#board section.tl-group').all()) {
      const ranks = (await section.locator('article.tl-match').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase') ?? ''))).map((p) => rank[p] ?? 0)
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    }
    await shot(page, 'today', { docs: true })
    expect(await axeViolations(page)).toEqual([])
    // Finished and Scheduled keep results and kick-offs apart.
    await page.locator('.tabs a[data-tab="scheduled"]').click()
    await page.locator('#board article.tl-match').first().waitFor()
    expect(new Set(await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase'))))).toEqual(new Set(['scheduled']))
    // Yesterday and tomorrow: the day model's fixtures of that day, every one, nothing else (or, on a
    // day without any, the words for it). The simulator packs its days around now, so one may be empty.
    for (const [hash, days, word] of [['#all/yesterday', -1, 'yesterday'], ['#all/tomorrow', 1, 'tomorrow']] as const) {
      await page.goto(`${gw.url}/${hash}`)
      const expected = (await dayOf(gw.url, 'demo', localDate(days), TZ)).map((f) => f.id).sort((a, b) => a - b)
      await expect.poll(async () => await page.locator('.tabs a[data-tab="all"] .count').textContent(), { timeout: 20_000 }).toBe(String(expected.length))
      const shown = (await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fixture'))))).sort((a, b) => a - b)
      expect(shown, hash).toEqual(expected)
      if (expected.length === 0) expect(await page.locator('#empty').innerText()).toBe(`No matches ${word} in these leagues.`)
      else expect(await page.locator('#empty').isVisible()).toBe(false)
    }
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('shows the live clock instead of the kick-off time once the feed says the match started', async () => {
    const today = await dayOf(gw.url, 'demo', localDate(0), TZ)
    const next = today.find((f) => f.state.code === 'NS' && LEAGUE_ORDER.includes(f.league_id))
    expect(next, 'a match still to kick off today in the provider\'s data').toBeDefined()
    const id = next?.id ?? 0
    const { page, errors } = await openView(browser, `${gw.url}/#scheduled`, VIEWS[0] as typeof VIEWS[number], { wait: 'none' })
    const r = row(page, id)
    await r.waitFor()
    expect(await r.locator('.tl-clock-text').textContent()).toMatch(/^\d\d:\d\d$/)
    const scheduled = Number(await page.locator('.tabs a[data-tab="scheduled"] .count').textContent())
    // It kicks off: the feed says so at once (the day is the feed's: nothing is read again).
    const startedAt = Date.now()
    await kickOff(gw.gw, id)
    await expect.poll(async () => await r.count(), { timeout: 3000 }).toBe(0)
    expect(Date.now() - startedAt).toBeLessThan(3000)
    expect(Number(await page.locator('.tabs a[data-tab="scheduled"] .count').textContent())).toBe(scheduled - 1)
    await page.locator('.tabs a[data-tab="all"]').click()
    await expect.poll(async () => await r.getAttribute('data-phase')).toBe('live')
    expect(await r.locator('.tl-clock-text').textContent()).toMatch(/^\d+'$/)
    await page.locator('.tabs a[data-tab="live"]').click()
    await r.waitFor()
    expect(errors).toEqual([])
    await page.close()
  })
})
