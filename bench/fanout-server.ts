/**
 * One benchmark run: the server of one mode in this process, the subscribers in a child process.
 *   touchline: memory store -> hub -> /v1/live (fastify + @fastify/websocket), changes through store.apply
 *   baseline:  a bare ws server, serialize once, `for (const c of wss.clients) c.send(buf)`, no protocol
 *   floor:     no ws at all: one pre-built frame written to every raw socket (cork, write, uncork)
 *   stack:     touchline's server stack without the hub: fastify + @fastify/websocket, one pre-built frame
 *              written to each socket under ws (what the hub's routing costs on top of the framework)
 * Phases: idle memory per connection, a burst (throughput), a stream paced on a schedule (latency).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import websocket from '@fastify/websocket'
import Fastify from 'fastify'
import { pino } from 'pino'
import { WebSocketServer, type WebSocket } from 'ws'
import { createHub } from '../src/fanout/hub.ts'
import { textFrame } from '../src/fanout/writer.ts'
import { liveRoutes } from '../src/http/websocket.ts'
import { createKeyRing } from '../src/client-keys.ts'
import type { Change } from '../src/wire-model/model.ts'
import { createMetrics } from '../src/metrics.ts'
import { createStore } from '../src/store/index.ts'
import { benchFixture, now, pinTo, type BenchOptions, type FromClients, type ModeResult } from './fanout-shared.ts'

interface BenchServer {
  url: string
  /** Publishes change number `i`; returns the milliseconds the server spent fanning it out. */
  publish: (i: number) => Promise<number>
  slowConsumerCloses: () => Promise<number>
}

const FIXTURES = 20
const TEXT = { binary: false } as const

function changeOf (i: number): { id: number, version: number, changes: Change[] } {
  const version = Math.floor(i / FIXTURES)
  return { id: 1 + (i % FIXTURES), version, changes: [{ kind: 'clock', minute: 50 + (version % 40), previous: 49 + (version % 40) }] }
}

async function touchline (): Promise<BenchServer> {
  const store = createStore({ kind: 'memory' })
  const metrics = createMetrics({ defaults: false })
  const log = pino({ level: 'warn' })
  // No per-IP rate limit: every subscriber comes from 127.0.0.1.
  const hub = createHub({ store, metrics, log, limits: { connectionsPerSecondPerIp: 1e9, connectionBurstPerIp: 1e9, ...(process.env.BENCH_HEARTBEAT_MS ? { heartbeatMs: Number(process.env.BENCH_HEARTBEAT_MS) } : {}) } })
  await hub.start()
  const keys = createKeyRing([{ key: 'bench', name: 'bench', leagues: '*', hourly_quota: 3000, max_connections: 1e9, allowed_origins: '*', features: [] }])
  const app = Fastify({ logger: false })
  await app.register(liveRoutes({ hub, keys, metrics, log }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  return {
    url: `ws://127.0.0.1:${port}/v1/live?api_token=bench`,
    async publish (i) {
      const { id, version, changes } = changeOf(i)
      const start = performance.now()
      // The memory store hands the record to the hub inside apply; the hub routes it when the tick ends
      // (process.nextTick), so wait for a tick queued after it: this times store + fan-out.
      await store.apply({ fixture: benchFixture(id, version), changes, expectedVersion: version, live: true, at: String(now()) })
      await new Promise((resolve) => process.nextTick(resolve))
      return performance.now() - start
    },
    slowConsumerCloses: async () => (await metrics.slowConsumerCloses.get()).values[0]?.value ?? 0
  }
}

/** Change number `i` as the loops without touchline send it: the same frame shape, serialized once. */
function plainFrame (i: number): Buffer {
  const { id, version, changes } = changeOf(i)
  const record = { cursor: `0123456789abcdef:${i + 1}`, fixture_id: id, league_id: 271, at: String(now()), changes, fixture: benchFixture(id, version + 1) }
  return Buffer.from(JSON.stringify({ type: 'change', ...record }))
}

async function baseline (): Promise<BenchServer> {
  const server = createServer()
  const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 64 * 1024 })
  wss.on('connection', (ws) => ws.on('error', () => {}))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `ws://127.0.0.1:${port}/`,
    async publish (i) {
      const start = performance.now()
      const buf = plainFrame(i)
      for (const c of wss.clients) c.send(buf, TEXT)
      return performance.now() - start
    },
    slowConsumerCloses: async () => 0
  }
}

/**
 * The floor: what writing the frame costs with nothing else. A bare HTTP server answers the upgrade itself
 * and keeps the raw sockets; publish builds one WebSocket frame and writes it to each (cork, write,
 * uncork). No protocol, no filter, no ws.
 */
async function floor (): Promise<BenchServer> {
  const server = createServer()
  const sockets = new Set<Socket>()
  server.on('upgrade', (req, socket: Socket) => {
    const key = req.headers['sec-websocket-key'] ?? ''
    const accept = createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC11B65').digest('base64')
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    socket.setNoDelay(true)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    socket.resume()
    sockets.add(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `ws://127.0.0.1:${port}/`,
    async publish (i) {
      const start = performance.now()
      const frame = textFrame(plainFrame(i))
      for (const socket of sockets) {
        socket.cork()
        socket.write(frame)
        socket.uncork()
      }
      return performance.now() - start
    },
    slowConsumerCloses: async () => 0
  }
}

/** `global.gc` without requiring --expose-gc on the command line. */
function collector (): () => void {
  if (typeof globalThis.gc !== 'function') setFlagsFromString('--expose-gc')
  const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void
  return () => { gc(); gc() }
}

function nextMessage<T extends FromClients['type']> (child: ChildProcess, type: T): Promise<FromClients & { type: T }> {
  return new Promise((resolve) => {
    const onMessage = (msg: FromClients): void => {
      if (msg.type !== type) return
      child.off('message', onMessage)
      resolve(msg as FromClients & { type: T })
    }
    child.on('message', onMessage)
  })
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms))

/** Arms the clients for `total` deliveries, runs `publish`, and waits for the deliveries (or the timeout). */
async function phase (clients: ChildProcess, total: number, publish: () => Promise<number>) {
  const armed = nextMessage(clients, 'armed')
  clients.send({ cmd: 'expect', total, timeoutMs: 120_000 })
  await armed
  const reached = nextMessage(clients, 'reached')
  const start = now()
  const cpu = process.cpuUsage()
  const fanoutMs = await publish()
  const result = await reached
  const used = process.cpuUsage(cpu)
  return { ...result, wallSeconds: (now() - start) / 1000, fanoutMs, cpuSeconds: (used.user + used.system) / 1e6 }
}

async function stack (): Promise<BenchServer> {
  const app = Fastify({ logger: false })
  const sockets: WebSocket[] = []
  await app.register(websocket, { options: { perMessageDeflate: false } })
  app.get('/', { websocket: true }, (socket) => { socket.on('error', () => {}); sockets.push(socket) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  return {
    url: `ws://127.0.0.1:${port}/`,
    async publish (i) {
      const start = performance.now()
      const frame = textFrame(plainFrame(i))
      for (const ws of sockets) (ws as unknown as { _socket: Socket })._socket.write(frame)
      return performance.now() - start
    },
    slowConsumerCloses: async () => 0
  }
}

const SERVERS = { touchline, baseline, floor, stack }

async function run (opts: BenchOptions): Promise<ModeResult> {
  const gc = collector()
  const server = await SERVERS[opts.mode]()
  gc()
  const before = process.memoryUsage()
  const clients = fork(new URL('./fanout-clients.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] })
  if (opts.pin && clients.pid !== undefined) pinTo(clients.pid, 1)
  const ready = nextMessage(clients, 'ready')
  clients.send({ cmd: 'connect', url: server.url, count: opts.subscribers, subscribe: opts.mode === 'touchline' })
  const { connected } = await ready
  await sleep(1000)
  gc()
  const after = process.memoryUsage()
  let i = 0
  await phase(clients, connected * 10, async () => {
    for (const end = i + 10; i < end;) await server.publish(i++)
    return 0
  })
  const burst = await phase(clients, connected * opts.burst, async () => {
    let ms = 0
    for (const end = i + opts.burst; i < end;) {
      ms += await server.publish(i++)
      // Let the event loop run between changes, as it would between polls; writes stay in flight.
      await new Promise((resolve) => setImmediate(resolve))
    }
    return ms
  })
  // Paced on a schedule (change k at k / rate seconds), not with a pause after each publish: a server
  // whose publish returns before its writes are done (touchline's hub writes at the end of the tick) would
  // otherwise be sent twice the rate of one that writes inside publish (the plain loop, the floor).
  const paced = opts.rate * opts.seconds
  const latency = await phase(clients, connected * paced, async () => {
    const first = now()
    for (let k = 0; k < paced; k++) {
      await sleep(first + k * 1000 / opts.rate - now())
      await server.publish(i++)
    }
    return 0
  })
  clients.kill()
  return {
    mode: opts.mode,
    subscribers: opts.subscribers,
    connected,
    idleRssPerConn: (after.rss - before.rss) / connected,
    idleHeapPerConn: (after.heapUsed + after.external - before.heapUsed - before.external) / connected,
    burst: {
      changes: opts.burst,
      deliveries: burst.received,
      seconds: burst.wallSeconds,
      perSecond: burst.received / burst.wallSeconds,
      serverFanoutPerSecond: (connected * opts.burst) / (burst.fanoutMs / 1000),
      serverCpuSeconds: burst.cpuSeconds
    },
    latency: { changes: paced, deliveries: latency.received, p50: latency.p50, p99: latency.p99, max: latency.max, serverCpuSeconds: latency.cpuSeconds },
    slowConsumerCloses: await server.slowConsumerCloses()
  }
}

const opts = JSON.parse(process.argv[2] ?? '{}') as BenchOptions
run(opts).then((result) => {
  process.send?.(result)
  process.exit(0)
}, (err: unknown) => {
  console.error(err)
  process.exit(1)
})
