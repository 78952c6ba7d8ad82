/**
 * npm run bench:day — the day and the match centre (docs/benchmarks.md, "The day"): what a day's answer
 * weighs, what the days and the statistics cost of the `Fixture` budget in an hour, and how soon a statistic
 * that moved at the provider is in the log.
 *
 * One simulated hour, everything real (the embedded provider over HTTP, the upstream client, the budget
 * ledger, the gateway's memory store, hub and HTTP answers, the poller) but the clock: the poller's pauses
 * advance a virtual clock instantly, and the real time each call takes counts too (bench/pipeline.ts does the
 * same), so an hour takes a minute or two. The provider's matches run on that clock at `--speed` (60, the
 * demo's, by default: a day of several hundred fixtures; 1 for matches at real speed) and report only
 * base-field changes in `livescores/latest`, as the real API does, so statistics come from the poller's
 * `livescores/inplay` reads and its reconciles. The poller's token is on the Pro plan (3,000 `Fixture` calls
 * an hour, 20 % kept for the passthrough), as in bench:pipeline and bench:odds.
 *
 * Reported:
 * - the day's answer, `GET /v1/fixtures?date=` for today and for the largest day held (at 60x the rolling
 *   schedule fills tomorrow): bytes as JSON, in brotli and in gzip, against the raw upstream read of the same
 *   day as the old scoreboard made it (every page of `fixtures/date/{date}` with
 *   participants;scores;state;events;periods, 50 a page), as served and gzipped;
 * - the poller's upstream calls in the hour, counted at the provider by path: the reads of the days
 *   (`fixtures/between`) and `fixtures/latest` (the day), `livescores/inplay` (statistics), and the rest,
 *   each against the plan's hourly budget (goal: statistics at most a tenth); and the standings poller's
 *   reads of the live tables (`standings/live/leagues/{id}`, stepped every 2 s of the same clock) against the
 *   plan's `Standing` budget, with the tables it changed;
 * - the detection latency of a statistic change (p50, p95): for every statistic of a match in play that moved
 *   at the provider in the hour (the simulator's script says when, to the millisecond), the first record of
 *   that fixture whose `statistics_changed` names that statistic, at or after the move: its `at` minus the move.
 *   A move undone before any record named it (the statistic back at the value the gateway held: possession
 *   re-estimated twice between two reads, a goal VAR took back) is no change any read could have shown;
 *   those are counted apart. And how far apart the `livescores/inplay` reads came;
 * - for every match that ended in the run, whether the statistics the gateway holds are the provider's
 *   `fixtures/{id}` at the end, as the gateway's normalizer reads them.
 *
 *   npm run bench:day -- [--minutes 60] [--speed 60]
 */
import { parseArgs } from 'node:util'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { pino } from 'pino'
import { request } from 'undici'
import { loadConfig } from '../src/config.ts'
import { statisticName } from '../src/diff/match-centre.ts'
import { normalizeFixture } from '../src/diff/normalize.ts'
import { startGateway } from '../src/gateway.ts'
import { createPoller } from '../src/poller/poller.ts'
import { createStandingsPoller } from '../src/poller/standings.ts'
import { isStandingsRecord } from '../src/store/types.ts'
import { DEMO_TOKENS } from '../packages/provider/src/index.ts'
import { realMsAt } from '../packages/provider/src/sim/clock.ts'
import type { Simulator } from '../packages/provider/src/sim/engine.ts'
import { LIVESCORES_WINDOW_SECONDS } from '../packages/provider/src/sim/engine.ts'
import { createUpstreamClient } from '../src/upstream/index.ts'
import { LIVE_INCLUDES, parseFixture } from '../src/upstream/schemas.ts'
import type { Statistics } from '../src/wire-model/model.ts'

const { values: args } = parseArgs({ options: { minutes: { type: 'string', default: '60' }, speed: { type: 'string', default: '60' } } })
const RUN_MS = Number(args.minutes) * 60_000
const SPEED = Number(args.speed)
/** The Pro plan's calls per entity an hour. */
const BUDGET = 3000
const DAY_MS = 86_400_000
/** The old scoreboard's read of a day (src/ui/public/lib/schedule.js before the day model). */
const OLD_INCLUDES = 'participants;scores;state;events;periods'
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

// ---- the clock: real time plus the pauses the poller skipped ---------------------------------------------------
const realStart = Date.now()
const perfStart = performance.now()
let slept = 0
const now = (): number => realStart + (performance.now() - perfStart) + slept

const log = pino({ level: 'warn' })
const gw = await startGateway(loadConfig({
  TOUCHLINE_HOST: '127.0.0.1',
  TOUCHLINE_PORT: '0',
  TOUCHLINE_PROVIDER_PORT: '0',
  TOUCHLINE_LOG_LEVEL: 'warn'
}), log, { poll: false, budgetNow: now, provider: { now, simSpeed: SPEED, latestTracks: 'base' } })
const provider = gw.provider
if (provider === undefined) throw new Error('no embedded provider')
const sim = (provider.world.live as unknown as { sim: Simulator }).sim
const upstreamBase = provider.baseUrl

// ---- the poller's calls, as the provider receives them ------------------------------------------------------
const calls: Record<string, number> = {}
/** When each `livescores/inplay` read reached the provider. */
const statisticReads: number[] = []
const kindOf = (path: string): string => {
  if (path.includes('/fixtures/between/')) return 'days (fixtures/between)'
  if (path.includes('/fixtures/latest')) return 'fixtures/latest'
  if (path.includes('/livescores/inplay')) return 'livescores/inplay'
  if (path.includes('/livescores/latest')) return 'livescores/latest'
  if (path.includes('/fixtures/multi/')) return 'fixtures/multi'
  if (path.endsWith('/livescores')) return 'livescores'
  if (path.includes('/standings/live/leagues/')) return 'standings/live'
  return path
}
provider.app.server.on('request', (req: { url?: string }) => {
  const url = new URL(req.url ?? '/', 'http://provider')
  if (url.searchParams.get('api_token') !== DEMO_TOKENS.pro) return
  const kind = kindOf(url.pathname)
  calls[kind] = (calls[kind] ?? 0) + 1
  if (kind === 'livescores/inplay') statisticReads.push(now())
})
let status429 = 0
const upstream = createUpstreamClient({ baseUrl: provider.baseUrl, token: DEMO_TOKENS.pro, ledger: gw.ledger, now, logger: log, onCall: (c) => { if (c.status === 429) status429++ } })

// ---- records naming statistics, per fixture ------------------------------------------------------------------
const statRecords = new Map<number, Array<{ at: number, statistics: Statistics }>>()
const poller = createPoller({
  upstream,
  ledger: gw.ledger,
  store: gw.store,
  log,
  now,
  onRecord: ({ record }) => {
    for (const c of record.changes) {
      if (c.kind !== 'statistics_changed') continue
      const list = statRecords.get(record.fixture_id) ?? []
      list.push({ at: Date.parse(record.at), statistics: c.statistics })
      statRecords.set(record.fixture_id, list)
    }
  },
  sleep: async (ms) => { slept += ms; await new Promise((resolve) => setImmediate(resolve)) }
}, { reserve: 0.2, floorMs: 1000, feedLeadMs: LIVESCORES_WINDOW_SECONDS * 1000 / SPEED, clockRate: SPEED })

// The standings poller beside it, stepped every 2 s of the same clock (its own loop would sleep in real time).
const standings = createStandingsPoller({ upstream, ledger: gw.ledger, store: gw.store, log, now })
let tables = 0
await gw.store.subscribe((record) => { if (isStandingsRecord(record)) tables++ })

const started = now()
poller.start()
let standingsAt = started
while (now() - started < RUN_MS) {
  await new Promise((resolve) => setTimeout(resolve, 50))
  if (now() - standingsAt < 2000) continue
  standingsAt = now()
  await standings.step()
}
await poller.stop()
const ended = now()
const wallClockSeconds = Math.round((Date.now() - realStart) / 1000)

// ---- statistics: from each move at the provider to the first record naming it ---------------------------------
const latencies: number[] = []
/**
 * Moves no record named afterwards; moves undone before any record named them: the statistic went back to
 * the value the gateway held (possession re-estimated twice between two reads, a goal VAR took back), so no
 * read could have shown a change.
 */
let undetected = 0
let undone = 0
for (const [id, records] of statRecords) {
  const kickoff = sim.kickoffAt(id, ended)
  const script = sim.scriptAt(id, ended)
  if (kickoff === undefined || script === undefined) continue
  const series = new Map<string, Array<{ at: number, value: number }>>()
  for (const step of script.stats) {
    const key = `${step.type_id}:${step.side}`
    series.set(key, [...series.get(key) ?? [], { at: realMsAt(kickoff, SPEED, step.at), value: step.value }])
  }
  for (const [key, steps] of series) {
    steps.sort((a, b) => a.at - b.at)
    const [typeId, side] = key.split(':') as [string, 'home' | 'away']
    const name = statisticName(Number(typeId))
    const naming = records.filter((r) => r.statistics[name] !== undefined)
    // The first value is the statistic appearing at kick-off; a step to the same value moves nothing.
    for (let i = 1; i < steps.length; i++) {
      const step = steps[i] as { at: number, value: number }
      if (step.value === (steps[i - 1] as { value: number }).value) continue
      // Moves of the run that it had time to see (a reconcile, every 30 s, sees whatever inplay missed).
      if (step.at < started || step.at > ended - 60_000) continue
      const seen = naming.find((r) => r.at >= step.at)
      const held = naming.findLast((r) => r.at < step.at)?.statistics[name]?.[side]
      const back = held !== undefined && steps.some((later, j) => j >= i && later.at < (seen?.at ?? ended) && later.value === held)
      if (back) undone++
      else if (seen === undefined) undetected++
      else latencies.push(seen.at - step.at)
    }
  }
}
const gaps = statisticReads.slice(1).map((t, i) => t - (statisticReads[i] as number)).sort((a, b) => a - b)
const gap = (p: number): string => gaps.length === 0 ? 'n/a' : `${((gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] as number) / 1000).toFixed(1)} s`
latencies.sort((a, b) => a - b)
const q = (p: number): string => latencies.length === 0 ? 'n/a' : `${((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number) / 1000).toFixed(2)} s`

// ---- the day's answer against the upstream's read of the same day -----------------------------------------------
async function answer (date: string, encoding: string): Promise<{ bytes: number, encoding: string, ms: number, count?: number }> {
  const t = performance.now()
  const res = await request(`${gw.url}/v1/fixtures?date=${date}&api_token=demo`, { headers: { 'accept-encoding': encoding } })
  const body = Buffer.from(await res.body.arrayBuffer())
  const ms = Math.round(performance.now() - t)
  const served = String(res.headers['content-encoding'] ?? 'identity')
  return { bytes: body.length, encoding: served, ms, ...(served === 'identity' ? { count: (JSON.parse(body.toString()) as { count: number }).count } : {}) }
}

async function upstreamRead (date: string): Promise<{ pages: number, bytes: number, gzipBytes: number, fixtures: number }> {
  let bytes = 0
  let gzipBytes = 0
  let fixtures = 0
  for (let page = 1; ; page++) {
    const res = await request(`${upstreamBase}/football/fixtures/date/${date}?api_token=${DEMO_TOKENS.enterprise}&include=${OLD_INCLUDES}&per_page=50&page=${page}`)
    const body = Buffer.from(await res.body.arrayBuffer())
    bytes += body.length
    gzipBytes += gzipSync(body).length
    const json = JSON.parse(body.toString()) as { data?: unknown[], pagination?: { has_more?: boolean } }
    fixtures += json.data?.length ?? 0
    if (json.pagination?.has_more !== true) return { pages: page, bytes, gzipBytes, fixtures }
  }
}

/** CPU ms of one run of `f`, the best of three. */
function cpuMs (f: () => unknown): number {
  let best = Infinity
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    f()
    best = Math.min(best, performance.now() - t)
  }
  return Math.round(best)
}

async function day (date: string): Promise<Record<string, unknown>> {
  const json = await answer(date, 'identity')
  const br = await answer(date, 'br')
  const gz = await answer(date, 'gzip')
  // Served from the answer built for the snapshot (the hub shares one for a second while nothing changes).
  const hit = Math.min(...await Promise.all([0, 1, 2].map(async () => (await answer(date, 'br')).ms)))
  // What building the compressed bodies costs, once per snapshot: the same settings as src/http/day-answer.ts.
  const body = Buffer.from((await (await request(`${gw.url}/v1/fixtures?date=${date}&api_token=demo`, { headers: { 'accept-encoding': 'identity' } })).body.arrayBuffer()))
  const brMs = cpuMs(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }))
  const gzMs = cpuMs(() => gzipSync(body))
  const up = await upstreamRead(date)
  const kb = (n: number): string => `${(n / 1024).toFixed(0)} KB`
  return {
    date,
    fixtures: json.count,
    answer: { json: kb(json.bytes), br: kb(br.bytes), gzip: kb(gz.bytes), brotliCpuMs: brMs, gzipCpuMs: gzMs, cachedBrServedMs: hit },
    upstreamRead: { fixtures: up.fixtures, pages: up.pages, asServed: kb(up.bytes), gzipped: kb(up.gzipBytes) },
    brAgainstUpstream: `${(100 * br.bytes / up.bytes).toFixed(1)} % of the raw read, ${(100 * br.bytes / up.gzipBytes).toFixed(1)} % of it gzipped`,
    gzipAgainstUpstream: `${(100 * gz.bytes / up.bytes).toFixed(1)} % of the raw read, ${(100 * gz.bytes / up.gzipBytes).toFixed(1)} % of it gzipped`
  }
}

// ---- every match that ended in the run: its statistics in the store, the provider's at the end ---------------
const finals = { equal: 0, different: [] as number[] }
for (const id of statRecords.keys()) {
  const held = await gw.store.getEntry(id)
  if (held === undefined || held.live || held.fixture.state.phase !== 'finished') continue
  const res = await request(`${upstreamBase}/football/fixtures/${id}?api_token=${DEMO_TOKENS.enterprise}&include=${LIVE_INCLUDES}`)
  const upstreamFixture = normalizeFixture(parseFixture((await res.body.json() as { data: unknown }).data) as never, { clockRate: SPEED })
  if (JSON.stringify(upstreamFixture.statistics) === JSON.stringify(held.fixture.statistics)) finals.equal++
  else finals.different.push(id)
}

const counts = await Promise.all([-3, -2, -1, 0, 1, 2, 3].map(async (i) => {
  const date = dayOf(ended + i * DAY_MS)
  return { date, count: (await answer(date, 'identity')).count ?? 0 }
}))
const largest = [...counts].sort((a, b) => b.count - a.count)[0]?.date ?? dayOf(ended)
const today = dayOf(ended)
const days = [await day(today), ...(largest !== today ? [await day(largest)] : [])]

await upstream.close()
await gw.close()

const perHour = (n: number): number => Math.round(n * 3_600_000 / (ended - started))
const share = (n: number): string => `${n} in the run, ${perHour(n)} an hour: ${(100 * perHour(n) / BUDGET).toFixed(1)} % of ${BUDGET}`
// The Fixture bucket's: the standings reads spend the Standing bucket.
const total = Object.entries(calls).filter(([kind]) => kind !== 'standings/live').reduce((a, [, n]) => a + n, 0)
const dayCalls = (calls['days (fixtures/between)'] ?? 0) + (calls['fixtures/latest'] ?? 0)
console.log(JSON.stringify({
  simulated: `${Math.round((ended - started) / 60_000)} min at ${SPEED}x, the Pro plan (${BUDGET} Fixture calls an hour, 20 % kept for the passthrough), livescores/latest reporting base fields only`,
  wallClockSeconds,
  daysHeld: counts,
  days,
  pollerCalls: { total: share(total), byPath: calls, status429 },
  budget: {
    day: `${share(dayCalls)} (the reads of the days ${calls['days (fixtures/between)'] ?? 0}, fixtures/latest ${calls['fixtures/latest'] ?? 0})`,
    statistics: `${share(calls['livescores/inplay'] ?? 0)} (goal: at most 10 %)`,
    standings: `${share(calls['standings/live'] ?? 0)} of the Standing bucket; ${tables} tables changed, ${standings.status().leagues} leagues followed at the end`
  },
  statisticReads: { every: `p50 ${gap(0.5)}, p95 ${gap(0.95)}, max ${gap(1)}` },
  finishedMatches: { statisticsAsTheProvidersAtTheEnd: `${finals.equal} of ${finals.equal + finals.different.length}`, ...(finals.different.length > 0 ? { different: finals.different } : {}) },
  statisticDetection: { moves: latencies.length + undetected + undone, detected: latencies.length, undoneBeforeAnyRead: undone, undetected, p50: q(0.5), p95: q(0.95), max: q(1) }
}, null, 2))
