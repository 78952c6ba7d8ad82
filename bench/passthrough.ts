/**
 * npx tsx bench/passthrough.ts — what the REST passthrough costs, on 127.0.0.1 from this process:
 * 1. cache hits through the gateway: latency of one request at a time (p50/p99 over BENCH_SAMPLES), then
 *    throughput and latency under load (autocannon, 20 connections, BENCH_SECONDS);
 * 2. a miss against the provider directly: the same distinct requests (fixtures by id with includes), one at
 *    a time, sent to the provider and then through the gateway (each a miss there), so the difference is what
 *    the gateway adds to an upstream call (auth, validation, quota, budget, cache write, envelope rewrite).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { pino } from 'pino'
import { Pool } from 'undici'
import { loadConfig } from '../src/config.ts'
import { startGateway } from '../src/gateway.ts'

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2000)
const MISSES = Number(process.env.BENCH_MISSES ?? 400)
const KEY = 'bench-key'
const INCLUDE = 'participants;scores;state'

const dir = mkdtempSync(join(tmpdir(), 'tl-bench-'))
writeFileSync(join(dir, 'keys.json'), JSON.stringify([{ key: KEY, name: 'bench', hourly_quota: 1_000_000_000 }]))
const cfg = loadConfig({ TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', TOUCHLINE_KEYS_FILE: join(dir, 'keys.json') })
const big = 100_000_000
const gw = await startGateway(cfg, pino({ level: 'silent' }), {
  poll: false,
  provider: { hourlyLimits: { Enterprise: big, Pro: big } }
})
const provider = gw.provider?.baseUrl ?? ''
const gateway = `${gw.url}/v3`

/** One keep-alive connection per target, so each sample is one request on a warm socket. */
const pools = new Map<string, Pool>()
async function timed (url: string): Promise<number> {
  const { origin, pathname, search } = new URL(url)
  let pool = pools.get(origin)
  if (pool === undefined) pools.set(origin, pool = new Pool(origin, { connections: 1 }))
  const started = process.hrtime.bigint()
  const res = await pool.request({ method: 'GET', path: `${pathname}${search}` })
  await res.body.arrayBuffer()
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (res.statusCode !== 200) throw new Error(`${url.replace(/api_token=[^&]*/, 'api_token=***')} → ${res.statusCode}`)
  return ms
}

function stats (samples: number[]): { p50: number, p99: number, mean: number } {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number): number => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(3))
  return { p50: at(0.5), p99: at(0.99), mean: Number((samples.reduce((s, x) => s + x, 0) / samples.length).toFixed(3)) }
}

// Fixture ids to ask for one by one (each id a distinct request, so a miss at the gateway).
const list = await (await fetch(`${provider}/football/fixtures/between/2026-08-01/2026-11-08?filters=populate&per_page=1000&api_token=demo-pro`)).json() as { data: Array<{ id: number }> }
const ids = list.data.map((f) => f.id)
if (ids.length < 2 * MISSES) throw new Error(`only ${ids.length} fixtures to sample`)

// 1. Cache hits.
const hitPath = `/football/fixtures/${ids[0] as number}?include=${INCLUDE}&api_token=${KEY}`
const listPath = `/core/cities?page=3&per_page=50&api_token=${KEY}`
// Warm-up (JIT, sockets) before any sample is kept.
for (let i = 0; i < 1000; i++) for (const p of [hitPath, listPath]) await timed(`${gateway}${p}`)
const hitSerial: Record<string, ReturnType<typeof stats>> = {}
for (const [name, p] of [['fixture by id with 3 includes', hitPath], ['list of 50 cities', listPath]] as const) {
  const samples: number[] = []
  for (let i = 0; i < SAMPLES; i++) samples.push(await timed(`${gateway}${p}`))
  hitSerial[name] = stats(samples)
}
const load = await autocannon({ url: `${gateway}${hitPath}`, connections: 20, duration: DURATION_S })

// 2. Misses: warm both paths on other ids first, then the same ids direct and through the gateway.
for (const id of ids.slice(-20)) {
  await timed(`${provider}/football/fixtures/${id}?include=${INCLUDE}&api_token=demo-pro`)
  await timed(`${gateway}/football/fixtures/${id}?include=${INCLUDE}&api_token=${KEY}`)
}
const sample = ids.slice(1, 1 + MISSES)
const direct: number[] = []
const through: number[] = []
for (const id of sample) {
  direct.push(await timed(`${provider}/football/fixtures/${id}?include=${INCLUDE}&api_token=demo-pro`))
  through.push(await timed(`${gateway}/football/fixtures/${id}?include=${INCLUDE}&api_token=${KEY}`))
}
const d = stats(direct)
const g = stats(through)
const misses = (await gw.metrics.cacheRequests.get()).values.find((v) => v.labels.outcome === 'miss')?.value ?? 0

for (const pool of pools.values()) await pool.close()
await gw.close()
rmSync(dir, { recursive: true, force: true })

console.log(JSON.stringify({
  node: process.version,
  cacheHit: {
    serialMs: hitSerial,
    underLoad: { connections: 20, seconds: DURATION_S, requestsPerSecond: Math.round(load.requests.average), latencyP50ms: load.latency.p50, latencyP99ms: load.latency.p99, non2xx: load.non2xx }
  },
  miss: {
    requests: sample.length,
    gatewayMissesCounted: misses,
    directMs: d,
    throughGatewayMs: g,
    overheadMs: { p50: Number((g.p50 - d.p50).toFixed(3)), p99: Number((g.p99 - d.p99).toFixed(3)), mean: Number((g.mean - d.mean).toFixed(3)) }
  }
}, null, 2))
