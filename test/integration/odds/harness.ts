/**
 * The odds pipeline over real parts, stepped by the test: the embedded provider on a real port with a clock
 * the test moves, a gateway (memory or Redis) that serves the live protocol but polls nothing by itself, and
 * the livescore and odds pollers driven one step at a time on that clock, each through an upstream that
 * records the bucket (`rate_limit.requested_entity`) of every call it makes.
 */
import { applyOddsChanges } from '@touchline/client'
import { pino } from 'pino'
import type { Gateway } from '../../../src/gateway.ts'
import { marketsOf } from '../../../src/odds/normalize.ts'
import { createOddsPoller, type OddsPoller } from '../../../src/poller/odds.ts'
import { createPoller, type Poller } from '../../../src/poller/poller.ts'
import { standingGoals, suspensions, type MatchLine } from '../../../packages/provider/src/odds/line.ts'
import { realMsAt } from '../../../packages/provider/src/sim/clock.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import type { UpstreamClient } from '../../../src/upstream/index.ts'
import { parseOdds } from '../../../src/upstream/odds-schemas.ts'
import type { FixtureOdds, OddsChange, OddsMarket } from '../../../src/wire-model/model.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'

export const START = Date.now()

/** The provider, with a clock the test sets. */
export interface Upstream {
  provider: RunningProvider
  clock: { now: number }
  close: () => Promise<void>
}

export async function startUpstream (opts: { liveTarget?: number, token?: string, plan?: 'Enterprise' | 'Starter' } = {}): Promise<Upstream> {
  const clock = { now: START }
  const tokens = opts.token === undefined ? [] : [{ token: opts.token, plan: opts.plan ?? 'Enterprise', status: 'active' as const }]
  const provider = await startProvider({ port: 0, now: () => clock.now, liveTarget: opts.liveTarget ?? 6, hourlyLimits: { Enterprise: 1_000_000 }, tokens })
  return { provider, clock, close: async () => { await provider.close() } }
}

/** A gateway in front of `up` and the two pollers, stepped by the test. */
export interface Rig {
  gw: Gateway
  livescores: Poller
  odds: OddsPoller
  /** The bucket of every call each poller made, in order. */
  buckets: { livescores: string[], odds: string[] }
  /** Moves the provider's clock by `ms` at a time up to `to`, with a livescore step and an odds step at each. */
  runTo: (to: number, stepMs?: number) => Promise<void>
  close: () => Promise<void>
}

/** An upstream that records each answer's bucket. */
function recording (upstream: UpstreamClient, into: string[]): UpstreamClient {
  return {
    ...upstream,
    get: async (path, query, opts) => {
      const res = await upstream.get(path, query, opts)
      into.push(String(res.envelope.rate_limit?.requested_entity ?? 'none'))
      return res as never
    }
  }
}

export async function startRig (up: Upstream, opts: { redisUrl?: string, prefix?: string, token?: string, env?: Record<string, string> } = {}): Promise<Rig> {
  const gw = await startTestGateway({
    env: {
      TOUCHLINE_LOG_LEVEL: 'silent',
      TOUCHLINE_UPSTREAM_URL: up.provider.baseUrl,
      ...(opts.token !== undefined ? { TOUCHLINE_UPSTREAM_TOKEN: opts.token } : {}),
      ...(opts.redisUrl !== undefined ? { TOUCHLINE_REDIS_URL: opts.redisUrl, TOUCHLINE_REDIS_PREFIX: opts.prefix ?? 'tl-odds:' } : {}),
      ...opts.env
    },
    overrides: { poll: false }
  })
  const log = pino({ level: 'silent' })
  const buckets = { livescores: [] as string[], odds: [] as string[] }
  const now = (): number => up.clock.now
  const livescores = createPoller({ upstream: recording(gw.upstream, buckets.livescores), ledger: gw.ledger, store: gw.store, log, now }, { floorMs: 0 })
  const odds = createOddsPoller({ upstream: recording(gw.upstream, buckets.odds), ledger: gw.ledger, store: gw.store, log, now }, { floorMs: 0 })
  return {
    gw,
    livescores,
    odds,
    buckets,
    async runTo (to, stepMs = 500) {
      while (up.clock.now < to) {
        up.clock.now = Math.min(to, up.clock.now + stepMs)
        await livescores.step()
        await odds.step()
      }
    },
    async close () {
      await livescores.stop()
      await odds.stop()
      await gw.close()
    }
  }
}

/** A fixture's odds as the provider serves them now, as the gateway's image holds them. */
export async function providerMarkets (up: Upstream, fixtureId: number): Promise<OddsMarket[]> {
  const res = await fetch(`${up.provider.baseUrl}/football/odds/inplay/fixtures/${fixtureId}?include=market;bookmaker&api_token=demo-enterprise`)
  return marketsOf(parseOdds(await res.json()))
}

/** A match the provider will play, with its odds timeline: match second → the provider's clock. */
export interface Planned {
  id: number
  line: MatchLine
  at: (matchSecond: number) => number
}

/**
 * The first fixture kicking off within ten minutes of START whose first goal stands alone in its suspension
 * (no penalty or VAR review overlapping it), played to its end.
 */
export function plannedMatch (up: Upstream): Planned {
  const { world } = up.provider
  for (const f of world.all('fixture')) {
    const kickoff = world.kickoff(f) * 1000
    if (kickoff < START + 20_000 || kickoff > START + 600_000) continue
    const placed = world.live.oddsLine(world.get('fixture', f.id) as never)
    if (placed === undefined) continue
    const { line } = placed
    const goal = standingGoals(line)[0]
    const first = suspensions(line)[0]
    if (line.end === undefined || line.void || goal === undefined || first === undefined || first.from !== goal.at) continue
    if (line.alarms.filter((a) => a.from < first.to).length !== 1 || first.to >= line.end) continue
    return { id: f.id as number, line, at: (s) => realMsAt(placed.kickoff, placed.speed, s) }
  }
  throw new Error('no fixture fits: change the seed or the window')
}

/** A subscriber's odds as a client keeps them: the snapshot's images, each odds frame applied. */
export class OddsMirror {
  readonly images = new Map<number, FixtureOdds>()
  /** Odds frames received, in order. */
  readonly frames: Frame[] = []
  readonly gaps: string[] = []
  /** The cursor of the last snapshot or frame received, where a client resumes from. */
  cursor = ''

  take (frame: Frame): void {
    if (typeof frame.cursor === 'string' && (frame.type === 'snapshot' || frame.type === 'change' || frame.type === 'odds')) this.cursor = frame.cursor
    if (frame.type === 'snapshot') for (const image of frame.odds as FixtureOdds[] ?? []) this.images.set(image.fixture_id, image)
    if (frame.type !== 'odds') return
    this.frames.push(frame)
    const id = frame.fixture_id as number
    if (frame.odds !== undefined) {
      this.images.set(id, frame.odds as FixtureOdds)
      return
    }
    const held = this.images.get(id)
    const base = (frame.from_version as number | undefined) ?? (frame.version as number) - 1
    if (held?.version !== base) {
      this.gaps.push(`fixture ${id}: held ${String(held?.version)}, frame applies to ${base}`)
      return
    }
    this.images.set(id, applyOddsChanges(held, frame as never))
  }

  /** The odds changes of one fixture, frame by frame. */
  changesOf (fixtureId: number): OddsChange[][] {
    return this.frames.filter((f) => f.fixture_id === fixtureId).map((f) => f.changes as OddsChange[])
  }
}

/** A WebSocket subscriber to every league taking odds (and what `subscribe` adds), its odds kept in `mirror`. */
export async function subscriber (rig: Rig, subscribe: Frame, mirror = new OddsMirror()): Promise<{ ws: WsTestClient, mirror: OddsMirror }> {
  const ws = await WsTestClient.connect(`${rig.gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
  ws.ws.on('message', (data) => mirror.take(JSON.parse(data.toString()) as Frame))
  await ws.request({ op: 'subscribe', ref: 's', leagues: '*', odds: true, ...subscribe })
  return { ws, mirror }
}
