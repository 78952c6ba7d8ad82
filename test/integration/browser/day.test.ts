/**
 * The scoreboard's day is the gateway's day model, on a gateway that polls the embedded provider (60x): the
 * All tab lists every fixture `/v1/fixtures?date=` answers for the day in the browser's time zone (hundreds:
 * no cap), switching day follows the new day on the feed instead of the old one, a kick-off the provider
 * moves (later the same day, to another day) or a match it postpones moves on the page without a reload,
 * pushed by the feed, and the page never asks the upstream's fixtures (`/v3/football/fixtures`).
 *
 * The browser runs in a zone where it is 22:xx now, whenever the test runs: the simulator packs its
 * kick-offs into the hours after now (about 190 an hour), so "today" there holds the next one to two hours'
 * kick-offs and the day's results, and the moves below stay within it.
 */
import type { Browser, Page, WebSocket } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'
import { dayOf } from './seed-days.ts'

/** A whole-hour zone where the wall clock reads 22:xx now, and its offset from UTC (`Etc/GMT-3` is UTC+3). */
function zoneAt22 (): { name: string, offsetMs: number } {
  let hours = 22 - new Date().getUTCHours()
  if (hours > 14) hours -= 24
  if (hours < -12) hours += 24
  return { name: hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`, offsetMs: hours * 3_600_000 }
}

const ZONE = zoneAt22()
const TZ = ZONE.name
const MINUTE = 60_000

/** `YYYY-MM-DD` of `ms` in TZ. */
const dateIn = (ms: number): string => new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms)
/**
 * The calendar date `days` after `date` (both `YYYY-MM-DD`), by the calendar alone: noon UTC of a date is
 * already the next day in the zones ahead of UTC+12 that the test picks at some hours.
 */
const shiftDate = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 24 * 60 * MINUTE).toISOString().slice(0, 10)

/** `21:45` of `ms` in TZ, as the rows write a kick-off. */
const hhmm = (ms: number): string => new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms)

/** What a page asked over HTTP and sent and received on its socket. */
interface Watched { page: Page, errors: string[], requests: string[], sent: Array<Record<string, unknown>>, received: Array<Record<string, unknown>> }

describe.skipIf(!HAVE_CHROMIUM)('the day on the page is the gateway\'s day model', () => {
  let browser: Browser
  let gw: UiGateway
  const today = (): string => dateIn(Date.now())
  const dayIds = async (date: string): Promise<number[]> => (await dayOf(gw.url, 'demo', date, TZ)).map((f) => f.id).sort((a, b) => a - b)

  beforeAll(async () => {
    gw = await startUiGateway(undefined, { poll: true })
    browser = await launchBrowser()
    // The poller's first read of the days is in.
    await vi.waitFor(async () => { expect((await dayIds(today())).length).toBeGreaterThan(150) }, { timeout: 60_000, interval: 500 })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  async function open (path: string): Promise<Watched> {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, timezoneId: TZ, locale: 'en-GB' })
    const errors = watchErrors(page)
    const requests: string[] = []
    const sent: Array<Record<string, unknown>> = []
    const received: Array<Record<string, unknown>> = []
    page.on('request', (r) => requests.push(r.url()))
    page.on('websocket', (ws: WebSocket) => {
      ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload)) as Record<string, unknown>))
      ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload)) as Record<string, unknown>))
    })
    await page.goto(`${gw.url}${path}`)
    await whenLive(page)
    return { page, errors, requests, sent, received }
  }

  /** The fixture ids of the board's rows, sorted. */
  const rowIds = async (page: Page): Promise<number[]> =>
    (await page.locator('#board article.tl-match').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fixture'))))).sort((a, b) => a - b)

  it('lists the whole day in the All tab (as many rows as /v1/fixtures?date= has, over 150), follows the day switched to, and never asks /v3/football/fixtures', async () => {
    const { page, errors, requests, sent } = await open('/#all')
    // Every fixture of the day, no cap: the same ids as the day model's answer (which moves as the poller
    // adds what the provider schedules, so read again until both agree).
    await expect.poll(async () => JSON.stringify(await rowIds(page)) === JSON.stringify(await dayIds(today())), { timeout: 15_000 }).toBe(true)
    const rows = await page.locator('#board article.tl-match').count()
    expect(rows).toBeGreaterThan(150)
    expect(await page.locator('.tabs a[data-tab="all"] .count').textContent()).toBe(String(rows))
    process.stdout.write(`today in ${TZ}: ${rows} rows in the All tab\n`)
    await shot(page, 'day-all-rows')
    // The page followed the live set, and the day in its time zone (as the browser names it: `Etc/GMT` is `UTC`).
    const zone = await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone') as string
    expect(sent.find((f) => f.op === 'subscribe')).toMatchObject({ leagues: '*' })
    expect(sent.find((f) => f.op === 'subscribe' && f.dates !== undefined)).toMatchObject({ dates: [today()], tz: zone })

    // Yesterday: the old day let go, the new one followed, its fixtures all listed.
    const yesterday = shiftDate(today(), -1)
    await page.locator('#days a[data-day="yesterday"]').click()
    await expect.poll(() => new URL(page.url()).hash, { timeout: 15_000 }).toBe('#all/yesterday')
    await expect.poll(() => sent.filter((f) => f.op === 'unsubscribe').at(-1), { timeout: 15_000 }).toMatchObject({ dates: [today()] })
    await expect.poll(() => sent.filter((f) => f.op === 'subscribe').at(-1), { timeout: 15_000 }).toMatchObject({ dates: [yesterday], tz: zone })
    const expected = await dayIds(yesterday)
    await expect.poll(async () => await page.locator('.tabs a[data-tab="all"] .count').textContent(), { timeout: 20_000 }).toBe(String(expected.length))
    expect(await rowIds(page)).toEqual(expected)
    // Back to today, and the Live tab: the matches in play, live.
    await page.locator('#days a[data-day="today"]').click()
    await expect.poll(() => sent.filter((f) => f.op === 'subscribe').at(-1), { timeout: 15_000 }).toMatchObject({ dates: [today()] })
    await expect.poll(async () => (await rowIds(page)).length, { timeout: 20_000 }).toBe(rows)
    await page.locator('.tabs a[data-tab="live"]').click()
    await page.locator('#board article.tl-match[data-phase="live"]').first().waitFor()

    // No read of the upstream's fixtures, nor of the day model by HTTP: the day came on the feed.
    expect(requests.filter((u) => u.includes('/v3/football/fixtures'))).toEqual([])
    expect(requests.filter((u) => u.includes('/v1/fixtures'))).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 90_000)

  it('moves a kick-off the provider moves or postpones, without a reload: a later time today, another day, postponed', async () => {
    const provider = gw.gw.provider
    if (provider === undefined) throw new Error('no embedded provider')
    // Three of today's kick-offs 20 to 40 minutes away, in different leagues (each is re-ordered in its own).
    const now = Date.now()
    const soon = (await dayOf(gw.url, 'demo', today(), TZ))
      .filter((f) => f.state.phase === 'scheduled' && f.starting_at !== null && Date.parse(f.starting_at) > now + 20 * MINUTE && Date.parse(f.starting_at) < now + 40 * MINUTE)
    const picked: LiveFixture[] = []
    for (const f of soon) if (!picked.some((p) => p.league_id === f.league_id)) picked.push(f)
    const [later, elsewhere, postponed] = picked as [LiveFixture, LiveFixture, LiveFixture]
    expect(postponed, 'three kick-offs 20 to 40 minutes away in three leagues').toBeDefined()
    const kickoff = (f: LiveFixture): number => Date.parse(f.starting_at ?? '')

    const { page, errors, requests, received } = await open('/#scheduled')
    const row = (f: LiveFixture): ReturnType<Page['locator']> => page.locator(`#board article[data-fixture="${f.id}"]`)
    for (const f of picked.slice(0, 3)) await row(f).waitFor()
    expect(await row(later).locator('.tl-clock-text').textContent()).toBe(hhmm(kickoff(later)))
    await page.evaluate('window.__sameDocument = true')
    const scheduled = Number(await page.locator('.tabs a[data-tab="scheduled"] .count').textContent())
    const requestsBefore = requests.length

    // At the provider: 17 minutes later today; to 02:00 tomorrow; postponed. Announced now.
    const at = Date.now()
    const laterKickoff = Math.floor((kickoff(later) + 17 * MINUTE) / 1000) * 1000
    const tomorrow = shiftDate(today(), 1)
    const elsewhereKickoff = Date.parse(`${tomorrow}T02:00:00Z`) - ZONE.offsetMs
    provider.schedule.move(later.id, laterKickoff, at)
    provider.schedule.move(elsewhere.id, elsewhereKickoff, at)
    provider.schedule.postpone(postponed.id, at)
    expect(provider.schedule.kickoffAt(later.id, Date.now())).toBe(laterKickoff)
    expect(dateIn(elsewhereKickoff)).toBe(tomorrow)

    // On the page, pushed by the feed (fixtures/latest, polled every 8 s while polls overlap): the new time
    // in its row, the row in its new place in its league; the one moved to tomorrow and the postponed one
    // off today's kick-offs.
    await expect.poll(async () => await row(later).locator('.tl-clock-text').textContent(), { timeout: 30_000 }).toBe(hhmm(laterKickoff))
    const clocks = await page.locator(`#board section[data-league="${later.league_id}"] article.tl-match .tl-clock-text`).allTextContents()
    expect(clocks).toEqual([...clocks].sort())
    await expect.poll(async () => await row(elsewhere).count(), { timeout: 30_000 }).toBe(0)
    await expect.poll(async () => await row(postponed).count(), { timeout: 30_000 }).toBe(0)
    expect(Number(await page.locator('.tabs a[data-tab="scheduled"] .count').textContent())).toBeLessThanOrEqual(scheduled - 2)
    const pushed = (f: LiveFixture, kind: string): boolean => received.some((m) => m.type === 'change' && m.fixture_id === f.id &&
      (m.changes as Array<{ kind: string, fields?: Record<string, unknown> }>).some((c) => c.kind === kind && (kind !== 'fixture_updated' || 'starting_at' in (c.fields ?? {}))))
    expect(pushed(later, 'fixture_updated')).toBe(true)
    expect(pushed(elsewhere, 'fixture_updated')).toBe(true)
    expect(pushed(postponed, 'state_changed')).toBe(true)

    // Postponed: in today's results, in words; moved: in tomorrow's kick-offs, at its new time.
    await page.locator('.tabs a[data-tab="finished"]').click()
    await expect.poll(async () => await row(postponed).locator('.tl-word').textContent(), { timeout: 20_000 }).toBe('Postponed')
    await page.locator('#days a[data-day="tomorrow"]').click()
    await page.locator('.tabs a[data-tab="scheduled"]').click()
    await expect.poll(() => new URL(page.url()).hash, { timeout: 15_000 }).toBe('#scheduled/tomorrow')
    // A day of a thousand fixtures comes with its snapshot, then is drawn: on a busy machine, seconds.
    await expect.poll(async () => await row(elsewhere).locator('.tl-clock-text').textContent({ timeout: 1000 }).catch(() => null), { timeout: 30_000 }).toBe(hhmm(elsewhereKickoff))

    // All without a reload, and with nothing read but the feed.
    expect(await page.evaluate('window.__sameDocument')).toBe(true)
    expect(requests.slice(requestsBefore).filter((u) => u.includes('/fixtures'))).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 120_000)
})
