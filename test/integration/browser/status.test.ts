/**
 * The status page (`/status`) in headless Chromium: budget per entity with its reset countdown and burn
 * rate, the livescore and odds pollers side by side, the detection latency, the store, connections and
 * rates, Web Push deliveries (sent, retrying, failed), and the four charts of the last hour, drawn from
 * `GET /v1/status`. Each figure is checked against the very answer the page drew (the page marks it with
 * its `now`), read in one go so that a refresh cannot come in between.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StatusBody } from '../../../src/http/status.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { startPushService } from '../../helpers/push-service.ts'
import { waitFor } from '../../helpers/wait.ts'
import { follow, VAPID } from '../webpush/harness.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

/** What the page shows, read at one instant. */
interface Drawn {
  now: string
  tiles: Array<{ label: string, value: string, hint: string, warn: boolean }>
  burn: Record<string, string>
  poller: Record<string, string>
  odds: Record<string, string>
  oddsLastPoll: string | null
  store: Record<string, string>
}

const READ = `(() => {
  const text = (el) => (el ? el.textContent : '').trim()
  const facts = (id) => Object.fromEntries([...document.querySelectorAll('#' + id + ' > div')].map((d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))]))
  return {
    now: document.body.dataset.now ?? '',
    tiles: [...document.querySelectorAll('.tile')].map((t) => ({ label: text(t.querySelector('dt')), value: text(t.querySelector('.tile-value')), hint: text(t.querySelector('.tile-hint')), warn: t.hasAttribute('data-warn') })),
    burn: Object.fromEntries([...document.querySelectorAll('#budget tr[data-entity]')].map((r) => [r.dataset.entity, text(r.querySelector('td.burn')).replace(/\\s+/g, ' ')])),
    poller: facts('poller'),
    odds: facts('odds-poller'),
    oddsLastPoll: document.querySelector('#odds-poller time')?.getAttribute('datetime') ?? null,
    store: facts('store')
  }
})()`

/** Opens /status, keeping every answer of /v1/status the page receives, by its `now`. */
async function openStatus (browser: Browser, url: string): Promise<{ page: Page, errors: string[], drawn: () => Promise<{ page: Drawn, body: StatusBody }> }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } })
  const errors = watchErrors(page)
  const answers = new Map<string, StatusBody>()
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === '/v1/status') res.json().then((b: StatusBody) => answers.set(b.now, b), () => {})
  })
  await page.goto(`${url}/status`)
  await whenLive(page)
  const drawn = async (): Promise<{ page: Drawn, body: StatusBody }> => {
    const shown = await page.evaluate(READ) as Drawn
    const body = await waitFor(`the answer of ${shown.now}`, () => answers.get(shown.now))
    return { page: shown, body }
  }
  return { page, errors, drawn }
}

const tileOf = (d: Drawn, label: string): Drawn['tiles'][number] => {
  const t = d.tiles.find((x) => x.label === label)
  if (t === undefined) throw new Error(`no ${label} tile in ${d.tiles.map((x) => x.label).join(', ')}`)
  return t
}
const num = (n: number): string => n.toLocaleString('en')
const secs = (s: number | null): string => s === null ? '–' : `${s < 10 ? s.toFixed(2) : s.toFixed(1)} s`
/** A budget row's burn cell as the page writes it. */
const burnText = (b: StatusBody['budget'][number]): string =>
  b.burn === null ? 'measuring…' : `${num(b.burn.per_hour)} / h${b.burn.of_limit === null ? '' : ` ${Math.round(b.burn.of_limit * 100)} % of the limit`}`
/** The phases the scoreboard's Live tab counts (src/ui/public/lib/feed.js IN_PLAY). */
const IN_PLAY = new Set(['live', 'break', 'suspended', 'unknown'])

describe.skipIf(!HAVE_CHROMIUM)('status page', () => {
  let browser: Browser

  beforeAll(async () => { browser = await launchBrowser() })
  afterAll(async () => { await browser?.close() })

  describe('a gateway whose store is driven by hand, with Web Push', () => {
    let gw: UiGateway
    const PUSH_KEY = { key: 'push-fans-key', name: 'fans' }

    beforeAll(async () => {
      gw = await startUiGateway([{ key: 'demo', name: 'demo' }, PUSH_KEY], {
        env: { TOUCHLINE_VAPID_PUBLIC_KEY: VAPID.publicKey, TOUCHLINE_VAPID_PRIVATE_KEY: VAPID.privateKey, TOUCHLINE_VAPID_SUBJECT: 'mailto:ops@touchline.example', TOUCHLINE_PUSH_ALLOW_LOCAL: 'true' }
      })
      // Two upstream calls through the passthrough: the first makes the ledger know the bucket, the second is counted in it.
      await fetch(`${gw.url}/v3/football/leagues?api_token=demo`)
      await fetch(`${gw.url}/v3/football/leagues/501?api_token=demo`)
    })
    afterAll(async () => { await gw?.close() })

    it('shows budget, poller, store, live fixtures as the Live tab counts them, Web Push deliveries retrying and failed, and the charts', async () => {
      // The live set: one in each phase of play, a kick-off to come (in the live set, not in play), and a result (out of it).
      const celtic = await gw.matches.start(8701, 501, 'Celtic', 'Rangers', 20)
      await (await gw.matches.start(8702, 501, 'Hearts', 'Hibernian', 45)).state('HT')
      await (await gw.matches.start(8703, 501, 'Aberdeen', 'Dundee', 60)).state('SUSPENDED')
      await (await gw.matches.start(8704, 501, 'Motherwell', 'St Mirren')).state('NS')
      await (await gw.matches.start(8705, 501, 'Kilmarnock', 'Ross County', 80)).state('FT')
      // Three devices follow Celtic's match: the first takes its alerts, the second answers 503 (sent again in
      // 2 minutes: retrying), the third refuses with a 400 (given up: failed).
      const devices: string[] = []
      const service = await startPushService((_n, m) => {
        const which = devices.indexOf(m.device)
        return which === 0 ? 201 : which === 1 ? { status: 503, headers: { 'retry-after': '120' } } : 400
      })
      for (let i = 0; i < 3; i++) {
        const device = service.newDevice()
        devices.push(device.id)
        expect((await follow(gw, PUSH_KEY.key, device.subscription, { fixtures: [celtic.id] })).status).toBe(201)
      }
      await celtic.goal('home', 'Kyogo Furuhashi', 24)
      await waitFor('the three devices asked', () => new Set(service.messages.map((m) => m.device)).size === 3, 10_000)

      const { page, errors, drawn } = await openStatus(browser, gw.url)
      const row = page.locator('#budget tr', { hasText: 'League' })
      await row.waitFor()
      expect(await row.getByRole('meter').getAttribute('aria-valuenow')).toMatch(/^\d+$/)
      expect(await row.locator('td.num').textContent()).toMatch(/^\d+:\d{2}$/)
      // How the bucket is shared this hour: the passthrough's counted call; no poller claims League.
      expect(await row.locator('td.split').textContent()).toBe('pollers 0 · passthrough 1')
      const charts = page.locator('figure.chart svg[role="img"]')
      expect(await charts.count()).toBe(4)
      expect(await charts.first().getAttribute('aria-label')).toMatch(/^Poll interval: now/)

      // The deliveries, once the page has drawn the one sent, the one retrying and the one failed.
      await expect.poll(async () => (await drawn()).body.push?.deliveries, { timeout: 15_000 }).toEqual({ sent: 1, retrying: 1, failed: 1, gone: 0, capped: 0 })
      const { page: shown, body } = await drawn()
      expect(shown.tiles.map((t) => t.label)).toEqual(['Poller', 'Live fixtures', 'Detection latency', 'Store', 'Connections', 'Messages / s', 'Cache hit ratio', 'Push alerts'])
      const push = tileOf(shown, 'Push alerts')
      expect(push).toEqual({ label: 'Push alerts', value: '3', hint: 'subscriptions · 1 sent · 1 retrying · 1 failed · 8/8 shards here', warn: true })

      // Live fixtures: those in play in the store's live set, as the scoreboard's Live tab counts them.
      const live = (await (await fetch(`${gw.url}/v1/fixtures/live?api_token=demo`)).json() as { data: LiveFixture[] }).data
      expect(live.map((f) => f.id).sort()).toEqual([8701, 8702, 8703, 8704])
      const inPlay = live.filter((f) => IN_PLAY.has(f.state.phase)).length
      expect(body.live_fixtures).toBe(inPlay)
      expect(tileOf(shown, 'Live fixtures')).toMatchObject({ value: String(inPlay), hint: `in play · ${live.length} in the live set` })
      expect(body.live_set).toEqual({ total: 4, by_phase: { break: 1, live: 1, scheduled: 1, suspended: 1 } })

      // The store: its engine, up, its log.
      expect(body.store).toMatchObject({ engine: 'memory', status: 'up', log_max_length: 10_000 })
      const logLength = body.store.log_length as number
      expect(tileOf(shown, 'Store')).toEqual({ label: 'Store', value: 'Up', hint: `Memory · log ${num(logLength)} / 10,000 records`, warn: false })
      expect(shown.store).toEqual({
        State: 'Up',
        Engine: 'Memory (this process)',
        'Event log': `${num(logLength)} of 10,000 records`,
        'Live set': '4: 1 live · 1 break · 1 suspended · 1 scheduled',
        'Log head (cursor)': body.cursor
      })

      // No process polls here: no latency measured, neither poller.
      expect(body.detection_latency).toBeNull()
      expect(tileOf(shown, 'Detection latency')).toMatchObject({ value: '–', hint: 'no process polls' })
      expect(shown.poller).toEqual({ State: 'No process polls' })
      expect(shown.odds).toEqual({ State: 'No process polls' })

      // The burn rate: measured once the status history has read the ledger twice (it reads it every 10 s).
      for (const b of body.budget) expect(shown.burn[b.entity]).toBe(burnText(b))
      await expect.poll(async () => (await drawn()).page.burn.League, { timeout: 25_000 }).not.toBe('measuring…')
      const later = await drawn()
      const league = later.body.budget.find((b) => b.entity === 'League')
      expect(league?.burn).toMatchObject({ per_hour: expect.any(Number), over_s: expect.any(Number) })
      for (const b of later.body.budget) expect(later.page.burn[b.entity]).toBe(burnText(b))

      expect(await axeViolations(page)).toEqual([])
      await shot(page, 'status', { fullPage: true })
      expect(errors).toEqual([])
      await page.close()
    }, 60_000)
  })

  describe('a gateway that polls', () => {
    let gw: UiGateway
    beforeAll(async () => { gw = await startUiGateway(undefined, { poll: true }) })
    afterAll(async () => { await gw?.close() })

    it('shows the odds poller beside the livescore poller, the detection latency p50 and p95, and the buckets\' burn rates', async () => {
      // The poller's matches under way: changes detected, odds polled, the history's ledger read twice.
      await waitFor('the pollers and the burn rates at work', async () => {
        const s = await (await fetch(`${gw.url}/v1/status`)).json() as StatusBody
        return (s.detection_latency?.changes ?? 0) > 0 && s.odds_poller?.last_poll_at != null && s.budget.some((b) => (b.burn?.per_hour ?? 0) > 0)
      }, 30_000, 250)
      const { page, errors, drawn } = await openStatus(browser, gw.url)
      const { page: shown, body } = await drawn()
      const { poller, odds_poller: odds, detection_latency: latency } = body
      if (poller === null || odds === null || latency === null) throw new Error('no poller in the answer drawn')

      expect(shown.poller).toMatchObject({ State: 'Running', 'Polled by': 'this process', 'Budget entity': 'Fixture', 'Fixtures tracked': String(poller.tracked) })
      expect(shown.odds).toMatchObject({ State: odds.enabled ? 'Running' : 'Off: the plan has no in-play odds', 'Budget entity': 'InplayOdd', 'Fixtures followed': String(odds.tracked), 'Last error': odds.last_error ?? 'none' })
      expect(odds.entity).toBe('InplayOdd')
      expect(shown.oddsLastPoll).toBe(odds.last_poll_at)
      expect(shown.odds['Last poll']).toMatch(/^\d+ s ago$/)
      // Side by side at 1000 px: the odds poller's list beside the livescore poller's.
      const [left, right] = await Promise.all(['#poller', '#odds-poller'].map(async (id) => await page.locator(id).boundingBox()))
      expect(right?.x).toBeGreaterThan((left?.x ?? 0) + (left?.width ?? 0) - 1)
      expect(Math.abs((right?.y ?? 0) - (left?.y ?? 99))).toBeLessThan(2)

      // The latency's quantiles, computed by the gateway from the histogram's buckets.
      expect(latency.changes).toBeGreaterThan(0)
      expect(latency.p50_s).not.toBeNull()
      expect(latency.p95_s as number).toBeGreaterThanOrEqual(latency.p50_s as number)
      expect(tileOf(shown, 'Detection latency')).toMatchObject({ value: `p50 ${secs(latency.p50_s)}`, hint: `p95 ${secs(latency.p95_s)} · ${num(latency.changes)} changes, last ${latency.window_s >= 60 ? `${Math.round(latency.window_s / 60)} min` : `${latency.window_s} s`}` })

      // Each bucket's burn rate against its limit, as the server computed it.
      expect(body.budget.map((b) => b.entity)).toEqual(expect.arrayContaining(['Fixture', 'InplayOdd']))
      for (const b of body.budget) expect(shown.burn[b.entity]).toBe(burnText(b))
      expect(body.budget.find((b) => b.entity === 'Fixture')?.burn?.per_hour).toBeGreaterThan(0)

      // The live fixtures: the live set's in play, as the Live tab counts them.
      const byPhase = Object.entries(body.live_set?.by_phase ?? {})
      expect(body.live_fixtures).toBe(byPhase.reduce((n, [phase, k]) => n + (IN_PLAY.has(phase) ? k : 0), 0))
      expect(tileOf(shown, 'Live fixtures').value).toBe(String(body.live_fixtures))

      expect(await axeViolations(page)).toEqual([])
      await shot(page, 'status-polling', { fullPage: true })
      expect(errors).toEqual([])
      await page.close()
    }, 60_000)
  })
})
