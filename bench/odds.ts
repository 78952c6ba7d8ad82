/**
 * npm run bench:odds — live odds on a full board of live fixtures, on a 3,000-an-hour `InplayOdd` budget
 * (the Pro plan: 3,000 calls per entity per hour, 20 % of it kept for the passthrough). Two parts:
 *
 * hour    One simulated hour, everything real (the embedded provider over HTTP, the upstream client, the budget
 *         ledger, the memory store and its log, the livescore poller and the odds poller) but the clock: a
 *         virtual clock that runs at real speed while anything works and jumps to the next wake-up while both
 *         pollers wait, so an hour of polling takes a few real minutes. The provider's hourly buckets and its
 *         matches (at real match speed, `--hour-speed 1`) run on that clock, so the budget is the real one
 *         for that hour, and each upstream call still takes its real time. Reported: the odds poller's
 *         upstream calls by path, 429s by entity (counted from the answers, not assumed), and detection
 *         latency: from the instant the provider's price changed (each row's update time, the provider's
 *         `latest_bookmaker_update` to the millisecond) to the instant the odds record reached the log (a
 *         tail of the store), one sample per change of a price, a suspension, a reopening or a settlement.
 *
 * fanout  `--minutes` real minutes of the gateway (startGateway) in front of the provider on the same budget,
 *         matches at `--speed` (60: every fixture re-priced every second or two, a busy board), and WebSocket
 *         subscribers to the odds kinds of every live fixture, each over its own socket: `full` with
 *         `conflate_ms` 0, 1000, 3000 and 5000, and `delta` (`odds: true`) with 0 and 1000. Reported: odds frames and bytes per
 *         subscriber over the same period, the gaps between two odds records of one fixture (what conflation
 *         has to merge), the upstream calls and 429s of the period, and latency from the provider's change
 *         to the record's `at` and to its receipt by the unconflated `full` subscriber.
 *
 *   npm run bench:odds -- [--part hour|fanout|both] [--live 20] [--hour-minutes 60] [--hour-speed 1] [--minutes 5] [--speed 60] [--budget 3000] [--floor 1000]
 *
 * `--budget`: calls per entity per hour of the plan (3,000 is the Pro plan's; a larger one polls `latest`
 * more often, so a fixture's odds records come closer together, which is what conflation has to merge).
 * `--floor`: the fanout gateway's TOUCHLINE_POLL_FLOOR_MS, the shortest pause between two polls (1000 by
 * default: no poll of `latest` less than a second after the last, whatever the budget).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import WebSocket from 'ws'
import { createMemoryLedger } from '../src/budget/index.ts'
import { loadConfig } from '../src/config.ts'
import { startGateway } from '../src/gateway.ts'
import { createMetrics } from '../src/metrics.ts'
import { createOddsPoller, ODDS_ENTITY } from '../src/poller/odds.ts'
import { createPoller } from '../src/poller/poller.ts'
import { startProvider, type RunningProvider } from '../packages/provider/src/index.ts'
import { createStore } from '../src/store/index.ts'
import { isOddsRecord } from '../src/store/types.ts'
import { createUpstreamClient, type UpstreamClient } from '../src/upstream/index.ts'
import { ODDS_KINDS, type OddsChange } from '../src/wire-model/model.ts'

const { values: args } = parseArgs({
  options: {
    part: { type: 'string', default: 'both' },
    live: { type: 'string', default: '20' },
    'hour-minutes': { type: 'string', default: '60' },
    'hour-speed': { type: 'string', default: '1' },
    minutes: { type: 'string', default: '5' },
    speed: { type: 'string', default: '60' },
    budget: { type: 'string', default: '3000' },
    floor: { type: 'string', default: '1000' }
  }
})
const LIVE = Number(args.live)
const TOKEN = 'bench-pro'
const BUDGET = Number(args.budget)
const PLAN = { tokens: [{ token: TOKEN, plan: 'Pro' as const, status: 'active' as const }], hourlyLimits: { Pro: BUDGET } }

// ---- shared: the provider's own record of when each price changed -------------------------------------------

/** Latency samples, ms. */
class Samples {
  readonly values: number[] = []
  add (ms: number): void { this.values.push(ms) }
  summary (): { count: number, p50: string, p99: string, max: string } {
    const sorted = [...this.values].sort((a, b) => a - b)
    const at = (p: number): string => sorted.length === 0 ? 'n/a' : `${((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) / 1000).toFixed(2)} s`
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) }
  }
}

const marketKey = (bookmaker: number, market: number, line: string | null): string => `${bookmaker}:${market}:${line ?? ''}`

/**
 * When the provider changed what an odds change reports, epoch ms: the update time of the selection's row (a
 * price move, when the row still shows that price at `atMs`) or the latest of the market's rows (a suspension,
 * reopening or settlement). Undefined for what it cannot place (a market added, staleness, a price since moved).
 */
function changedAtFor (provider: RunningProvider, fixtureId: number, atMs: number): (c: OddsChange) => number | undefined {
  const fixture = provider.world.get('fixture', fixtureId)
  const rows = fixture === undefined ? [] : provider.world.inplayOdds(fixture, atMs)
  const bySelection = new Map<string, { value: string, updatedMs: number }>()
  const byMarket = new Map<string, number>()
  for (const { row, updatedMs } of rows) {
    const market = marketKey(Number(row.bookmaker_id), Number(row.market_id), (row.total as string | null) ?? null)
    bySelection.set(`${market}|${String(row.label)}|${String(row.handicap ?? '')}`, { value: String(row.value), updatedMs })
    byMarket.set(market, Math.max(byMarket.get(market) ?? -Infinity, updatedMs))
  }
  return (c) => {
    if (c.kind === 'odds_changed') {
      const row = bySelection.get(`${marketKey(c.bookmaker_id, c.market_id, c.line)}|${c.selection.label}|${c.selection.handicap ?? ''}`)
      return row !== undefined && row.value === c.price ? row.updatedMs : undefined
    }
    if (c.kind === 'market_suspended' || c.kind === 'market_reopened' || c.kind === 'market_settled') return byMarket.get(marketKey(c.bookmaker_id, c.market_id, c.line))
    return undefined
  }
}

// ---- hour: a virtual clock for two pollers ----------------------------------------------------------------------

/**
 * Real time plus an offset. Actors (the two pollers) sleep on it; while any actor works the clock runs at real
 * speed, and when every actor sleeps it jumps to the earliest wake-up. `until` waits without being an actor.
 */
class VirtualClock {
  private offset = 0
  private readonly sleepers = new Set<{ at: number, actor: boolean, resolve: () => void }>()
  private timer: NodeJS.Timeout | undefined
  private queued = false
  jumpedMs = 0

  constructor (private readonly actors: number) {}

  readonly now = (): number => Date.now() + this.offset

  readonly sleep = async (ms: number, signal?: AbortSignal): Promise<void> => await this.wait(this.now() + ms, true, signal)

  async until (at: number): Promise<void> { await this.wait(at, false) }

  private async wait (at: number, actor: boolean, signal?: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      const onAbort = (): void => { this.sleepers.delete(s); resolve() }
      const s = { at, actor, resolve: () => { signal?.removeEventListener('abort', onAbort); resolve() } }
      this.sleepers.add(s)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.schedule()
    })
  }

  private schedule (): void {
    if (this.queued) return
    this.queued = true
    setImmediate(() => { this.queued = false; this.tick() })
  }

  private tick (): void {
    clearTimeout(this.timer)
    if (this.sleepers.size === 0) return
    const earliest = Math.min(...[...this.sleepers].map((s) => s.at))
    const actorsAsleep = [...this.sleepers].filter((s) => s.actor).length
    if (actorsAsleep >= this.actors && earliest > this.now()) {
      this.jumpedMs += earliest - this.now()
      this.offset += earliest - this.now()
    }
    const t = this.now()
    for (const s of [...this.sleepers]) {
      if (s.at > t) continue
      this.sleepers.delete(s)
      s.resolve()
    }
    const next = Math.min(...[...this.sleepers].map((s) => s.at))
    if (Number.isFinite(next)) this.timer = setTimeout(() => { this.tick() }, Math.max(1, next - t))
  }
}

/** Counts each call of `upstream.get` by path kind. */
function counting (upstream: UpstreamClient, into: Record<string, number>): UpstreamClient {
  return {
    ...upstream,
    get: async (path, query, opts) => {
      const kind = path.endsWith('/latest') ? 'latest' : path.includes('/inplay/fixtures/') ? 'fixture whole' : path
      into[kind] = (into[kind] ?? 0) + 1
      return await upstream.get(path, query, opts)
    }
  }
}

async function hour (): Promise<Record<string, unknown>> {
  const runMs = Number(args['hour-minutes']) * 60_000
  const clock = new VirtualClock(2)
  const realStart = Date.now()
  const provider = await startProvider({ port: 0, now: clock.now, simSpeed: Number(args['hour-speed']), liveTarget: LIVE, ...PLAN })
  const log = pino({ level: 'warn' })
  const ledger = createMemoryLedger({ now: clock.now })
  const store = createStore({ kind: 'memory' })
  const byEntity: Record<string, { calls: number, status429: number }> = {}
  const upstream = createUpstreamClient({
    baseUrl: provider.baseUrl,
    token: TOKEN,
    ledger,
    now: clock.now,
    logger: log,
    onCall: (c) => {
      const e = byEntity[c.entity ?? 'unknown'] ??= { calls: 0, status429: 0 }
      e.calls++
      if (c.status === 429) e.status429++
    }
  })
  const oddsPaths: Record<string, number> = {}
  const latency = new Samples()
  let oddsRecords = 0
  let unplaced = 0
  await store.subscribe((record) => {
    if (!isOddsRecord(record)) return
    oddsRecords++
    const appended = clock.now()
    const changedAt = changedAtFor(provider, record.fixture_id, Date.parse(record.at))
    for (const c of record.changes) {
      const at = changedAt(c)
      if (at === undefined) unplaced++
      else latency.add(appended - at)
    }
  })
  const poller = createPoller({ upstream, ledger, store, metrics: createMetrics({ defaults: false }), log, now: clock.now, sleep: clock.sleep }, { reserve: 0.2, floorMs: 1000 })
  const odds = createOddsPoller({ upstream: counting(upstream, oddsPaths), ledger, store, log, now: clock.now }, { reserve: 0.2, floorMs: 1000 })
  const started = clock.now()
  const run = { on: true }
  poller.start()
  const oddsLoop = (async () => { while (run.on) await clock.sleep(await odds.step()) })()
  let peak = 0
  const sampler = (async () => {
    while (run.on) {
      peak = Math.max(peak, (await store.liveFixtures()).filter((f) => f.state.phase === 'live' || f.state.phase === 'break').length)
      await clock.until(clock.now() + 60_000)
    }
  })()
  await clock.until(started + runMs)
  run.on = false
  const bucket = await ledger.get(ODDS_ENTITY)
  await poller.stop()
  await Promise.race([oddsLoop, sleep(10_000)])
  await Promise.race([sampler, sleep(1000)])
  await upstream.close()
  await provider.close()
  await store.close()
  const oddsCalls = byEntity[ODDS_ENTITY]?.calls ?? 0
  return {
    part: `hour: ${args['hour-minutes']} simulated minutes, matches at ${args['hour-speed']}x, about ${LIVE} live (peak ${peak} in play or at a break), Pro plan (${BUDGET} an hour per entity, 20 % kept for the passthrough)`,
    wallClockSeconds: Math.round((Date.now() - realStart) / 1000),
    inplayOddCalls: oddsCalls,
    inplayOddCallsPerHour: Math.round(oddsCalls / (runMs / 3_600_000)),
    oddsCallsByPath: oddsPaths,
    callsByEntity: byEntity,
    inplayOddRemainingAtEnd: bucket?.remaining,
    oddsRecords,
    changesMeasured: latency.values.length,
    changesNotPlaced: unplaced,
    detectionLatency: latency.summary()
  }
}

// ---- fanout: real time, real sockets ------------------------------------------------------------------------

interface Tally { frames: number, bytes: number, oddsFrames: number, oddsBytes: number, snapshotBytes: number }

class Subscriber {
  readonly tally: Tally = { frames: 0, bytes: 0, oddsFrames: 0, oddsBytes: 0, snapshotBytes: 0 }
  counting = false
  private readonly ws: WebSocket
  onOdds: ((frame: { fixture_id: number, at: string, changes: OddsChange[] }, receivedAt: number) => void) | undefined

  constructor (url: string, readonly name: string, private readonly subscribe: Record<string, unknown>) {
    this.ws = new WebSocket(url, { perMessageDeflate: false })
    this.ws.on('message', (data: Buffer) => { this.take(data) })
  }

  async open (): Promise<void> {
    await new Promise((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject) })
    this.ws.send(JSON.stringify({ op: 'subscribe', ref: 's', leagues: '*', kinds: [...ODDS_KINDS], ...this.subscribe }))
    // A subscriber refused (`error`) would count nothing: say so rather than report zeros.
    this.ws.once('message', (data: Buffer) => { if (data.toString().includes('"error"')) throw new Error(`${this.name}: ${data.toString()}`) })
  }

  private take (data: Buffer): void {
    const receivedAt = Date.now()
    const frame = JSON.parse(data.toString()) as { type: string, fixture_id: number, at: string, changes: OddsChange[] }
    if (frame.type === 'snapshot') this.tally.snapshotBytes += data.length
    if (!this.counting) return
    this.tally.frames++
    this.tally.bytes += data.length
    if (frame.type !== 'odds') return
    this.tally.oddsFrames++
    this.tally.oddsBytes += data.length
    this.onOdds?.(frame, receivedAt)
  }

  close (): void { this.ws.terminate() }
}

async function callsByEntityStatus (registry: { getSingleMetric: (name: string) => unknown }): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric('touchline_upstream_calls_total') as { get: () => Promise<{ values: Array<{ labels: Record<string, string>, value: number }> }> } | undefined
  const out: Record<string, number> = {}
  for (const v of (await metric?.get())?.values ?? []) out[`${v.labels.entity} ${v.labels.status}`] = (out[`${v.labels.entity} ${v.labels.status}`] ?? 0) + v.value
  return out
}

async function fanout (): Promise<Record<string, unknown>> {
  const runMs = Number(args.minutes) * 60_000
  const provider = await startProvider({ port: 0, simSpeed: Number(args.speed), liveTarget: LIVE, ...PLAN })
  const gw = await startGateway(loadConfig({
    TOUCHLINE_HOST: '127.0.0.1',
    TOUCHLINE_PORT: '0',
    TOUCHLINE_LOG_LEVEL: 'warn',
    TOUCHLINE_UPSTREAM_URL: provider.baseUrl,
    TOUCHLINE_UPSTREAM_TOKEN: TOKEN,
    TOUCHLINE_POLL_FLOOR_MS: String(args.floor)
  }), pino({ level: 'warn' }))
  const url = `${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`
  const subs = [
    new Subscriber(url, 'full, conflate_ms 0', { conflate_ms: 0 }),
    new Subscriber(url, 'full, conflate_ms 1000', { conflate_ms: 1000 }),
    new Subscriber(url, 'full, conflate_ms 3000', { conflate_ms: 3000 }),
    new Subscriber(url, 'full, conflate_ms 5000', { conflate_ms: 5000 }),
    // `kinds` narrows what is sent, so it needs `full`: a `delta` subscriber takes odds with `odds: true`.
    new Subscriber(url, 'delta, conflate_ms 0', { format: 'delta', kinds: undefined, odds: true, conflate_ms: 0 }),
    new Subscriber(url, 'delta, conflate_ms 1000', { format: 'delta', kinds: undefined, odds: true, conflate_ms: 1000 })
  ]
  for (const s of subs) await s.open()
  // Until every followed fixture has an image (the odds poller fetches a few whole per step).
  await sleep(30_000)
  const detection = new Samples()
  const endToEnd = new Samples()
  const lastRecord = new Map<number, number>()
  const gaps: number[] = []
  const first = subs[0] as Subscriber
  first.onOdds = (frame, receivedAt) => {
    const at = Date.parse(frame.at)
    const previous = lastRecord.get(frame.fixture_id)
    if (previous !== undefined) gaps.push(at - previous)
    lastRecord.set(frame.fixture_id, at)
    const changedAt = changedAtFor(provider, frame.fixture_id, at)
    for (const c of frame.changes) {
      const made = changedAt(c)
      if (made === undefined) continue
      detection.add(at - made)
      endToEnd.add(receivedAt - made)
    }
  }
  const callsBefore = await callsByEntityStatus(gw.metrics.registry)
  for (const s of subs) s.counting = true
  const started = Date.now()
  let peak = 0
  while (Date.now() - started < runMs) {
    peak = Math.max(peak, provider.world.inplay(Date.now()).length)
    await sleep(5000)
  }
  for (const s of subs) s.counting = false
  const seconds = (Date.now() - started) / 1000
  const callsAfter = await callsByEntityStatus(gw.metrics.registry)
  for (const s of subs) s.close()
  await gw.close()
  await provider.close()
  const calls = Object.fromEntries(Object.entries(callsAfter).map(([k, v]) => [k, v - (callsBefore[k] ?? 0)]))
  const inplay = Object.entries(calls).filter(([k]) => k.startsWith(`${ODDS_ENTITY} `)).reduce((n, [, v]) => n + v, 0)
  const base = first.tally.oddsFrames
  gaps.sort((a, b) => a - b)
  return {
    part: `fanout: ${args.minutes} real minutes, matches at ${args.speed}x, about ${LIVE} live (peak ${peak} in play), ${BUDGET} calls an hour per entity, polls at least ${args.floor} ms apart, subscribers to every league's odds kinds`,
    seconds: Math.round(seconds),
    upstreamCallsByEntityAndStatus: calls,
    inplayOddCallsPerHour: Math.round(inplay / seconds * 3600),
    subscribers: subs.map((s) => ({
      subscriber: s.name,
      oddsFrames: s.tally.oddsFrames,
      oddsKiB: Math.round(s.tally.oddsBytes / 1024),
      framesAgainstUnconflated: base === 0 ? 'n/a' : (s.tally.oddsFrames / base).toFixed(2),
      allFrames: s.tally.frames,
      snapshotKiB: Math.round(s.tally.snapshotBytes / 1024)
    })),
    recordsPerFixtureGapMs: { count: gaps.length, under1000: gaps.filter((g) => g < 1000).length, p10: gaps[Math.floor(gaps.length * 0.1)], p50: gaps[Math.floor(gaps.length * 0.5)] },
    detectionLatency: detection.summary(),
    providerToSubscriberLatency: endToEnd.summary()
  }
}

const results: Array<Record<string, unknown>> = []
if (args.part === 'hour' || args.part === 'both') results.push(await hour())
if (args.part === 'fanout' || args.part === 'both') results.push(await fanout())
console.log(JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2))
