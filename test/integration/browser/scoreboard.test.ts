/**
 * The scoreboard page (`/`) in headless Chromium against a real gateway: it lists the live fixtures by
 * league, a goal applied to the store flashes on screen within 3 s and is announced, a VAR-cancelled goal
 * is struck through, and after a dropped connection it resumes from its cursor without missing or
 * repeating a change (or applies a fresh snapshot when the server cannot replay).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import type { Match } from '../../helpers/matches.ts'
import { computed, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

describe.skipIf(!HAVE_CHROMIUM)('scoreboard page', () => {
  let browser: Browser
  let gw: UiGateway
  let celtic: Match
  let midtjylland: Match

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    celtic = await gw.matches.start(7001, 501, 'Celtic', 'Kilmarnock', 18)
    await gw.matches.start(7002, 501, 'Hearts', 'Hibernian', 12)
    midtjylland = await gw.matches.start(7003, 271, 'FC Midtjylland', 'Brøndby IF', 40)
    await midtjylland.card('away', 'J. Hansen', 33)
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  /** Opens the page; `sent` and `received` are the JSON frames of its WebSockets, in order. */
  async function open (url: string, opts: { dark?: boolean, width?: number } = {}): Promise<{ page: Page, errors: string[], sent: any[], received: any[] }> {
    const page = await browser.newPage({ viewport: { width: opts.width ?? 1000, height: 900 }, colorScheme: opts.dark === true ? 'dark' : 'light' })
    const errors = watchErrors(page)
    const sent: any[] = []
    const received: any[] = []
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload))))
      ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload))))
    })
    await page.goto(url)
    await whenLive(page)
    return { page, errors, sent, received }
  }

  const card = (page: Page, id: number) => page.locator(`article[data-fixture="${id}"]`)
  /** Opens a row's events (they stay open across updates). */
  async function openEvents (page: Page, id: number): Promise<void> {
    const toggle = card(page, id).locator('button.tl-toggle')
    await toggle.waitFor()
    if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click()
  }

  it('lists every live fixture grouped by league, with names from the passthrough', async () => {
    const { page, errors } = await open(`${gw.url}/`)
    await expect.poll(async () => await page.locator('#board article.tl-match').count()).toBe(3)
    const headings = await page.locator('#board .tl-league').allTextContents()
    // By importance: both leagues rank 2 upstream, so by country.
    expect(headings).toEqual(['Superliga · Denmark', 'Premiership · Scotland'])
    const scottish = page.locator('#board section.tl-group', { has: page.getByRole('heading', { name: /Premiership/ }) })
    await expect.poll(async () => await scottish.locator('article').count()).toBe(2)
    expect(await card(page, 7001).textContent()).toMatch(/18'.*Celtic.*0-0.*Kilmarnock/)
    await openEvents(page, 7003)
    expect(await card(page, 7003).locator('.tl-ev').textContent()).toContain('J. Hansen')
    expect(await page.locator('main').count()).toBe(1)
    expect(await page.locator('[aria-live="polite"]').count()).toBe(1)
    await shot(page, 'scoreboard-light')
    expect(errors).toEqual([])
    await page.close()
  })

  it('flashes a goal applied to the store within 3 s and announces it', async () => {
    const { page, errors } = await open(`${gw.url}/`)
    await card(page, 7001).waitFor()
    const applied = Date.now()
    await celtic.goal('home', 'K. Furuhashi', 23)
    await card(page, 7001).locator('xpath=self::*[contains(@class, "tl-flash")]').waitFor({ timeout: 3000 })
    const seenAfter = Date.now() - applied
    expect(seenAfter).toBeLessThan(3000)
    expect(await card(page, 7001).locator('.tl-score').textContent()).toBe('1-0')
    expect(await card(page, 7001).locator('.tl-scored').count()).toBe(1)
    await shot(page, 'scoreboard-goal-flash')
    await expect.poll(async () => await page.locator('#announcer').textContent()).toContain('Goal for Celtic by K. Furuhashi')
    expect(await card(page, 7001).locator('.tl-scorer-home').textContent()).toMatch(/23'.*K\. Furuhashi/)
    expect(errors).toEqual([])
    await page.close()
  })

  it('strikes through a goal cancelled by VAR and restores the score', async () => {
    const { page } = await open(`${gw.url}/`)
    await midtjylland.goal('home', 'P. Sisto', 41)
    await expect.poll(async () => await card(page, 7003).locator('.tl-score').textContent()).toBe('1-0')
    await openEvents(page, 7003)
    await midtjylland.cancelGoal('P. Sisto')
    await expect.poll(async () => await card(page, 7003).locator('.tl-score').textContent()).toBe('0-0')
    expect(await card(page, 7003).locator('.tl-cancelled s').textContent()).toBe('P. Sisto')
    await expect.poll(async () => await page.locator('#announcer').textContent()).toContain('cancelled by VAR')
    // An own goal is filed under the scorer's team but counts, and is shown, for the other side.
    await midtjylland.goal('away', 'A. Maxsø', 44, 'OWNGOAL')
    await expect.poll(async () => await card(page, 7003).locator('.tl-score').textContent()).toBe('1-0')
    expect(await card(page, 7003).locator('.tl-ev.tl-home', { hasText: 'A. Maxsø (og)' }).count()).toBe(1)
    expect(await card(page, 7003).locator('.tl-goals').first().getAttribute('class')).toContain('tl-scored')
    await expect.poll(async () => await page.locator('#announcer').textContent()).toContain('Goal for FC Midtjylland, own goal by A. Maxsø')
    await shot(page, 'scoreboard-var')
    await page.close()
  })

  describe('through a connection that drops', () => {
    let proxy: TcpProxy
    beforeAll(async () => { proxy = await startTcpProxy(new URL(gw.url).port === '' ? 80 : Number(new URL(gw.url).port)) })
    afterAll(async () => { await proxy?.close() })

    it('reconnects and resumes from its cursor: changes made while down appear once', async () => {
      const { page, errors, sent, received } = await open(`${proxy.url}/`)
      await card(page, 7002).waitFor()
      const hearts = await gw.matches.start(7004, 501, 'Aberdeen', 'Dundee', 5)
      await card(page, 7004).waitFor({ timeout: 3000 })
      // Both first snapshots in (the live set's, then the day's) before the link is cut (see below).
      await expect.poll(() => received.filter((f) => f.type === 'snapshot').length).toBe(2)
      proxy.pause()
      proxy.cut()
      await page.locator('#connection[data-state="reconnecting"], #connection[data-state="offline"]').waitFor()
      await shot(page, 'scoreboard-reconnecting')
      await hearts.goal('away', 'L. Shinnie', 9)
      await hearts.card('home', 'G. Mackay-Steven', 11)
      await hearts.goal('home', 'B. Miovski', 14)
      proxy.resume()
      await whenLive(page)
      await expect.poll(async () => await card(page, 7004).locator('.tl-score').textContent(), { timeout: 20_000 }).toBe('1-1')
      await openEvents(page, 7004)
      const events = await card(page, 7004).locator('.tl-ev').allTextContents()
      expect(events).toHaveLength(3)
      expect(events.join(' | ')).toMatch(/L\. Shinnie.*G\. Mackay-Steven.*B\. Miovski/)
      // The live set, then the day once it was in; after the drop one subscribe of both resumed from the last
      // cursor the page had applied, and the server replayed.
      const subscribes = sent.filter((f) => f.op === 'subscribe')
      expect(subscribes).toHaveLength(3)
      expect(subscribes[0]).toMatchObject({ leagues: '*' })
      expect(subscribes[1]).toMatchObject({ dates: [expect.stringMatching(/^\d{4}-\d\d-\d\d$/)] })
      const lastBefore = received.filter((f) => f.type === 'change' && f.fixture_id === 7004 && f.fixture.version === 1).at(-1)
      expect(subscribes[2]).toMatchObject({ leagues: '*', dates: subscribes[1].dates, since: lastBefore.cursor, snapshot: false })
      expect(received.find((f) => f.type === 'replay')).toMatchObject({ recovered: true, count: 3 })
      expect(received.filter((f) => f.type === 'change' && f.fixture_id === 7004)).toHaveLength(4)
      // Goals scored while the page was away are announced, as such, as live goals are (stability.test.ts: flashed).
      await expect.poll(async () => await page.locator('#announcer').textContent()).toContain('While reconnecting: goal for Dundee by L. Shinnie, 9\'')
      expect(await page.locator('#announcer').textContent()).toContain('While reconnecting: goal for Aberdeen by B. Miovski, 14\'')
      expect(errors).toEqual([])
      await page.close()
    })

    it('applies a fresh snapshot when the server cannot replay (recovered: false)', async () => {
      const { page, received } = await open(`${proxy.url}/`)
      await card(page, 7004).waitFor()
      // Both first snapshots in (the live set's, then the day's) before the link is cut: a row shows from the
      // first, and a busy machine can cut the link before the second.
      await expect.poll(() => received.filter((f) => f.type === 'snapshot').length).toBe(2)
      proxy.pause()
      proxy.cut()
      await page.locator('#connection[data-state="reconnecting"], #connection[data-state="offline"]').waitFor()
      // More changes than the replay cap (1000): the resume cannot be served, a snapshot follows.
      const aberdeen = await gw.matches.start(7005, 501, 'St Mirren', 'Motherwell', 1)
      for (let minute = 2; minute <= 1002; minute++) await aberdeen.clock(minute)
      await aberdeen.goal('home', 'M. Olusanya', 60)
      proxy.resume()
      await whenLive(page)
      await expect.poll(async () => await card(page, 7005).locator('.tl-score').textContent(), { timeout: 20_000 }).toBe('1-0')
      expect(await card(page, 7001).locator('.tl-score').textContent()).toBe('1-0')
      expect(received.find((f) => f.type === 'replay')).toMatchObject({ recovered: false })
      // The live set's and the day's at first, then the fresh one of both.
      expect(received.filter((f) => f.type === 'snapshot')).toHaveLength(3)
      await page.close()
    })
  })

  it('is readable in dark mode and on a phone', async () => {
    const { page } = await open(`${gw.url}/`, { dark: true })
    await card(page, 7001).waitFor()
    const bg = await computed(page.locator('html'), 'backgroundColor')
    expect(bg).not.toBe('rgb(244, 245, 247)')
    await shot(page, 'scoreboard-dark')
    await page.close()
    const phone = await open(`${gw.url}/`, { width: 380 })
    await card(phone.page, 7001).waitFor()
    const overflow = await phone.page.evaluate('document.documentElement.scrollWidth > window.innerWidth')
    expect(overflow).toBe(false)
    await shot(phone.page, 'scoreboard-phone')
    await phone.page.close()
  })
})
