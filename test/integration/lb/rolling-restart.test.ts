/**
 * A rolling restart behind a real HAProxy (deploy/haproxy.cfg): three `touchline serve` processes on fixed
 * ports share a private Redis and poll the embedded provider; 1,000 WebSocket and 100 SSE clients connect
 * through HAProxy from 250 client addresses (so X-Forwarded-For, believed from HAProxy alone, gives the
 * gateways each client's own address), each keeping its last cursor and resuming from it when its
 * connection closes, as the client library does (`since` on the WebSocket, Last-Event-ID on SSE). Each
 * gateway in turn gets SIGTERM, drains (/readyz 503, HAProxy takes it out), closes its sockets with 1001 and
 * exits, and is started again on the same port. No client may miss or repeat a change of the log, and each
 * must be live again (resubscribed, its replay recovered) within 5 s of its disconnection. The reconnect
 * storm of each restart (clients moved, time until all are live again) is printed for docs/operations.md.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { backoffDelay } from '@touchline/core'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { wholeLog } from '../../helpers/log.ts'
import { freePort, startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { waitFor } from '../../helpers/wait.ts'
import { startUpstream, type Upstream } from '../resilience/harness.ts'
import { findHaproxy, startHaproxy, type RunningHaproxy } from './haproxy.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const HAPROXY = findHaproxy()
const WS_CLIENTS = 1000
const SSE_CLIENTS = 100
/** Client addresses 127.0.1.1 ... 127.0.1.250: four or five clients each, under the per-address limits. */
const ADDRESSES = 250
const KEY = 'lb-rolling-key-5e1f'
/** Longer than HAProxy takes to see two failed checks a second apart (deploy/haproxy.cfg: inter 1s fall 2). */
const DRAIN_MS = 3000
const LIVE_WITHIN_MS = 5000
const SIM_SPEED = 120

interface Gateway { port: number, child: ChildProcess, exited: Promise<number | null>, output: () => string }

/** One client: what it received (log offsets, in order), and how its reconnections went. */
interface Client {
  kind: 'ws' | 'sse'
  localAddress: string
  /** The log's head when it first subscribed: it must get every fixture record after it. */
  start: string
  /** The cursor of the last change received (where a reconnection resumes). */
  cursor: string
  offsets: number[]
  problems: string[]
  /** Set while disconnected: when it was. */
  downSince: number | undefined
  /** Per disconnection: when it happened and how long until live again. */
  outages: Array<{ at: number, ms: number }>
  attempt: number
  close: () => void
}

let redis: PrivateRedis
let up: Upstream
let haproxy: RunningHaproxy
let lbPort: number
let startCursor: string
let epoch: string
let stopping = false
const gateways: Gateway[] = []
const clients: Client[] = []
let keysPath: string

async function startGateway (port: number): Promise<Gateway> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TOUCHLINE_HOST: '127.0.0.1',
      TOUCHLINE_PORT: String(port),
      TOUCHLINE_UPSTREAM_URL: up.provider.baseUrl,
      TOUCHLINE_UPSTREAM_CLOCK_RATE: String(SIM_SPEED),
      TOUCHLINE_REDIS_URL: redis.url,
      TOUCHLINE_KEYS_FILE: keysPath,
      TOUCHLINE_TRUST_PROXY: '127.0.0.1',
      TOUCHLINE_DRAIN_DELAY_MS: String(DRAIN_MS),
      TOUCHLINE_LOG_LEVEL: 'warn',
      TOUCHLINE_POLL_FLOOR_MS: '200',
      TOUCHLINE_RECONCILE_INTERVAL_MS: '2000'
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  const keep = (d: Buffer): void => { out = (out + d.toString()).slice(-262_144) }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await waitFor(() => `gateway on ${port} printing its banner:\n${out}`, () => {
    if (child.exitCode !== null) throw new Error(`gateway on ${port} exited (${child.exitCode}):\n${out}`)
    return /touchline gateway\s+http:\/\//.test(out)
  }, 60_000, 100)
  return { port, child, exited, output: () => out }
}

const changeOffset = (c: Client, cursor: string): void => {
  const colon = cursor.indexOf(':')
  if (cursor.slice(0, colon) !== epoch) c.problems.push(`change of another epoch: ${cursor}`)
  const offset = Number(cursor.slice(colon + 1))
  const last = c.offsets.at(-1)
  if (last !== undefined && offset <= last) c.problems.push(`duplicate or out of order: ${offset} after ${last}`)
  c.offsets.push(offset)
  c.cursor = cursor
}

/** Live again: resubscribed (its replay recovered), or a change received. */
const live = (c: Client): void => {
  if (c.downSince === undefined) return
  c.outages.push({ at: c.downSince, ms: Date.now() - c.downSince })
  c.downSince = undefined
  c.attempt = 0
}

function disconnected (c: Client, code: number, reconnect: () => void): void {
  if (stopping) return
  c.downSince ??= Date.now()
  c.attempt++
  // As the client library: 1001 (another instance answers at once) waits the first, shortest backoff.
  setTimeout(reconnect, backoffDelay(code === 1001 ? 1 : c.attempt))
}

const CHANGE = '{"type":"change","cursor":"'
/** Why connection attempts failed, by HTTP status or error code, for the storm's figures. */
const refusals: Record<string, number> = {}
const refused = (why: string | number): void => { refusals[why] = (refusals[why] ?? 0) + 1 }

function wsClient (localAddress: string, start: string): Client {
  const c: Client = { kind: 'ws', localAddress, start, cursor: start, offsets: [], problems: [], downSince: undefined, outages: [], attempt: 0, close: () => {} }
  const open = (): void => {
    const ws = new WebSocket(`ws://127.0.0.1:${lbPort}/v1/live?api_token=${KEY}`, { localAddress, perMessageDeflate: false })
    let code = 0
    c.close = () => ws.terminate()
    ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', ref: 'r', leagues: '*', since: c.cursor, snapshot: false, format: 'delta' })))
    ws.on('message', (data: Buffer) => {
      const head = data.toString('latin1', 0, 64)
      if (head.startsWith(CHANGE)) {
        changeOffset(c, head.slice(CHANGE.length, head.indexOf('"', CHANGE.length)))
        return live(c)
      }
      const frame = JSON.parse(data.toString()) as { type: string, recovered?: boolean, code?: string, cursor?: string }
      if (frame.type === 'change') {
        changeOffset(c, frame.cursor as string)
        live(c)
      } else if (frame.type === 'replay') {
        if (frame.recovered !== true) c.problems.push(`replay not recovered from ${c.cursor}`)
        live(c)
      } else if (frame.type === 'error') c.problems.push(`error ${frame.code ?? ''}`)
    })
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      code = res.statusCode ?? 0
      refused(code)
      res.resume()
      ws.terminate()
    })
    ws.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== undefined) refused(err.code) })
    ws.on('close', (closeCode) => disconnected(c, code === 0 ? closeCode : code, open))
  }
  open()
  return c
}

function sseClient (localAddress: string, start: string): Client {
  const c: Client = { kind: 'sse', localAddress, start, cursor: start, offsets: [], problems: [], downSince: undefined, outages: [], attempt: 0, close: () => {} }
  const open = (): void => {
    let buffered = ''
    let ended = false
    const end = (): void => {
      if (ended) return
      ended = true
      // An SSE stream that ends is the gateway's goodbye (its 1001).
      disconnected(c, 1001, open)
    }
    const req = request({
      host: '127.0.0.1',
      port: lbPort,
      path: `/v1/sse?api_token=${KEY}&format=delta`,
      localAddress,
      agent: false,
      headers: { accept: 'text/event-stream', 'last-event-id': c.cursor }
    }, (res) => {
      if (res.statusCode !== 200) {
        refused(res.statusCode ?? 0)
        res.resume()
        return end()
      }
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffered += chunk
        let cut = buffered.indexOf('\n\n')
        while (cut >= 0) {
          sseEvent(c, buffered.slice(0, cut))
          buffered = buffered.slice(cut + 2)
          cut = buffered.indexOf('\n\n')
        }
      })
      res.on('end', end)
      res.on('close', end)
      res.on('error', end)
    })
    c.close = () => req.destroy()
    req.on('error', (err: NodeJS.ErrnoException) => { refused(err.code ?? 'error'); end() })
    req.end()
  }
  open()
  return c
}

function sseEvent (c: Client, block: string): void {
  let id: string | undefined
  let event = 'message'
  let data = ''
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4)
    else if (line.startsWith('event: ')) event = line.slice(7)
    else if (line.startsWith('data: ')) data = line.slice(6)
  }
  if (event === 'change' && id !== undefined) {
    changeOffset(c, id)
    live(c)
  } else if (event === 'replay') {
    if ((JSON.parse(data) as { recovered?: boolean }).recovered !== true) c.problems.push(`replay not recovered from ${c.cursor}`)
    live(c)
  } else if (event === 'error') c.problems.push(`error ${data}`)
}

/** What a list of clients is up to, for a failure's message. */
function summary (of: Client[]): string {
  const count = (kind: string, test: (c: Client) => boolean): number => of.filter((c) => c.kind === kind && test(c)).length
  const problems = of.flatMap((c) => c.problems)
  return `${of.length} clients: ${['ws', 'sse'].map((k) => `${k} ${count(k, () => true)} (${count(k, (c) => c.downSince !== undefined)} disconnected, ${count(k, (c) => c.attempt > 1)} retried more than once)`).join(', ')}; ` +
    `${problems.length} problems, e.g. ${problems.slice(0, 3).join('; ')}; the gateways said:\n${gateways.map((g) => g.output().slice(-1500)).join('\n')}`
}

async function withStore<T> (fn: (store: LiveStore) => Promise<T>): Promise<T> {
  const connection = new Redis(redis.url)
  try {
    return await fn(createStore({ kind: 'redis', redis: connection }))
  } finally {
    connection.disconnect()
  }
}

async function allUp (): Promise<boolean> {
  const states = await haproxy.servers().catch(() => ({}))
  return Object.values(states).length === 3 && Object.values(states).every((s) => s === 'UP')
}

beforeAll(async () => {
  if (HAPROXY === undefined) return
  redis = await startPrivateRedis()
  up = await startUpstream({ simSpeed: SIM_SPEED, liveTarget: 8 })
  keysPath = join(mkdtempSync(join(tmpdir(), 'tl-lb-')), 'keys.json')
  writeFileSync(keysPath, JSON.stringify([{ key: KEY, name: 'lb', max_connections: 5000 }]))
  const ports = [await freePort(), await freePort(), await freePort()]
  gateways.push(...await Promise.all(ports.map(startGateway)))
  lbPort = await freePort()
  haproxy = await startHaproxy(HAPROXY, lbPort, ports)
  await waitFor(() => `HAProxy sees the three gateways up:\n${haproxy.output()}`, allUp, 20_000, 200)
  startCursor = await withStore(async (store) => await store.head())
  epoch = startCursor.slice(0, startCursor.indexOf(':'))
}, 180_000)

afterAll(async () => {
  stopping = true
  for (const c of clients) c.close()
  await haproxy?.stop()
  for (const g of gateways) g.child.kill('SIGKILL')
  await up?.provider.close()
  await redis?.close()
})

/**
 * Opens a WebSocket to `url` from `localAddress` claiming `X-Forwarded-For: forged`, and sends it a text
 * frame of invalid UTF-8: the gateway closes it (1007) and logs the violation with the address it took for
 * the client's. Resolves to the close code.
 */
async function violate (url: string, localAddress: string, forged: string): Promise<number> {
  const ws = new WebSocket(url, { localAddress, perMessageDeflate: false, headers: { 'x-forwarded-for': forged } })
  ws.on('error', () => {})
  await once(ws, 'open')
  const closed = once(ws, 'close') as Promise<[number]>
  ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false })
  return (await closed)[0]
}

/** The addresses the gateways logged client protocol violations from. */
const violators = (): string[] => gateways.flatMap((g) => g.output().split('\n').filter((l) => l.includes('client protocol violation')).map((l) => (JSON.parse(l) as { ip: string }).ip))

describe.skipIf(HAPROXY === undefined)(HAPROXY === undefined ? 'behind HAProxy (skipped: the Debian package haproxy is not installed)' : 'behind HAProxy', () => {
  it('X-Forwarded-For is believed from HAProxy alone: a gateway takes the address a client connected to HAProxy from, never one the client claims', async () => {
    expect(await violate(`ws://127.0.0.1:${lbPort}/v1/live?api_token=${KEY}`, '127.0.2.1', '198.51.100.7')).toBe(1007)
    await waitFor('the violation through HAProxy logged', () => violators().length === 1, 10_000)
    expect(violators(), 'through HAProxy: the client\'s own address, not the balancer\'s nor the claimed one').toEqual(['127.0.2.1'])
    // Straight to a gateway, a client is not a trusted proxy: its header is ignored.
    expect(await violate(`ws://127.0.0.1:${gateways[0]?.port ?? 0}/v1/live?api_token=${KEY}`, '127.0.2.2', '198.51.100.8')).toBe(1007)
    await waitFor('the direct violation logged', () => violators().length === 2, 10_000)
    expect(violators()).toEqual(['127.0.2.1', '127.0.2.2'])
  }, 60_000)

  it('a rolling restart of the three gateways: 1,000 WebSocket and 100 SSE clients see no gap and no duplicate, each live again within 5 s', async () => {
    // Connected in batches, as a page of clients would arrive, not all in one tick, each from the log's
    // head at that time (a client that comes back resumes from a recent cursor).
    let head = startCursor
    for (let i = 0; i < WS_CLIENTS + SSE_CLIENTS; i++) {
      const address = `127.0.1.${(i % ADDRESSES) + 1}`
      clients.push(i < WS_CLIENTS ? wsClient(address, head) : sseClient(address, head))
      if (i % 25 === 24) {
        await sleep(250)
        head = await withStore(async (store) => await store.head())
      }
    }
    await waitFor(() => `every client receiving: ${summary(clients.filter((c) => c.offsets.length === 0))}`,
      () => clients.every((c) => c.offsets.length > 0), 60_000, 200)
    const connectedProblems = clients.flatMap((c) => c.problems)
    expect(connectedProblems.slice(0, 5), `problems while connecting (${connectedProblems.length}); the gateways said:\n${gateways.map((g) => g.output().slice(-3000)).join('\n')}`).toEqual([])

    const storms: Array<{ gateway: number, moved: number, allLiveMs: number, p50: number, p99: number, max: number, drainToExitMs: number, refusals: string }> = []
    for (const [n, g] of gateways.entries()) {
      await waitFor('HAProxy sees the three gateways up', allUp, 30_000, 200)
      await waitFor('every client live', () => clients.every((c) => c.downSince === undefined), 30_000, 100)
      await sleep(2000)
      for (const k of Object.keys(refusals)) delete refusals[k]
      const signalledAt = Date.now()
      g.child.kill('SIGTERM')
      expect(await g.exited, `gateway ${n + 1} exit code`).toBe(0)
      const exitedAt = Date.now()
      await waitFor(() => `the clients of gateway ${n + 1} live again (${clients.filter((c) => c.downSince !== undefined).length} not yet)`,
        () => clients.every((c) => c.downSince === undefined), 60_000, 50)
      const outages = clients.flatMap((c) => c.outages.filter((o) => o.at >= signalledAt))
      const moved = outages.length
      const times = outages.map((o) => o.ms).sort((a, b) => a - b)
      const first = Math.min(...outages.map((o) => o.at))
      const lastLive = Math.max(...outages.map((o) => o.at + o.ms))
      storms.push({
        gateway: n + 1,
        moved,
        allLiveMs: lastLive - first,
        p50: times[Math.floor(times.length * 0.5)] ?? 0,
        p99: times[Math.floor(times.length * 0.99)] ?? 0,
        max: times.at(-1) ?? 0,
        drainToExitMs: exitedAt - signalledAt,
        refusals: JSON.stringify(refusals)
      })
      // Started again on the same port: HAProxy's server line stays valid, its checks bring it back.
      gateways[n] = await startGateway(g.port)
    }
    await waitFor('HAProxy sees the three gateways up after the restarts', allUp, 30_000, 200)
    console.info('rolling restart behind HAProxy (clients moved per restart, time from the first disconnection to all live again, per-client time to live again p50/p99/max, signal to exit):\n' +
      storms.map((s) => `  gateway ${s.gateway}: ${s.moved} clients moved, all live again in ${s.allLiveMs} ms, per client p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms; SIGTERM to exit ${s.drainToExitMs} ms; failed attempts ${s.refusals}`).join('\n'))

    // The end: once every client got a change after the last restart, what each received must be the log's
    // fixture records from its start up to its last one, none missing, none twice.
    const afterRestarts = clients.map((c) => c.offsets.length)
    await waitFor(() => `every client receiving after the restarts: ${summary(clients.filter((c, i) => c.offsets.length === afterRestarts[i]))}`,
      () => clients.every((c, i) => c.offsets.length > (afterRestarts[i] as number)), 30_000, 200)
    const received = clients.map((c) => [...c.offsets])
    const whole = (await withStore(async (store) => await wholeLog(store, startCursor))).map((r) => Number(r.cursor.slice(r.cursor.indexOf(':') + 1)))
    expect(whole.length, 'changes during the test').toBeGreaterThan(20)
    const expected = (c: Client, upTo: number): number[] => {
      const from = Number(c.start.slice(c.start.indexOf(':') + 1))
      return whole.filter((o) => o > from && o <= upTo)
    }
    const gapped = clients.flatMap((c, k) => {
      const got = received[k] as number[]
      const log = expected(c, got.at(-1) ?? -1)
      if (got.length === log.length && got.every((o, i) => o === log[i])) return []
      return [`${c.kind} from ${c.localAddress}: ${got.length} changes where the log has ${log.length}, first difference at ${got.findIndex((o, i) => o !== log[i])}`]
    })
    const problems = clients.flatMap((c) => c.problems)
    expect(gapped.slice(0, 5), `no gap, no duplicate (${gapped.length} clients differ; ${problems.length} problems, e.g. ${problems.slice(0, 4).join('; ')})`).toEqual([])
    expect(clients.flatMap((c) => c.problems).slice(0, 5), 'no replay lost, no error').toEqual([])

    // Every client of each stopped gateway moved, and each was live again within 5 s of its disconnection.
    expect(storms.reduce((n, s) => n + s.moved, 0), 'every client reconnected at least once over the three restarts').toBeGreaterThanOrEqual(WS_CLIENTS + SSE_CLIENTS)
    const slow = clients.flatMap((c) => c.outages.filter((o) => o.ms > LIVE_WITHIN_MS).map((o) => `${c.kind} from ${c.localAddress}: ${o.ms} ms`))
    expect(slow.slice(0, 10), `clients live again later than ${LIVE_WITHIN_MS} ms`).toEqual([])
  }, 600_000)
})
