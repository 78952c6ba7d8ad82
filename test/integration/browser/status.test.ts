/**
 * The status page (`/status`) in headless Chromium: budget per entity with its reset countdown, the
 * poller, connections and rates, and the four charts of the last hour, drawn from `GET /v1/status`.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAVE_CHROMIUM, launchBrowser, shot, startUiGateway, watchErrors, type UiGateway } from './harness.ts'

describe.skipIf(!HAVE_CHROMIUM)('status page', () => {
  let browser: Browser
  let gw: UiGateway

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
    // One upstream call through the passthrough, so the ledger knows a bucket.
    await fetch(`${gw.url}/v3/football/leagues?api_token=demo`)
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  it('shows budget, poller, connections and the charts of the last hour', async () => {
    const body = await (await fetch(`${gw.url}/v1/status`)).json() as { budget: Array<{ entity: string }> }
    expect(body.budget.map((b) => b.entity)).toContain('League')

    const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } })
    const errors = watchErrors(page)
    await page.goto(`${gw.url}/status`)
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 5000 })
    const row = page.locator('#budget tr', { hasText: 'League' })
    await row.waitFor()
    expect(await row.getByRole('meter').getAttribute('aria-valuenow')).toMatch(/^\d+$/)
    expect(await row.locator('td.num').textContent()).toMatch(/^\d+:\d{2}$/)
    expect(await page.locator('.tile dt').allTextContents()).toEqual(['Poller', 'Live fixtures', 'Connections', 'Messages / s', 'Cache hit ratio'])
    const charts = page.locator('figure.chart svg[role="img"]')
    expect(await charts.count()).toBe(4)
    expect(await charts.first().getAttribute('aria-label')).toMatch(/^Poll interval: now/)
    expect(await page.locator('#poller dt').first().textContent()).toBe('State')
    await shot(page, 'status')
    expect(errors).toEqual([])
    await page.close()
  })
})
