/**
 * The simulator: scripts fixtures lazily (memoized), and answers for any real time what a fixture shows,
 * when it last changed, and which fixtures make up the livescores, inplay and latest sets. No timers: time
 * is always passed in, so the same seed and clock give the same answers.
 *
 * Windows. `livescores` holds a fixture from 15 match minutes before its kick-off to 15 match minutes after
 * its final state, converted to real time with the speed like everything else (at speed 60: 15 s either
 * side; at speed 1: the real API's 15 minutes). `latest` uses the real API's fixed 10 real seconds.
 *
 * Changes. A fixture "changes" when anything in its view changes except the running clock (`minutes` and
 * `seconds` of a ticking period): that ticks every match second and would make every live fixture change
 * all the time. Whether a period ticks, its stoppage time, states, scores, events, statistics, result and
 * winners all count. `lastBaseChangedAt` counts only the base fields the real `latest` tracks
 * (docs/upstream.md, "Livescores"); of those the simulator changes state_id, result_info and length.
 */
import { LIVE_STATE_IDS, State } from '../../contract/states.ts'
import { clockAt, DEFAULT_SIM_SPEED, realDurationMs, realMsAt } from './clock.ts'
import { POSTPONED_AT } from './frame.ts'
import { materialize } from './materialize.ts'
import type { FixtureLive, MatchScript, SimFixtureInput } from './model.ts'
import { planSchedule } from './schedule.ts'
import { scriptMatch } from './script.ts'

/** 15 minutes, in match seconds: `/livescores` lists a fixture from this long before kick-off until this long after the end. */
export const LIVESCORES_WINDOW_SECONDS = 900
/** The real API's fixed `latest` window. */
export const LATEST_WINDOW_MS = 10_000
/** No generated match ends later than this after its scheduled kick-off (delay, stoppages, shoot-out included). */
export const MAX_SCRIPT_SECONDS = 6 * 3600

export interface SimulatorOptions {
  fixtures: readonly SimFixtureInput[]
  seed: number
  /** Match seconds per real second (TOUCHLINE_SIM_SPEED). @default 60 */
  speed?: number
  /** Real time the simulator starts, ms (the rolling schedule starts here). */
  startMs: number
  /**
   * When set, the fixtures whose own kick-off is at or after `startMs` (the upcoming ones, in kick-off order
   * per league) are re-timed by `planSchedule` so that about this many are always live. Earlier fixtures, and
   * upcoming ones beyond the plan's horizon, keep their own kick-off. @default unset: own kick-offs
   */
  liveTarget?: number
  /** Prebuilt scripts played alongside, e.g. recorded replays from `scriptFromRecording`. */
  replays?: ReadonlyArray<{ input: SimFixtureInput, script: MatchScript }>
  /** Generated scripts kept in memory; older ones are rebuilt on demand (they are deterministic). @default 2000 */
  cacheSize?: number
}

export interface Simulator {
  readonly speed: number
  readonly startMs: number
  /** The fixture with its effective kick-off (planned or its own). */
  fixture: (fixtureId: number) => SimFixtureInput | undefined
  script: (fixtureId: number) => MatchScript | undefined
  view: (fixtureId: number, nowMs: number) => FixtureLive | undefined
  /** Real ms of the latest visible change at or before `nowMs`; 0 if none yet or the id is unknown. */
  lastChangedAt: (fixtureId: number, nowMs: number) => number
  /** Same, counting only the tracked base fields (state_id, result_info, length). */
  lastBaseChangedAt: (fixtureId: number, nowMs: number) => number
  /** State id at `nowMs`, cheaper than `view` (no materializing; final states are remembered). */
  stateAt: (fixtureId: number, nowMs: number) => number
  livescores: (nowMs: number) => number[]
  inplay: (nowMs: number) => number[]
  /** Fixtures with any change in (nowMs - 10 s, nowMs]. */
  latest: (nowMs: number) => number[]
  /** Fixtures whose tracked base fields changed in (nowMs - 10 s, nowMs], as the real `latest` reports. */
  latestBase: (nowMs: number) => number[]
  /** Real ms at which the fixture reaches its final state. */
  endsAt: (fixtureId: number) => number | undefined
}

export interface ChangePoints {
  /** Match seconds at which the view changes (clock ticks aside), ascending. */
  all: number[]
  /** Match seconds at which a tracked base field changes, ascending. */
  base: number[]
}

const sortedUnique = (values: number[]): number[] => [...new Set(values.filter(Number.isFinite))].sort((a, b) => a - b)

export function changePoints (script: MatchScript): ChangePoints {
  const base = [...script.states.map((s) => s.at), ...script.lengths.map((l) => l.at), script.result.at]
  const all = [...base]
  for (const p of script.periods) {
    all.push(p.start, p.end, ...p.pauses.flatMap((pause) => [pause.from, pause.to]))
    if (p.timeAdded !== null) all.push(p.announceAt)
  }
  for (const h of script.happenings) all.push(h.at, h.cancelledAt ?? NaN)
  all.push(...script.stats.map((s) => s.at), ...script.scoreRows.map((r) => r.appearsAt))
  return { all: sortedUnique(all), base: sortedUnique(base) }
}

interface Compiled {
  script: MatchScript
  changes: ChangePoints
}

const compile = (script: MatchScript): Compiled => ({ script, changes: changePoints(script) })

/** Index of the first element of a sorted array for which `after` holds (binary search). */
function firstIndex<T> (items: readonly T[], after: (item: T) => boolean): number {
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (after(items[mid] as T)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** A simulator over `options.fixtures` (and any replays); pure apart from its script cache. */
export function createSimulator (options: SimulatorOptions): Simulator {
  const { seed, startMs } = options
  const speed = options.speed ?? DEFAULT_SIM_SPEED
  const cacheSize = options.cacheSize ?? 2000
  const upcoming = options.fixtures.filter((f) => f.kickoff * 1000 >= startMs).sort((a, b) => a.kickoff - b.kickoff || a.id - b.id)
  const planned = options.liveTarget === undefined
    ? undefined
    : planSchedule({ candidates: upcoming, startMs, speed, liveTarget: options.liveTarget, seed })
  const inputs = new Map<number, SimFixtureInput>()
  for (const f of options.fixtures) inputs.set(f.id, { ...f, kickoff: planned?.get(f.id) ?? f.kickoff })
  const pinned = new Map<number, Compiled>()
  for (const r of options.replays ?? []) {
    inputs.set(r.input.id, r.input)
    pinned.set(r.input.id, compile(r.script))
  }
  const cache = new Map<number, Compiled>()
  const byKickoff = [...inputs.values()].sort((a, b) => a.kickoff - b.kickoff || a.id - b.id)
  const longest = Math.max(MAX_SCRIPT_SECONDS, ...[...pinned.values()].map((c) => c.script.endAt))
  const beforeMs = realDurationMs(LIVESCORES_WINDOW_SECONDS, speed)
  const spanMs = realDurationMs(longest + LIVESCORES_WINDOW_SECONDS, speed) + LATEST_WINDOW_MS

  /** Memoized script; the least recently used generated ones are dropped past `cacheSize`. */
  function compiled (id: number): Compiled | undefined {
    const fixed = pinned.get(id)
    if (fixed !== undefined) return fixed
    const hit = cache.get(id)
    if (hit !== undefined) {
      cache.delete(id)
      cache.set(id, hit)
      return hit
    }
    const input = inputs.get(id)
    if (input === undefined) return undefined
    const fresh = compile(scriptMatch(input, seed))
    cache.set(id, fresh)
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as number)
    return fresh
  }

  /** Fixtures whose kick-off is near enough to `nowMs` for any window to hold them. */
  function near (nowMs: number): SimFixtureInput[] {
    const from = firstIndex(byKickoff, (f) => f.kickoff * 1000 >= nowMs - spanMs)
    const to = firstIndex(byKickoff, (f) => f.kickoff * 1000 > nowMs + beforeMs)
    return byKickoff.slice(from, to)
  }

  function lastChange (id: number, nowMs: number, which: keyof ChangePoints): number {
    const input = inputs.get(id)
    const points = compiled(id)?.changes[which]
    if (input === undefined || points === undefined) return 0
    const i = firstIndex(points, (at) => realMsAt(input.kickoff, speed, at) > nowMs) - 1
    const at = points[i]
    return at === undefined ? 0 : realMsAt(input.kickoff, speed, at)
  }

  /** Final states and the real time they are reached from: asking about any later time costs no script. */
  const finalStates = new Map<number, { state: number, fromMs: number }>()

  function stateAt (id: number, nowMs: number): number {
    const known = finalStates.get(id)
    if (known !== undefined && nowMs >= known.fromMs) return known.state
    const input = inputs.get(id)
    if (input === undefined) return State.NS
    const at = clockAt(input.kickoff, speed, nowMs).seconds
    // Nothing happens before a postponement is announced: no script needed for fixtures further out.
    if (at < POSTPONED_AT) return State.NS
    const c = compiled(id)
    if (c === undefined) return State.NS
    const state = c.script.states.findLast((s) => s.at <= at)?.state_id ?? State.NS
    if (at >= c.script.endAt) finalStates.set(id, { state, fromMs: realMsAt(input.kickoff, speed, c.script.endAt) })
    return state
  }

  const changedWithin = (which: keyof ChangePoints) => (nowMs: number): number[] =>
    near(nowMs).filter((f) => lastChange(f.id, nowMs, which) > nowMs - LATEST_WINDOW_MS).map((f) => f.id)

  return {
    speed,
    startMs,
    fixture: (id) => inputs.get(id),
    script: (id) => compiled(id)?.script,
    view (id, nowMs) {
      const c = compiled(id)
      const input = inputs.get(id)
      return c === undefined || input === undefined ? undefined : materialize(c.script, clockAt(input.kickoff, speed, nowMs))
    },
    lastChangedAt: (id, nowMs) => lastChange(id, nowMs, 'all'),
    lastBaseChangedAt: (id, nowMs) => lastChange(id, nowMs, 'base'),
    livescores: (nowMs) => near(nowMs).filter((f) => {
      const end = compiled(f.id)?.script.endAt ?? 0
      return nowMs >= realMsAt(f.kickoff, speed, -LIVESCORES_WINDOW_SECONDS) && nowMs <= realMsAt(f.kickoff, speed, end + LIVESCORES_WINDOW_SECONDS)
    }).map((f) => f.id),
    stateAt,
    inplay: (nowMs) => near(nowMs).filter((f) => LIVE_STATE_IDS.has(stateAt(f.id, nowMs))).map((f) => f.id),
    latest: changedWithin('all'),
    latestBase: changedWithin('base'),
    endsAt (id) {
      const input = inputs.get(id)
      const end = compiled(id)?.script.endAt
      return input === undefined || end === undefined ? undefined : realMsAt(input.kickoff, speed, end)
    }
  }
}
