/**
 * The board's order, density, tabs and days, on a busy simulated board: leagues by importance (the
 * TOUCHLINE_LEAGUE_PRIORITY list, else the upstream's category, then country and name), the matches in
 * play first in each league; at least 10 rows in a phone's first screen and 12 at 1366×768; Live / All /
 * Finished / Scheduled tabs and yesterday / today / tomorrow kept in the address across a reload; a day
 * listed once per league with results and kick-offs apart, read from the passthrough; a kick-off time that
 * becomes the live clock as soon as the live feed says the match started.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { busyBoard, LEAGUE_ORDER } from './busy-board.ts'
import { openView, row, rowsAboveFold, settled, VIEWS, viewName } from './board-page.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway } from './harness.ts'

/** Rows a first screen must hold on a busy board. */
const FOLD = { 390: 10, 1366: 12 }

/** The leagues of the board's sections, top to bottom. */
async function sections (page: Page): Promise<number[]> {
  await settled(page)
  return (await page.locator('#board section.tl-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-league')))).map(Number)
}

/** The reader's local date `days` from today (the browser runs in this machine's time zone). */
function localDate (days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

interface Listed { id: number, league_id: number, state: { state: string }, starting_at_timestamp: number }

describe.skipIf(!HAVE_CHROMIUM)('the board: order, tabs and days', () => {
  let browser: Browser
  let gw: UiGateway
  /** Above-the-fold row counts, by view, for the record. */
  const counted: Record<string, number> = {}

  /** A day's fixtures as the passthrough lists them, kept by their local kick-off date. */
  async function passthroughDay (day: string): Promise<Listed[]> {
    const out: Listed[] = []
    const utc = [new Date(`${day}T00:00:00`), new Date(`${day}T23:59:59`)].map((d) => d.toISOString().slice(0, 10))
    const path = utc[0] === utc[1] ? `date/${utc[0]}` : `between/${utc[0]}/${utc[1]}`
    for (let page = 1; page <= 3; page++) {
      const body = await (await fetch(`${gw.url}/v3/football/fixtures/${path}?api_token=demo&include=state&per_page=50&page=${page}`)).json() as { data: Listed[], pagination: { has_more: boolean } }
      out.push(...body.data)
      if (!body.pagination.has_more) break
    }
    return out.filter((f) => {
      const d = new Date(f.starting_at_timestamp * 1000)
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` === day
    })
  }

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    await busyBoard(gw.matches)
  }, 30_000)
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
      expect(await page.locator('#board .tl-league').first().textContent()).toBe('Premier League · England')
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

  it('puts the leagues of TOUCHLINE_LEAGUE_PRIORITY first, in its order', async () => {
    const other = await startUiGateway(undefined, { env: { TOUCHLINE_LEAGUE_PRIORITY: '1101,501' } })
    try {
      await busyBoard(other.matches)
      const { page } = await openView(browser, `${other.url}/`, VIEWS[2] as typeof VIEWS[number])
      await expect.poll(async () => await sections(page)).toEqual([1101, 501, 8, 2, 82, 564, 271])
      await page.close()
    } finally {
      await other.close()
    }
  }, 30_000)

  it('keeps the tab and the day in the address, across a reload', async () => {
    const { page, errors } = await openView(browser, `${gw.url}/`, VIEWS[0] as typeof VIEWS[number])
    expect(await page.locator('.tabs a[aria-current="page"]').getAttribute('data-tab')).toBe('live')
    expect(await page.locator('#days').isVisible()).toBe(false)
    await page.locator('.tabs a[data-tab="finished"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#finished')
    expect(await page.locator('#days').isVisible()).toBe(true)
    await page.locator('#days a[data-day="yesterday"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#finished/yesterday')
    await page.reload()
    await page.locator('#board article.tl-match').first().waitFor({ timeout: 10_000 })
    expect(await page.locator('.tabs a[aria-current="page"]').getAttribute('data-tab')).toBe('finished')
    expect(await page.locator('#days a[aria-current="date"]').getAttribute('data-day')).toBe('yesterday')
    const phases = new Set(await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase'))))
    expect([...phases].every((p) => p === 'finished' || p === 'cancelled' || p === 'postponed')).toBe(true)
    await page.locator('.tabs a[data-tab="live"]').click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#live')
    expect(await page.locator('#days').isVisible()).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it('lists each day once per league, results apart from kick-offs, as the passthrough has it', async () => {
    const { page, errors } = await openView(browser, `${gw.url}/#all`, VIEWS[2] as typeof VIEWS[number], { wait: 'none' })
    await page.locator('#board article.tl-match').first().waitFor({ timeout: 10_000 })
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
    // Yesterday and tomorrow: the passthrough's fixtures of that day, every one, nothing else (or, on a
    // day without any, the words for it). The simulator packs its days around now, so one may be empty.
    for (const [hash, days, word] of [['#all/yesterday', -1, 'yesterday'], ['#all/tomorrow', 1, 'tomorrow']] as const) {
      await page.goto(`${gw.url}/${hash}`)
      const expected = (await passthroughDay(localDate(days))).map((f) => f.id).sort((a, b) => a - b)
      await expect.poll(async () => await page.locator('.tabs a[data-tab="all"] .count').textContent(), { timeout: 10_000 }).toBe(String(expected.length))
      const shown = (await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fixture'))))).sort((a, b) => a - b)
      expect(shown, hash).toEqual(expected)
      if (expected.length === 0) expect(await page.locator('#empty').innerText()).toBe(`No matches ${word} in these leagues.`)
      else expect(await page.locator('#empty').isVisible()).toBe(false)
    }
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('shows the live clock instead of the kick-off time once the feed says the match started', async () => {
    const today = await passthroughDay(localDate(0))
    const next = today.filter((f) => f.state.state === 'NS' && LEAGUE_ORDER.includes(f.league_id)).sort((a, b) => a.starting_at_timestamp - b.starting_at_timestamp)[0]
    expect(next, 'a match still to kick off today in the provider\'s data').toBeDefined()
    const id = next?.id ?? 0
    const { page, errors } = await openView(browser, `${gw.url}/#scheduled`, VIEWS[0] as typeof VIEWS[number], { wait: 'none' })
    const r = row(page, id)
    await r.waitFor({ timeout: 10_000 })
    expect(await r.locator('.tl-clock-text').textContent()).toMatch(/^\d\d:\d\d$/)
    const scheduled = Number(await page.locator('.tabs a[data-tab="scheduled"] .count').textContent())
    // It kicks off: the feed says so; the passthrough's copy (read again only each minute) is not waited for.
    const startedAt = Date.now()
    await gw.matches.start(id, next?.league_id ?? 0, 'Kick Off Town', 'Started City', 1)
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
