/**
 * Bad nights over real parts: a private redis-server (flushed, restarted, frozen: never the
 * shared one), the embedded provider on a real port with a clock the test can move and freeze, gateways
 * over that Redis, and subscribers that keep the state a client would (the last snapshot, then every
 * change applied) so that it can be compared with the provider's truth at the end.
 */
import { pino, type Logger } from 'pino'
import { expect } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Gateway } from '../../../src/gateway.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { parseFixtures, LIVE_INCLUDES } from '../../../src/upstream/schemas.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { openSse, type SseStream } from '../fanout/harness.ts'
import { lastFixtureCursor, wholeLog } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'
import { parseCursor } from '../../../src/store/record.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

const TOKEN = 'demo-enterprise'

/** The provider with a clock the test moves (`jump`) and stops (`freeze`). */
export interface Upstream {
  provider: RunningProvider
  /** Moves the provider's clock forward by `ms` (matches jump ahead). */
  jump: (ms: number) => void
  freeze: () => void
  /** Every league id of the dataset, for subscribing a WebSocket to everything. */
  leagues: number[]
}

export async function startUpstream (opts: { simSpeed?: number, liveTarget?: number } = {}): Promise<Upstream> {
  let offset = 0
  let frozen: number | undefined
  const now = (): number => (frozen ?? Date.now()) + offset
  const provider = await startProvider({ port: 0, now, simSpeed: opts.simSpeed ?? 120, liveTarget: opts.liveTarget ?? 8, hourlyLimits: { Enterprise: 1_000_000 } })
  return {
    provider,
    jump: (ms) => { offset += ms },
    freeze: () => { frozen ??= Date.now() },
    leagues: provider.world.all('league').map((l) => l.id as number)
  }
}

/** Settings of a gateway polling `upstreamUrl` over the Redis at `redisUrl` (test/helpers/gateway.ts adds the address). */
export function gatewayEnv (upstreamUrl: string, redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TOUCHLINE_UPSTREAM_URL: upstreamUrl,
    TOUCHLINE_REDIS_URL: redisUrl,
    TOUCHLINE_POLL_FLOOR_MS: '200',
    TOUCHLINE_RECONCILE_INTERVAL_MS: '2000',
    ...extra
  }
}

/** A gateway polling the test's provider over Redis, with a short poller lease. */
export async function startPollingGateway (up: Upstream, redisUrl: string, leaseTtlMs = 3000, log: Logger = pino({ level: 'silent' })): Promise<Gateway> {
  return await startTestGateway({ env: gatewayEnv(up.provider.baseUrl, redisUrl), overrides: { leaseTtlMs }, log })
}

/** The state a client keeps: the last snapshot it got, with every later change applied. */
export class Mirror {
  fixtures = new Map<number, LiveFixture>()
  /** Every frame or event, in order: type, and for resets `recovered`. */
  readonly seen: Frame[] = []
  lastCursor = ''

  take (frame: Frame): void {
    this.seen.push(frame)
    if (frame.type === 'snapshot') {
      // A snapshot is the client's new starting state (after a reset, nothing of the old log is kept).
      this.fixtures = new Map((frame.fixtures as LiveFixture[]).map((f) => [f.id, f]))
      this.lastCursor = frame.cursor as string
    } else if (frame.type === 'change') {
      this.fixtures.set(frame.fixture_id as number, frame.fixture as LiveFixture)
      this.lastCursor = frame.cursor as string
    }
  }

  /** Index in `seen` of the first `replay` recovered:false at or after `from`, followed by a snapshot. */
  resetAfter (from: number): number | undefined {
    for (let i = from; i < this.seen.length; i++) {
      const f = this.seen[i] as Frame
      if (f.type === 'replay' && f.recovered === false && this.seen.slice(i + 1).some((g) => g.type === 'snapshot')) return i
    }
    return undefined
  }

  /** Offsets of the change frames received since `from`, with their epochs. */
  changesSince (from: number): Array<{ epoch: string, offset: number }> {
    return this.seen.slice(from).filter((f) => f.type === 'change').map((f) => {
      const [epoch, offset] = (f.cursor as string).split(':')
      return { epoch: epoch as string, offset: Number(offset) }
    })
  }
}

export interface Subscriber { name: string, mirror: Mirror, close: () => void }

/** A WebSocket client subscribed to every league, with a snapshot. */
export async function wsSubscriber (gatewayUrl: string, leagues: number[]): Promise<Subscriber & { client: WsTestClient }> {
  const client = await WsTestClient.connect(`${gatewayUrl.replace('http', 'ws')}/v1/live?api_token=demo`)
  const mirror = new Mirror()
  client.ws.on('message', (data) => mirror.take(JSON.parse(data.toString()) as Frame))
  client.send({ op: 'subscribe', ref: 'all', leagues })
  await client.take('snapshot', 10_000)
  return { name: 'ws', mirror, client, close: () => client.ws.terminate() }
}

/** An SSE stream of everything the key sees. */
export async function sseSubscriber (gatewayUrl: string): Promise<Subscriber & { stream: SseStream }> {
  const stream = await openSse(`${gatewayUrl}/v1/sse?api_token=demo`)
  const mirror = new Mirror()
  const events = stream.events
  // openSse appends parsed events to `events`; mirror them as they arrive.
  const push = events.push.bind(events)
  events.push = (...items) => {
    for (const e of items) mirror.take({ ...e.data, type: e.event })
    return push(...items)
  }
  for (const e of [...events]) mirror.take({ ...e.data, type: e.event })
  return { name: 'sse', mirror, stream, close: () => stream.close() }
}

/** The provider's current fixtures by id, normalized as the gateway stores them. */
export async function truthOf (up: Upstream, ids: number[]): Promise<Map<number, LiveFixture>> {
  const out = new Map<number, LiveFixture>()
  for (let i = 0; i < ids.length; i += 50) {
    const res = await fetch(`${up.provider.baseUrl}/football/fixtures/multi/${ids.slice(i, i + 50).join(',')}?include=${LIVE_INCLUDES}&api_token=${TOKEN}`)
    for (const f of parseFixtures(await res.json())) {
      const n = normalizeFixture(f)
      out.set(n.id, n)
    }
  }
  return out
}

/** Ids of the fixtures in play at the provider now. */
export async function inPlay (up: Upstream): Promise<LiveFixture[]> {
  const res = await fetch(`${up.provider.baseUrl}/football/livescores/inplay?include=${LIVE_INCLUDES}&api_token=${TOKEN}`)
  return parseFixtures(await res.json()).map((f) => normalizeFixture(f))
}

/** What "equal to the provider's truth" compares: state, scores and events (and the result). */
export const essence = (f: LiveFixture): object =>
  ({ state: f.state.code, home: f.home.score, away: f.away.score, scores: f.scores, events: f.events, result_info: f.result_info })

/**
 * Stops the provider's clock, lets the polling gateway catch up (a reconcile after the freeze, every fixture
 * that left the feed fetched until final), and waits until every subscriber has the store's last change.
 */
export async function settle (up: Upstream, poller: Gateway, subscribers: Subscriber[]): Promise<void> {
  up.freeze()
  const frozenAt = Date.now()
  poller.poller.forceReconcile()
  await waitFor('a reconcile after the freeze, nothing pending', () => {
    const s = poller.poller.status()
    return s.running && (s.lastReconcileAt ?? 0) > frozenAt + 200 && s.pendingFinal === 0
  }, 20_000)
  // The last record a subscriber without odds gets (the odds poller appends its records to the same log).
  const head = await lastFixtureCursor(poller.store)
  // Caught up: at the head or past it (a snapshot taken after it carries a later cursor, the head of records
  // the subscriber does not take, such as a day's fixtures read after a restart).
  const at = parseCursor(head)
  const reached = (cursor: string): boolean => {
    const c = parseCursor(cursor)
    return at === undefined || at.offset === 0 || (c !== undefined && c.epoch === at.epoch && c.offset >= at.offset)
  }
  for (const s of subscribers) await waitFor(`${s.name} caught up with ${head}`, () => reached(s.mirror.lastCursor), 10_000)
}

/** Every fixture a subscriber holds equals the provider's, and every fixture in play is held. */
export async function expectEqualToTruth (up: Upstream, subscribers: Subscriber[]): Promise<void> {
  const live = await inPlay(up)
  expect(live.length).toBeGreaterThan(0)
  for (const s of subscribers) {
    const ids = [...s.mirror.fixtures.keys()]
    const truth = await truthOf(up, ids)
    for (const id of ids) {
      expect(essence(s.mirror.fixtures.get(id) as LiveFixture), `${s.name}: fixture ${id}`).toEqual(essence(truth.get(id) as LiveFixture))
    }
    for (const f of live) expect(s.mirror.fixtures.has(f.id), `${s.name}: fixture ${f.id} in play at the provider`).toBe(true)
  }
}

/**
 * No gap: the subscriber got every fixture record of the log from its first change on, in order, none
 * missing or repeated (the odds records, which it did not ask for, left out).
 */
export async function expectContiguous (store: LiveStore, s: Subscriber): Promise<void> {
  const changes = s.mirror.changesSince(0).map((c) => `${c.epoch}:${c.offset}`)
  const [epoch, offset] = (changes[0] as string).split(':')
  const log = (await wholeLog(store, `${epoch}:${Number(offset) - 1}`)).map((r) => r.cursor)
  expect(changes, `${s.name}: no gap`).toEqual(log.slice(0, changes.length))
}
