/**
 * A page that does not jump, keeps the reader's place and says each thing once: placeholder rows of the
 * final height while the first scores load; focus kept on a row's button while the row updates and moves;
 * every expanded list collapsible; one live region, one announcement per goal; while the feed is down the
 * whole board (the day's results and kick-offs too) dimmed, and after the reconnection the goals scored
 * meanwhile flashed once and announced. And the layout shift (PerformanceObserver `layout-shift`) from
 * opening `/` through two minutes of the simulator's live play at 60x: at most 0.05, at 390 and at 1366; and
 * through those minutes no row moved by transform but when a match started or ended (board-page.ts MOVE_METER).
 */
import type { Browser, Page } from 'playwright-core'
import { waitFor } from '../../helpers/wait.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import type { Match } from '../../helpers/matches.ts'
import { busyBoard, type BusyBoard } from './busy-board.ts'
import { cls, CLS_METER, contrast, MOVE_METER, moves, openView, parseRgb, row, startMoveMeter, VIEWS } from './board-page.ts'
import { computed, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, whenLive } from './harness.ts'

const [PHONE, , DESK, DESK_DARK] = VIEWS as [typeof VIEWS[number], typeof VIEWS[number], typeof VIEWS[number], typeof VIEWS[number]]

/**
 * Watches the board from the first script on: the most placeholder rows it held at once, with the board's
 * aria-busy, the placeholder group's aria-hidden and a placeholder's height at that moment.
 */
const PLACEHOLDER_WATCH = `(() => {
  window.__placeholders = { count: 0, busy: null, hidden: null, height: 0 }
  new MutationObserver(() => {
    const rows = document.querySelectorAll('#board .tl-placeholder')
    if (rows.length <= window.__placeholders.count) return
    const group = document.querySelector('#board .tl-placeholder-group')
    window.__placeholders = {
      count: rows.length,
      busy: document.getElementById('board').getAttribute('aria-busy'),
      hidden: group === null ? null : group.getAttribute('aria-hidden'),
      height: rows[0].getBoundingClientRect().height
    }
  }).observe(document, { childList: true, subtree: true })
})()`

/** What has focus: its row's fixture and its class. */
async function focused (page: Page): Promise<string> {
  return await page.evaluate('(() => { const a = document.activeElement; return (a.closest("article") ? a.closest("article").getAttribute("data-fixture") : "-") + " " + a.className })()') as string
}

describe.skipIf(!HAVE_CHROMIUM)('a page that does not jump', () => {
  let browser: Browser
  beforeAll(async () => { browser = await launchBrowser() })
  afterAll(async () => { await browser?.close() })

  describe('on a busy board', () => {
    let gw: UiGateway
    let board: BusyBoard
    const match = (id: number): Match => board.all.find((m) => m.id === id) as Match

    beforeAll(async () => {
      gw = await startUiGateway()
      board = await busyBoard(gw.matches)
    }, 30_000)
    afterAll(async () => { await gw?.close() })

    it('holds the rows\' places with placeholders of the final height while the first scores load', async () => {
      for (const view of [PHONE, DESK]) {
        const page = await browser.newPage({ viewport: { width: view.width, height: view.height }, hasTouch: view.width < 500 })
        // The league names come late: the page waits for them (briefly) before drawing rows.
        await page.route('**/v3/football/leagues?*', async (route) => { await new Promise((resolve) => setTimeout(resolve, 1000)); await route.continue() })
        await page.addInitScript(CLS_METER)
        // What the placeholders were while they stood, seen as the page drew them: on a busy machine the rows
        // may replace them before a look from the test would come.
        await page.addInitScript(PLACEHOLDER_WATCH)
        await page.goto(`${gw.url}/`)
        await row(page, 7103).waitFor()
        const seen = await page.evaluate('window.__placeholders') as { count: number, busy: string | null, hidden: string | null, height: number }
        expect(seen.count).toBeGreaterThanOrEqual(10)
        expect(seen.busy).toBe('true')
        expect(seen.hidden).toBe('true')
        expect(await page.locator('#board .tl-placeholder').count()).toBe(0)
        expect(await page.locator('#board').getAttribute('aria-busy')).toBeNull()
        // PSV 0-0 Celtic Glasgow: a row without a scorer line, the height the placeholders held.
        expect(Math.abs(((await row(page, 7103).boundingBox())?.height ?? 0) - seen.height)).toBeLessThan(1)
        expect(await cls(page)).toBeLessThan(0.01)
        await page.close()
      }
    })

    it('keeps focus on a row\'s button while the row updates and moves, and every expanded list collapses', async () => {
      const { page, errors } = await openView(browser, `${gw.url}/`, PHONE)
      const arsenal = board.arsenal
      const toggle = row(page, arsenal.id).locator('button.tl-toggle')
      await toggle.focus()
      expect(await focused(page)).toBe(`${arsenal.id} tl-toggle`)
      await arsenal.goal('away', 'Nicolas Jackson', 70)
      await expect.poll(async () => await row(page, arsenal.id).locator('.tl-goals').allTextContents()).toEqual(['2', '2'])
      expect(await focused(page)).toBe(`${arsenal.id} tl-toggle`)
      // A match kicks off in the same league: rows move; the focused one keeps its focus.
      await gw.matches.start(7008, 8, 'Aston Borough', 'Villa Park Rangers', 1)
      await row(page, 7008).waitFor()
      expect(await focused(page)).toBe(`${arsenal.id} tl-toggle`)
      for (const [minute, who] of [[71, 'A'], [72, 'B'], [73, 'C'], [74, 'D'], [75, 'E']] as const) await arsenal.card('away', `Player ${who}`, minute)
      await expect.poll(async () => await toggle.innerText()).toMatch(/^Events/)
      expect(await focused(page)).toBe(`${arsenal.id} tl-toggle`)
      // Opened from the keyboard: three yellow cards and "+2 more"; more, then fewer, and focus follows.
      await page.keyboard.press('Enter')
      const yellows = row(page, arsenal.id).locator('.tl-ev[data-type="YELLOWCARD"]')
      await expect.poll(async () => await yellows.count()).toBe(3)
      const more = row(page, arsenal.id).locator('button.tl-more')
      expect(await more.innerText()).toBe('+2 more')
      await more.focus()
      await page.keyboard.press('Enter')
      await expect.poll(async () => await yellows.count()).toBe(5)
      expect(await more.innerText()).toBe('Show fewer')
      await more.focus()
      await page.keyboard.press('Enter')
      await expect.poll(async () => await yellows.count()).toBe(3)
      expect(await focused(page)).toBe(`${arsenal.id} tl-more`)
      // Full time: on the Live tab the row keeps its place until it leaves the tab (one move, not two), and its focus.
      await toggle.focus()
      const league = page.locator('#board section[data-league="8"] article')
      const before = await league.evaluateAll((els) => els.map((e) => e.getAttribute('data-fixture')))
      await arsenal.state('FT')
      await expect.poll(async () => await row(page, arsenal.id).getAttribute('data-phase')).toBe('finished')
      expect(await league.evaluateAll((els) => els.map((e) => e.getAttribute('data-fixture')))).toEqual(before)
      expect(await focused(page)).toBe(`${arsenal.id} tl-toggle`)
      await page.keyboard.press('Enter')
      expect(await toggle.getAttribute('aria-expanded')).toBe('false')
      expect(errors).toEqual([])
      await page.close()
    })

    it('has one live region and says each goal once', async () => {
      const { page } = await openView(browser, `${gw.url}/`, DESK)
      expect(await page.locator('[aria-live]').count()).toBe(1)
      expect(await page.locator('[role="status"], [role="log"]').count()).toBe(0)
      await board.bournemouth.goal('home', 'Dominic Solanke', 7)
      await expect.poll(async () => await page.locator('#announcer').textContent()).toContain('Dominic Solanke')
      // Another change of the match later: the goal is not said again.
      await board.bournemouth.card('away', 'Josh Cullen', 8)
      await row(page, board.bournemouth.id).locator('button.tl-toggle').waitFor()
      const said = await page.locator('#announcer p').allTextContents()
      expect(said.filter((t) => t.includes('Dominic Solanke'))).toEqual(['Goal for Bournemouth Athletic by Dominic Solanke, 7\'. Bournemouth Athletic 1, Burnley United 0.'])
      await page.close()
    })

    it('dims the whole day while the feed is down, then flashes and announces the goals scored meanwhile', async () => {
      const proxy = await startTcpProxy(Number(new URL(gw.url).port))
      try {
        const { page, errors } = await openView(browser, `${proxy.url}/#all`, DESK_DARK)
        const celtic = match(7401)
        const aberdeen = match(7403)
        const name = row(page, celtic.id).locator('.tl-home .tl-name')
        await name.waitFor()
        const bright = await computed(name, 'color')
        // Count the goal flashes of the two rows from here on.
        await page.evaluate(`window.__flashes = {}; for (const id of [${celtic.id}, ${aberdeen.id}]) document.querySelector('#board article[data-fixture="' + id + '"]')
          .addEventListener('animationstart', (e) => { if (e.animationName === 'tl-goal' && e.target === e.currentTarget) window.__flashes[id] = (window.__flashes[id] || 0) + 1 })`)
        proxy.pause()
        proxy.cut()
        await page.locator('#connection[data-state="reconnecting"], #connection[data-state="offline"]').waitFor()
        // Results and kick-offs are dimmed with the matches in play, still readable.
        expect(await page.locator('#board').getAttribute('class')).toContain('tl-dim')
        const dim = await computed(name, 'color')
        expect(dim).not.toBe(bright)
        expect(contrast(parseRgb(dim), parseRgb(await computed(row(page, celtic.id), 'backgroundColor')))).toBeGreaterThanOrEqual(4.5)
        const finished = page.locator('#board article[data-phase="finished"] .tl-name').first()
        if (await finished.count() > 0) expect(await computed(finished, 'color')).toBe(dim)
        await shot(page, 'page-reconnecting-dimmed', { docs: true })
        await celtic.goal('home', 'Kyogo Furuhashi', 20)
        await celtic.goal('home', 'Daizen Maeda', 24)
        await aberdeen.goal('away', 'Simon Murray', 35)
        proxy.resume()
        await whenLive(page)
        await expect.poll(async () => await row(page, celtic.id).locator('.tl-goals').allTextContents(), { timeout: 20_000 }).toEqual(['2', '0'])
        const announcer = page.locator('#announcer')
        await expect.poll(async () => await announcer.textContent()).toContain('While reconnecting: goal for Celtic by Kyogo Furuhashi, 20\'')
        expect(await announcer.textContent()).toContain('While reconnecting: goal for Celtic by Daizen Maeda, 24\'')
        expect(await announcer.textContent()).toContain('While reconnecting: goal for Dundee by Simon Murray, 35\'')
        await expect.poll(async () => await page.evaluate('window.__flashes')).toEqual({ [celtic.id]: 1, [aberdeen.id]: 1 })
        expect(await row(page, celtic.id).locator('.tl-goals.tl-scored').count()).toBe(1)
        expect(await page.locator('#board').getAttribute('class')).not.toContain('tl-dim')
        expect(await computed(name, 'color')).toBe(bright)
        expect(errors).toEqual([])
        await page.close()
      } finally {
        await proxy.close()
      }
    }, 40_000)
  })

  describe('through two minutes of live play at 60x', () => {
    let gw: UiGateway
    beforeAll(async () => { gw = await startUiGateway(undefined, { poll: true }) }, 30_000)
    afterAll(async () => { await gw?.close() })

    it('shifts the layout by at most 0.05 from opening / (at 390 and at 1366) and a match page (at 390); moves rows only as matches start and end', async () => {
      // A match in play, for its page: it plays on through the two minutes (or ends and stays on its page).
      const live = await waitFor('a match in play', async () => (await gw.gw.store.liveFixtures()).find((f) => f.state.phase === 'live' && (f.minute ?? 90) < 30), 20_000)
      // The Live tab at 390 and 1366, the match page, and the day's All tab (kick-offs, matches in play and
      // results: a match that starts or ends changes its place there).
      const views = [PHONE, DESK_DARK, PHONE, DESK]
      const urls = [`${gw.url}/`, `${gw.url}/`, `${gw.url}/match/${live.id}#statistics`, `${gw.url}/#all`]
      const boards = [0, 1, 3]
      const changes = [0, 0, 0, 0]
      const pages = await Promise.all(views.map(async (view, i) => {
        const page = await browser.newPage({ viewport: { width: view.width, height: view.height }, colorScheme: view.dark ? 'dark' : 'light', hasTouch: view.width < 500 })
        page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).includes('"type":"change"')) changes[i] = (changes[i] ?? 0) + 1 }))
        await page.addInitScript(CLS_METER)
        await page.addInitScript(MOVE_METER)
        await page.goto(urls[i] as string)
        return page
      }))
      await Promise.all(boards.map(async (i) => {
        const page = pages[i] as Page
        await page.locator('#board article.tl-match').first().waitFor({ timeout: 20_000 })
        // The leagues named (their order is by importance, known with their names), then the rows in place.
        await expect.poll(async () => await page.locator('#board .tl-league').first().textContent(), { timeout: 20_000 }).toContain('·')
        await startMoveMeter(page)
      }))
      await expect.poll(async () => await pages[2]?.locator('#home-name').textContent(), { timeout: 20_000 }).toBe(live.home.name)
      // The behaviour under test is two minutes of play: matches kick off, score, end and leave.
      const seen = pages.map(() => [] as string[])
      for (let second = 0; second < 120; second += 10) {
        await pages[0]?.waitForTimeout(10_000)
        for (const i of boards) seen[i]?.push((await (pages[i] as Page).locator('#board article.tl-match').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-fixture')}:${e.getAttribute('data-phase')}`))).sort().join(','))
        seen[2]?.push(await pages[2]?.locator('#clock').textContent() ?? '')
      }
      const shifts = await Promise.all(pages.map(async (page) => await cls(page)))
      const moved = await Promise.all(boards.map(async (i) => await moves(pages[i] as Page)))
      process.stdout.write(`layout shift over 2 minutes at 60x: 390 ${shifts[0]?.toFixed(4)}, 1366 ${shifts[1]?.toFixed(4)}, a match page at 390 ${shifts[2]?.toFixed(4)}, All at 1366 ${shifts[3]?.toFixed(4)}; change frames ${changes.join(', ')}\n`)
      process.stdout.write(`rows moved by transform over 2 minutes (Live 390, Live 1366, All 1366): ${moved.map((m) => `${m.moves} moves of rows, at ${m.events} starts and ends, most by one row ${Math.max(0, ...Object.values(m.perRow))}`).join('; ')}\n`)
      for (const [i, page] of pages.entries()) {
        // Live play happened: changes, and the rows changed (a kick-off, a match that ended or left), or
        // the match page's clock moved.
        expect(changes[i]).toBeGreaterThan(i === 2 ? 3 : 30)
        expect(new Set(seen[i]).size).toBeGreaterThan(1)
        expect(shifts[i], `view ${i}: ${JSON.stringify(await page.evaluate('window.__shifts'))}`).toBeLessThanOrEqual(0.05)
      }
      // The meter saw rows move (a match that started or left moves those below it).
      expect(moved.reduce((n, m) => n + m.moves, 0)).toBeGreaterThan(0)
      for (const m of moved) {
        // Matches started or ended while watched, and every move of a row came with one: goals, cards and
        // clocks moved nothing.
        expect(m.events).toBeGreaterThan(0)
        expect(m.unexplained).toEqual([])
        for (const n of Object.values(m.perRow)) expect(n).toBeLessThanOrEqual(m.events)
      }
      for (const page of pages) await page.close()
    }, 300_000) // two minutes of play, and four pages opened and read beside them: a ceiling
  })
})
