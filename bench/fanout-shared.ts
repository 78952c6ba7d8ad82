/**
 * What the fan-out benchmark's three processes share: the IPC messages, the payload, the clock.
 */
import { execFileSync } from 'node:child_process'
import type { LiveFixture } from '../src/wire-model/model.ts'

export type Mode = 'touchline' | 'baseline' | 'floor' | 'stack'

export interface BenchOptions {
  mode: Mode
  subscribers: number
  /** Changes pushed as fast as the server can in the throughput phase. */
  burst: number
  /** Changes per second in the latency phase, and its length in seconds. */
  rate: number
  seconds: number
  /** Server on CPU 0, subscribers on CPU 1 (`taskset`), so neither migrates onto the other's core. */
  pin: boolean
}

/** Orchestrator <- server: one mode's measurements. */
export interface ModeResult {
  mode: Mode
  subscribers: number
  connected: number
  idleRssPerConn: number
  idleHeapPerConn: number
  burst: {
    changes: number
    deliveries: number
    seconds: number
    /** End to end: deliveries over the time from the first publish to the last frame received. */
    perSecond: number
    /** Deliveries over the wall time spent inside publish (the fan-out loop, syscalls included). */
    serverFanoutPerSecond: number
    /** Server CPU (user + system) over the phase; unlike wall time, not inflated when the OS runs the clients. */
    serverCpuSeconds: number
  }
  latency: { changes: number, deliveries: number, p50: number, p99: number, max: number, serverCpuSeconds: number }
  slowConsumerCloses: number
}

/** Server -> clients. */
export type ToClients =
  | { cmd: 'connect', url: string, count: number, subscribe: boolean }
  /** Reply `reached` once `total` change frames arrived since the last `expect`, or after `timeoutMs`. */
  | { cmd: 'expect', total: number, timeoutMs: number }

/** Clients -> server. */
export type FromClients =
  | { type: 'ready', connected: number, failed: number }
  | { type: 'armed' }
  | { type: 'reached', received: number, seconds: number, p50: number, p99: number, max: number, closes: number }

/** Moves a process and every thread it has (and will start) onto one CPU. */
export function pinTo (pid: number, cpu: number): void {
  execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' })
}

/** Wall-clock milliseconds with sub-ms precision, comparable across processes on one machine. */
export function now (): number {
  return performance.timeOrigin + performance.now()
}

/**
 * A realistic live fixture (about 1.5 KB of JSON with a handful of events). The publish time travels in
 * the record's `at`, which the clients read without parsing the whole frame.
 */
export function benchFixture (id: number, version: number): LiveFixture {
  const team = (teamId: number, name: string, score: number) => ({ id: teamId, name, short_code: name.slice(0, 3).toUpperCase(), image_path: `https://cdn.example/teams/${teamId}.png`, score })
  const events = Array.from({ length: 6 }, (_, i) => ({
    id: id * 100 + i,
    type_id: 14,
    type: 'GOAL',
    minute: 10 + i * 7,
    extra_minute: null,
    side: i % 2 === 0 ? 'home' as const : 'away' as const,
    team_id: i % 2 === 0 ? 1 : 2,
    player: { id: 1000 + i, name: `Player ${i}` },
    related_player: null,
    result: `${Math.ceil((i + 1) / 2)}-${Math.floor((i + 1) / 2)}`,
    info: null,
    addition: null,
    sort_order: i
  }))
  return {
    id,
    league_id: 271,
    season_id: 23584,
    stage_id: 77471288,
    round_id: 341226,
    name: 'FC Copenhagen vs Brondby IF',
    starting_at: '2026-11-21T19:00:00Z',
    state: { id: 2, code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' },
    minute: 50 + (version % 40),
    period: '2nd-half',
    home: team(1, 'FC Copenhagen', 3),
    away: team(2, 'Brondby IF', 3),
    scores: { current: { home: 3, away: 3 }, '1st_half': { home: 2, away: 1 } },
    events,
    statistics: {},
    lineups: null,
    result_info: null,
    length: 90,
    updated_at: new Date().toISOString(),
    version
  }
}

export function parseArgs (argv: string[]): Omit<BenchOptions, 'mode'> & { modes: Mode[], rounds: number } {
  const get = (name: string, dflt: number): number => {
    const i = argv.indexOf(`--${name}`)
    const value = i >= 0 ? Number(argv[i + 1]) : dflt
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`)
    return value
  }
  const only = argv.indexOf('--mode')
  const modes = (only >= 0 ? (argv[only + 1] ?? '').split(',') : ['touchline', 'baseline', 'floor']) as Mode[]
  const known: Mode[] = ['touchline', 'baseline', 'floor', 'stack']
  for (const mode of modes) if (!known.includes(mode)) throw new Error(`--mode takes a comma-separated list of ${known.join(', ')}; got "${mode}"`)
  return { modes, pin: argv.includes('--pin'), rounds: get('rounds', 1), subscribers: get('subscribers', 10_000), burst: get('burst', 200), rate: get('rate', 10), seconds: get('seconds', 5) }
}
