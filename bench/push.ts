/**
 * Push benchmark: goal alerts by Web Push (src/webpush) from a real gateway (in this process, its store driven
 * by hand) to 10,000 subscriptions that follow the teams of a busy simulated board (the browser tests' busy
 * board: 22 matches, 21 in play, 44 teams), sent to a local push service in a separate process, so the
 * receiving side does not take the gateway's event loop. The push service answers 201 as soon as a request's
 * body is read and notes when; it decrypts the payloads (RFC 8291, with each device's private key) only once
 * the timing is over.
 *
 *   npm run bench:push -- [--subscriptions 10000] [--goals 20] [--rate 0.5] [--burst 5] [--spread zipf|uniform] [--redis redis://127.0.0.1:6379] [--instances 1] [--threads N]
 *
 * `--threads N` sets TOUCHLINE_PUSH_THREADS (the worker threads that encrypt; 0: the event loop); unset, the
 * gateway's default (every core but one, at most 4).
 * `--instances N` (with `--redis`): N gateways on the one Redis, this process's and N - 1 processes of their
 * own (each a `touchline` gateway without a poller), sharing the push shards over their leases (a 1 s lease,
 * so that they spread before the goals); the CPU per alert then counts every instance's.
 *
 * Each subscription follows one to three teams (one, two, three in turn), picked by popularity (`zipf`, the
 * default: a Zipf law over the board's teams, so the most followed team is in more than half of the
 * subscriptions and its goals go to 57 % of the devices) or evenly (`uniform`: a goal goes to about a tenth
 * of them), and takes every kind; the hourly cap per device is lifted (TOUCHLINE_PUSH_HOURLY_CAP) so every
 * alert is sent. The paced goals go through the board's matches in turn, the most followed first.
 *
 * Reported:
 *   subscribe  the POSTs to /v1/push/subscriptions (32 at a time): per second
 *   memory     the gateway's heap after a full GC, with the subscriptions less before them, per subscription
 *              (with --redis: also Redis's used_memory, per subscription)
 *   paced      `--goals` goals at `--rate` a second, over the board's matches in turn: goal to sent (from
 *              the goal's store.apply resolving to the push service reading the push), p50 / p99 / max over
 *              every alert, and alerts sent per second
 *   burst      `--burst` goals at once (in as many matches): alerts sent per second until the last one
 *              reached the push service, and goal to sent p50 / p99 / max
 * and for each phase the CPU time of this process (the gateway, and the goals scored into its store) per
 * alert: on a shared machine, a figure the other work running there changes much less than the times.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { createECDH, randomBytes, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { cpus, loadavg } from 'node:os'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { loadConfig } from '../src/config.ts'
import { startGateway } from '../src/gateway.ts'
import { defaultThreads } from '../src/webpush/encrypt.ts'
import { decryptAes128gcm } from '../test/helpers/push-service.ts'
import { matches, type Match } from '../test/helpers/matches.ts'
import { deleteMatching } from '../test/helpers/redis.ts'
import { busyBoard } from '../test/integration/browser/busy-board.ts'

const now = (): number => performance.timeOrigin + performance.now()
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Args { subscriptions: number, goals: number, rate: number, burst: number, spread: 'zipf' | 'uniform', redis?: string, instances: number, threads?: number }

function parseArgs (argv: string[]): Args {
  const args: Args = { subscriptions: 10_000, goals: 20, rate: 0.5, burst: 5, spread: 'zipf', instances: 1 }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '') as keyof Args
    const value = argv[i + 1] as string
    if (name === 'redis') args.redis = value
    else if (name === 'threads') args.threads = Number(value)
    else if (name === 'spread') {
      if (value !== 'zipf' && value !== 'uniform') throw new Error('--spread zipf|uniform')
      args.spread = value
    } else if (name in args) (args as unknown as Record<string, number>)[name] = Number(value)
    else throw new Error(`unknown option --${name}`)
  }
  if (args.instances > 1 && args.redis === undefined) throw new Error('--instances needs --redis: the instances share the shards over it')
  return args
}

/**
 * Another instance's process (`--instances`): a gateway on the same Redis and settings, without a poller;
 * on request, the CPU it used and the shards it sends.
 */
async function otherInstance (env: Record<string, string>): Promise<void> {
  const gw = await startGateway(loadConfig(env), pino({ level: 'warn' }), { poll: false })
  process.send?.({ ready: true })
  process.on('disconnect', () => process.exit(0))
  process.on('message', (msg: { op: string }) => {
    if (msg.op === 'cpu') {
      const used = process.cpuUsage()
      process.send?.({ cpuMs: (used.user + used.system) / 1000 })
    }
    if (msg.op === 'shards') gw.push?.summary().then((s) => process.send?.({ shards: s.sending_here }), () => process.send?.({ shards: 0 }))
    if (msg.op === 'exit') gw.close().finally(() => process.exit(0)).catch(() => {})
  })
}

interface Received { device: number, at: number, body: Buffer }
/** One alert as the push service read it: device, when, and the decrypted payload's id, kind and fixture. */
type Alert = [device: number, at: number, id: string, kind: string, fixture: number]

/**
 * The push service's process: `count` devices (their keys made here, the private halves kept), one HTTP
 * server taking `POST /push/<device>`; on request, every push received since the last drain, decrypted.
 */
async function pushService (count: number): Promise<void> {
  const devices = Array.from({ length: count }, () => {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    return { ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16) }
  })
  let received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ device: Number(/^\/push\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1), at: now(), body: Buffer.concat(chunks) })
      res.writeHead(201).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  process.send?.({ url, keys: devices.map((d) => [d.publicKey.toString('base64url'), d.auth.toString('base64url')]) })
  process.on('disconnect', () => process.exit(0))
  process.on('message', (msg: { op: string }) => {
    if (msg.op === 'count') process.send?.({ count: received.length })
    if (msg.op === 'cpu') {
      const used = process.cpuUsage()
      process.send?.({ cpuMs: (used.user + used.system) / 1000 })
    }
    if (msg.op === 'drain') {
      const taken = received
      received = []
      const alerts: Alert[] = []
      let problems = 0
      for (const r of taken) {
        const device = devices[r.device]
        try {
          if (device === undefined) throw new Error('unknown device')
          const p = JSON.parse(decryptAes128gcm(r.body, device).toString('utf8')) as { id: string, kind: string, fixture_id: number }
          alerts.push([r.device, r.at, p.id, p.kind, p.fixture_id])
        } catch {
          problems++
        }
      }
      process.send?.({ alerts, problems })
    }
  })
}

function ask<T> (child: ChildProcess, op: string): Promise<T> {
  return new Promise((resolve) => { child.once('message', (m) => resolve(m as T)); child.send({ op }) })
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

/** Which teams each subscription follows: 1, 2, 3 in turn, drawn by a Zipf law over `teams` (most popular first) or evenly. */
function follows (n: number, teams: number[], spread: Args['spread']): number[][] {
  const weights = teams.map((_, i) => spread === 'zipf' ? 1 / (i + 1) : 1)
  const total = weights.reduce((a, b) => a + b, 0)
  let seed = 42
  const random = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 }
  const draw = (): number => {
    let r = random() * total
    for (let i = 0; i < teams.length; i++) { r -= weights[i] as number; if (r <= 0) return teams[i] as number }
    return teams[teams.length - 1] as number
  }
  return Array.from({ length: n }, (_, i) => {
    const picked = new Set<number>()
    while (picked.size < 1 + (i % 3)) picked.add(draw())
    return [...picked]
  })
}

async function heapAfterGc (): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench:push does)')
  for (let i = 0; i < 3; i++) { gc(); await sleep(50) }
  return process.memoryUsage().heapUsed
}

/** Subscribes every device, `parallel` requests at a time; returns the seconds it took. */
async function subscribeAll (gatewayUrl: string, serviceUrl: string, keys: Array<[string, string]>, teams: number[][], parallel: number): Promise<number> {
  const started = now()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const i = next++
      const [p256dh, auth] = keys[i] as [string, string]
      const res = await fetch(`${gatewayUrl}/v1/push/subscriptions?api_token=demo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint: `${serviceUrl}/push/${i}`, expirationTime: null, keys: { p256dh, auth } }, follow: { teams: teams[i], fixtures: [], leagues: [] } })
      })
      if (res.status !== 201) throw new Error(`subscription ${i}: ${res.status} ${await res.text()}`)
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return (now() - started) / 1000
}

/** Waits until the push service has read `total` pushes (or nothing came for 15 s). */
async function waitFor (child: ChildProcess, total: number): Promise<void> {
  let last = -1
  let since = now()
  for (;;) {
    const { count } = await ask<{ count: number }>(child, 'count')
    if (count >= total) return
    if (count !== last) { last = count; since = now() } else if (now() - since > 15_000) {
      console.log(`  (stopped waiting: ${count} of ${total} pushes arrived)`)
      return
    }
    await sleep(50)
  }
}

interface Phase { delays: number[], alerts: number, seconds: number, cpuMs: number, serviceCpuMs: number, problems: number, unmatched: number }

/**
 * Scores `goals` goals (one every `gapMs`, or all at once), then reads every push they caused and matches
 * each to its goal: the n-th distinct goal alert of a fixture, by first arrival, is its n-th goal.
 */
async function play (child: ChildProcess, others: ChildProcess[], board: Match[], goals: number, gapMs: number, expected: (m: Match) => number, minute: { n: number }, offset: number): Promise<Phase> {
  const scored: Array<{ fixture: number, at: number }> = []
  let total = 0
  const othersCpu = async (): Promise<number> => (await Promise.all(others.map(async (o) => (await ask<{ cpuMs: number }>(o, 'cpu')).cpuMs))).reduce((a, b) => a + b, 0)
  const othersBefore = await othersCpu()
  const serviceBefore = (await ask<{ cpuMs: number }>(child, 'cpu')).cpuMs
  const cpu = process.cpuUsage()
  const started = now()
  const shots: Array<Promise<void>> = []
  for (let g = 0; g < goals; g++) {
    const m = board[(offset + g) % board.length] as Match
    total += expected(m)
    const goal = async (): Promise<void> => {
      await m.goal(g % 2 === 0 ? 'home' : 'away', `Player ${g}`, 10 + (minute.n++ % 80))
      scored.push({ fixture: m.id, at: now() })
    }
    if (gapMs === 0) shots.push(goal())
    else {
      await goal()
      await sleep(Math.max(0, started + (g + 1) * gapMs - now()))
    }
  }
  await Promise.all(shots)
  await waitFor(child, total)
  const used = process.cpuUsage(cpu)
  const othersUsed = await othersCpu() - othersBefore
  const serviceUsed = (await ask<{ cpuMs: number }>(child, 'cpu')).cpuMs - serviceBefore
  const { alerts, problems } = await ask<{ alerts: Alert[], problems: number }>(child, 'drain')
  const goalAlerts = alerts.filter((a) => a[3] === 'goal')
  // Alert ids of each fixture in order of first arrival: the n-th is the n-th goal scored in that fixture.
  const firstSeen = new Map<string, number>()
  for (const a of [...goalAlerts].sort((x, y) => x[1] - y[1])) if (!firstSeen.has(a[2])) firstSeen.set(a[2], a[4])
  const goalAt = new Map<string, number>()
  const perFixture = new Map<number, number>()
  for (const [id, fixture] of firstSeen) {
    const n = perFixture.get(fixture) ?? 0
    perFixture.set(fixture, n + 1)
    const goal = scored.filter((s) => s.fixture === fixture)[n]
    if (goal !== undefined) goalAt.set(id, goal.at)
  }
  const delays: number[] = []
  let unmatched = 0
  for (const a of goalAlerts) {
    const at = goalAt.get(a[2])
    if (at === undefined) unmatched++
    else delays.push(a[1] - at)
  }
  const last = Math.max(...alerts.map((a) => a[1]))
  return { delays: delays.sort((a, b) => a - b), alerts: alerts.length, seconds: (last - started) / 1000, cpuMs: (used.user + used.system) / 1000 + othersUsed, serviceCpuMs: serviceUsed, problems, unmatched }
}

function report (name: string, p: Phase): void {
  const ms = (v: number): string => `${Math.round(v)} ms`
  console.log(`  ${name}: ${p.alerts} alerts in ${p.seconds.toFixed(2)} s = ${Math.round(p.alerts / p.seconds)} alerts/s; goal to sent p50 ${ms(pct(p.delays, 0.5))}, p99 ${ms(pct(p.delays, 0.99))}, max ${ms(p.delays.at(-1) ?? NaN)}; gateway CPU ${(p.cpuMs / p.alerts).toFixed(2)} ms per alert (push service ${(p.serviceCpuMs / p.alerts).toFixed(2)})` +
    `${p.problems > 0 ? `; ${p.problems} did not decrypt` : ''}${p.unmatched > 0 ? `; ${p.unmatched} not matched to a goal` : ''}`)
}

async function main (): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const child = fork(new URL(import.meta.url), ['--push-service', String(args.subscriptions)], { execArgv: ['--import', 'tsx'] })
  const { url: serviceUrl, keys } = await new Promise<{ url: string, keys: Array<[string, string]> }>((resolve) => child.once('message', (m) => resolve(m as { url: string, keys: Array<[string, string]> })))

  const vapid = createECDH('prime256v1')
  vapid.generateKeys()
  const prefix = `tl-bench-push-${randomUUID()}:`
  const env: Record<string, string> = {
    TOUCHLINE_HOST: '127.0.0.1',
    TOUCHLINE_PORT: '0',
    TOUCHLINE_PROVIDER_PORT: '0',
    TOUCHLINE_LOG_LEVEL: 'warn',
    TOUCHLINE_VAPID_PUBLIC_KEY: vapid.getPublicKey().toString('base64url'),
    TOUCHLINE_VAPID_PRIVATE_KEY: vapid.getPrivateKey().toString('base64url'),
    TOUCHLINE_VAPID_SUBJECT: 'mailto:bench@example.com',
    TOUCHLINE_PUSH_ALLOW_LOCAL: 'true',
    TOUCHLINE_PUSH_HOURLY_CAP: '10000'
  }
  if (args.threads !== undefined) env.TOUCHLINE_PUSH_THREADS = String(args.threads)
  if (args.redis !== undefined) Object.assign(env, { TOUCHLINE_REDIS_URL: args.redis, TOUCHLINE_REDIS_PREFIX: prefix })
  if (args.instances > 1) env.TOUCHLINE_PUSH_LEASE_TTL_MS = '1000'
  const gw = await startGateway(loadConfig(env), pino({ level: 'warn' }), { poll: false })
  const others = await Promise.all(Array.from({ length: args.instances - 1 }, async () => {
    const other = fork(new URL(import.meta.url), ['--instance', JSON.stringify(env)], { execArgv: ['--import', 'tsx'] })
    await new Promise((resolve) => other.once('message', resolve))
    return other
  }))
  const redis = args.redis === undefined ? undefined : new Redis(args.redis)
  const redisMemory = async (): Promise<number> => Number(/used_memory:(\d+)/.exec(await redis?.info('memory') ?? '')?.[1] ?? 0)

  const board = (await busyBoard(matches(gw.store))).all.filter((m) => m.fixture.state.phase !== 'postponed')
  const teams = board.flatMap((m) => [m.fixture.home.id, m.fixture.away.id])
  const followed = follows(args.subscriptions, teams, args.spread)
  const followers = new Map<number, number>()
  for (const list of followed) for (const t of list) followers.set(t, (followers.get(t) ?? 0) + 1)
  // A goal alerts every device that follows either team (once, whichever it follows).
  const expected = (m: Match): number => followed.filter((list) => list.includes(m.fixture.home.id) || list.includes(m.fixture.away.id)).length

  const heapBefore = await heapAfterGc()
  const redisBefore = await redisMemory()
  const subscribeSeconds = await subscribeAll(gw.url, serviceUrl, keys, followed, 32)
  const heapAfter = await heapAfterGc()
  const redisAfter = await redisMemory()

  console.log(`push: ${args.subscriptions} subscriptions following ${teams.length} teams of ${board.length} matches (1-3 each, ${args.spread}); store ${redis === undefined ? 'memory' : 'Redis'}; ${args.instances} instance(s), ${loadConfig(env).TOUCHLINE_PUSH_THREADS ?? defaultThreads()} encrypting thread(s) each; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`)
  console.log(`  followers per goal: ${board.map(expected).sort((a, b) => b - a).join(', ')}`)
  console.log(`  subscribe: ${Math.round(args.subscriptions / subscribeSeconds)} subscriptions/s (${subscribeSeconds.toFixed(1)} s)`)
  console.log(`  memory: gateway heap ${Math.round((heapAfter - heapBefore) / args.subscriptions)} bytes per subscription${redis === undefined ? '' : `, Redis ${Math.round((redisAfter - redisBefore) / args.subscriptions)} bytes per subscription`}`)

  if (others.length > 0) {
    // The shards spread over the instances a lease beat at a time: wait until each sends its share.
    const share = Math.floor(8 / args.instances)
    for (let i = 0; i < 60; i++) {
      const shards = [(await gw.push?.summary())?.sending_here ?? 0, ...await Promise.all(others.map(async (o) => (await ask<{ shards: number }>(o, 'shards')).shards))]
      if (shards.every((n) => n >= share)) {
        console.log(`  shards per instance: ${shards.join(', ')}`)
        break
      }
      await sleep(500)
    }
  }

  const minute = { n: 0 }
  report(`paced (${args.goals} goals, ${args.rate}/s)`, await play(child, others, board, args.goals, 1000 / args.rate, expected, minute, 0))
  report(`burst (${args.burst} goals at once)`, await play(child, others, board, args.burst, 0, expected, minute, args.goals))

  for (const o of others) o.send({ op: 'exit' })
  await gw.close()
  if (redis !== undefined) {
    await deleteMatching(redis, `${prefix}*`)
    await redis.quit()
  }
  child.send({ op: 'exit' })
  child.kill()
}

if (process.argv[2] === '--push-service') await pushService(Number(process.argv[3]))
else if (process.argv[2] === '--instance') await otherInstance(JSON.parse(process.argv[3] as string) as Record<string, string>)
else {
  await main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
