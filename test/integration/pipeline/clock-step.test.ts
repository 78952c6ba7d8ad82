/**
 * The wall clock steps back (an NTP correction, a VM resumed) under a running poller: its intervals (the
 * periodic reconcile, the gap check) run on a monotonic clock, so reconciles go on. The real-like upstream's
 * `latest` never lists include-only changes (docs/upstream.md, "Livescores"): only a reconcile picks up a new kick.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createPoller } from '../../../src/poller/poller.ts'
import { createStore } from '../../../src/store/index.ts'
import { createUpstreamClient } from '../../../src/upstream/index.ts'
import { liveShootout, SHOOTOUT_FIXTURE_ID, startRealUpstream } from '../../helpers/real-upstream.ts'
import { waitFor } from '../../helpers/wait.ts'

const log = pino({ level: 'silent' })
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {})
})

describe('the wall clock steps back one hour under a running poller', () => {
  it('keeps reconciling on its interval, so an include-only change (a shoot-out kick) still reaches the store', async () => {
    const upstream = await startRealUpstream({ remaining: 100_000 })
    cleanups.push(async () => { await upstream.close() })
    const at = upstream.live.findIndex((f) => f.id === SHOOTOUT_FIXTURE_ID)
    upstream.live[at] = liveShootout(6)
    let offset = 0
    const now = (): number => Date.now() + offset
    const ledger = createMemoryLedger()
    const client = createUpstreamClient({ baseUrl: upstream.baseUrl, token: upstream.token, ledger, logger: log, timeoutMs: 2000, retryBaseMs: 20 })
    cleanups.push(async () => { await client.close() })
    const store = createStore({ kind: 'memory' })
    // The wall clock steps; the interval clock (performance.now by default in the gateway) does not.
    const poller = createPoller({ upstream: client, ledger, store, log, now, monotonic: () => performance.now() }, { floorMs: 100, reconcileIntervalMs: 500, kickoffListEveryMs: 0 })
    poller.start()
    cleanups.push(async () => { await poller.stop() })
    const kicks = async (): Promise<number> => ((await store.getFixture(SHOOTOUT_FIXTURE_ID))?.events ?? []).filter((e) => e.type.startsWith('PENALTY_SHOOTOUT')).length
    await waitFor('6 kicks stored', async () => await kicks() === 6, 5000)

    offset = -3_600_000
    upstream.live[at] = liveShootout(8)
    // The reconcile interval is 500 ms: within 3 s several reconciles should have run.
    const reconciles = upstream.hits('/football/livescores').length
    await sleep(3000)
    expect({ reconciles: upstream.hits('/football/livescores').length - reconciles, kicks: await kicks() })
      .toEqual({ reconciles: expect.any(Number), kicks: 8 })
  }, 20_000)
})
