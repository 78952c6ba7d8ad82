/**
 * Webhook benchmark: the real webhook workers (src/webhooks) delivering every change to 100 local
 * HTTP endpoints, which run in a separate process (node:http, one server per endpoint, answering 200 at once)
 * so the receivers do not take the gateway's CPU in its own event loop.
 *
 *   npx tsx bench/webhooks.ts [--endpoints 100] [--rate 50] [--seconds 10] [--burst 2000] [--batch 100] [--redis redis://127.0.0.1:6379]
 *
 * Reported:
 *   paced   `--rate` changes per second for `--seconds`: delay from the append (store.apply resolved) to
 *           the endpoint receiving the change, p50 / p99 / max over every (endpoint, change); the endpoint
 *           answers 200 as soon as the body is read, so this is the append-to-acknowledgement delay less
 *           the answer's way back over loopback
 *   burst   `--burst` changes appended back to back: requests (deliveries) per second and changes per
 *           second until every endpoint has received the last one
 * With `--redis` the store, cursors and leases are in Redis (a unique prefix, deleted at the end).
 */
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { createKeyRing, KeysFileSchema } from '../src/client-keys.ts'
import { createMetrics } from '../src/metrics.ts'
import { createLease, createStore } from '../src/store/index.ts'
import { createWebhooks } from '../src/webhooks/index.ts'
import { createEndpointStore } from '../src/webhooks/state.ts'
import { fixture } from '../test/integration/store/fixture.ts'
import { deleteMatching } from '../test/helpers/redis.ts'

const now = (): number => performance.timeOrigin + performance.now()

interface Args { endpoints: number, rate: number, seconds: number, burst: number, batch: number, redis?: string }

function parseArgs (argv: string[]): Args {
  const args: Args = { endpoints: 100, rate: 50, seconds: 10, burst: 2000, batch: 100 }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '') as keyof Args
    const value = argv[i + 1] as string
    if (name === 'redis') args.redis = value
    else if (name in args) (args as unknown as Record<string, number>)[name] = Number(value)
    else throw new Error(`unknown option --${name}`)
  }
  return args
}

/** The receivers' process: `count` servers; reports their ports, then every (cursor, received at) on request. */
async function receivers (count: number): Promise<void> {
  const seen: Array<[string, number]> = []
  let requests = 0
  const ports: number[] = []
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const at = now()
        requests++
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: Array<{ cursor: string }> }
        for (const f of body.data ?? []) seen.push([f.cursor, at])
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    ports.push((server.address() as { port: number }).port)
  }
  process.send?.({ ports })
  // The parent died or finished: nothing left to receive.
  process.on('disconnect', () => process.exit(0))
  process.on('message', (msg: { op: string }) => {
    if (msg.op === 'count') process.send?.({ count: seen.length, requests })
    if (msg.op === 'drain') {
      process.send?.({ seen: seen.splice(0), requests })
      requests = 0
    }
    if (msg.op === 'exit') process.exit(0)
  })
}

function ask<T> (child: ReturnType<typeof fork>, op: string): Promise<T> {
  return new Promise((resolve) => { child.once('message', (m) => resolve(m as T)); child.send({ op }) })
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

async function main (): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const child = fork(new URL(import.meta.url), ['--receivers', String(args.endpoints)], { execArgv: ['--import', 'tsx'] })
  const { ports } = await new Promise<{ ports: number[] }>((resolve) => child.once('message', (m) => resolve(m as { ports: number[] })))
  const secret = 'bench-secret-0123456789'
  // Ten endpoints per key (a key holds 50 at most).
  const hooks = ports.map((port, i) => ({ id: `e${i}`, url: `http://127.0.0.1:${port}/hook`, secret }))
  const keys = createKeyRing(KeysFileSchema.parse(Array.from({ length: Math.ceil(hooks.length / 10) }, (_, k) =>
    ({ key: `bench-key-${k}`, name: `bench-${k}`, webhooks: hooks.slice(k * 10, k * 10 + 10) }))))
  const redis = args.redis === undefined ? undefined : new Redis(args.redis)
  const prefix = `tl-bench-${randomUUID()}:`
  const store = redis === undefined ? createStore({ kind: 'memory' }) : createStore({ kind: 'redis', redis, prefix })
  const webhooks = createWebhooks({
    store,
    keys,
    metrics: createMetrics({ defaults: false }),
    log: pino({ level: 'warn' }),
    settings: { timeoutMs: 10_000, batch: args.batch, retryBaseMs: 1000, retryMaxMs: 60_000, pauseAfterMs: 3600_000 },
    endpoints: redis === undefined ? createEndpointStore({ kind: 'memory' }) : createEndpointStore({ kind: 'redis', redis, prefix }),
    lease: redis === undefined ? undefined : createLease({ kind: 'redis', redis, prefix })
  })
  await webhooks.start({ host: '127.0.0.1', port: 1 })
  while ((await webhooks.summary()).by_state.pending > 0) await new Promise((resolve) => setTimeout(resolve, 50))

  const appended = new Map<string, number>()
  const versions = new Map<number, number>()
  let minute = 0
  const append = async (): Promise<void> => {
    const id = 1000 + (minute % 20)
    const v = versions.get(id) ?? 0
    minute++
    const r = await store.apply({ fixture: fixture(id, 271, { minute }), changes: [{ kind: 'clock', minute, previous: minute - 1 }], expectedVersion: v, live: true, at: new Date().toISOString() })
    if (!r.ok) throw new Error('apply rejected')
    versions.set(id, v + 1)
    appended.set(r.record.cursor, now())
  }
  const waitAll = async (total: number): Promise<void> => {
    while ((await ask<{ count: number }>(child, 'count')).count < total * args.endpoints) await new Promise((resolve) => setTimeout(resolve, 20))
  }

  // Paced: latency.
  const paced = args.rate * args.seconds
  const started = now()
  for (let i = 0; i < paced; i++) {
    await append()
    const next = started + (i + 1) * 1000 / args.rate
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - now())))
  }
  await waitAll(paced)
  const { seen, requests: pacedRequests } = await ask<{ seen: Array<[string, number]>, requests: number }>(child, 'drain')
  const delays = seen.map(([cursor, at]) => at - (appended.get(cursor) ?? NaN)).sort((a, b) => a - b)

  // Burst: throughput.
  const burstStart = now()
  for (let i = 0; i < args.burst; i++) await append()
  const appendedIn = now() - burstStart
  await waitAll(args.burst)
  const burstSeconds = (now() - burstStart) / 1000
  const burst = await ask<{ seen: Array<[string, number]>, requests: number }>(child, 'drain')

  console.log(`webhooks: ${args.endpoints} endpoints, batch ${args.batch}, store ${redis === undefined ? 'memory' : 'Redis'}`)
  console.log(`  paced ${args.rate} changes/s for ${args.seconds} s: append-to-receipt p50 ${pct(delays, 0.5).toFixed(1)} ms, p99 ${pct(delays, 0.99).toFixed(1)} ms, max ${(delays.at(-1) ?? NaN).toFixed(1)} ms (${delays.length} deliveries of a change in ${pacedRequests} requests)`)
  console.log(`  burst of ${args.burst} changes (appended in ${(appendedIn / 1000).toFixed(2)} s): ${Math.round(burst.requests / burstSeconds)} requests/s, ${Math.round(burst.seen.length / burstSeconds)} changes delivered/s (${burst.requests} requests, ${burst.seen.length} changes in ${burstSeconds.toFixed(2)} s)`)
  await webhooks.close()
  await store.close()
  if (redis !== undefined) {
    await deleteMatching(redis, `${prefix}*`)
    await redis.quit()
  }
  child.send({ op: 'exit' })
}

if (process.argv[2] === '--receivers') await receivers(Number(process.argv[3]))
else {
  await main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
