/**
 * The scoreboard as a livescore list, at 390 and 1366 px wide, light and dark: compact rows
 * whose events open from a button (keyboard too); a 7-4 match with cards keeps every goal, missed penalty
 * and red card listed, other events capped behind "+N more"; names of 24 characters are never cut at 390 px;
 * one minute notation ("90+3'") and a clock never behind the last event; "-" before kick-off; today's
 * results and kick-offs (the provider's days, read into the store as the poller reads them) in the All
 * tab; no axe-core violation.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'
import { seedDays } from './seed-days.ts'

const LONG_HOME = 'Borussia Mönchengladbach' // 24 characters
const LONG_AWAY = 'Brighton and Hove Albion' // 24 characters

const VIEWS = [
  { width: 390, height: 844, dark: false },
  { width: 390, height: 844, dark: true },
  { width: 1366, height: 768, dark: false },
  { width: 1366, height: 768, dark: true }
]

describe.skipIf(!HAVE_CHROMIUM)('scoreboard rows', () => {
  let browser: Browser
  let gw: UiGateway

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    const m = await gw.matches.start(9001, 501, LONG_HOME, LONG_AWAY, 20)
    await m.goal('home', 'David Veselý', 3)
    await m.goal('away', 'Alexander Maxsø-Andersen', 9, 'OWNGOAL')
    await m.card('away', 'J. Hansen', 12)
    await m.goal('home', 'K. Furuhashi', 23, 'PENALTY')
    await m.card('home', 'R. Redmond', 30, 'REDCARD')
    await m.card('away', 'Y. Yellowby', 33)
    await m.goal('away', 'P. Sisto', 41)
    await m.card('home', 'Z. Zeddy', 44)
    await m.card('away', 'Marcus Missington-Smythe', 47, 'MISSED_PENALTY')
    await m.goal('away', 'L. Shinnie', 50)
    await m.card('away', 'Q. Quinn', 55)
    await m.goal('home', 'B. Miovski', 58)
    await m.card('away', 'S. Sentoff', 60, 'YELLOWREDCARD')
    await m.goal('home', 'T. Tenth', 62)
    await m.card('home', 'U. Umber', 64)
    await m.goal('home', 'V. Volley', 70)
    await m.goal('away', 'W. Wonder', 75)
    await m.goal('home', 'X. Extra', 80)
    await m.goal('away', 'Y. Late', 85)
    for (let i = 0; i < 14; i++) await gw.matches.start(9100 + i, i % 2 === 0 ? 271 : 501, `Team ${i} United`, `Athletic ${i}`, 10 + i)
    // The days of the two leagues of these matches (of the provider's fourteen).
    await seedDays(gw.gw, { leagues: [271, 501] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  async function open (view: typeof VIEWS[number], path = '/'): Promise<{ page: Page, errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: view.width, height: view.height }, colorScheme: view.dark ? 'dark' : 'light' })
    const errors = watchErrors(page)
    await page.goto(`${gw.url}${path}`)
    await whenLive(page)
    await page.locator('article[data-fixture="9001"]').waitFor()
    return { page, errors }
  }

  for (const view of VIEWS) {
    const name = `${view.width}-${view.dark ? 'dark' : 'light'}`

    it(`keeps every goal, missed penalty and red card of a 10+ event match listed (${name})`, async () => {
      const { page, errors } = await open(view)
      const row = page.locator('article[data-fixture="9001"]')
      expect(await row.locator('.tl-score').textContent()).toBe('7-4')
      // Closed: one compact row with the latest goal and a button that says how many events there are.
      const toggle = row.locator('button.tl-toggle')
      expect(await toggle.getAttribute('aria-expanded')).toBe('false')
      // The button says what it opens (its name adds how many and which match).
      expect(await toggle.textContent()).toBe(`Events (19): ${LONG_HOME} v ${LONG_AWAY}`)
      // The latest goal, under the side that scored it (Y. Late, for the away side).
      expect(await row.locator('.tl-scorer-away').textContent()).toContain("85' Y. Late")
      // Opened with the keyboard.
      await toggle.focus()
      await page.keyboard.press('Enter')
      expect(await toggle.getAttribute('aria-expanded')).toBe('true')
      const listed = row.locator('.tl-ev')
      const types = await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))
      expect(types.filter((t) => t === 'GOAL' || t === 'PENALTY' || t === 'OWNGOAL')).toHaveLength(11)
      expect(types.filter((t) => t === 'REDCARD' || t === 'YELLOWREDCARD')).toHaveLength(2)
      expect(types.filter((t) => t === 'MISSED_PENALTY')).toHaveLength(1)
      // Five yellow cards: the three latest listed, two behind "+2 more".
      expect(types.filter((t) => t === 'YELLOWCARD')).toHaveLength(3)
      const more = row.locator('button.tl-more')
      expect(await more.textContent()).toBe('+2 more')
      // Each key event is on screen and whole: not clipped, no overflow.
      for (const ev of await row.locator('.tl-ev.tl-key').all()) {
        await ev.scrollIntoViewIfNeeded()
        expect(await ev.isVisible()).toBe(true)
        expect(await ev.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true)
      }
      expect(await row.locator('.tl-ev', { hasText: 'Alexander Maxsø-Andersen (og)' }).count()).toBe(1)
      expect(await row.locator('.tl-ev', { hasText: 'Marcus Missington-Smythe (pen missed)' }).count()).toBe(1)
      expect(await row.locator('.tl-ev', { hasText: 'K. Furuhashi (pen)' }).count()).toBe(1)
      await shot(page, `rows-events-long-${name}`)
      await more.click()
      expect(await row.locator('.tl-ev[data-type="YELLOWCARD"]').count()).toBe(5)
      // Expanded, it collapses again.
      expect(await more.textContent()).toBe('Show fewer')
      await more.click()
      expect(await row.locator('.tl-ev[data-type="YELLOWCARD"]').count()).toBe(3)
      // Closed again with the keyboard: back to one row.
      await toggle.focus()
      await page.keyboard.press('Enter')
      expect(await row.locator('.tl-ev').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    })

    it(`cuts no name and no event at ${name}`, async () => {
      const { page } = await open(view)
      if (view.width === 1366) {
        // A livescore list: about 15 rows above the fold (rows closed).
        const above = await page.evaluate('[...document.querySelectorAll(\'article.tl-match\')].filter((e) => e.getBoundingClientRect().bottom <= innerHeight).length')
        expect(above).toBeGreaterThanOrEqual(14)
      }
      const row = page.locator('article[data-fixture="9001"]')
      await row.locator('button.tl-toggle').click()
      await row.locator('button.tl-more').click()
      // A scorer line would end in an ellipsis rather than wrap (a goal must not change a row's height): these are not cut.
      const clipped = await page.evaluate(`[...document.querySelectorAll('.tl-name, .tl-who, .tl-scorer, .tl-clock, .tl-score')]
        .filter((e) => e.scrollWidth > e.clientWidth + 0.5 || getComputedStyle(e).textOverflow === 'ellipsis')
        .concat([...document.querySelectorAll('.tl-scorer > span')].filter((e) => e.scrollWidth > e.clientWidth + 0.5))
        .map((e) => e.textContent)`)
      expect(clipped).toEqual([])
      expect(await row.locator('.tl-name').allTextContents()).toEqual([LONG_HOME, LONG_AWAY])
      // The whole name is painted inside the row.
      for (const name of await row.locator('.tl-name').all()) {
        const box = await name.boundingBox()
        const rowBox = await row.boundingBox()
        expect(box !== null && rowBox !== null && box.x >= rowBox.x && box.x + box.width <= rowBox.x + rowBox.width + 0.5).toBe(true)
      }
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
      await shot(page, `rows-long-names-${name}`)
      await page.close()
    })

    it(`has no axe-core violation on / at ${name}, events open`, async () => {
      const { page } = await open(view)
      await page.locator('article[data-fixture="9001"] button.tl-toggle').click()
      expect(await axeViolations(page)).toEqual([])
      await page.close()
    }, 60_000)
  }

  it('writes minutes one way, keeps the clock level with the last event, and shows "-" before kick-off', async () => {
    const page = await browser.newPage()
    await page.goto(`${gw.url}/status`)
    const out = await page.evaluate(`import('/lib/format.js').then((f) => {
      const now = Date.now()
      const base = { id: 1, league_id: 1, version: 1, home: { name: 'A', score: 0 }, away: { name: 'B', score: 0 }, scores: {}, starting_at: null, events: [] }
      const live = { code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' }
      const clock = (countsFrom, length, minutesAgo) => ({ period_started_at: new Date(now - minutesAgo * 60_000 - 20_000).toISOString(), counts_from: countsFrom, length, added: 4, rate: 1, ticking: true })
      return {
        stoppage: f.clockLabel({ ...base, state: live, minute: 93, clock: clock(45, 45, 48) }),
        firstHalfStoppage: f.clockLabel({ ...base, state: { ...live, code: 'INPLAY_1ST_HALF' }, minute: 46, clock: clock(0, 45, 46) }),
        regular: f.clockLabel({ ...base, state: live, minute: 67, clock: clock(45, 45, 22) }),
        // The clock reads 6' when the goal of the 7th minute arrives: the clock shows 7'.
        behind: f.clockLabel({ ...base, state: live, minute: 6, clock: clock(0, 45, 6), events: [{ id: 1, type: 'GOAL', minute: 7, extra_minute: null, side: 'home' }] }),
        behindStoppage: f.clockLabel({ ...base, state: live, minute: 92, clock: clock(45, 45, 47), events: [{ id: 1, type: 'GOAL', minute: 90, extra_minute: 3, side: 'home' }] }),
        noClock: f.clockLabel({ ...base, state: live, minute: 94, period: '2nd-half', clock: null }),
        event: f.eventMinute({ minute: 90, extra_minute: 3 }),
        notStarted: f.notStarted({ ...base, state: { code: 'NS', name: 'Not Started', phase: 'scheduled' } })
      }
    })`)
    expect(out).toEqual({
      stoppage: "90+3'",
      firstHalfStoppage: "45+1'",
      regular: "67'",
      behind: "7'",
      behindStoppage: "90+3'",
      noClock: "90+4'",
      event: "90+3'",
      notStarted: true
    })
    await page.close()
  })

  it('lists today\'s results and kick-offs of the followed leagues in the All tab, with "-" before kick-off', async () => {
    const { page, errors } = await open(VIEWS[2] as typeof VIEWS[number], '/#all')
    const rows = page.locator('#board article.tl-match')
    await expect.poll(async () => await rows.count(), { timeout: 20_000 }).toBeGreaterThan(15)
    const phases = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-phase')))
    expect(phases.some((p) => p === 'finished' || p === 'scheduled')).toBe(true)
    // Only the leagues the page follows, and none of the live matches twice.
    const leagues = new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-league'))))
    expect(leagues.size).toBeGreaterThan(0)
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-fixture')))
    expect(ids.filter((id) => id === '9001')).toHaveLength(1)
    const scheduled = page.locator('#board article[data-phase="scheduled"]').first()
    if (await scheduled.count() > 0) expect((await scheduled.locator('.tl-score').innerText()).trim()).toBe('-')
    expect(errors).toEqual([])
    await page.close()
  })
})
