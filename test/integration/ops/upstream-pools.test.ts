/**
 * An upstream path that hangs, asked for through the REST passthrough, must not silence the live feed: the
 * poller and the passthrough each have their own upstream client and connection pool (gateway.ts), so
 * eight passthrough calls that never return cannot take the sockets the poller needs.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { startProxy } from '../../helpers/http-proxy.ts'
import { waitFor } from '../../helpers/wait.ts'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => { for (const c of cleanup.splice(0).reverse()) await c().catch(() => {}) })

describe('a hung upstream endpoint used through the passthrough', () => {
  it('does not stall the poller: polls keep succeeding while 8 distinct passthrough calls hang', async () => {
    const provider: RunningProvider = await startProvider({ port: 0, simSpeed: 120, liveTarget: 8, hourlyLimits: { Enterprise: 1_000_000 } })
    cleanup.push(async () => { await provider.close() })
    // Paths under /football/teams/ are accepted and never answered.
    const proxy = await startProxy(provider.baseUrl, { delayMs: (url) => /\/football\/teams\//.test(url) ? Infinity : 0 })
    cleanup.push(proxy.close)
    const gw: Gateway = await startTestGateway({
      env: { TOUCHLINE_UPSTREAM_URL: proxy.baseUrl, TOUCHLINE_POLL_FLOOR_MS: '200', TOUCHLINE_RECONCILE_INTERVAL_MS: '2000' }
    })
    cleanup.push(gw.close)

    // Healthy first: the poller polls.
    const t0 = Date.now()
    while ((gw.poller.status().lastPollAt ?? 0) === 0) {
      if (Date.now() - t0 > 10_000) throw new Error('poller never polled')
      await sleep(50)
    }

    // Eight distinct client requests to a path the upstream never answers (no coalescing: distinct ids).
    const ids = [1, 2, 3, 4, 5, 6, 7, 8]
    const pending = ids.map(async (id) => await fetch(`${gw.url}/v3/football/teams/${id}?api_token=demo`).then((r) => r.status, () => -1))
    await waitFor('the upstream holding all eight', () => proxy.held() >= ids.length)
    expect(proxy.held()).toBe(ids.length)

    // For the next 6 s the poller should keep polling at its floor (200 ms), as it does without them.
    const before = gw.poller.status().lastPollAt ?? 0
    let maxFailures = 0
    let lastOk = before
    const watchStart = Date.now()
    while (Date.now() - watchStart < 6000) {
      const s = gw.poller.status()
      maxFailures = Math.max(maxFailures, s.consecutiveFailures)
      lastOk = s.lastPollAt ?? lastOk
      await sleep(100)
    }
    const status = gw.poller.status()
    // A healthy poller: no failures and a successful poll within the last 2 s.
    expect({ consecutiveFailures: maxFailures, lastError: status.lastError, lastPollAgoMs: Date.now() - lastOk < 2000 })
      .toEqual({ consecutiveFailures: 0, lastError: null, lastPollAgoMs: true })
    await Promise.all(pending)
  }, 60_000)
})
