/**
 * The status page's Push alerts tile in headless Chromium: subscriptions, alerts sent (none retrying or
 * failed) and shards sent from this instance, from the `push` field of `/v1/status`.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAVE_CHROMIUM, launchBrowser, watchErrors } from '../browser/harness.ts'
import { matches } from '../../helpers/matches.ts'
import { startPushService } from '../../helpers/push-service.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, startPushGateway } from './harness.ts'

describe.skipIf(!HAVE_CHROMIUM)('status page with push alerts', () => {
  let browser: Browser
  beforeAll(async () => { browser = await launchBrowser() })
  afterAll(async () => { await browser?.close() })

  it('shows a Push alerts tile with the subscriptions and the alerts sent', async () => {
    const service = await startPushService()
    const gw = await startPushGateway({ TOUCHLINE_PUSH_SHARDS: '2' })
    const match = await matches(gw.store).start(8301, 501, 'Celtic', 'Rangers')
    for (const d of [service.newDevice(), service.newDevice()]) await follow(gw, ALL_KEY.key, d.subscription, { fixtures: [8301] })
    await match.goal('home', 'Furuhashi', 9)
    await waitFor('two alerts', () => service.delivered().length === 2, 10_000)

    const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } })
    const errors = watchErrors(page)
    await page.goto(`${gw.url}/status`)
    const tile = page.locator('.tile', { hasText: 'Push alerts' })
    await tile.waitFor()
    expect(await tile.locator('.tile-value').textContent()).toBe('2')
    expect(await tile.textContent()).toContain('subscriptions · 2 sent · 0 retrying · 0 failed')
    expect(await tile.textContent()).toContain('2/2 shards here')
    expect(errors).toEqual([])
    await page.close()
  })
})
