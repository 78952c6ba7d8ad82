/**
 * A failover under load, over real processes: a primary, a replica and three sentinels
 * (test/helpers/redis-sentinel.ts), two gateways whose TOUCHLINE_REDIS_URL is the Sentinel form, the
 * embedded provider over HTTP, and lean clients: plain `ws` WebSockets and node:http SSE streams that keep
 * what a client keeps (the last snapshot with every later change applied) and, per snapshot, the cursors of
 * the changes after it, with two webhook receivers. Clients connect from several loopback addresses
 * (127.0.1.x), as a crowd behind many addresses would, so the per-address connection rate lets them in.
 */
import { request } from 'node:http'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import WebSocket from 'ws'
import { expect } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { createRedisStore } from '../../../src/store/redis-store.ts'
import { inLiveSet } from '../../../src/protocol/filter.ts'
import { isChangeRecord, type LiveStore } from '../../../src/store/types.ts'
import { watchFailovers } from '../../../src/util/redis-failover.ts'
import { parseRedisUrl, redisOptions } from '../../../src/util/redis-url.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { lastFixtureCursor } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'
import { essence, gatewayEnv, inPlay, truthOf, type Upstream } from '../resilience/harness.ts'
import { SECRET, type Received, type Receiver } from '../webhooks/harness.ts'
import { startTestGateway, writeKeysFile } from '../../helpers/gateway.ts'

type Frame = Record<string, any>

export const epochOf = (cursor: string): string => cursor.slice(0, cursor.indexOf(':'))
export const offsetOf = (cursor: string): number => Number(cursor.slice(cursor.indexOf(':') + 1))

/** When the fault began, and which cursors are of records written after it (the first change "after it"). */
export const fault = { at: Infinity, isNew: (_cursor: string): boolean => false }

/** Changes kept per client from the fault on, to find the first one written after it once that is known. */
const KEPT_AFTER_FAULT = 200

/** The state a client keeps, and the change cursors after each of its snapshots (or resync). */
export class LeanMirror {
  fixtures = new Map<number, LiveFixture>()
  /** One per snapshot, in order: its cursor, then the cursors of the changes received after it. */
  readonly segments: Array<{ from: string, changes: string[] }> = []
  /** `replay` frames with recovered:false (a reset by the server). */
  resets = 0
  lastCursor = ''
  /** The changes received from the fault on (the first KEPT_AFTER_FAULT), with when they arrived. */
  readonly afterFault: Array<{ cursor: string, at: number }> = []

  constructor (readonly name: string) {}

  /** When the first change written after the fault arrived (ms), by `fault.isNew`. */
  get firstNewAt (): number | undefined {
    return this.afterFault.find((c) => fault.isNew(c.cursor))?.at
  }

  take (frame: Frame): void {
    if (frame.type === 'snapshot') {
      this.fixtures = new Map((frame.fixtures as LiveFixture[]).map((f) => [f.id, f]))
      this.lastCursor = frame.cursor as string
      this.segments.push({ from: this.lastCursor, changes: [] })
    } else if (frame.type === 'change') {
      const cursor = frame.cursor as string
      this.fixtures.set(frame.fixture_id as number, frame.fixture as LiveFixture)
      this.lastCursor = cursor
      this.segments.at(-1)?.changes.push(cursor)
      const at = Date.now()
      if (at >= fault.at && this.afterFault.length < KEPT_AFTER_FAULT) this.afterFault.push({ cursor, at })
    } else if (frame.type === 'replay' && frame.recovered === false) {
      this.resets++
    }
  }
}

export interface Client { mirror: LeanMirror, close: () => void }

const localAddress = (i: number): string => `127.0.1.${1 + (i % 40)}`

/** A WebSocket subscribed to every league; resolves once its first snapshot is applied. */
export async function wsClient (gatewayUrl: string, i: number): Promise<Client> {
  const mirror = new LeanMirror(`ws#${i}`)
  const ws = new WebSocket(`${gatewayUrl.replace('http', 'ws')}/v1/live?api_token=demo`, { perMessageDeflate: false, localAddress: localAddress(i) })
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame
      mirror.take(frame)
      if (frame.type === 'snapshot') resolve()
    })
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', ref: 'all', leagues: '*' })))
    ws.once('close', () => reject(new Error(`${mirror.name} closed before its snapshot`)))
  })
  return { mirror, close: () => ws.terminate() }
}

/** An SSE stream of everything the key sees; resolves once its first snapshot is applied. */
export async function sseClient (gatewayUrl: string, i: number): Promise<Client> {
  const mirror = new LeanMirror(`sse#${i}`)
  let close = (): void => {}
  await new Promise<void>((resolve, reject) => {
    const req = request(`${gatewayUrl}/v1/sse?api_token=demo`, { headers: { accept: 'text/event-stream' }, localAddress: localAddress(i + 20) }, (res) => {
      let buffer = ''
      res.setEncoding('utf8')
      res.on('error', () => {})
      res.on('data', (chunk: string) => {
        buffer += chunk
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event === undefined || data === undefined) continue
          mirror.take({ ...JSON.parse(data) as Frame, type: event })
          if (event === 'snapshot') resolve()
        }
      })
    })
    close = () => req.destroy()
    req.on('error', reject)
    req.end()
  })
  return { mirror, close }
}

/** Opens `n` clients with `open`, `batch` at a time, alternating between the gateways. */
export async function openClients (gateways: Gateway[], n: number, open: (url: string, i: number) => Promise<Client>, batch = 50): Promise<Client[]> {
  const out: Client[] = []
  for (let i = 0; i < n; i += batch) {
    const size = Math.min(batch, n - i)
    out.push(...await Promise.all(Array.from({ length: size }, async (_, j) => await open((gateways[(i + j) % gateways.length] as Gateway).url, i + j))))
  }
  return out
}

/** Writes a keys file: the `demo` key (room for the test's crowd) with the given webhook endpoints. */
export function keysFile (hooks: Array<{ id: string, url: string }>): string {
  return writeKeysFile([{ key: 'demo', name: 'demo', max_connections: 2000, webhooks: hooks.map((h) => ({ ...h, secret: SECRET })) }])
}

/** A gateway over the Sentinel group, with the production lease (10 s). */
export async function failoverGateway (up: Upstream, redisUrl: string, keys: string): Promise<Gateway> {
  const env = gatewayEnv(up.provider.baseUrl, redisUrl, {
    TOUCHLINE_KEYS_FILE: keys,
    TOUCHLINE_WEBHOOK_RETRY_BASE_MS: '100',
    TOUCHLINE_WEBHOOK_RETRY_MAX_MS: '1000',
    TOUCHLINE_WEBHOOK_TIMEOUT_MS: '3000'
  })
  return await startTestGateway({ env, log: pino({ level: process.env.FAILOVER_LOG ?? 'silent' }) })
}

/**
 * Every fixture record of the log, per epoch, as a tail of its own sees it (through the sentinels, like the
 * gateways): what each client's changes are compared with.
 */
export interface Reference { byEpoch: Map<string, number[]>, close: () => Promise<void> }

export async function startReference (redisUrl: string): Promise<Reference> {
  const target = parseRedisUrl(redisUrl)
  const options = redisOptions(target, { maxRetriesPerRequest: 1, commandTimeout: 2000 }).options
  const conn = new Redis(options)
  conn.on('error', () => {})
  // Like the gateways: off a hung primary at the promotion.
  const watch = target.kind === 'sentinel' ? watchFailovers(target, undefined, () => {}) : undefined
  watch?.track(conn)
  const store: LiveStore = createRedisStore({ redis: conn })
  const byEpoch = new Map<string, number[]>()
  const stop = await store.subscribe((record) => {
    // What a subscriber of leagues gets: the live set's fixture records (test/helpers/log.ts).
    if (!isChangeRecord(record) || !inLiveSet(record)) return
    const epoch = epochOf(record.cursor)
    const list = byEpoch.get(epoch) ?? []
    byEpoch.set(epoch, list)
    list.push(offsetOf(record.cursor))
  }, () => {})
  return { byEpoch, close: async () => { await stop(); conn.disconnect(); watch?.close() } }
}

/**
 * No change lost, none out of order: after each snapshot (or resync), the changes a consumer got are the
 * log's fixture records after the snapshot's cursor, in order, none missing or repeated, as far as both
 * the consumer and the reference saw that epoch; none of another epoch without a snapshot of it first.
 */
export function expectNoGap (name: string, segments: Array<{ from: string, changes: string[] }>, ref: Reference): void {
  for (const [k, seg] of segments.entries()) {
    const epoch = epochOf(seg.from)
    expect(seg.changes.filter((c) => epochOf(c) !== epoch), `${name}: segment ${k}: changes of another epoch than its snapshot's`).toEqual([])
    const offsets = seg.changes.map(offsetOf)
    const log = ref.byEpoch.get(epoch) ?? []
    if (offsets.length === 0 || log.length === 0) continue
    const lo = Math.max(offsetOf(seg.from), (log[0] as number) - 1)
    const hi = Math.min(offsets.at(-1) as number, log.at(-1) as number)
    expect(offsets.filter((o) => o > lo && o <= hi), `${name}: segment ${k} (${seg.from}): every record, in order`).toEqual(log.filter((o) => o > lo && o <= hi))
  }
}

/** A webhook receiver's acknowledged deliveries (once each) as segments: a resync starts one. */
export function hookSegments (r: Receiver, webhookId: string): { segments: Array<{ from: string, changes: string[] }>, held: Map<number, LiveFixture>, resyncs: number } {
  const seen = new Set<string>()
  const segments: Array<{ from: string, changes: string[] }> = []
  const held = new Map<number, LiveFixture>()
  let resyncs = 0
  for (const q of r.requests as Received[]) {
    if (q.webhookId !== webhookId || q.answer !== 200 || seen.has(q.deliveryId)) continue
    seen.add(q.deliveryId)
    if (q.body.type === 'resync') {
      resyncs++
      segments.push({ from: q.body.cursor, changes: [] })
      held.clear()
      for (const f of (q.body.fixtures ?? []) as LiveFixture[]) held.set(f.id, f)
      continue
    }
    for (const frame of q.body.data ?? []) {
      const f = frame as unknown as { cursor: string, fixture_id: number, fixture: LiveFixture, changes: Array<{ kind: string }> }
      if (segments.length === 0) segments.push({ from: `${epochOf(f.cursor)}:${offsetOf(f.cursor) - 1}`, changes: [] })
      segments.at(-1)?.changes.push(f.cursor)
      if (f.changes.some((c) => c.kind === 'fixture_removed')) held.delete(f.fixture_id)
      else held.set(f.fixture_id, f.fixture)
    }
  }
  return { segments, held, resyncs }
}

/** The gateway that polls, once exactly one does (checked over `ms`, every 100 ms). */
export async function oneLeader (gateways: Gateway[], ms = 3000): Promise<Gateway> {
  const leading = (): Gateway[] => gateways.filter((g) => g.isLeader() && g.poller.status().running)
  await waitFor('a leader polling', () => leading().length === 1, 30_000, 100)
  const until = Date.now() + ms
  while (Date.now() < until) {
    expect(leading().length, 'gateways polling at once').toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return leading()[0] as Gateway
}

/**
 * Stops the provider's clock, lets the leader reconcile with nothing pending, and waits until every client
 * holds the log's last fixture record and every webhook endpoint's cursor is the head.
 */
export async function settleAll (up: Upstream, leader: Gateway, clients: Client[], gateways: Gateway[]): Promise<void> {
  up.freeze()
  const frozenAt = Date.now()
  leader.poller.forceReconcile()
  await waitFor('a reconcile after the freeze, nothing pending', () => {
    const s = leader.poller.status()
    return s.running && (s.lastReconcileAt ?? 0) > frozenAt + 200 && s.pendingFinal === 0
  }, 30_000)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const last = await lastFixtureCursor(leader.store)
  await waitFor(() => `every client caught up with ${last} (behind: ${clients.filter((c) => c.mirror.lastCursor !== last).map((c) => `${c.mirror.name} at ${c.mirror.lastCursor}`).slice(0, 5).join(', ')})`,
    () => clients.every((c) => c.mirror.lastCursor === last || last.endsWith(':0')), 30_000, 100)
  // The head as it is at each look: the odds poller may still append (odds going stale while the clock stands).
  const key = leader.keys.all()[0] as NonNullable<ReturnType<typeof leader.keys.all>[number]>
  let seen = ''
  await waitFor(() => `every webhook endpoint at the head (${seen})`, async () => {
    const head = await leader.store.head()
    const cursors = (await Promise.all(gateways.map(async (g) => await g.webhooks.list(key)))).flat().map((e) => `${e.id}@${e.cursor ?? '-'}`)
    seen = `head ${head}, endpoints ${cursors.join(' ')}`
    return cursors.length > 0 && cursors.every((c) => c.endsWith(`@${head}`))
  }, 30_000, 200)
}

/** Every client holds the provider's state of each fixture it holds, and every fixture in play. */
export async function expectAllEqualToTruth (up: Upstream, clients: Client[]): Promise<void> {
  const live = await inPlay(up)
  expect(live.length).toBeGreaterThan(0)
  const ids = new Set<number>()
  for (const c of clients) for (const id of c.mirror.fixtures.keys()) ids.add(id)
  const truth = await truthOf(up, [...ids])
  const wanted = new Map([...truth].map(([id, f]) => [id, JSON.stringify(essence(f))]))
  for (const c of clients) {
    for (const [id, f] of c.mirror.fixtures) {
      if (JSON.stringify(essence(f)) !== wanted.get(id)) expect(essence(f), `${c.mirror.name}: fixture ${id}`).toEqual(essence(truth.get(id) as LiveFixture))
    }
    for (const f of live) expect(c.mirror.fixtures.has(f.id), `${c.mirror.name}: fixture ${f.id} in play at the provider`).toBe(true)
  }
}

/** Median and largest of a list of numbers. */
export function spread (values: number[]): { min: number, median: number, max: number } {
  const sorted = [...values].sort((a, b) => a - b)
  return { min: sorted[0] ?? NaN, median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN }
}
