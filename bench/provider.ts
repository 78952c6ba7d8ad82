/**
 * npm run bench — requests per second the embedded provider serves (autocannon, 10 s each, 20 connections,
 * from this process on 127.0.0.1): a paged list and a fixture by id with includes. Later work compares to it.
 */
import autocannon from 'autocannon'
import { startProvider } from '../packages/provider/src/index.ts'

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10)
const provider = await startProvider({ port: 0, hourlyLimits: { Enterprise: 100_000_000 } })
const token = 'demo-enterprise'
const first = await (await fetch(`${provider.baseUrl}/football/livescores?api_token=${token}`)).json() as { data?: Array<{ id: number }> }
const fixtureId = first.data?.[0]?.id ?? 19_000_001

const cases = [
  { name: 'paged list: /core/cities?page=3&per_page=50', path: '/core/cities?page=3&per_page=50' },
  { name: 'by id with includes: /football/fixtures/{id}?include=participants;scores;events;periods;state', path: `/football/fixtures/${fixtureId}?include=participants;scores;events;periods;state` }
]

const results = []
for (const c of cases) {
  const r = await autocannon({ url: `${provider.baseUrl}${c.path}&api_token=${token}`, connections: 20, duration: DURATION_S })
  results.push({ case: c.name, requestsPerSecond: Math.round(r.requests.average), latencyP50ms: r.latency.p50, latencyP99ms: r.latency.p99, non2xx: r.non2xx })
}
await provider.close()
console.log(JSON.stringify({ node: process.version, durationSeconds: DURATION_S, results }, null, 2))
