/**
 * Widgets on a host page of another origin: several on one page each take their own placeholder
 * whatever order their async scripts arrive in (the host serves widget.js after a random delay); the host's
 * inherited text styles do not reach the widget's text; a one-match widget keeps the final score after the
 * feed has dropped the match (5 minutes after full time on the page's clock), and one loaded later gets it
 * from the gateway, which holds it; a league widget with nothing live lists every match of its league today
 * (the gateway's day model); no widget reads the upstream's fixtures (`/v3/football/fixtures`); no
 * axe-core violation on the host page.
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { startTcpProxy } from '../../helpers/tcp-proxy.ts'
import { axeViolations, computed, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'
import { dayOf, seedDays } from './seed-days.ts'

interface Spec { league?: number, fixture?: number }

const shuffle = <T>(list: T[]): T[] => list.map((v) => ({ v, k: Math.random() })).sort((a, b) => a.k - b.k).map(({ v }) => v)

describe.skipIf(!HAVE_CHROMIUM)('widgets on a host page', () => {
  let browser: Browser
  let gw: UiGateway
  let host: Server
  let hostOrigin = ''
  let rangers: Match
  /** The HTML the host answers next, by path. */
  const pages = new Map<string, string>()
  /** The delay of each widget.js request, by its `n` query parameter. */
  const delays = new Map<string, number>()

  beforeAll(async () => {
    gw = await startUiGateway([{ key: 'host-key', name: 'host', allowed_origins: '*' }])
    host = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://host')
      // widget.js and its modules come through the host (so their load order is the host's to choose); the
      // widgets talk to the gateway itself (data-gateway).
      if (url.pathname === '/widget.js' || url.pathname.startsWith('/widget/') || url.pathname.startsWith('/lib/')) {
        const delay = url.pathname === '/widget.js' ? delays.get(url.searchParams.get('n') ?? '') ?? 0 : 0
        setTimeout(() => {
          fetch(`${gw.url}${url.pathname}`).then(async (r) => {
            res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' })
            res.end(await r.text())
          }, () => { res.writeHead(502); res.end() })
        }, delay)
        return
      }
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(pages.get(url.pathname) ?? '')
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    hostOrigin = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`
    await gw.matches.start(8101, 501, 'Celtic', 'Kilmarnock', 20)
    rangers = await gw.matches.start(8102, 501, 'Rangers', 'Aberdeen', 80)
    await gw.matches.start(8103, 271, 'FC Midtjylland', 'Brøndby IF', 30)
    await gw.matches.start(8104, 271, 'FC København', 'Randers FC', 55)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await new Promise((resolve) => host?.close(resolve))
  })

  const page = (body: string, style = ''): string => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<style>body { font-family: Georgia, serif; margin: 24px; max-width: 620px; background: #fbf8f1; color: #222 } ${style}</style></head>
<body><main><h1>The Daily Match</h1>${body}<p>More news below.</p></main></body></html>`

  /**
   * Placeholder + script for each spec; `n` numbers the scripts so each gets its own delay. Odd ones sit
   * right after their placeholder; even ones name it with data-target, a paragraph between them.
   */
  const snippet = (spec: Spec, n: number, extra = ''): string =>
    `<div data-touchline-widget id="w${n}"></div>\n${n % 2 === 0 ? `<p>Paragraph ${n}</p>\n` : ''}` +
    `<script src="${hostOrigin}/widget.js?n=${n}" data-gateway="${gw.url}" data-key="host-key"${spec.league ? ` data-league="${spec.league}"` : ''}${spec.fixture ? ` data-fixture="${spec.fixture}"` : ''}${n % 2 === 0 ? ` data-target="w${n}"` : ''}${extra} async></script>`

  async function openPage (path: string, html: string, opts: { width?: number, dark?: boolean } = {}): Promise<{ page: Page, errors: string[] }> {
    pages.set(path, html)
    const p = await browser.newPage({ viewport: { width: opts.width ?? 700, height: 900 }, colorScheme: opts.dark === true ? 'dark' : 'light' })
    const errors = watchErrors(p)
    await p.goto(`${hostOrigin}${path}`)
    return { page: p, errors }
  }

  /** The league ids, or fixture ids, a widget shows. */
  async function shown (p: Page, id: string, attr: 'data-league' | 'data-fixture'): Promise<string[]> {
    const rows = p.locator(`#${id} article.tl-match`)
    await expect.poll(async () => await rows.count(), { timeout: 20_000 }).toBeGreaterThan(0)
    return [...new Set(await rows.evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? ''), attr))]
  }

  it('puts 2 and 3 widgets in their own placeholders whatever order their scripts load in (10 times each)', async () => {
    const layouts: Spec[][] = [
      [{ league: 501 }, { league: 271 }],
      [{ league: 271 }, { fixture: 8102 }, { league: 501 }]
    ]
    for (let round = 0; round < 10; round++) {
      for (const specs of layouts) {
        // The scripts come back in a random order: a random delay for each, placed in a shuffled order.
        const order = shuffle(specs.map((_, i) => i))
        order.forEach((i, rank) => delays.set(String(i + 1), rank * 120 + Math.round(Math.random() * 60)))
        const { page: p, errors } = await openPage(`/multi-${round}-${specs.length}`, page(specs.map((s, i) => snippet(s, i + 1)).join('\n')))
        for (const [i, spec] of specs.entries()) {
          const id = `w${i + 1}`
          if (spec.league !== undefined) expect(await shown(p, id, 'data-league'), `round ${round}, widget ${id}`).toEqual([String(spec.league)])
          else expect(await shown(p, id, 'data-fixture'), `round ${round}, widget ${id}`).toEqual([String(spec.fixture)])
        }
        // No widget made a placeholder of its own: each found the one meant for it.
        expect(await p.locator('[data-touchline-widget]').count()).toBe(specs.length)
        if (round === 0 && specs.length === 3) await shot(p, 'widgets-three', { docs: true, fullPage: true })
        expect(errors).toEqual([])
        await p.close()
      }
    }
  }, 240_000)

  it('keeps the host page\'s text-transform and letter-spacing out of the widget', async () => {
    const style = `body { text-transform: uppercase; letter-spacing: 4px; word-spacing: 9px; font-style: italic; line-height: 3 }
      [data-touchline-widget] { text-transform: uppercase !important; letter-spacing: .4em !important; text-align: center }`
    const { page: p } = await openPage('/styled', page(snippet({ league: 501 }, 1), style), { width: 390 })
    const name = p.locator('#w1 article[data-fixture="8101"] .tl-name').first()
    await name.waitFor()
    expect(await name.innerText()).toBe('Celtic')
    expect(await computed(name, 'textTransform')).toBe('none')
    expect(await computed(name, 'letterSpacing')).toBe('normal')
    expect(await computed(name, 'wordSpacing')).toBe('0px')
    expect(await computed(name, 'fontStyle')).toBe('normal')
    // The host page's own text is still uppercase: only the widget is spared.
    expect(await p.locator('h1').innerText()).toBe('THE DAILY MATCH')
    await shot(p, 'widget-host-styles', { docs: true })
    await p.close()
  })

  it('keeps a one-match widget\'s final score and events 5 minutes after full time', async () => {
    const match = await gw.matches.start(8105, 501, 'Hearts', 'Hibernian', 70)
    await match.goal('home', 'L. Shankland', 71)
    const { page: p, errors } = await openPage('/final', page(snippet({ fixture: 8105 }, 1)))
    await p.clock.install()
    const row = p.locator('#w1 article[data-fixture="8105"]')
    await row.waitFor()
    await match.goal('away', 'M. Boyle', 88, 'PENALTY')
    await match.state('FT')
    await expect.poll(async () => await row.getAttribute('data-phase'), { timeout: 20_000 }).toBe('finished')
    // The feed drops a match 2 minutes after it leaves the live set; the widget keeps it.
    await p.clock.fastForward('05:00')
    await p.clock.runFor(2000)
    expect(await row.count()).toBe(1)
    expect(await row.locator('.tl-score').textContent()).toBe('1-1')
    expect(await row.locator('.tl-clock-text').textContent()).toBe('FT')
    expect(await row.locator('.tl-ev').allTextContents()).toEqual(["71'L. ShanklandGoal", "88'M. Boyle (pen)Penalty"])
    expect(await p.locator('#w1').locator('.tlw-empty').isVisible()).toBe(false)
    await shot(p, 'widget-final-score', { docs: true })
    expect(errors).toEqual([])
    await p.close()
  })

  it('shows a match that ended before the widget loaded: the gateway holds it', async () => {
    const ended = await gw.matches.start(8106, 501, 'Motherwell', 'St Mirren', 85)
    await ended.goal('away', 'M. Kiltie', 86)
    await ended.state('FT')
    const { page: p, errors } = await openPage('/ended', page(snippet({ fixture: 8106 }, 1)))
    const row = p.locator('#w1 article[data-fixture="8106"]')
    await row.waitFor()
    expect(await row.getAttribute('data-phase')).toBe('finished')
    expect(await row.locator('.tl-score').textContent()).toBe('0-1')
    expect(await row.locator('.tl-ev').allTextContents()).toEqual(["86'M. KiltieGoal"])
    expect(errors).toEqual([])
    await p.close()
  })

  it('lists every match of its league today in a league widget with nothing live, and reads no upstream fixtures', async () => {
    // League 501's and 271's matches are live here; another league has none in play, and its day (only
    // its) is read into the store as the poller reads the days.
    const leagues = await (await fetch(`${gw.url}/v3/football/leagues?api_token=host-key&per_page=50`)).json() as { data: Array<{ id: number }> }
    const quiet = leagues.data.map((l) => l.id).find((id) => id !== 501 && id !== 271) ?? 0
    await seedDays(gw.gw, { leagues: [quiet] })
    pages.set('/quiet', page(snippet({ league: quiet }, 1)))
    const p = await browser.newPage({ viewport: { width: 390, height: 900 } })
    const errors = watchErrors(p)
    const asked: string[] = []
    p.on('request', (r) => { if (r.url().includes('/v3/football/fixtures')) asked.push(r.url()) })
    await p.goto(`${hostOrigin}/quiet`)
    const widget = p.locator('#w1')
    await whenLive(widget, '.tlw-conn')
    const tz = await p.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone') as string
    const date = await p.evaluate('new Date().toLocaleDateString("en-CA")') as string
    const expected = (await dayOf(gw.url, 'host-key', date, tz)).filter((f) => f.league_id === quiet).map((f) => String(f.id)).sort()
    expect(expected.length, `matches of league ${quiet} today in the provider's data`).toBeGreaterThan(0)
    const rows = widget.locator('article.tl-match')
    await expect.poll(async () => await rows.count(), { timeout: 20_000 }).toBe(expected.length)
    expect((await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-fixture') ?? ''))).sort()).toEqual(expected)
    expect(await widget.locator('.tlw-later').isVisible()).toBe(true)
    expect(await widget.locator('.tlw-empty').isVisible()).toBe(false)
    await shot(p, 'widget-nothing-live', { docs: true })
    // The day came on the feed: the widget read none of the upstream's fixtures (nor did the page's others).
    expect(asked).toEqual([])
    expect(errors).toEqual([])
    await p.close()
  })

  it('has no axe-core violation on a host page with widgets, light and dark', async () => {
    for (const dark of [false, true]) {
      const { page: p } = await openPage('/axe', page(snippet({ league: 501 }, 1) + snippet({ fixture: 8102 }, 2, ' data-theme="dark"')), { dark })
      await p.locator('#w1 article.tl-match').first().waitFor()
      await p.locator('#w2 article.tl-match').first().waitFor()
      expect(await axeViolations(p)).toEqual([])
      await p.close()
    }
  }, 60_000)

  it('counts down "Reconnecting in N s" while the gateway is down, then is live again', async () => {
    const proxy = await startTcpProxy(Number(new URL(gw.url).port))
    try {
      const html = page(`<div data-touchline-widget id="w1"></div><script src="${hostOrigin}/widget.js?n=1" data-gateway="${proxy.url}" data-key="host-key" data-league="501" async></script>`)
      const { page: p, errors } = await openPage('/down', html, { width: 390 })
      const widget = p.locator('#w1')
      await whenLive(widget, '.tlw-conn')
      expect(await widget.locator('.tlw-message').isVisible()).toBe(false)
      proxy.pause()
      proxy.cut()
      await widget.locator('.tlw-conn[data-state="reconnecting"]').waitFor()
      // Counted down: `Reconnecting in N s` at first, `No connection · retrying in N s` once the client has
      // asked why (the gateway cannot be reached), which may come before a look from here on a busy machine.
      await expect.poll(async () => await widget.locator('.tlw-message').textContent(), { timeout: 20_000 }).toMatch(/^(Reconnecting in \d+ s|No connection · retrying (in \d+ s|now))/)
      // The rows stay, as they were last known.
      expect(await widget.locator('article.tl-match').count()).toBeGreaterThan(0)
      await shot(p, 'widget-reconnecting', { docs: true })
      proxy.resume()
      await whenLive(widget, '.tlw-conn')
      expect(await widget.locator('.tlw-message').isVisible()).toBe(false)
      expect(errors).toEqual([])
      await p.close()
    } finally {
      await proxy.close()
    }
  }, 40_000)

  it('still follows a match that goes on: rangers scores in the fixture widget', async () => {
    const { page: p } = await openPage('/rangers', page(snippet({ fixture: 8102 }, 1)))
    const row = p.locator('#w1 article[data-fixture="8102"]')
    await row.waitFor()
    await rangers.goal('home', 'C. Dessers', 81)
    await expect.poll(async () => await row.locator('.tl-score').textContent(), { timeout: 20_000 }).toBe('1-0')
    // A one-match widget opens its events.
    expect(await row.locator('.tl-ev').allTextContents()).toEqual(["81'C. DessersGoal"])
    await p.close()
  })
})
