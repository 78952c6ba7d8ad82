/**
 * The embedded provider: the upstream football API as docs/upstream.md describes it, over real HTTP, with a
 * generated dataset and a live match simulator (docs/provider.md). `startProvider` is what tests, benchmarks
 * and `touchline serve` use; `touchline provider` runs it alone (main.ts).
 *
 * A map, from the bottom up (a module imports only from its own line or the lines above it):
 * - rng.ts: the one seeded PRNG; records.ts: the generic record shape.
 * - dataset/: the generated reference data (generate.ts builds it); sim/: the match simulator (engine.ts) and
 *   the replay of recordings. Neither imports the other.
 * - plans.ts, errors.ts, auth.ts, access.ts, envelope.ts, paging.ts, faults.ts: the HTTP rules.
 * - odds/: the odds of a match (pricing, suspensions, settlement) from its script, its played-back views or
 *   the odds a recording carried; it reads sim/ and nothing above it.
 * - matchday.ts: a club's formation, starting eleven and bench, from its squad (the simulator plays them).
 * - derived-tables.ts, world.ts: the data at an instant, the facade every handler reads (World).
 * - live.ts wires the simulator to the dataset as the World's LiveSource; replays.ts adds recordings;
 *   schedule-control.ts lets tests list and force schedule changes.
 * - derived.ts, fixture-filters.ts, includes.ts, render.ts: records derived per fixture, filters, include
 *   resolvers and rendering, all reading the World.
 * - handler-kit.ts, surface-handlers.ts, odds-handlers.ts, handlers.ts: one handler per endpoint; app.ts: the
 *   route; index.ts.
 */
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { buildProviderApp } from './app.ts'
import { startOfTodayUtc } from './dataset/dates.ts'
import { generateDataset } from './dataset/generate.ts'
import { createFaults, type FaultOptions, type Faults } from './faults.ts'
import { createLiveSource } from './simulation.ts'
import { planReplays, withPlayback, withReplays, type ReplayFile } from './replays.ts'
import { DEFAULT_TOKENS, type PlanName, type TokenRecord } from './plans.ts'
import { DEFAULT_SIM_SPEED } from './sim/clock.ts'
import type { ChangeRates } from './sim/reschedule.ts'
import { DEFAULT_LIVE_TARGET } from './sim/schedule.ts'
import { scheduleControl, type ScheduleControl } from './schedule-control.ts'
import { World } from './world.ts'

export interface ProviderOptions {
  /** Listen port; 0 picks a free one. @default 8081 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** Dataset and simulator seed. @default 1 */
  seed?: number
  /** Match seconds per real second. @default 60 */
  simSpeed?: number
  /** About this many fixtures are in play at any time. @default 6 */
  liveTarget?: number
  /** Clock in epoch milliseconds, injectable so tests can move time (rate-limit windows, matches). @default Date.now */
  now?: () => number
  /** Override the hourly per-entity limit of some plans (plans.ts), e.g. for rate-limit tests. */
  hourlyLimits?: Partial<Record<PlanName, number>>
  /** Requests an Enterprise token may make above its hourly limit before 429 (its burst buffer). @default 500 */
  burstBuffer?: number
  /** Fault injection, off by default; can be changed later through `faults.set`. */
  faults?: FaultOptions
  /** Recorded responses to play as live matches (`--replay`): fixtures, livescores lists, recordings (replays.ts). */
  replay?: readonly ReplayFile[]
  /** What `livescores/latest` reports: any change, or only the base fields the real API tracks. @default 'all' */
  latestTracks?: 'all' | 'base'
  /**
   * Kick-offs moved and matches postponed before the day, drawn from the seed (docs/provider.md, "Schedule
   * changes"): the shares of the upcoming fixtures, or false for none. @default { move: 0.03, postpone: 0.01 }
   */
  scheduleChanges?: ChangeRates | false
  /** Extra tokens, on top of the demo tokens. */
  tokens?: readonly TokenRecord[]
  logger?: Logger
}

export interface RunningProvider {
  /** Base URL including `/v3`, e.g. `http://127.0.0.1:8081/v3`. */
  baseUrl: string
  port: number
  app: FastifyInstance
  world: World
  faults: Faults
  /** The schedule changes (moves, postponements) drawn from the seed, and forcing more (schedule-control.ts). */
  schedule: ScheduleControl
  /** When the simulator last changed a fixture (epoch ms), for measuring detection latency. */
  changedAt: (fixtureId: number, nowMs: number) => number
  close: () => Promise<void>
}

/** Builds the provider without listening (for `inject` and for embedding). */
export function createProvider (opts: ProviderOptions = {}, publicOrigin?: () => string | undefined): Omit<RunningProvider, 'baseUrl' | 'port' | 'close'> {
  const now = opts.now ?? Date.now
  const seed = opts.seed ?? 1
  const startMs = now()
  const speed = opts.simSpeed ?? DEFAULT_SIM_SPEED
  const plan = planReplays(opts.replay ?? [], startMs, speed)
  const dataset = withReplays(generateDataset({ seed, anchor: startOfTodayUtc(startMs) }), plan)
  const sim = createLiveSource(dataset, {
    seed,
    speed,
    startMs,
    liveTarget: opts.liveTarget ?? DEFAULT_LIVE_TARGET,
    replays: plan.scripted,
    ...(opts.latestTracks !== undefined ? { latestTracks: opts.latestTracks } : {}),
    ...(opts.scheduleChanges !== undefined ? { scheduleChanges: opts.scheduleChanges } : {})
  })
  const live = withPlayback(sim, plan, opts.latestTracks ?? 'all')
  const world = new World(dataset, live, now)
  const faults = createFaults(opts.faults, now)
  const app = buildProviderApp({
    world,
    tokens: [...DEFAULT_TOKENS, ...(opts.tokens ?? [])],
    now,
    burstBuffer: opts.burstBuffer ?? 500,
    faults,
    // Derived from the seed, so that a cursor outlives a restart of the same provider.
    cursorSecret: `touchline-provider-cursor/${seed}`,
    ...(publicOrigin !== undefined ? { publicOrigin } : {}),
    ...(opts.hourlyLimits !== undefined ? { hourlyLimits: opts.hourlyLimits } : {}),
    ...(opts.logger !== undefined ? { logger: opts.logger } : {})
  })
  return { app, world, faults, schedule: scheduleControl(sim.sim, () => { world.invalidate() }), changedAt: live.changedAt }
}

export async function startProvider (opts: ProviderOptions = {}): Promise<RunningProvider> {
  // Known once listening; next_page links read it then.
  const listening: { origin?: string } = {}
  const { app, world, faults, schedule, changedAt } = createProvider(opts, () => listening.origin)
  const host = opts.host ?? '127.0.0.1'
  await app.listen({ port: opts.port ?? 8081, host })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : (opts.port ?? 8081)
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  listening.origin = `http://${shownHost}:${port}`
  return { baseUrl: `http://${shownHost}:${port}/v3`, port, app, world, faults, schedule, changedAt, close: async () => { await app.close() } }
}

export { DEMO_TOKENS } from './plans.ts'
export type { ScheduleControl, ScheduledChange } from './schedule-control.ts'
export type { FaultOptions } from './faults.ts'
export { readReplayFiles, type ReplayFile } from './replays.ts'
