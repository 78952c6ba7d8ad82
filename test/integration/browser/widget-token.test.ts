/**
 * The widget with signed connection tokens instead of a key (docs/tokens.md; docs/ui.md, "The widget"): a
 * host site on another origin whose backend mints each fan a short-lived HS256 token (8 s) at `/token`, the
 * fan named by the site's session cookie, and a host page whose widget says `data-token-url="/token"`.
 *
 * - The widget goes live with its league's matches; the token travels in the WebSocket's first frame,
 *   never in its address; it is renewed over the open connection before it expires, so a goal scored once
 *   the first token (and the key's grace) is over shows on the same connection, with no reconnect.
 * - No key anywhere: not in the page (its HTML, the widget's shadow root), not in any request the page
 *   makes (the league's name, which only a key may read, is not asked for: the heading stays generic).
 * - A token signed with a wrong secret: the widget shows its refusal line and stops.
 * - `data-token`, a fixed token the page was rendered with: live while it lasts; it cannot be renewed, so
 *   when it expires the connection ends, and the widget stops and says so rather than retry with it.
 */
import { randomBytes } from 'node:crypto'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { decodeJwt, SignJWT } from 'jose'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { HAVE_CHROMIUM, type KeySpec, launchBrowser, shot, startUiGateway, type UiGateway, watchErrors, whenLive } from './harness.ts'

/** The key never leaves the site's backend (and this test's gateway): the page must never show it. */
const KEY = `site-key-${randomBytes(8).toString('hex')}`
const SECRET = 'the-daily-match-token-secret-32-chars-or-more'
/** A token's lifetime, and how long the gateway lets a connection outlive it while it renews it. */
const LIFETIME_S = 8
const GRACE_S = 2

type TokenKey = KeySpec & { tokens: { secrets: string[], max_lifetime_s: number, expiry_grace_s: number } }

/** A token for a fan, as the site's backend mints it (docs/tokens.md, "Minting one in Node, with jose"). */
async function mint (fan: string, secret = SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return await new SignJWT({ leagues: [501] })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('daily-match')
    .setSubject(fan)
    .setIssuedAt(now)
    .setExpirationTime(now + LIFETIME_S)
    .sign(new TextEncoder().encode(secret))
}

/** When a token expires, epoch ms. */
const expiry = (token: string): number => (decodeJwt(token).exp ?? 0) * 1000

/** A token handed out by the host's backend: when, to which fan (its session cookie). */
interface Issued { at: number, fan: string, token: string }

/** What a page did on the network. */
interface Traffic { urls: string[], sockets: string[], sent: string[], closed: number, console: string[], errors: string[] }

describe.skipIf(!HAVE_CHROMIUM)('the widget with signed connection tokens', () => {
  let browser: Browser
  let gw: UiGateway
  let host: Server
  let hostOrigin = ''
  /** The site serving the gateway's pages under its own address (startSite). */
  let site: { origin: string, close: () => Promise<void> }
  let celtic: Match
  /** Tokens `/token` handed out; `/wrong-token` calls. */
  const issued: Issued[] = []
  let wrongCalls = 0
  let fans = 0

  /** The host page: the widget of league 501 with the given token option; a session cookie names the fan. */
  function hostPage (option: string): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Daily Match</title></head>
<body><h1>The Daily Match</h1><div data-touchline-widget></div>
<script src="${gw.url}/widget.js" data-league="501" ${option} async></script></body></html>`
  }

  const sessionOf = (req: IncomingMessage): string | undefined => /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]

  async function answer (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://host').pathname
    if (path === '/token' || path === '/wrong-token') {
      const fan = sessionOf(req)
      if (fan === undefined) {
        res.writeHead(401).end()
        return
      }
      if (path === '/wrong-token') {
        wrongCalls++
        // As text, signed with a secret the key does not hold.
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(await mint(fan, 'not-the-keys-secret-but-32-characters-long'))
        return
      }
      const token = await mint(fan)
      issued.push({ at: Date.now(), fan, token })
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ token }))
      return
    }
    const fan = `fan-${++fans}`
    const option = { '/': 'data-token-url="/token"', '/wrong': 'data-token-url="/wrong-token"', '/fixed': `data-token="${await mint(fan)}"` }[path]
    if (option === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `session=${fan}; Path=/; HttpOnly; SameSite=Lax` }).end(hostPage(option))
  }

  /**
   * The site serving the gateway's pages under its own address (a reverse proxy: HTTP and WebSocket upgrades
   * to the gateway), with its token route beside them: `/page-token`, the fan named by the session cookie.
   */
  async function startSite (): Promise<{ origin: string, close: () => Promise<void> }> {
    // The gateway starts after the site (its key must allow the site's origin): looked up per request.
    const gateway = (): URL => new URL(gw.url)
    const site = createServer((req, res) => {
      if (req.url === '/page-token') {
        const fan = sessionOf(req) ?? 'page-fan'
        mint(fan).then((token) => {
          issued.push({ at: Date.now(), fan, token })
          res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(token)
        }, () => res.writeHead(500).end())
        return
      }
      const target = gateway()
      const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      up.on('error', () => res.destroy())
      req.pipe(up)
    })
    site.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      const target = gateway()
      const upstream = connect(Number(target.port), target.hostname, () => {
        const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`)]
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
        upstream.write(head)
        socket.pipe(upstream).pipe(socket)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    const address = site.address() as AddressInfo
    return { origin: `http://localhost:${address.port}`, close: async () => { site.closeAllConnections(); await new Promise((resolve) => site.close(resolve)) } }
  }

  beforeAll(async () => {
    host = createServer((req, res) => { answer(req, res).catch(() => res.writeHead(500).end()) })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const address = host.address()
    // Another origin than the gateway's: another port, and `localhost` rather than 127.0.0.1.
    hostOrigin = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`
    site = await startSite()
    const keys: TokenKey[] = [{
      key: KEY,
      name: 'daily-match',
      leagues: [501, 271],
      allowed_origins: [hostOrigin, site.origin],
      tokens: { secrets: [SECRET], max_lifetime_s: 60, expiry_grace_s: GRACE_S }
    }]
    gw = await startUiGateway(keys)
    celtic = await gw.matches.start(8501, 501, 'Celtic', 'Kilmarnock', 20)
    await gw.matches.start(8502, 501, 'Rangers', 'Aberdeen', 64)
    await gw.matches.start(8503, 271, 'FC Midtjylland', 'Brøndby IF', 30)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await new Promise((resolve) => host?.close(resolve))
    await site?.close()
  })

  /** Opens a host page, recording every request URL, every WebSocket (its URL, the frames sent, its close) and the console. */
  async function open (path: string): Promise<{ page: Page, record: Traffic }> {
    const page = await browser.newPage({ viewport: { width: 640, height: 560 } })
    const record: Traffic = { urls: [], sockets: [], sent: [], closed: 0, console: [], errors: watchErrors(page) }
    page.on('request', (r) => { record.urls.push(r.url()) })
    page.on('console', (m) => { record.console.push(`${m.type()}: ${m.text()}`) })
    page.on('websocket', (ws) => {
      record.sockets.push(ws.url())
      ws.on('framesent', (f) => { record.sent.push(String(f.payload)) })
      ws.on('close', () => { record.closed++ })
    })
    await page.goto(path.startsWith('http') ? path : `${hostOrigin}${path}`)
    return { page, record }
  }

  /** The page's HTML and the widget's shadow root's. */
  async function html (page: Page): Promise<string> {
    const shadow = await page.evaluate("document.querySelector('[data-touchline-widget]').shadowRoot.innerHTML") as string
    return `${await page.content()}${shadow}`
  }

  const frames = (record: Traffic): Array<{ op?: string, ref?: string, token?: string }> => record.sent.map((f) => JSON.parse(f) as { op?: string })

  it('goes live with a token from the host\'s backend, renews it on the open connection, and shows a goal after it expired; no key in the page', async () => {
    const { page, record } = await open('/')
    const widget = page.locator('[data-touchline-widget]')
    await whenLive(widget, '.tlw-conn')
    await expect.poll(async () => await widget.locator('article.tl-match').count()).toBe(2)
    expect(await widget.locator('article[data-fixture="8503"]').count()).toBe(0)
    // The league's name is read with the fan's token, in a header: the heading names the league.
    await expect.poll(async () => await widget.locator('.tlw-title').textContent()).not.toBe('Live scores')
    expect(await widget.locator('.tlw-title').textContent()).not.toMatch(/^League \d+$/)
    expect(record.urls.filter((u) => u.includes('/v3/football/leagues/501'))).toHaveLength(1)

    // The fan's token, asked with the site's session cookie, went in the first frame.
    const first = issued[0]
    if (first === undefined) throw new Error('no token issued')
    expect(first.fan).toMatch(/^fan-\d+$/)
    expect(expiry(first.token) - first.at).toBeLessThanOrEqual(LIFETIME_S * 1000)
    expect(frames(record)[0]).toMatchObject({ op: 'auth', token: first.token })

    // Renewed before it expired: `/token` asked again, the new token sent on the same connection.
    await expect.poll(() => issued.length, { timeout: LIFETIME_S * 1000 + 2000 }).toBeGreaterThanOrEqual(2)
    const second = issued[1] as Issued
    expect(second.at).toBeLessThan(expiry(first.token))
    expect(second.fan).toBe(first.fan)
    await expect.poll(() => frames(record).some((f) => f.op === 'auth' && f.ref === 'refresh' && f.token === second.token)).toBe(true)

    // Past the first token's expiry, the key's grace and the gateway's check (every second): a connection
    // still on that token would have been closed (4401) by now. The one wait a token's lifetime requires.
    await page.waitForTimeout(Math.max(0, expiry(first.token) + (GRACE_S + 1.5) * 1000 - Date.now()))
    await celtic.goal('home', 'K. Furuhashi', 23)
    await expect.poll(async () => await widget.locator('article[data-fixture="8501"] .tl-score').textContent()).toBe('1-0')
    expect(await widget.locator('.tlw-conn').getAttribute('data-state')).toBe('live')
    // One connection all along: never closed, never opened again.
    expect(record.sockets).toHaveLength(1)
    expect(record.closed).toBe(0)
    expect(issued.every((i) => i.fan === first.fan)).toBe(true)

    // No key anywhere, and no token in an address (the socket's is `?auth=frame`).
    expect(await html(page)).not.toContain('site-key-')
    expect(record.urls.length).toBeGreaterThan(3)
    for (const url of record.urls) expect(url).not.toContain('site-key-')
    expect(record.sockets[0]).toBe(`${gw.url.replace(/^http/, 'ws')}/v1/live?auth=frame`)
    for (const url of [...record.sockets, ...record.urls]) for (const { token } of issued) expect(url).not.toContain(token)
    expect(record.errors).toEqual([])
    await page.close()
  }, 60_000)

  it('shows its refusal line and stops when the token is signed with a wrong secret', async () => {
    const { page, record } = await open('/wrong')
    const widget = page.locator('[data-touchline-widget]')
    await widget.locator('.tlw-conn[data-state="refused"]').waitFor()
    expect(await widget.locator('.tlw-refused').textContent()).toBe('The widget\'s key is not valid.')
    expect(await widget.locator('article').count()).toBe(0)
    // The site's owner gets the gateway's words in the console: the token, not a key.
    expect(record.console.find((m) => m.startsWith('warning: touchline widget:'))).toMatch(/refused the token: invalid/)
    await shot(page, 'widget-token-refused')
    // Stopped: no retry (the client's first would come within its backoff's half second).
    await page.waitForTimeout(1000)
    expect(wrongCalls).toBe(1)
    expect(record.sockets).toHaveLength(1)
    expect(await html(page)).not.toContain('site-key-')
    expect(record.errors).toEqual([])
    await page.close()
  })

  it('with a fixed data-token: live while it lasts; when it expires, stops and says so instead of retrying', async () => {
    const { page, record } = await open('/fixed')
    const widget = page.locator('[data-touchline-widget]')
    await whenLive(widget, '.tlw-conn')
    await expect.poll(async () => await widget.locator('article.tl-match').count()).toBe(2)
    const token = frames(record)[0]?.token ?? ''
    expect(frames(record)[0]).toMatchObject({ op: 'auth' })
    expect(record.sockets).toEqual([`${gw.url.replace(/^http/, 'ws')}/v1/live?auth=frame`])
    // It cannot be renewed: the connection is closed once it expired (and the grace is over), and the
    // widget says so in place of the rows, having opened no other connection with the dead token.
    const stopped = widget.locator('.tlw-refused')
    await stopped.waitFor({ timeout: (LIFETIME_S + GRACE_S + 4) * 1000 })
    expect(await stopped.textContent()).toBe('Live scores have stopped: reload the page to follow them again.')
    expect(Date.now()).toBeGreaterThan(expiry(token))
    expect(await widget.locator('.tlw-conn').getAttribute('data-state')).toBe('refused')
    expect(record.sockets).toHaveLength(1)
    expect(record.closed).toBe(1)
    expect(frames(record).filter((f) => f.op === 'auth')).toHaveLength(1)
    expect(record.console.some((m) => m.includes('data-token cannot be renewed'))).toBe(true)
    expect(await html(page)).not.toContain('site-key-')
    expect(record.errors).toEqual([])
    await page.close()
  }, 60_000)

  it('the scoreboard and the match page with ?token_url=: live, league names read with the token, no key and no token in any address', async () => {
    const from = issued.length
    const { page, record } = await open(`${site.origin}/?token_url=/page-token`)
    await whenLive(page).catch(async (err: unknown) => {
      throw new Error(`${String(err)}\n${JSON.stringify({ state: await page.locator('#connection').getAttribute('data-state'), console: record.console, errors: record.errors, sockets: record.sockets, sent: record.sent, urls: record.urls })}`)
    })
    // The token's league only (501), named as the passthrough names it, read with the token in a header.
    await expect.poll(async () => await page.locator('#board article.tl-match').count()).toBe(2)
    await expect.poll(async () => await page.locator('#board .tl-league').first().textContent()).not.toMatch(/^League \d+$/)
    expect(issued.length).toBeGreaterThan(from)
    expect(record.sockets.every((u) => u.endsWith('/v1/live?auth=frame'))).toBe(true)
    // The match page, at the address the board links it with (the board's own query), goes live the same way.
    await page.goto(`${site.origin}/match/8501${new URL(page.url()).search}`)
    await whenLive(page)
    await expect.poll(async () => await page.locator('#league').textContent()).not.toMatch(/^(League \d+)?$/)
    for (const url of [...record.sockets, ...record.urls]) {
      expect(url).not.toContain('site-key-')
      for (const { token } of issued) expect(url).not.toContain(token)
    }
    expect(record.errors).toEqual([])
    await page.close()
  }, 60_000)
})
