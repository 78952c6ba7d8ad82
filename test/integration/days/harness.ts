/**
 * The days' tests over real parts: the embedded provider on a real port, a gateway in front of it on the
 * memory store or on the shared Redis (a fresh prefix each), real sockets. Two ways to run the poller:
 *
 * - `startLiveGateway`: the gateway as `touchline serve` runs it, its own poller loop on the wall clock, the
 *   provider at its default 60x. What a subscriber of a day sees in real time.
 * - `startSteppedGateway`: a gateway that polls nothing by itself and a poller the test steps on a clock it
 *   moves, shared with the provider (as test/integration/odds/harness.ts does), so a match is played to its
 *   end, or a day read and left alone, in as few real seconds as the calls take.
 *
 * And what the upstream itself says of a day: every page of `fixtures/date/{date}`.
 */
import { pino } from 'pino'
import type { Gateway, GatewayOverrides } from '../../../src/gateway.ts'
import { createPoller, type Poller } from '../../../src/poller/poller.ts'
import { DEMO_TOKENS, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { LIVESCORES_WINDOW_SECONDS } from '../../../packages/provider/src/sim/engine.ts'
import { openTestRedis, type TestRedis } from '../../helpers/redis.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

export type Engine = 'memory' | 'redis'
export const ENGINES: Engine[] = ['memory', 'redis']

/** The simulator's default speed: match seconds per real second. */
export const SPEED = 60
/** When a fixture enters the provider's livescores feed: 15 match minutes before kick-off. */
export const FEED_LEAD_MS = LIVESCORES_WINDOW_SECONDS * 1000 / SPEED
const DAY_MS = 86_400_000

/** `YYYY-MM-DD` (UTC) of an instant. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
/** Midnight (UTC) after the day of `ms`. */
export const dayEnd = (ms: number): number => Date.parse(`${dayOf(ms)}T00:00:00Z`) + DAY_MS

interface Running {
  gw: Gateway
  provider: RunningProvider
  /** The gateway's WebSocket endpoint with the demo key. */
  wsUrl: string
  close: () => Promise<void>
}

async function gateway (engine: Engine, overrides: GatewayOverrides): Promise<Running> {
  const redis: TestRedis | undefined = engine === 'redis' ? openTestRedis() : undefined
  const gw = await startTestGateway({
    env: { TOUCHLINE_LOG_LEVEL: 'silent', ...(redis !== undefined ? { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix } : {}) },
    overrides
  }).catch(async (err: unknown) => { await redis?.close(); throw err })
  const provider = gw.provider
  if (provider === undefined) throw new Error('the gateway did not start its embedded provider')
  return {
    gw,
    provider,
    wsUrl: `${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`,
    close: async () => { await gw.close(); await redis?.close() }
  }
}

/** The gateway with its own poller loop, on the wall clock, in front of the provider at 60x. */
export async function startLiveGateway (engine: Engine): Promise<Running> {
  return await gateway(engine, { provider: { simSpeed: SPEED } })
}

export interface SteppedRig extends Running {
  /** The provider's and the poller's clock (epoch ms); the test moves it. */
  clock: { now: number }
  poller: Poller
  /** Moves the clock by `ms` and steps the poller once (a poll, or a reconcile, and the read of the days when due). */
  step: (ms?: number) => Promise<void>
  /** Steps every `stepMs` until `done` holds (checked after each step) or the clock passes `until`. */
  stepUntil: (done: () => boolean | Promise<boolean>, until: number, stepMs?: number) => Promise<boolean>
}

/**
 * A gateway that does not poll, and a poller over its store and ledger stepped by the test on `clock`, which
 * the provider and the budget ledger read too. The provider's buckets are large: the test's steps are not
 * paced by the budget.
 */
export async function startSteppedGateway (engine: Engine, opts: { latestTracks?: 'all' | 'base' } = {}): Promise<SteppedRig> {
  const clock = { now: Date.now() }
  const now = (): number => clock.now
  const running = await gateway(engine, {
    poll: false,
    budgetNow: now,
    provider: { now, simSpeed: SPEED, hourlyLimits: { Enterprise: 1_000_000 }, ...(opts.latestTracks !== undefined ? { latestTracks: opts.latestTracks } : {}) }
  })
  const { gw, provider } = running
  const poller = createPoller({ upstream: gw.upstream, ledger: gw.ledger, store: gw.store, log: pino({ level: 'silent' }), now, changedAt: provider.changedAt }, {
    floorMs: 1000,
    feedLeadMs: FEED_LEAD_MS,
    clockRate: SPEED
  })
  const step = async (ms = 1000): Promise<void> => {
    clock.now += ms
    await poller.step()
  }
  return {
    ...running,
    clock,
    poller,
    step,
    async stepUntil (done, until, stepMs = 1000) {
      while (clock.now < until) {
        await step(stepMs)
        if (await done()) return true
      }
      return false
    },
    close: async () => { await poller.stop(); await running.close() }
  }
}

/** A fixture as `fixtures/date` lists it (the fields the tests read). */
export interface UpstreamRow {
  id: number
  league_id: number
  state_id: number
  starting_at_timestamp: number
}

/** Every fixture of `date` (UTC) as the provider itself lists it: `fixtures/date/{date}`, page by page, 50 a page. */
export async function upstreamDay (provider: RunningProvider, date: string): Promise<UpstreamRow[]> {
  const rows: UpstreamRow[] = []
  for (let page = 1; ; page++) {
    const res = await fetch(`${provider.baseUrl}/football/fixtures/date/${date}?api_token=${DEMO_TOKENS.enterprise}&per_page=50&page=${page}`)
    if (res.status !== 200) throw new Error(`fixtures/date/${date} page ${page}: HTTP ${res.status}`)
    const body = await res.json() as { data?: UpstreamRow[], pagination?: { has_more?: boolean } }
    rows.push(...body.data ?? [])
    if (body.pagination?.has_more !== true) return rows
  }
}

/**
 * Fixtures of today or tomorrow (UTC) that have not started at `now`, kick off between `from` and `to` (ms)
 * and at least `dayLeft` ms before their day ends, and that the seed does not reschedule: the ones a test
 * may move, postpone or watch kick off. Soonest first.
 */
export async function upcoming (provider: RunningProvider, now: number, window: { from: number, to: number, dayLeft?: number }): Promise<UpstreamRow[]> {
  const rows = [...await upstreamDay(provider, dayOf(now)), ...await upstreamDay(provider, dayOf(now + DAY_MS))]
  return rows
    .filter((f) => {
      const kickoff = f.starting_at_timestamp * 1000
      return f.state_id === 1 && kickoff >= window.from && kickoff <= window.to && kickoff + (window.dayLeft ?? 0) < dayEnd(kickoff) &&
        provider.schedule.changesOf(f.id).length === 0
    })
    .sort((a, b) => a.starting_at_timestamp - b.starting_at_timestamp || a.id - b.id)
}
