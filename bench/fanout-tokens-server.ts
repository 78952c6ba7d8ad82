/**
 * One job of bench:fanout's `--tokens` part (fanout-tokens.ts), in a process of its own:
 *   verify  the gateway's `verifyToken` in process, HS256 and ES256, against the key lookup (`keys.find`)
 *   storm   a gateway (memory store, hub, the token hook and the live route as src/app.ts registers them)
 *           while a subscriber process (fanout-storm.ts) opens its storm of connections; the server's CPU and
 *           event-loop delay over the storm are measured here
 */
import { fork, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import Fastify from 'fastify'
import { pino } from 'pino'
import { createKeyRing, loadKeysFile, type KeyRing } from '../src/client-keys.ts'
import { createHub } from '../src/fanout/hub.ts'
import { liveRoutes, tokenHook } from '../src/http/websocket.ts'
import { createMetrics } from '../src/metrics.ts'
import { createStore } from '../src/store/index.ts'
import { verifyToken } from '../src/tokens.ts'
import { pinTo } from './fanout-shared.ts'
import { minter, type Credential, type FromStorm, type Signing, type StormReport, type TokenServerJob, type ToStorm, type VerifyPass } from './fanout-tokens.ts'

const WARMUP = 2000
const IN_FLIGHT = 100

/** `global.gc` without requiring --expose-gc on the command line. */
function collector (): () => void {
  if (typeof globalThis.gc !== 'function') setFlagsFromString('--expose-gc')
  const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void
  return () => { gc(); gc() }
}

function rotate<T> (list: readonly T[], by: number): T[] {
  const k = by % list.length
  return [...list.slice(k), ...list.slice(0, k)]
}

/** `count` tokens, each with its own `sub`, minted 100 at a time. */
async function mintMany (signing: Signing, credential: Exclude<Credential, 'none'>, prefix: string, count: number): Promise<string[]> {
  const mint = await minter(signing, credential)
  const tokens: string[] = []
  for (let i = 0; i < count; i += 100) {
    tokens.push(...await Promise.all(Array.from({ length: Math.min(100, count - i) }, async (_, j) => await mint(`${prefix}-${i + j}`))))
  }
  return tokens
}

/** Runs `one(i)` for i < count, `inFlight` at a time; wall, CPU and event-loop busy time. */
async function timed (count: number, inFlight: number, one: (i: number) => unknown): Promise<{ wallMs: number, cpuMs: number, loopMs: number }> {
  const elu = performance.eventLoopUtilization()
  const cpu = process.cpuUsage()
  const start = performance.now()
  if (inFlight === 1) {
    for (let i = 0; i < count; i++) await one(i)
  } else {
    let next = 0
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < count) await one(next++)
    }))
  }
  const wallMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  return { wallMs, cpuMs: (used.user + used.system) / 1000, loopMs: performance.eventLoopUtilization(elu).active }
}

async function verify (job: Extract<TokenServerJob, { role: 'verify' }>): Promise<VerifyPass[]> {
  const gc = collector()
  const keys: KeyRing = createKeyRing(loadKeysFile(job.keysFile))
  const tokens = { hs256: await mintMany(job.signing, 'hs256', 'fan-hs', job.count), es256: await mintMany(job.signing, 'es256', 'fan-es', job.count) }
  const warm = { hs256: await mintMany(job.signing, 'hs256', 'warm-hs', WARMUP), es256: await mintMany(job.signing, 'es256', 'warm-es', WARMUP) }
  // What the route does with each: verifyToken for a token (its grant checked, so a refusal fails the run),
  // keys.find for a key (hash, then a constant-time compare with every key of the ring).
  const checkOne = (t: string) => async () => {
    const grant = await verifyToken(t, keys)
    if (grant.key.name !== job.signing.issuer) throw new Error('wrong key')
  }
  const findKey = (): void => {
    if (keys.find('bench') === undefined) throw new Error('no key')
  }
  for (let i = 0; i < WARMUP; i++) {
    await checkOne(warm.hs256[i] as string)()
    await checkOne(warm.es256[i] as string)()
    findKey()
  }
  const passes: VerifyPass[] = []
  for (let round = 0; round < job.rounds; round++) {
    for (const what of rotate(['none', 'hs256', 'es256'] as const, round)) {
      gc()
      if (what === 'none') {
        // Synchronous, on the event loop (no await per lookup: the route does none either).
        const cpu = process.cpuUsage()
        const start = performance.now()
        for (let i = 0; i < job.count; i++) findKey()
        const wallMs = performance.now() - start
        const used = process.cpuUsage(cpu)
        const us = wallMs * 1000 / job.count
        passes.push({ what, round, count: job.count, serialUs: us, cpuUs: (used.user + used.system) / job.count, loopUs: us, concurrentPerSecond: 1e6 / us, concurrentCpuUs: (used.user + used.system) / job.count })
        continue
      }
      const list = tokens[what]
      const serial = await timed(job.count, 1, async (i) => await checkOne(list[i] as string)())
      gc()
      const concurrent = await timed(job.count, IN_FLIGHT, async (i) => await checkOne(list[i] as string)())
      passes.push({
        what,
        round,
        count: job.count,
        serialUs: serial.wallMs * 1000 / job.count,
        cpuUs: serial.cpuMs * 1000 / job.count,
        loopUs: serial.loopMs * 1000 / job.count,
        concurrentPerSecond: job.count / (concurrent.wallMs / 1000),
        concurrentCpuUs: concurrent.cpuMs * 1000 / job.count
      })
    }
  }
  return passes
}

/** TcpExt ListenOverflows from /proc/net/netstat: SYNs the kernel dropped because a listen queue was full (0 where unreadable). */
function listenOverflows (): number {
  try {
    const lines = readFileSync('/proc/net/netstat', 'latin1').split('\n').filter((l) => l.startsWith('TcpExt:'))
    const names = lines[0]?.split(' ') ?? []
    const values = lines[1]?.split(' ') ?? []
    return Number(values[names.indexOf('ListenOverflows')] ?? 0)
  } catch {
    return 0
  }
}

function nextMessage<T extends FromStorm['type']> (child: ChildProcess, type: T): Promise<FromStorm & { type: T }> {
  return new Promise((resolve) => {
    const onMessage = (msg: FromStorm): void => {
      if (msg.type !== type) return
      child.off('message', onMessage)
      resolve(msg as FromStorm & { type: T })
    }
    child.on('message', onMessage)
  })
}

async function storm (job: Extract<TokenServerJob, { role: 'storm' }>): Promise<StormReport> {
  const gc = collector()
  const store = createStore({ kind: 'memory' })
  const metrics = createMetrics({ defaults: false })
  const log = pino({ level: 'warn' })
  // No per-IP rate limit: every client comes from 127.0.0.1 (as in the fan-out modes).
  const hub = createHub({ store, metrics, log, limits: { connectionsPerSecondPerIp: 1e9, connectionBurstPerIp: 1e9 } })
  await hub.start()
  const keys = createKeyRing(loadKeysFile(job.keysFile))
  const app = Fastify({ logger: false })
  // As src/app.ts: tokens are verified in onRequest, before the live route's preValidation reads the key.
  app.addHook('onRequest', tokenHook(keys))
  await app.register(liveRoutes({ hub, keys, metrics, log }))
  await app.listen({ port: 0, host: '127.0.0.1', ...(job.backlog !== undefined ? { backlog: job.backlog } : {}) })
  const { port } = app.server.address() as { port: number }

  const clients = fork(new URL('./fanout-storm.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] })
  if (job.pin && clients.pid !== undefined) pinTo(clients.pid, 1)
  const send = (msg: ToStorm): void => { clients.send(msg) }
  const prepared = nextMessage(clients, 'prepared')
  send({ cmd: 'prepare', url: `ws://127.0.0.1:${port}/v1/live`, credential: job.credential, signing: job.signing, count: job.count, warmup: job.warmup, round: job.round })
  await prepared
  gc()
  const delay = monitorEventLoopDelay({ resolution: 10 })
  const done = nextMessage(clients, 'done')
  const overflows = listenOverflows()
  const cpu = process.cpuUsage()
  delay.enable()
  send({ cmd: 'go', spreadMs: job.spreadMs })
  const { type: _type, ...result } = await done
  delay.disable()
  const used = process.cpuUsage(cpu)
  clients.kill()
  return { ...result, serverCpuMs: (used.user + used.system) / 1000, listenOverflows: listenOverflows() - overflows, loopDelayP99: delay.percentile(99) / 1e6, loopDelayMax: delay.max / 1e6 }
}

const job = JSON.parse(process.argv[2] ?? '{}') as TokenServerJob
const work: Promise<unknown> = job.role === 'verify' ? verify(job) : storm(job)
work.then((result) => {
  process.send?.(result, () => process.exit(0))
}, (err: unknown) => {
  console.error(err)
  process.exit(1)
})
