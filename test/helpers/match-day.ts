/**
 * A simulated match day through the real pipeline: the embedded provider over HTTP, the undici upstream
 * client, the budget ledger and the poller, writing to `store`. Only the clock is virtual (as in
 * bench/pipeline.ts): the poller's pauses advance it at once, so a day of matches takes seconds. The
 * provider's seed and speed fix which matches are played: with the defaults, a window of a few hours of
 * match time has goals, goals cancelled by VAR, cards, extra time and shoot-outs.
 */
import { pino } from 'pino'
import { createMemoryLedger } from '../../src/budget/index.ts'
import { createMetrics } from '../../src/metrics.ts'
import { createPoller } from '../../src/poller/poller.ts'
import { startProvider } from '../../packages/provider/src/index.ts'
import type { LiveStore } from '../../src/store/types.ts'
import { createUpstreamClient } from '../../src/upstream/index.ts'

export interface MatchDayOptions {
  /** Virtual minutes the poller runs. */
  minutes: number
  /** Match seconds per (virtual) real second. @default 60 */
  simSpeed?: number
  /** Matches in play at once, about. @default 6 */
  liveTarget?: number
  /** Store every clock tick, as the gateway did before clients ran the clock. @default false */
  everyTick?: boolean
  /** Called between poller steps (the event loop has turned), with the virtual minutes elapsed. */
  onStep?: (elapsedMinutes: number) => Promise<void> | void
}

/** Runs the day against `store`; resolves when the poller has stopped. Returns the league ids of the dataset. */
export async function runMatchDay (store: LiveStore, opts: MatchDayOptions): Promise<{ leagues: number[] }> {
  const realStart = Date.now()
  let slept = 0
  const now = (): number => Date.now() + slept
  const provider = await startProvider({ port: 0, now, simSpeed: opts.simSpeed ?? 60, liveTarget: opts.liveTarget ?? 6 })
  const log = pino({ level: 'silent' })
  const ledger = createMemoryLedger({ now })
  const upstream = createUpstreamClient({ baseUrl: provider.baseUrl, token: 'demo-enterprise', ledger, now, logger: log })
  const poller = createPoller({
    upstream,
    ledger,
    store,
    metrics: createMetrics({ defaults: false }),
    log,
    now,
    sleep: async (ms) => { slept += ms; await new Promise((resolve) => setImmediate(resolve)) }
  }, { reserve: 0.2, floorMs: 1000, clockRate: opts.simSpeed ?? 60, everyTick: opts.everyTick })
  const leagues = provider.world.all('league').map((l) => l.id)
  try {
    poller.start()
    for (let elapsed = 0; elapsed < opts.minutes * 60_000; elapsed = now() - realStart) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      await opts.onStep?.(elapsed / 60_000)
    }
    await poller.stop()
  } finally {
    await upstream.close()
    await provider.close()
  }
  return { leagues }
}
