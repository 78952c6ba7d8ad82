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
 *
 * Schedule changes (reschedule.ts, timetable.ts). A moved fixture shows its old kick-off until the move is
 * announced and the new one from then on, and is played at the new one; a postponed fixture shows POSTPONED
 * from the announcement on and is never played. An announcement is a base-field change (kick-off or state):
 * `latestFixtures` (the real `fixtures/latest`) lists it for 10 s, whatever the date of the fixture; the
 * livescores sets only see it if the fixture is near its kick-off then.
 */
import { LIVE_STATE_IDS, State } from '@touchline/upstream-contract/states'
import { clockAt, DEFAULT_SIM_SPEED, realDurationMs, realMsAt } from './clock.ts'
import { POSTPONED_AT } from './frame.ts'
import { currentScore, materialize } from './materialize.ts'
import type { FixtureLive, MatchScript, SimFixtureInput } from './model.ts'
import type { ScheduleChange } from './reschedule.ts'
import { planSchedule } from './schedule.ts'
import { matchOutcome, postponedScript, scriptMatch, type MatchOutcome } from './script.ts'
import { Timetable } from './timetable.ts'

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
  /** Schedule changes to apply (moves, postponements: reschedule.ts); more can be forced with `reschedule`. */
  changes?: readonly ScheduleChange[]
  /** Generated scripts kept in memory; older ones are rebuilt on demand (they are deterministic). @default 2000 */
  cacheSize?: number
}

/** A change a caller forces: a move to kick-off `to` (unix s), or a postponement, announced at `atMs`. */
export interface RescheduleRequest {
  fixtureId: number
  kind: 'move' | 'postpone'
  atMs: number
  to?: number
}

/** State and CURRENT score (shoot-out aside) of a fixture at an instant. */
export interface ScoreAt {
  state_id: number
  home: number
  away: number
}

export interface Simulator {
  readonly speed: number
  readonly startMs: number
  /** The fixture as given (its own or planned kick-off, before schedule changes). */
  fixture: (fixtureId: number) => SimFixtureInput | undefined
  /** Kick-off (unix s) shown at `nowMs`, after the schedule changes announced by then. */
  kickoffAt: (fixtureId: number, nowMs: number) => number | undefined
  script: (fixtureId: number) => MatchScript | undefined
  /** The script in effect at `nowMs`: the match's, or from a postponement on, the postponed one. */
  scriptAt: (fixtureId: number, nowMs: number) => MatchScript | undefined
  view: (fixtureId: number, nowMs: number) => FixtureLive | undefined
  /** Real ms of the latest visible change at or before `nowMs`; 0 if none yet or the id is unknown. */
  lastChangedAt: (fixtureId: number, nowMs: number) => number
  /** Same, counting only the tracked base fields (state_id, result_info, length, and the announced kick-off). */
  lastBaseChangedAt: (fixtureId: number, nowMs: number) => number
  /** State id at `nowMs`, cheaper than `view` (no materializing; final states are remembered). */
  stateAt: (fixtureId: number, nowMs: number) => number
  /** State and CURRENT score at `nowMs`: cheap for matches not yet started or over (no script needed). */
  scoreAt: (fixtureId: number, nowMs: number) => ScoreAt | undefined
  livescores: (nowMs: number) => number[]
  inplay: (nowMs: number) => number[]
  /** Fixtures with any change in (nowMs - 10 s, nowMs]. */
  latest: (nowMs: number) => number[]
  /** Fixtures whose tracked base fields changed in (nowMs - 10 s, nowMs], as the real `livescores/latest` reports. */
  latestBase: (nowMs: number) => number[]
  /** Every fixture, of any date, whose base fields changed in (nowMs - 10 s, nowMs]: the real `fixtures/latest`. */
  latestFixtures: (nowMs: number) => number[]
  /** Real ms at which the fixture reaches its final state (after every schedule change). */
  endsAt: (fixtureId: number) => number | undefined
  /** The schedule changes of one fixture, or all of them, in announcement order. */
  changes: (fixtureId?: number) => ScheduleChange[]
  /**
   * Forces a schedule change from `atMs` on (dropping the fixture's changes announced at or after it). Throws
   * a RangeError for a fixture that is not simulated or is a replay, that has kicked off or is postponed at
   * `atMs`, or for a move whose new kick-off is not after `atMs`.
   */
  reschedule: (request: RescheduleRequest) => ScheduleChange
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

interface Near {
  id: number
  /** Kick-off (unix s) at the instant asked about. */
  kickoff: number
}

/** A simulator over `options.fixtures` (and any replays); pure apart from its caches and forced changes. */
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
  const timetable = new Timetable((options.changes ?? []).filter((c) => inputs.has(c.fixtureId) && !pinned.has(c.fixtureId)))
  const { compiled, scriptAt, forget } = scriptStore({ inputs, pinned, seed, speed, cacheSize, timetable })
  const byKickoff = [...inputs.values()].sort((a, b) => a.kickoff - b.kickoff || a.id - b.id)
  const longest = Math.max(MAX_SCRIPT_SECONDS, ...[...pinned.values()].map((c) => c.script.endAt))
  const beforeMs = realDurationMs(LIVESCORES_WINDOW_SECONDS, speed)
  const spanMs = realDurationMs(longest + LIVESCORES_WINDOW_SECONDS, speed) + LATEST_WINDOW_MS

  const kickoffAt = (id: number, nowMs: number): number | undefined => {
    const input = inputs.get(id)
    return input === undefined ? undefined : timetable.kickoffAt(id, input.kickoff, nowMs)
  }

  /** Fixtures whose kick-off at `nowMs` is near enough to it for any window to hold them. */
  function near (nowMs: number): Near[] {
    const from = firstIndex(byKickoff, (f) => f.kickoff * 1000 >= nowMs - spanMs)
    const to = firstIndex(byKickoff, (f) => f.kickoff * 1000 > nowMs + beforeMs)
    const out: Near[] = byKickoff.slice(from, to).filter((f) => !timetable.has(f.id)).map((f) => ({ id: f.id, kickoff: f.kickoff }))
    const kept = out.length
    // Rescheduled fixtures are few: each is placed by the kick-off it shows at `nowMs`.
    for (const id of timetable.ids()) {
      const kickoff = kickoffAt(id, nowMs) ?? NaN
      if (kickoff * 1000 >= nowMs - spanMs && kickoff * 1000 <= nowMs + beforeMs) out.push({ id, kickoff })
    }
    return out.length === kept ? out : out.sort((a, b) => a.kickoff - b.kickoff || a.id - b.id)
  }

  function lastChange (id: number, nowMs: number, which: keyof ChangePoints): number {
    const announced = timetable.lastAnnouncedAt(id, nowMs)
    // A postponement in effect is the last change: the postponed script has nothing after it.
    if (timetable.postponedBy(id, nowMs) !== undefined) return announced
    const kickoff = kickoffAt(id, nowMs)
    const points = compiled(id)?.changes[which]
    if (kickoff === undefined || points === undefined) return announced
    const i = firstIndex(points, (at) => realMsAt(kickoff, speed, at) > nowMs) - 1
    const at = points[i]
    return Math.max(announced, at === undefined ? 0 : realMsAt(kickoff, speed, at))
  }

  /** Final states and the real time they are reached from: asking about any later time costs no script. */
  const finalStates = new Map<number, { state: number, fromMs: number }>()

  function stateAt (id: number, nowMs: number): number {
    if (timetable.postponedBy(id, nowMs) !== undefined) return State.POSTPONED
    const known = finalStates.get(id)
    if (known !== undefined && nowMs >= known.fromMs) return known.state
    const kickoff = kickoffAt(id, nowMs)
    if (kickoff === undefined) return State.NS
    const at = clockAt(kickoff, speed, nowMs).seconds
    // Nothing happens before a postponement is announced: no script needed for fixtures further out.
    if (at < POSTPONED_AT) return State.NS
    const c = compiled(id)
    if (c === undefined) return State.NS
    const state = c.script.states.findLast((s) => s.at <= at)?.state_id ?? State.NS
    if (at >= c.script.endAt) finalStates.set(id, { state, fromMs: realMsAt(kickoff, speed, c.script.endAt) })
    return state
  }

  const view = (id: number, nowMs: number): FixtureLive | undefined => {
    const c = scriptAt(id, nowMs)
    const kickoff = kickoffAt(id, nowMs)
    return c === undefined || kickoff === undefined ? undefined : materialize(c.script, clockAt(kickoff, speed, nowMs))
  }

  const changedWithin = (which: keyof ChangePoints) => (nowMs: number): number[] =>
    near(nowMs).filter((f) => lastChange(f.id, nowMs, which) > nowMs - LATEST_WINDOW_MS).map((f) => f.id)
  const latestBase = changedWithin('base')
  const scoreAt = scoreReader({ inputs, pinned, seed, speed, kickoffAt, view, postponed: (id, nowMs) => timetable.postponedBy(id, nowMs) !== undefined })

  return {
    speed,
    startMs,
    fixture: (id) => inputs.get(id),
    kickoffAt,
    script: (id) => compiled(id)?.script,
    scriptAt: (id, nowMs) => scriptAt(id, nowMs)?.script,
    view,
    lastChangedAt: (id, nowMs) => lastChange(id, nowMs, 'all'),
    lastBaseChangedAt: (id, nowMs) => lastChange(id, nowMs, 'base'),
    livescores: (nowMs) => near(nowMs).filter((f) => {
      const end = scriptAt(f.id, nowMs)?.script.endAt ?? 0
      return nowMs >= realMsAt(f.kickoff, speed, -LIVESCORES_WINDOW_SECONDS) && nowMs <= realMsAt(f.kickoff, speed, end + LIVESCORES_WINDOW_SECONDS)
    }).map((f) => f.id),
    stateAt,
    scoreAt,
    inplay: (nowMs) => near(nowMs).filter((f) => LIVE_STATE_IDS.has(stateAt(f.id, nowMs))).map((f) => f.id),
    latest: changedWithin('all'),
    latestBase,
    latestFixtures: (nowMs) => [...new Set([...latestBase(nowMs), ...timetable.announcedWithin(nowMs - LATEST_WINDOW_MS, nowMs)])].sort((a, b) => a - b),
    endsAt (id) {
      const kickoff = kickoffAt(id, Infinity)
      const end = scriptAt(id, Infinity)?.script.endAt
      return kickoff === undefined || end === undefined ? undefined : realMsAt(kickoff, speed, end)
    },
    changes: (id) => timetable.list(id),
    reschedule (request) {
      const change = checkedChange(request, { known: inputs.has(request.fixtureId) && !pinned.has(request.fixtureId), kickoffAt, stateAt })
      timetable.force(change)
      finalStates.delete(change.fixtureId)
      forget(change.fixtureId)
      return change
    }
  }
}

interface StoreOptions {
  inputs: ReadonlyMap<number, SimFixtureInput>
  pinned: ReadonlyMap<number, Compiled>
  seed: number
  speed: number
  cacheSize: number
  timetable: Timetable
}

/**
 * The scripts: generated ones memoized (the least recently used dropped past `cacheSize`), replays pinned,
 * and from a postponement on a postponed script (NS, then POSTPONED at the announcement), kept until a change
 * of the fixture is forced (`forget`).
 */
function scriptStore (o: StoreOptions): { compiled: (id: number) => Compiled | undefined, scriptAt: (id: number, nowMs: number) => Compiled | undefined, forget: (id: number) => void } {
  const cache = new Map<number, Compiled>()
  const postponed = new Map<number, Compiled>()
  function compiled (id: number): Compiled | undefined {
    const fixed = o.pinned.get(id)
    if (fixed !== undefined) return fixed
    const hit = cache.get(id)
    if (hit !== undefined) {
      cache.delete(id)
      cache.set(id, hit)
      return hit
    }
    const input = o.inputs.get(id)
    if (input === undefined) return undefined
    const fresh = compile(scriptMatch(input, o.seed))
    cache.set(id, fresh)
    if (cache.size > o.cacheSize) cache.delete(cache.keys().next().value as number)
    return fresh
  }
  function scriptAt (id: number, nowMs: number): Compiled | undefined {
    const stop = o.timetable.postponedBy(id, nowMs)
    const input = o.inputs.get(id)
    if (stop === undefined || input === undefined) return compiled(id)
    let fixed = postponed.get(id)
    if (fixed === undefined) {
      const kickoff = o.timetable.kickoffAt(id, input.kickoff, stop.atMs)
      fixed = compile(postponedScript(input, Math.floor((stop.atMs - kickoff * 1000) * o.speed / 1000)))
      postponed.set(id, fixed)
    }
    return fixed
  }
  return { compiled, scriptAt, forget: (id) => { postponed.delete(id) } }
}

/** A forced change, checked (see `Simulator.reschedule`). */
function checkedChange (request: RescheduleRequest, fixture: { known: boolean, kickoffAt: (id: number, nowMs: number) => number | undefined, stateAt: (id: number, nowMs: number) => number }): ScheduleChange {
  const { fixtureId, kind, atMs } = request
  const from = fixture.kickoffAt(fixtureId, atMs)
  if (!fixture.known || from === undefined) throw new RangeError(`fixture ${fixtureId} is not a simulated fixture that can be rescheduled`)
  if (!Number.isFinite(atMs) || atMs >= from * 1000) throw new RangeError(`fixture ${fixtureId} kicks off at ${from * 1000}, not after the announcement at ${atMs}`)
  if (fixture.stateAt(fixtureId, atMs) === State.POSTPONED) throw new RangeError(`fixture ${fixtureId} is postponed at ${atMs}`)
  if (kind === 'postpone') return { fixtureId, kind, atMs, from, to: from, source: 'forced' }
  const to = request.to
  if (to === undefined || !Number.isInteger(to) || to * 1000 <= atMs) throw new RangeError(`the new kick-off of fixture ${fixtureId} must be a whole second after the announcement at ${atMs}`)
  return { fixtureId, kind, atMs, from, to, source: 'forced' }
}

interface ScoreSources {
  inputs: ReadonlyMap<number, SimFixtureInput>
  pinned: ReadonlyMap<number, Compiled>
  seed: number
  speed: number
  kickoffAt: (id: number, nowMs: number) => number | undefined
  view: (id: number, nowMs: number) => FixtureLive | undefined
  postponed: (id: number, nowMs: number) => boolean
}

/**
 * `scoreAt`: a match not yet near its kick-off is 0-0 NS, one that is over shows its outcome (memoized, from
 * `matchOutcome`, which needs no script for a league match), one in between its live view. So a table over a
 * whole season scripts only the matches in play.
 */
function scoreReader (src: ScoreSources): (id: number, nowMs: number) => ScoreAt | undefined {
  const outcomes = new Map<number, MatchOutcome>()
  const outcome = (input: SimFixtureInput): MatchOutcome => {
    let known = outcomes.get(input.id)
    if (known === undefined) outcomes.set(input.id, known = matchOutcome(input, src.seed))
    return known
  }
  return (id, nowMs) => {
    const input = src.inputs.get(id)
    const kickoff = src.kickoffAt(id, nowMs)
    if (input === undefined || kickoff === undefined) return undefined
    if (src.postponed(id, nowMs)) return { state_id: State.POSTPONED, home: 0, away: 0 }
    const at = clockAt(kickoff, src.speed, nowMs).seconds
    if (at < POSTPONED_AT) return { state_id: State.NS, home: 0, away: 0 }
    if (!src.pinned.has(id)) {
      const o = outcome(input)
      if (at >= o.endAt) return { state_id: o.state_id, home: o.home, away: o.away }
    }
    const view = src.view(id, nowMs)
    return view === undefined ? undefined : { state_id: view.state_id, ...currentScore(view) }
  }
}
