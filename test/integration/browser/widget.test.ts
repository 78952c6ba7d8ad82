/**
 * The embeddable widget on a page served from ANOTHER origin (a tiny http server on its own port): it
 * renders into its placeholder inside a shadow root, updates live, announces goals, takes the host's theme
 * variables, and a key that does not allow the host's origin is refused (CORS and the WebSocket upgrade).
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { computed, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

/** A host page per path: `/league` embeds league 501 with the allowed key, `/refused` with the other key. */
function hostPage (gateway: string, path: string): string {
  const snippet = {
    '/league': `<div data-touchline-widget style="--tl-accent: rgb(200, 30, 120)"></div>
<script src="${gateway}/widget.js" data-league="501" data-key="host-key" async></script>`,
    '/fixture': `<p>Before</p><script src="${gateway}/widget.js" data-fixture="8002" data-key="host-key" data-theme="dark" async></script><p id="after">After</p>`,
    '/refused': `<div data-touchline-widget></div>
<script src="${gateway}/widget.js" data-league="501" data-key="other-key" async></script>`
  }[path] ?? ''
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Daily Match</title>
<style>body { font-family: Georgia, serif; margin: 32px; max-width: 560px; background: #fbf8f1; color: #222 }
h1 { font-size: 28px } .tl-match, article { border: 5px dotted red !important }</style></head>
<body><h1>The Daily Match</h1><p>Live from the Scottish Premiership:</p>${snippet}<p>More news below.</p></body></html>`
}

describe.skipIf(!HAVE_CHROMIUM)('embeddable widget', () => {
  let browser: Browser
  let gw: UiGateway
  let host: Server
  let hostOrigin: string
  let celtic: Match
  let gatewayUrl = ''

  beforeAll(async () => {
    host = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(hostPage(gatewayUrl, req.url ?? '/'))
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    // Another origin: other port, and `localhost` rather than the gateway's 127.0.0.1.
    hostOrigin = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`
    gw = await startUiGateway([
      { key: 'host-key', name: 'daily-match', allowed_origins: [hostOrigin] },
      { key: 'other-key', name: 'someone-else', allowed_origins: ['https://elsewhere.example'] }
    ])
    gatewayUrl = gw.url
    celtic = await gw.matches.start(8001, 501, 'Celtic', 'Kilmarnock', 20)
    await gw.matches.start(8002, 501, 'Rangers', 'Aberdeen', 64)
    await gw.matches.start(8003, 271, 'FC Midtjylland', 'Brøndby IF', 30)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await new Promise((resolve) => host?.close(resolve))
  })

  async function open (path: string): Promise<{ page: Page, errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 640, height: 560 } })
    const errors = watchErrors(page)
    await page.goto(`${hostOrigin}${path}`)
    return { page, errors }
  }

  it('renders a league from another origin in a shadow root and updates live', async () => {
    const { page, errors } = await open('/league')
    const widget = page.locator('[data-touchline-widget]')
    await whenLive(widget, '.tlw-conn')
    await expect.poll(async () => await widget.locator('article.tl-match').count()).toBe(2)
    expect(await page.evaluate("document.querySelector('[data-touchline-widget]').shadowRoot !== null")).toBe(true)
    // Only league 501: the Danish match is not in this widget.
    expect(await widget.locator('article[data-fixture="8003"]').count()).toBe(0)
    await expect.poll(async () => await widget.locator('.tlw-title').textContent()).toBe('Premiership · Scotland')
    // The host page's styles do not reach into the widget...
    const border = await computed(widget.locator('article[data-fixture="8001"]'), 'borderLeftWidth')
    expect(border).toBe('0px')
    // ...but its --tl-* theme variables do.
    const accent = await computed(widget.locator('article[data-fixture="8001"] .tl-clock'), 'color')
    expect(accent).toBe('rgb(200, 30, 120)')

    await celtic.goal('home', 'K. Furuhashi', 23)
    await widget.locator('article[data-fixture="8001"].tl-flash').waitFor({ timeout: 3000 })
    expect(await widget.locator('article[data-fixture="8001"] .tl-score').textContent()).toBe('1-0')
    const live = widget.locator('[aria-live="polite"]')
    await expect.poll(async () => await live.textContent()).toContain('Goal for Celtic by K. Furuhashi')
    await shot(page, 'widget-league')
    expect(errors).toEqual([])
    await page.close()
  })

  it('follows one fixture, rendered right after its script tag, in the dark theme', async () => {
    const { page, errors } = await open('/fixture')
    const widget = page.locator('[data-touchline-widget]')
    await expect.poll(async () => await widget.locator('article.tl-match').count(), { timeout: 20_000 }).toBe(1)
    expect(await widget.locator('article').getAttribute('data-fixture')).toBe('8002')
    // Placed right after the script tag, before the paragraph that follows it.
    expect(await page.evaluate("document.querySelector('script[data-fixture]').nextElementSibling.hasAttribute('data-touchline-widget')")).toBe(true)
    expect(await widget.getAttribute('data-theme')).toBe('dark')
    await shot(page, 'widget-fixture-dark')
    expect(errors).toEqual([])
    await page.close()
  })

  it('is refused with a key that does not allow the host origin, says so, and stops retrying', async () => {
    const { page } = await open('/refused')
    let sockets = 0
    page.on('websocket', () => { sockets++ })
    const widget = page.locator('[data-touchline-widget]')
    await widget.locator('.tlw-conn[data-state="refused"]').waitFor()
    // One line, in a site's reader's words, in place of the rows (the site's owner gets the detail in the console).
    expect(await widget.locator('.tlw-refused').textContent()).toBe('This site may not show these scores.')
    expect(await widget.locator('article').count()).toBe(0)
    await shot(page, 'widget-refused', { docs: true })
    // No retry loop: no socket opened in the next 5 s (the backoff before the refusal was under 4 s).
    const before = sockets
    await page.waitForTimeout(5000)
    expect(sockets).toBe(before)
    await page.close()
  })

  it('answers CORS for the key\'s allowed origins only', async () => {
    const allowed = await fetch(`${gw.url}/v1/fixtures/live?api_token=host-key`, { headers: { origin: hostOrigin } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(hostOrigin)
    expect(allowed.headers.get('vary')).toMatch(/origin/i)
    const changes = await fetch(`${gw.url}/v1/changes?api_token=host-key`, { headers: { origin: hostOrigin } })
    expect(changes.headers.get('access-control-allow-origin')).toBe(hostOrigin)
    const refused = await fetch(`${gw.url}/v1/fixtures/live?api_token=other-key`, { headers: { origin: hostOrigin } })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    expect(await refused.json()).toMatchObject({ code: 'forbidden' })
    const widgetScript = await fetch(`${gw.url}/widget.js`)
    expect(widgetScript.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(widgetScript.headers.get('access-control-allow-origin')).toBe('*')
  })
})
