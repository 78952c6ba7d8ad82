/**
 * npm run bench:faults — a bad night on purpose: the gateway on Redis in front of the embedded
 * provider while the provider answers 30 % of requests with 500 and never answers 20 %, goes down for 30 s,
 * sends bursts of 429, and Redis is restarted twice (losing everything: it keeps nothing on disk). WebSocket
 * subscribers apply every frame they get; at the end the provider's clock stops, the faults clear, the
 * gateway settles, and every subscriber's fixtures are compared with the provider's truth.
 *
 * Reports: upstream calls by status (injected 429s apart from 429s the gateway earned by overspending, which
 * must be 0), the longest silence a subscriber saw while a match clock ran and the upstream answered, resets
 * (replay recovered:false) per subscriber, and mismatches (must be 0).
 *
 * `--profile hangs` is a night of hung calls only: the provider never answers `--hang-rate` (0.3) of its
 * requests, and nothing else goes wrong (no errors, outage, 429s or Redis restarts), so every silence comes
 * from the poller's handling of hung calls (its deadline and hedges).
 *
 *   npm run bench:faults -- [--minutes 10] [--subscribers 20] [--speed 60] [--profile night|hangs] [--hang-rate 0.3]
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import WebSocket from 'ws'
import { loadConfig } from '../src/config.ts'
import { normalizeFixture } from '../src/diff/normalize.ts'
import { startGateway } from '../src/gateway.ts'
import type { LiveFixture } from '../src/wire-model/model.ts'
import { startProvider } from '../packages/provider/src/index.ts'
import { parseFixtures, LIVE_INCLUDES } from '../src/upstream/schemas.ts'
import { startPrivateRedis } from '../test/helpers/redis-server.ts'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    subscribers: { type: 'string', default: '20' },
    speed: { type: 'string', default: '60' },
    profile: { type: 'string', default: 'night' },
    'hang-rate': { type: 'string', default: '0.3' }
  }
})
if (args.profile !== 'night' && args.profile !== 'hangs') throw new Error('--profile is night or hangs')
const HANGS_ONLY = args.profile === 'hangs'
const RUN_MS = Number(args.minutes) * 60_000
const SUBSCRIBERS = Number(args.subscribers)
const at = (share: number): number => Math.round(RUN_MS * share)

/** The night's schedule, as shares of the run: an outage, two 429 bursts, two Redis restarts (none of them with `--profile hangs`). */
const SCHEDULE = HANGS_ONLY
  ? { outage: undefined, bursts: [], redisRestarts: [] }
  : { outage: { from: at(0.2), ms: 30_000 }, bursts: [at(0.4), at(0.7)], redisRestarts: [at(0.5), at(0.8)] }
const BASE_FAULTS = HANGS_ONLY ? { hangRate: Number(args['hang-rate']) } : { errorRate: 0.3, hangRate: 0.2 }

const clock: { frozen?: number } = {}
const now = (): number => clock.frozen ?? Date.now()
const redis = await startPrivateRedis()
const provider = await startProvider({ port: 0, now, simSpeed: Number(args.speed), liveTarget: 8, hourlyLimits: { Enterprise: 5000 }, faults: BASE_FAULTS })
const log = pino({ level: 'warn' }, pino.destination({ dest: 2, sync: false }))
const cfg = loadConfig({
  TOUCHLINE_HOST: '127.0.0.1',
  TOUCHLINE_PORT: '0',
  TOUCHLINE_UPSTREAM_URL: provider.baseUrl,
  TOUCHLINE_UPSTREAM_TOKEN: 'demo-enterprise',
  TOUCHLINE_REDIS_URL: redis.url,
  TOUCHLINE_REDIS_PREFIX: `tl-faults-${randomUUID().slice(0, 8)}:`
})
const gateway = await startGateway(cfg, log)

const BURST = 5
/** Upstream calls by status as the gateway saw them (`timeout` for a hung call it gave up on). */
async function callsByStatus (): Promise<Record<string, number>> {
  const metric = await gateway.metrics.registry.getSingleMetric('touchline_upstream_calls_total')?.get()
  const out: Record<string, number> = {}
  for (const v of metric?.values ?? []) out[String(v.labels.status)] = (out[String(v.labels.status)] ?? 0) + v.value
  return out
}

/** The poller's steps by kind and outcome (a `latest` poll lost to hung calls is an error). */
async function pollsByOutcome (): Promise<Record<string, number>> {
  const metric = await gateway.metrics.registry.getSingleMetric('touchline_polls_total')?.get()
  const out: Record<string, number> = {}
  for (const v of metric?.values ?? []) out[`${String(v.labels.kind)} ${String(v.labels.outcome)}`] = v.value
  return out
}

/** A subscriber that applies every frame it receives to its own copy of the live fixtures. */
class Subscriber {
  readonly fixtures = new Map<number, LiveFixture>()
  lastFrameAt = Date.now()
  longestSilenceMs = 0
  resets = 0
  closes = 0
  private ws!: WebSocket
  private cursor: string | undefined

  constructor (private readonly leagues: number[]) {}

  async open (): Promise<void> {
    this.ws = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/live?api_token=demo`, { perMessageDeflate: false })
    await new Promise((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject) })
    this.ws.on('message', (data) => { this.onFrame(JSON.parse(data.toString()) as Record<string, any>) })
    this.ws.on('close', () => {
      this.closes++
      if (!stopping) setTimeout(() => { this.open().catch(() => {}) }, 500)
    })
    this.ws.send(JSON.stringify({ op: 'subscribe', ref: 's', leagues: this.leagues, ...(this.cursor !== undefined ? { since: this.cursor } : {}) }))
  }

  private onFrame (frame: Record<string, any>): void {
    const t = Date.now()
    const silence = silenceThatCounts(this.lastFrameAt, t)
    if (silence > 5000) longSilences.add(`${Math.round((this.lastFrameAt - start) / 1000)} s: ${(silence / 1000).toFixed(1)} s`)
    if (silence > 3000) {
      const began = Math.round((this.lastFrameAt - start) / 1000)
      overThree.set(began, Math.max(overThree.get(began) ?? 0, silence))
    }
    this.longestSilenceMs = Math.max(this.longestSilenceMs, silence)
    this.lastFrameAt = t
    if (typeof frame.cursor === 'string') this.cursor = frame.cursor
    if (frame.type === 'replay' && frame.recovered === false) this.resets++
    if (frame.type === 'snapshot') {
      this.fixtures.clear()
      for (const f of frame.fixtures as LiveFixture[]) this.fixtures.set(f.id, f)
    }
    if (frame.type === 'change') {
      if ((frame.changes as Array<{ kind: string }>).some((c) => c.kind === 'fixture_removed')) this.fixtures.delete(frame.fixture_id)
      else if (frame.fixture !== undefined) this.fixtures.set(frame.fixture_id, frame.fixture)
    }
  }

  close (): void { this.ws.terminate() }
}

/**
 * Silence that counts: time in which a match clock was running at the provider (so every successful poll
 * brings a change: at 60x a match minute passes every second) and the upstream answered usefully, that is
 * outside the night's fault windows (the outage, and each 429 burst while the gateway honours its
 * `retry_after`, 2 s a refusal). Redis restarts are not excluded. Sampled every SAMPLE_MS.
 */
const start = Date.now()
const SAMPLE_MS = 250
const TICKING_STATES = new Set([2, 22, 6, 23])
const FAULT_WINDOWS: Array<[number, number]> = [
  ...(SCHEDULE.outage === undefined ? [] : [[SCHEDULE.outage.from, SCHEDULE.outage.from + SCHEDULE.outage.ms + 5000] as [number, number]]),
  ...SCHEDULE.bursts.map((t): [number, number] => [t, t + BURST * 2000 + 5000])
]
/** One flag per sample since the start: whether a silence then counts. */
const counts: boolean[] = []
const sampler = setInterval(() => {
  const t = Date.now() - start
  const faulty = FAULT_WINDOWS.some(([ws, we]) => t >= ws && t < we)
  counts.push(!faulty && provider.world.inplay(now()).some((f) => TICKING_STATES.has(provider.world.stateOf(f, now()))))
}, SAMPLE_MS)
/** Silences over 5 s that count, as "<when it began> s: <how long> s" (deduplicated across subscribers). */
const longSilences = new Set<string>()
/** Every silence over 3 s that counts, by the second it began (the longest per second, across subscribers). */
const overThree = new Map<number, number>()
/** The longest stretch of [from, to] made of samples that count. */
function silenceThatCounts (from: number, to: number): number {
  let longest = 0
  let run = 0
  for (let i = Math.ceil((from - start) / SAMPLE_MS); i < Math.floor((to - start) / SAMPLE_MS) && i < counts.length; i++) {
    run = counts[i] === true ? run + 1 : 0
    longest = Math.max(longest, run)
  }
  return longest * SAMPLE_MS
}

let stopping = false
const leagues = provider.world.all('league').map((l) => l.id)
const subscribers = Array.from({ length: SUBSCRIBERS }, () => new Subscriber(leagues))
for (const s of subscribers) await s.open()

const timers: NodeJS.Timeout[] = []
const after = (ms: number, fn: () => Promise<void>): void => { timers.push(setTimeout(() => { fn().catch((err: unknown) => { console.error('fault step failed', err) }) }, ms)) }
const outage = SCHEDULE.outage
if (outage !== undefined) after(outage.from, async () => { provider.faults.set({ ...BASE_FAULTS, outageUntil: Date.now() + outage.ms }); console.error('fault: outage 30 s') })
for (const t of SCHEDULE.bursts) after(t, async () => { provider.faults.set({ ...BASE_FAULTS, rateLimitBurst: BURST, retryAfterSeconds: 2 }); console.error(`fault: ${BURST} forced 429s`) })
for (const t of SCHEDULE.redisRestarts) after(t, async () => { console.error('fault: Redis restart'); await redis.stop(); await redis.start() })
const progress = setInterval(() => {
  const s = subscribers[0]
  const p = gateway.poller.status()
  callsByStatus().then((calls) => console.error(`${Math.round((Date.now() - start) / 1000)} s: ${s?.fixtures.size} fixtures held, resets ${s?.resets}, leader ${gateway.isLeader()}, poller ${p.running ? 'running' : 'stopped'} (${p.lastError ?? 'ok'}, ${p.consecutiveFailures} failures, every ${Math.round(p.intervalMs)} ms), upstream ${JSON.stringify(calls)}`), () => {})
}, Number(process.env.FAULTS_PROGRESS_MS ?? 30_000))

await sleep(RUN_MS)
clearInterval(progress)
clearInterval(sampler)
for (const t of timers) clearTimeout(t)

// Settle: stop the matches, clear the faults, give the poller time to reconcile and fetch every final.
clock.frozen = Date.now()
provider.faults.set({})
gateway.poller.forceReconcile()
await sleep(15_000)
stopping = true

// 429s beyond the injected bursts were earned: the gateway overspent the provider's own bucket.
const calls = await callsByStatus()
const earned429 = (calls['429'] ?? 0) - BURST * SCHEDULE.bursts.length
const mismatches: string[] = []
const essence = (f: LiveFixture): unknown => ({ state: f.state.code, home: f.home.score, away: f.away.score, scores: f.scores, events: f.events })
const held = new Set(subscribers.flatMap((s) => [...s.fixtures.keys()]))
const truth = new Map<number, LiveFixture>()
const ids = [...held]
for (let i = 0; i < ids.length; i += 50) {
  const res = await fetch(`${provider.baseUrl}/football/fixtures/multi/${ids.slice(i, i + 50).join(',')}?include=${LIVE_INCLUDES}&api_token=demo-enterprise`)
  for (const f of parseFixtures(await res.json())) truth.set(f.id, normalizeFixture(f))
}
for (const [n, s] of subscribers.entries()) {
  for (const [id, f] of s.fixtures) {
    const t = truth.get(id)
    if (t === undefined) mismatches.push(`subscriber ${n}: fixture ${id} unknown to the provider`)
    else if (JSON.stringify(essence(f)) !== JSON.stringify(essence(t))) mismatches.push(`subscriber ${n}: fixture ${id} is ${f.state.code} ${f.home.score}-${f.away.score}, truth ${t.state.code} ${t.home.score}-${t.away.score}`)
  }
}

for (const s of subscribers) s.close()
await gateway.close()
await provider.close()
await redis.close()

console.log(JSON.stringify({
  minutes: Number(args.minutes),
  subscribers: SUBSCRIBERS,
  faults: HANGS_ONLY ? `hang rate ${BASE_FAULTS.hangRate}, nothing else` : 'error rate 0.3, hang rate 0.2, one 30 s outage, two bursts of 5 forced 429s, Redis restarted twice',
  upstreamCallsByStatus: calls,
  earned429,
  fixturesCompared: held.size,
  mismatches: mismatches.length,
  firstMismatches: mismatches.slice(0, 5),
  resetsPerSubscriber: [...new Set(subscribers.map((s) => s.resets))],
  unexpectedCloses: subscribers.reduce((n, s) => n + s.closes, 0) - subscribers.length,
  longestSilenceWhileMatchesRunAndUpstreamAnswersMs: Math.max(...subscribers.map((s) => s.longestSilenceMs)),
  silencesOver5s: [...longSilences],
  silencesOver3s: [...overThree.values()].length,
  silencesOver4s: [...overThree.values()].filter((ms) => ms > 4000).length,
  pollsByKindAndOutcome: await pollsByOutcome(),
  schedule: { outageAtS: SCHEDULE.outage === undefined ? null : SCHEDULE.outage.from / 1000, burstsAtS: SCHEDULE.bursts.map((t) => t / 1000), redisRestartsAtS: SCHEDULE.redisRestarts.map((t) => t / 1000) }
}, null, 2))
process.exit(mismatches.length === 0 && earned429 === 0 ? 0 : 1)
