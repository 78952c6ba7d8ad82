/**
 * npm run bench:pipeline — one simulated hour of the live pipeline on a 3000-per-hour plan (Pro).
 *
 * Everything runs for real (provider over HTTP, undici client, ledger, store, poller) except the clock: the
 * poller's pauses advance a virtual clock instantly instead of sleeping, and the real time each request
 * takes is added too, so an hour of polling takes a minute or so. The provider's matches run at real speed
 * (1 match second per virtual second) on that clock. Reports poller requests, 429s (must be 0) and
 * detection latency (provider change → appended to the log) p50/p99.
 */
import { pino } from 'pino'
import { createMemoryLedger } from '../src/budget/index.ts'
import { createMetrics } from '../src/metrics.ts'
import { createPoller } from '../src/poller/poller.ts'
import { startProvider } from '../packages/provider/src/index.ts'
import { createStore } from '../src/store/index.ts'
import { createUpstreamClient } from '../src/upstream/index.ts'
import { isTimedChange } from '../src/poller/tracking.ts'

const HOUR_MS = 3_600_000
const realStart = Date.now()
let slept = 0
const now = (): number => realStart + (Date.now() - realStart) + slept

const provider = await startProvider({ port: 0, now, simSpeed: 1, liveTarget: 6, tokens: [{ token: 'bench-pro', plan: 'Pro', status: 'active' }] })
const log = pino({ level: 'warn' })
const metrics = createMetrics({ defaults: false })
const ledger = createMemoryLedger({ now })
const store = createStore({ kind: 'memory' })
let calls = 0
let limited = 0
const upstream = createUpstreamClient({
  baseUrl: provider.baseUrl,
  token: 'bench-pro',
  ledger,
  now,
  logger: log,
  onCall: (c) => { calls++; if (c.status === 429) limited++ }
})
const latencies: number[] = []
const poller = createPoller({
  upstream,
  ledger,
  store,
  metrics,
  log,
  now,
  changedAt: provider.changedAt,
  onRecord: (r) => {
    if (!isTimedChange(r.record.changes)) return
    const made = provider.changedAt(r.record.fixture_id, now())
    if (made > 0) latencies.push(now() - made)
  },
  sleep: async (ms) => { slept += ms; await new Promise((resolve) => setImmediate(resolve)) }
}, { reserve: 0.2, floorMs: 1000 })

const started = now()
poller.start()
while (now() - started < HOUR_MS) await new Promise((resolve) => setTimeout(resolve, 50))
await poller.stop()
const usage = await ledger.get('Fixture')
await upstream.close()
await provider.close()

latencies.sort((a, b) => a - b)
const q = (p: number): string => latencies.length === 0 ? 'n/a' : `${(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]! / 1000).toFixed(2)} s`
console.log(JSON.stringify({
  simulated: '1 h on the Pro plan (3000 Fixture requests per hour, 20 % kept for the passthrough)',
  wallClockSeconds: Math.round((Date.now() - realStart) / 1000),
  pollerRequests: calls,
  status429: limited,
  fixtureRemaining: usage?.remaining,
  changesDetected: latencies.length,
  detectionLatencyP50: q(0.5),
  detectionLatencyP99: q(0.99)
}, null, 2))
