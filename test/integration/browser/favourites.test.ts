/**
 * Favourites on the scoreboard and the match page (lib/favourites.js), in Chromium, on the busy simulated
 * board: a match starred on its row, a league pinned to the top by its star, a team starred on a match
 * page; all kept across a reload with no permission asked (Notification.requestPermission never called,
 * the permission still `default`), and the My matches tab listing exactly the fan's matches. A league
 * folded away stays folded; the tabs are a tablist the arrow keys move through; a tab switch shows the
 * tab from its top; the day strip is the week around today, 3 back and 3 ahead, with a calendar.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { busyBoard, LEAGUES, LEAGUE_ORDER, type BusyBoard } from './busy-board.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'
import { seedDays } from './seed-days.ts'

/** Counts the calls of Notification.requestPermission (and of the Push permission's), none of which may come. */
const PERMISSION_SPY = `
  window.__asked = 0
  if (window.Notification) window.Notification.requestPermission = () => { window.__asked++; return Promise.resolve('default') }
`

const VIEWS = [{ width: 390, height: 844, dark: false }, { width: 1366, height: 768, dark: true }] as const

/** The leagues' sections, top to bottom. */
const sections = async (page: Page): Promise<number[]> =>
  await page.locator('#board section[data-league]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-league'))))

/** The fixtures of the rows shown, top to bottom. */
const rowsShown = async (page: Page): Promise<number[]> =>
  await page.locator('#board article.tl-match[data-fixture]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fixture'))))

describe.skipIf(!HAVE_CHROMIUM)('favourites: stars kept in the browser, no permission asked', () => {
  let browser: Browser
  let gw: UiGateway
  let board: BusyBoard

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    board = await busyBoard(gw.matches)
    await seedDays(gw.gw, { leagues: LEAGUE_ORDER })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  for (const view of VIEWS) {
    const name = `${view.width}-${view.dark ? 'dark' : 'light'}`
    it(`stars a match, pins a league and stars a team, all kept across a reload; My matches lists them (${name})`, async () => {
      const context = await browser.newContext({ viewport: { width: view.width, height: view.height }, colorScheme: view.dark ? 'dark' : 'light', hasTouch: view.width < 500, locale: 'en-US' })
      await context.addInitScript(PERMISSION_SPY)
      const page = await context.newPage()
      const errors = watchErrors(page)
      try {
        await page.goto(`${gw.url}/`)
        await whenLive(page)
        await expect.poll(async () => await sections(page)).toEqual(LEAGUE_ORDER)
        // A match starred on its row.
        const star = page.locator(`#board article[data-fixture="${board.arsenal.id}"] .tl-star`)
        expect(await star.getAttribute('aria-pressed')).toBe('false')
        await star.click()
        await expect.poll(async () => await star.getAttribute('aria-pressed')).toBe('true')
        // A league pinned to the top by its star: it moves above the rest.
        await page.locator(`#board section[data-league="${LEAGUES.superliga}"] .tl-pin`).click()
        await expect.poll(async () => (await sections(page))[0]).toBe(LEAGUES.superliga)
        // A team starred on a match page.
        await page.goto(`${gw.url}/match/${board.mannheim.id}`)
        const team = page.locator('.mh-star[data-star="home"]')
        await expect.poll(async () => await team.isEnabled()).toBe(true)
        expect(await team.textContent()).toContain(board.mannheim.fixture.home.name)
        await team.click()
        await expect.poll(async () => await team.getAttribute('aria-pressed')).toBe('true')
        expect(await axeViolations(page)).toEqual([])

        // Kept across a reload.
        await page.goto(`${gw.url}/`)
        await page.reload()
        await whenLive(page)
        await expect.poll(async () => await page.locator(`#board article[data-fixture="${board.arsenal.id}"] .tl-star`).getAttribute('aria-pressed')).toBe('true')
        await expect.poll(async () => await sections(page)).toEqual([LEAGUES.superliga, ...LEAGUE_ORDER.filter((id) => id !== LEAGUES.superliga)])
        expect(await page.locator(`#board section[data-league="${LEAGUES.superliga}"] .tl-pin`).getAttribute('aria-pressed')).toBe('true')
        // The match of the starred team is the fan's too: its star says so without being pressed.
        expect(await page.locator(`#board article[data-fixture="${board.mannheim.id}"] .tl-star`).getAttribute('data-mine')).toBe('true')

        // My matches: the starred match, the starred team's, and every match of the pinned league.
        await page.locator('.tabs a[data-tab="mine"]').click()
        await expect.poll(async () => await page.locator('.tabs a[aria-selected="true"]').getAttribute('data-tab')).toBe('mine')
        const mine = await page.evaluate(`(() => {
          const saved = JSON.parse(localStorage.getItem('touchline.favourites'))
          return saved
        })()`) as { matches: number[], teams: number[], leagues: number[] }
        expect(mine).toMatchObject({ matches: [board.arsenal.id], teams: [board.mannheim.fixture.home.id], leagues: [LEAGUES.superliga] })
        const shown = await rowsShown(page)
        expect(shown).toContain(board.arsenal.id)
        expect(shown).toContain(board.mannheim.id)
        const leagueOf = await page.locator('#board article.tl-match[data-fixture]').evaluateAll((els) => els.map((e) => Number(e.closest('section')?.getAttribute('data-league'))))
        for (const [i, id] of shown.entries()) {
          expect(id === board.arsenal.id || id === board.mannheim.id || leagueOf[i] === LEAGUES.superliga, `row ${id} is the fan's`).toBe(true)
        }
        expect(await page.locator('.tabs a[data-tab="mine"] .count').textContent()).toBe(String(shown.length))
        await shot(page, `favourites-${name}`, { docs: true })
        expect(await axeViolations(page)).toEqual([])

        // No permission was asked for, at any step.
        expect(await page.evaluate('window.__asked')).toBe(0)
        expect(await page.evaluate('Notification.permission')).toBe('default')
        expect(errors).toEqual([])
      } finally {
        await context.close()
      }
    }, 60_000)
  }

  it('folds a league away by its name, and keeps it folded across a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
    try {
      await page.goto(`${gw.url}/`)
      await whenLive(page)
      const fold = page.locator(`#board section[data-league="${LEAGUES.premier}"] .tl-fold`)
      await fold.waitFor()
      const rows = page.locator(`#board section[data-league="${LEAGUES.premier}"] article.tl-match`)
      expect(await rows.first().isVisible()).toBe(true)
      await fold.click()
      expect(await fold.getAttribute('aria-expanded')).toBe('false')
      await expect.poll(async () => await rows.first().isVisible()).toBe(false)
      await page.reload()
      await whenLive(page)
      await expect.poll(async () => await page.locator(`#board section[data-league="${LEAGUES.premier}"] .tl-fold`).getAttribute('aria-expanded')).toBe('false')
      expect(await page.locator(`#board section[data-league="${LEAGUES.premier}"] article.tl-match`).first().isVisible()).toBe(false)
      // The sections below take its place (they slide there): none overlaps another.
      const overlaps = async (): Promise<number> => await page.locator('#board section[data-league]').evaluateAll((els) => {
        const boxes = els.map((e) => e.getBoundingClientRect())
        return boxes.filter((b, i) => i > 0 && b.top < (boxes[i - 1] as { bottom: number }).bottom - 0.5).length
      })
      await expect.poll(overlaps).toBe(0)
    } finally {
      await page.close()
    }
  })

  it('has tabs a screen reader knows as tabs: the arrow keys move through them, and a switch shows the tab from its top', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 500 } })
    try {
      await page.goto(`${gw.url}/#all`)
      await whenLive(page)
      await page.locator('#board article.tl-match').first().waitFor()
      expect(await page.locator('[role="tablist"] [role="tab"]').count()).toBe(5)
      expect(await page.locator('#board').getAttribute('role')).toBe('tabpanel')
      expect(await page.locator('#board').getAttribute('aria-labelledby')).toBe('tab-all')
      // Scrolled down the All tab, then another tab by the keyboard: its top is shown, the tabs still in reach.
      await page.mouse.wheel(0, 1500)
      await expect.poll(async () => await page.evaluate('window.scrollY') as number).toBeGreaterThan(500)
      await page.locator('#tab-all').focus()
      await page.keyboard.press('ArrowRight')
      await expect.poll(async () => await page.evaluate('location.hash')).toBe('#finished')
      expect(await page.evaluate('document.activeElement.id')).toBe('tab-finished')
      // The address changes before the page's hashchange handler has run: its effects are awaited.
      await expect.poll(async () => await page.locator('#tab-finished').getAttribute('aria-selected')).toBe('true')
      expect(await page.locator('#tab-all').getAttribute('tabindex')).toBe('-1')
      await expect.poll(async () => await page.evaluate('window.scrollY')).toBe(0)
      await page.keyboard.press('End')
      await expect.poll(async () => await page.evaluate('location.hash')).toBe('#mine')
      await page.keyboard.press('Home')
      await expect.poll(async () => await page.evaluate('location.hash')).toBe('#live')
    } finally {
      await page.close()
    }
  })

  it('offers the week around today, 3 days back and 3 ahead, and a calendar of the same days', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await page.goto(`${gw.url}/#all`)
      await whenLive(page)
      const days = await page.locator('#day-strip a').evaluateAll((els) => els.map((e) => [e.getAttribute('data-day'), e.textContent, e.getAttribute('aria-current')]))
      expect(days).toHaveLength(7)
      expect(days.slice(2, 5).map(([day, text]) => [day, text])).toEqual([['yesterday', 'Yesterday'], ['today', 'Today'], ['tomorrow', 'Tomorrow']])
      expect(days[3]?.[2]).toBe('date')
      const dates = await page.evaluate('(() => { const c = document.getElementById(\'calendar\'); return [c.min, c.max, c.value] })()') as string[]
      expect(days[0]?.[0]).toBe(dates[0])
      expect(days[6]?.[0]).toBe(dates[1])
      // Three days ahead, from the strip: the address names it by its date.
      await page.locator('#day-strip a').nth(6).click()
      await expect.poll(async () => await page.evaluate('location.hash')).toBe(`#all/${dates[1]}`)
      // The calendar: a day picked is the day shown.
      await page.locator('#calendar').fill(dates[0] as string)
      await expect.poll(async () => await page.evaluate('location.hash')).toBe(`#all/${dates[0]}`)
      await expect.poll(async () => await page.locator('#day-strip a[aria-current="date"]').getAttribute('data-day')).toBe(dates[0])
    } finally {
      await page.close()
    }
  })
})
