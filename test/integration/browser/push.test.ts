/**
 * Goal alerts by Web Push, the browser's side, in headless Chromium against a real gateway (VAPID keys set,
 * its store driven by hand so a goal comes at an exact moment): the page registers its service worker, a
 * row's bell follows a team and sends the subscription to `POST /v1/push/subscriptions`, the gateway's push
 * for a goal, delivered to the service worker, shows a notification with the goal's text, and a click on it
 * opens the match.
 *
 * Headless Chromium has no push service, so `PushManager.subscribe()` cannot succeed there. The test makes
 * the subscription a push service would have made: a device of a local push service
 * (test/helpers/push-service.ts): an endpoint there, and a P-256 key pair and auth secret generated for the
 * test (the push service keeps the private half, to decrypt what the gateway sends). An init script
 * replaces `pushManager.subscribe` only, returning that subscription; everything else is real: the service
 * worker and its registration, the permission, the page's POST to the gateway, the gateway's encrypted push
 * to the local push service (decrypted there with the test's private key), and that payload delivered to the
 * service worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`), where the worker shows
 * the notification. A notification cannot be clicked in a headless browser either: the test dispatches a
 * `notificationclick` event, carrying the notification the worker showed, in the worker itself.
 */
import { createECDH } from 'node:crypto'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { startPushService, type Device, type PushMessage, type PushService } from '../../helpers/push-service.ts'
import { cls, CLS_METER, row, settled } from './board-page.ts'
import { axeViolations, HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, watchErrors, type UiGateway } from './harness.ts'

/**
 * How long the page or its service worker may take to show what a step caused: a worker woken by a push
 * takes seconds on a loaded machine (a full run took more than expect.poll's default second).
 */
const WAIT_MS = 10_000

interface Shown { title: string, body: string, tag: string, data: { url: string, fixture_id: number, kind: string } }

/** The notifications the page's service worker registration shows now. */
async function notifications (page: Page): Promise<Shown[]> {
  return await page.evaluate('navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))') as Shown[]
}

/**
 * The init script that replaces `PushManager.prototype.subscribe` (and nothing else) with one answering the
 * subscription the test made: headless Chromium has no push service to make one.
 */
function fakeSubscribe (device: Device): string {
  const json = JSON.stringify(device.subscription)
  return `(() => {
    const sub = ${json}
    const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer
    window.__subscribeCalls = 0
    PushManager.prototype.subscribe = async function (options) {
      window.__subscribeCalls++
      window.__subscribeOptions = { userVisibleOnly: options.userVisibleOnly, keyLength: new Uint8Array(options.applicationServerKey).length }
      return {
        endpoint: sub.endpoint, expirationTime: null, options,
        getKey: (name) => bytes(sub.keys[name]),
        toJSON: () => sub,
        unsubscribe: async () => true
      }
    }
  })()`
}

/** The DevTools id of the page's service worker registration (scope `/`): enabling the domain reports those there are. */
async function registrationId (cdp: CDPSession, scope: string): Promise<string> {
  const found: Array<{ registrationId: string, scopeURL: string, isDeleted: boolean }> = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof found }) => { found.push(...e.registrations) })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => found.some((r) => r.scopeURL === scope && !r.isDeleted), { timeout: WAIT_MS }).toBe(true)
  return (found.find((r) => r.scopeURL === scope && !r.isDeleted) as { registrationId: string }).registrationId
}

describe.skipIf(!HAVE_CHROMIUM)('goal alerts by Web Push in the browser', () => {
  let browser: Browser
  let gw: UiGateway
  let pushService: PushService
  let celtic: Match
  let hearts: Match
  const vapid = createECDH('prime256v1')
  // A private key with a leading zero byte comes out as 31 bytes, which the settings refuse (1 run in 256).
  do vapid.generateKeys(); while (vapid.getPrivateKey().length !== 32)

  /** The next push the gateway sent to a device (its payload as the push service decrypted it), as text. */
  async function nextPush (device: Device, after: number): Promise<string> {
    let found: PushMessage | undefined
    await expect.poll(() => (found = pushService.messages.filter((m) => m.device === device.id)[after]), { timeout: 20_000 }).toBeDefined()
    const m = found as PushMessage
    expect(m.vapidProblem).toBeUndefined()
    expect(m.decryptProblem).toBeUndefined()
    return JSON.stringify(m.payload)
  }

  beforeAll(async () => {
    browser = await launchBrowser()
    pushService = await startPushService(() => 201, false)
    gw = await startUiGateway(undefined, {
      env: {
        TOUCHLINE_VAPID_PUBLIC_KEY: vapid.getPublicKey().toString('base64url'),
        TOUCHLINE_VAPID_PRIVATE_KEY: vapid.getPrivateKey().toString('base64url'),
        TOUCHLINE_VAPID_SUBJECT: 'mailto:alerts@example.com',
        TOUCHLINE_PUSH_ALLOW_LOCAL: 'true'
      }
    })
    celtic = await gw.matches.start(7001, 501, 'Celtic', 'Kilmarnock', 30)
    hearts = await gw.matches.start(7002, 501, 'Hearts', 'Hibernian', 12)
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
    await pushService?.close()
  })

  /** A browser context allowed to notify, whose push manager answers the test's subscription. */
  async function open (width: number, device: Device): Promise<{ ctx: BrowserContext, page: Page, errors: string[] }> {
    const ctx = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 768 }, hasTouch: width < 500 })
    await ctx.grantPermissions(['notifications'], { origin: gw.url })
    await ctx.addInitScript(fakeSubscribe(device))
    await ctx.addInitScript(CLS_METER)
    const page = await ctx.newPage()
    return { ctx, page, errors: watchErrors(page) }
  }

  it('registers the service worker; a team\'s bell sends the subscription; a goal\'s push shows its notification, whose click opens the match', async () => {
    const device = pushService.newDevice()
    const { endpoint, keys } = device
    const { ctx, page, errors } = await open(1366, device)
    await page.goto(`${gw.url}/`)
    const bell = row(page, celtic.id).locator('button.tl-bell')
    await bell.waitFor()
    expect(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)')).toBe(`${gw.url}/sw.js`)
    const cdp = await ctx.newCDPSession(page)
    const regId = await registrationId(cdp, `${gw.url}/`)

    // The row's bell: named for the match, opens its menu of bells; each a toggle named for what it follows.
    expect(await bell.getAttribute('aria-label')).toBe('Alerts for Celtic v Kilmarnock')
    await bell.click()
    expect(await bell.getAttribute('aria-expanded')).toBe('true')
    const team = page.getByRole('button', { name: 'Alerts for every Celtic match' })
    expect(await team.getAttribute('aria-pressed')).toBe('false')
    const posted = page.waitForResponse((r) => r.url().includes('/v1/push/subscriptions') && r.request().method() === 'POST')
    await team.click()
    const answer = await posted
    expect(answer.status()).toBe(201)
    expect(JSON.parse(answer.request().postData() ?? '{}')).toMatchObject({
      subscription: { endpoint, keys },
      follow: { teams: [celtic.fixture.home.id], fixtures: [], leagues: [] },
      kinds: ['goal', 'red_card', 'kick_off', 'half_time', 'full_time']
    })
    // subscribe() was asked for a user-visible subscription with the gateway's 65-byte VAPID key.
    expect(await page.evaluate('window.__subscribeOptions')).toEqual({ userVisibleOnly: true, keyLength: 65 })
    await expect.poll(async () => await team.getAttribute('aria-pressed'), { timeout: WAIT_MS }).toBe('true')
    expect(await bell.getAttribute('aria-label')).toBe('Alerts for Celtic v Kilmarnock (on)')
    // The gateway holds it, by its endpoint.
    const held = await fetch(`${gw.url}/v1/push/subscriptions?api_token=demo&endpoint=${encodeURIComponent(endpoint)}`)
    expect(held.status).toBe(200)
    expect((await held.json() as { follow: { teams: number[] } }).follow.teams).toEqual([celtic.fixture.home.id])
    await page.keyboard.press('Escape')
    expect(await bell.getAttribute('aria-expanded')).toBe('false')

    // The page goes elsewhere (the Scheduled tab), then Celtic score: the gateway pushes to the device.
    await page.goto(`${gw.url}/#scheduled`)
    await celtic.goal('home', 'Kyogo Furuhashi', 31)
    const push = await nextPush(device, 0)
    const alert = JSON.parse(push) as { kind: string, title: string, body: string, fixture_id: number, url: string, tag: string }
    expect(alert).toMatchObject({ kind: 'goal', fixture_id: celtic.id })
    expect(alert.title).toContain('Celtic 1-0 Kilmarnock')
    expect(alert.body).toContain('Furuhashi')

    // Delivered to the service worker as a push service would: it shows the notification.
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: gw.url, registrationId: regId, data: push })
    await expect.poll(async () => await notifications(page), { timeout: WAIT_MS }).toEqual([{ title: alert.title, body: alert.body, tag: alert.tag, data: expect.objectContaining({ url: alert.url, fixture_id: celtic.id }) }])

    // A click on it: the open tab shows the match (the Live tab, the row ringed, scrolled to, focused).
    const worker = ctx.serviceWorkers()[0]
    if (worker === undefined) throw new Error('no service worker')
    await worker.evaluate('registration.getNotifications().then(([n]) => { self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n })) })')
    await expect.poll(async () => await row(page, celtic.id).getAttribute('class'), { timeout: WAIT_MS }).toContain('tl-target')
    expect(new URL(page.url()).hash).toBe('#live')
    expect(await page.evaluate('document.activeElement.closest(\'article\')?.dataset.fixture')).toBe(String(celtic.id))
    // The click closed the notification.
    await expect.poll(async () => (await notifications(page)).length, { timeout: WAIT_MS }).toBe(0)
    await shot(page, 'alerts-opened-1366', { docs: true })
    expect(errors).toEqual([])
    await ctx.close()
  })

  it('opens the match an alert\'s URL names in a new tab', async () => {
    const { ctx, page, errors } = await open(390, pushService.newDevice())
    const url = new URL(`/?fixture=${celtic.id}`, gw.url)
    await page.goto(url.href)
    await expect.poll(async () => await row(page, celtic.id).getAttribute('class'), { timeout: WAIT_MS }).toContain('tl-target')
    // The events of the match are open (its goal), and the match is on screen.
    expect(await row(page, celtic.id).locator('button.tl-toggle').getAttribute('aria-expanded')).toBe('true')
    await settled(page)
    const box = await row(page, celtic.id).boundingBox()
    expect(box !== null && box.y >= 0 && box.y + box.height <= 844).toBe(true)
    expect(errors).toEqual([])
    await ctx.close()
  })

  it('"Goal disallowed" replaces the goal\'s notification (one tag)', async () => {
    const device = pushService.newDevice()
    const { ctx, page } = await open(1366, device)
    await page.goto(`${gw.url}/`)
    await page.evaluate('navigator.serviceWorker.ready')
    const cdp = await ctx.newCDPSession(page)
    const regId = await registrationId(cdp, `${gw.url}/`)
    const bell = row(page, hearts.id).locator('button.tl-bell')
    await bell.click()
    const posted = page.waitForResponse((r) => r.url().includes('/v1/push/subscriptions') && r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Alerts for this match: Hearts v Hibernian' }).click()
    expect((await posted).status()).toBe(201)
    await hearts.goal('away', 'Martin Boyle', 14)
    const goal = await nextPush(device, 0)
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: gw.url, registrationId: regId, data: goal })
    await expect.poll(async () => (await notifications(page)).map((n) => n.title), { timeout: WAIT_MS }).toEqual([JSON.parse(goal).title])
    await hearts.cancelGoal('Martin Boyle')
    const disallowed = await nextPush(device, 1)
    expect(JSON.parse(disallowed)).toMatchObject({ kind: 'goal_disallowed', tag: JSON.parse(goal).tag })
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: gw.url, registrationId: regId, data: disallowed })
    await expect.poll(async () => (await notifications(page)).map((n) => n.title), { timeout: WAIT_MS }).toEqual([JSON.parse(disallowed).title])
    await ctx.close()
  })

  it('unfollowing the last thing deletes the subscription at the gateway', async () => {
    const device = pushService.newDevice()
    const { ctx, page } = await open(1366, device)
    await page.goto(`${gw.url}/`)
    await row(page, celtic.id).locator('button.tl-bell').click()
    const match = page.getByRole('button', { name: 'Alerts for this match: Celtic v Kilmarnock' })
    const posted = page.waitForResponse((r) => r.url().includes('/v1/push/subscriptions') && r.request().method() === 'POST')
    await match.click()
    expect((await posted).status()).toBe(201)
    const deleted = page.waitForResponse((r) => r.url().includes('/v1/push/subscriptions') && r.request().method() === 'DELETE')
    await match.click()
    expect((await deleted).status()).toBe(204)
    expect(await match.getAttribute('aria-pressed')).toBe('false')
    const held = await fetch(`${gw.url}/v1/push/subscriptions?api_token=demo&endpoint=${encodeURIComponent(device.endpoint)}`)
    expect(held.status).toBe(404)
    await ctx.close()
  })

  it('the bells move nothing, at 390 and 1366: no layout shift, each beside its row\'s clock; menu and settings pass axe', async () => {
    for (const width of [390, 1366]) {
      const { ctx, page, errors } = await open(width, pushService.newDevice())
      await page.goto(`${gw.url}/`)
      await row(page, celtic.id).locator('button.tl-bell').waitFor()
      await settled(page)
      expect(await cls(page)).toBeLessThan(0.01)
      const bell = await row(page, celtic.id).locator('button.tl-bell').boundingBox()
      const clock = await row(page, celtic.id).locator('.tl-clock').boundingBox()
      const match = await row(page, celtic.id).boundingBox()
      if (bell === null || clock === null || match === null) throw new Error('no box')
      expect(bell.x).toBeGreaterThanOrEqual(match.x)
      expect(bell.x + bell.width).toBeLessThanOrEqual(clock.x)
      expect(bell.width).toBeGreaterThanOrEqual(24)
      expect(bell.height).toBeGreaterThanOrEqual(width < 500 ? 44 : 24)
      await shot(page, `alerts-bells-${width}`)
      // The menu and the settings panel float above the rows (nothing moves) and pass axe's checks.
      await row(page, celtic.id).locator('button.tl-bell').click()
      await page.locator('#tl-alerts-menu').waitFor()
      expect(await axeViolations(page)).toEqual([])
      await shot(page, `alerts-menu-${width}`, { docs: true })
      await page.getByRole('button', { name: 'Alert settings' }).click()
      await page.getByRole('dialog', { name: 'Goal alerts' }).waitFor()
      expect(await axeViolations(page)).toEqual([])
      await shot(page, `alerts-settings-${width}`, { docs: true })
      await page.keyboard.press('Escape')
      await expect.poll(async () => await page.evaluate('document.activeElement.className'), { timeout: WAIT_MS }).toBe('tl-bell')
      expect(await cls(page)).toBeLessThan(0.01)
      expect(errors).toEqual([])
      await ctx.close()
    }
  }, 90_000) // two views, four axe runs and six screenshots: 18 s alone, over 30 s on a loaded machine
})

describe.skipIf(!HAVE_CHROMIUM)('a gateway without push', () => {
  it('shows no bell and no Alerts button, and registers no service worker', async () => {
    const browser = await launchBrowser()
    const gw = await startUiGateway()
    try {
      await gw.matches.start(7001, 501, 'Celtic', 'Kilmarnock', 30)
      const page = await browser.newPage()
      await page.goto(`${gw.url}/`)
      await row(page, 7001).waitFor()
      expect(await page.locator('button.tl-bell').count()).toBe(0)
      expect(await page.locator('#alerts').isHidden()).toBe(true)
      expect(await page.evaluate('navigator.serviceWorker.getRegistrations().then((r) => r.length)')).toBe(0)
    } finally {
      await browser.close()
      await gw.close()
    }
  })
})
