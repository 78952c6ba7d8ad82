/**
 * The match page (`/match/{id}`) in headless Chromium, on a gateway that polls the embedded provider (60x):
 * opened cold from its address at 390 and 1366, light and dark; its four tabs live (a statistic, the
 * line-ups and the table equal to what the feed holds); a tab linked by its address; the board's link to
 * it and the back button; stale within 2 s of going offline, the clock stopped; no axe violation; no layout
 * shift worth the name while the match plays.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LeagueStandings, LiveFixture } from '../../../src/wire-model/model.ts'
import { cls, CLS_METER, VIEWS, viewName, type View } from './board-page.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

describe.skipIf(!HAVE_CHROMIUM)('the match page', () => {
  let browser: Browser
  let gw: UiGateway
  /** A match in play whose line-ups, statistics and league table the gateway holds. */
  let match: LiveFixture

  const held = async (): Promise<LiveFixture> => (await gw.gw.store.getFixture(match.id)) as LiveFixture
  const table = async (): Promise<LeagueStandings | undefined> => (await gw.gw.store.getStandings([match.league_id]))[0]

  beforeAll(async () => {
    gw = await startUiGateway(undefined, { poll: true })
    browser = await launchBrowser()
    await vi.waitFor(async () => {
      const live = await gw.gw.store.liveFixtures()
      const tables = new Set((await gw.gw.store.getStandings()).map((t) => t.league_id))
      const found = live.find((f) => f.state.phase === 'live' && f.lineups !== null && Object.keys(f.statistics).length > 3 && tables.has(f.league_id) && f.state.code === 'INPLAY_2ND_HALF')
      expect(found, 'a match in its second half, with line-ups, statistics and its league\'s table').toBeDefined()
      match = found as LiveFixture
    }, { timeout: 60_000, interval: 500 })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  async function open (path: string, view: View): Promise<{ page: Page, errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: view.width, height: view.height }, colorScheme: view.dark ? 'dark' : 'light', hasTouch: view.width < 500, locale: 'en-GB' })
    const errors = watchErrors(page)
    await page.addInitScript(CLS_METER)
    await page.goto(`${gw.url}${path}`)
    await whenLive(page)
    await expect.poll(async () => await page.locator('#home-name').textContent()).toBe(match.home.name)
    return { page, errors }
  }

  it.each(VIEWS)('opens cold from its address, and shows the four tabs live ($width, dark $dark)', async (view) => {
    const { page, errors } = await open(`/match/${match.id}`, view)
    // docs/ui keeps the phone in light and the desktop in dark (TOUCHLINE_DOCS_SCREENSHOTS=1 writes them).
    const docs = view.width < 500 ? !view.dark : view.dark
    // The header: the names, the score the gateway holds, the half-time score.
    await expect.poll(async () => await page.locator('#score').textContent()).toBe(`${(await held()).home.score} - ${(await held()).away.score}`)
    const first = (await held()).scores['1st_half']
    if (first !== undefined) expect(await page.locator('#halftime').textContent()).toBe(`HT ${first.home}-${first.away}`)
    expect(await page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-tab')).toBe('summary')
    await shot(page, `match-${viewName(view)}-summary`, { docs })

    // Statistics: the possession shown is what the feed holds now (it moves while the match plays).
    await page.click('#tab-statistics')
    expect(await page.locator('#panel-statistics').isVisible()).toBe(true)
    expect(await page.locator('#panel-summary').isHidden()).toBe(true)
    await expect.poll(async () => {
      const pair = (await held()).statistics.shots_total
      const shown = await page.locator('.mstat[data-stat="shots_total"] .mval').allTextContents()
      return shown.join('-') === `${pair?.home ?? '–'}-${pair?.away ?? '–'}`
    }, { timeout: 10_000 }).toBe(true)
    expect(await page.locator('.mstat').count()).toBeGreaterThan(5)
    await shot(page, `match-${viewName(view)}-statistics`, { docs })

    // Line-ups: each starting eleven as published, on a pitch of its formation.
    await page.click('#tab-lineups')
    const lineups = (await held()).lineups
    for (const side of ['home', 'away'] as const) {
      const names = await page.locator(`.mpitch-${side} .mpname`).allTextContents()
      expect(names.sort()).toEqual((lineups?.[side].starting ?? []).map((p) => p.name ?? '').sort())
      expect(await page.locator(`.mteam[data-side="${side}"] .mbench .mplayer`).count()).toBe(lineups?.[side].bench.length)
    }
    await shot(page, `match-${viewName(view)}-lineups`, { docs })

    // Table: the league's live table, as the gateway holds it, this match's two teams marked.
    await page.click('#tab-table')
    await expect.poll(async () => {
      const t = await table()
      const rows = await page.locator('.mtable tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-team') ?? ''}:${tr.querySelector('.mt-pts')?.textContent ?? ''}`))
      const group = t?.tables.find((g) => g.rows.some((r) => r.team.id === match.home.id))
      return JSON.stringify(rows) === JSON.stringify(group?.rows.map((r) => `${r.team.id}:${r.points}`))
    }, { timeout: 10_000 }).toBe(true)
    expect((await page.locator('.mtable tr[aria-current="true"]').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-team'))))).sort()).toEqual([match.home.id, match.away.id].sort())
    await shot(page, `match-${viewName(view)}-table`, { docs })

    expect(await axeViolations(page)).toEqual([])
    expect(await cls(page)).toBeLessThan(0.05)
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('opens the tab its address names, keeps the tab in the address without a history entry, and the keyboard moves between tabs', async () => {
    const { page } = await open(`/match/${match.id}#lineups`, VIEWS[2] as View)
    const entries = await page.evaluate('history.length')
    expect(await page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-tab')).toBe('lineups')
    expect(await page.locator('#panel-lineups').isVisible()).toBe(true)
    await page.locator('#tab-lineups').focus()
    await page.keyboard.press('ArrowRight')
    expect(await page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-tab')).toBe('table')
    expect(await page.evaluate('document.activeElement.id')).toBe('tab-table')
    expect(new URL(page.url()).hash).toBe('#table')
    expect(await page.evaluate('history.length')).toBe(entries)
    await page.close()
  })

  it('is linked from the board\'s open events, and the back button returns to the board', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } })
    // The All tab: the match is on it whether it still plays or has ended by now (at 60x it ends within
    // two minutes of the suite's start, and a busy machine can take that long to reach this test).
    await page.goto(`${gw.url}/#all`)
    const row = page.locator(`#board article[data-fixture="${match.id}"]`)
    await row.locator('button.tl-toggle').click()
    const link = row.locator('a.tl-match-link')
    expect(await link.getAttribute('href')).toBe(`/match/${match.id}`)
    await link.click()
    await page.waitForURL(`**/match/${match.id}`)
    await expect.poll(async () => await page.locator('#home-name').textContent()).toBe(match.home.name)
    await page.goBack()
    await page.waitForURL(`${gw.url}/#all`)
    await row.waitFor()
    await page.close()
  }, 60_000) // a ceiling: 5 s alone; over 30 s once beside the suite on a loaded machine

  it('says it is offline within 2 s of the network going, its clock stopped at its last minute', async () => {
    const { page } = await open(`/match/${match.id}`, VIEWS[2] as View)
    const context = page.context()
    await context.setOffline(true)
    await page.locator('body[data-stale]').waitFor({ timeout: 2000 })
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('offline')
    const stopped = await page.locator('#clock').textContent()
    // Long enough for a 60x clock to have moved a minute or more had it run on.
    await page.waitForTimeout(2500)
    expect(await page.locator('#clock').textContent()).toBe(stopped)
    await context.setOffline(false)
    await whenLive(page)
    expect(await page.locator('body[data-stale]').count()).toBe(0)
    await page.close()
  }, 40_000)

  it('says so for an address of a match the gateway does not hold', async () => {
    const page = await browser.newPage()
    await page.goto(`${gw.url}/match/99999999`)
    await expect.poll(async () => await page.locator('#refusal').textContent(), { timeout: 20_000 }).toMatch(/not one the gateway holds/)
    expect((await fetch(`${gw.url}/match/abc`)).status).toBe(404)
    await page.close()
  })
})
