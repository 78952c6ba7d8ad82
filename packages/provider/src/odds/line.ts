/**
 * A match as the odds see it: when regular time starts and ends, the goals (and when VAR took one back),
 * the red cards, the moments that suspend the markets, and the clock of each half. Times are match seconds
 * from the scheduled kick-off, as in a MatchScript (sim/model.ts). Built from a script here; from a played-back
 * recording in playback-line.ts. Extra time and the shoot-out play no part: every market is a regular-time one.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { State } from '@touchline/upstream-contract/states'
import { EventType } from '@touchline/upstream-contract/types'
import type { MatchScript, PeriodPlan } from '../sim/model.ts'
import { playedAt } from '../sim/timeline.ts'

export interface LineGoal {
  at: number
  /** The side the goal counts for (an own goal counts for the other team). */
  side: HomeAway
  /** When VAR disallowed it, if it did. */
  cancelledAt?: number
}

/** The clock from `at` on: seconds played in the half, running or not. At half-time the clock reads half 2, 0 s, stopped. */
export interface ClockPoint {
  at: number
  half: 1 | 2
  inHalf: number
  ticking: boolean
}

export interface Span {
  from: number
  to: number
}

export interface MatchLine {
  fixtureId: number
  home: { id: number, name: string }
  away: { id: number, name: string }
  /** Kick-off: the first half starts. Undefined for a match never played (postponed). */
  start?: number
  /** Regular time is over (or the match was called off): every market still open is settled then. */
  end?: number
  /** The match was called off (abandoned, postponed...): markets still open at `end` are void (none wins). */
  void: boolean
  goals: readonly LineGoal[]
  reds: ReadonlyArray<{ at: number, side: HomeAway }>
  /** Spans in which every market is suspended (not merged; suspensions() merges them). */
  alarms: readonly Span[]
  clock: readonly ClockPoint[]
}

/** How long the markets stay suspended around each moment (match seconds). */
export const SUSPEND = {
  /** After a goal: the goal is checked, prices are redone. */
  goal: 90,
  /** Between a penalty award and its kick. */
  beforePenalty: 60,
  /** After a missed penalty. */
  afterMissedPenalty: 45,
  /** A VAR review: before its decision, and after it. */
  beforeVar: 60,
  afterVar: 30,
  /** After VAR disallowed a goal: the review ran from the goal to the decision. */
  afterDisallowed: 60
} as const

const FINISHED: ReadonlySet<number> = new Set([State.FT, State.AET, State.FT_PEN])
const CALLED_OFF: ReadonlySet<number> = new Set([State.ABANDONED, State.CANCELLED, State.POSTPONED, State.DELETED, State.WO, State.AWARDED])
const REDS: ReadonlySet<number> = new Set([EventType.REDCARD, EventType.YELLOWREDCARD])
const VAR: ReadonlySet<number> = new Set([EventType.VAR, EventType.VAR_CARD])

/** Where markets settle and whether they are void, from the final state and the end of the second half. */
export function endOf (finalState: number, endAt: number, secondHalfEnd: number | undefined): { end?: number, void: boolean } {
  if (FINISHED.has(finalState)) return { end: secondHalfEnd ?? endAt, void: false }
  if (CALLED_OFF.has(finalState)) return { end: endAt, void: true }
  // A recording that stops in play: the markets never settle.
  return { void: false }
}

function halfClock (period: PeriodPlan, half: 1 | 2): ClockPoint[] {
  const points: ClockPoint[] = [{ at: period.start, half, inHalf: 0, ticking: true }]
  for (const pause of period.pauses) {
    points.push({ at: pause.from, half, inHalf: playedAt(period, pause.from), ticking: false })
    if (pause.to < period.end) points.push({ at: pause.to, half, inHalf: playedAt(period, pause.to), ticking: true })
  }
  points.push(half === 1
    ? { at: period.end, half: 2, inHalf: 0, ticking: false }
    : { at: period.end, half: 2, inHalf: playedAt(period, period.end), ticking: false })
  return points
}

/** The odds' view of a scripted match (generated, or re-scripted from a recorded fixture). */
export function lineOfScript (script: MatchScript): MatchLine {
  const first = script.periods.find((p) => p.key === 'first')
  const second = script.periods.find((p) => p.key === 'second')
  const regular = script.happenings.filter((h) => h.bucket === 'first' || h.bucket === 'second')
  const goals: LineGoal[] = regular.flatMap((h) => h.credit === undefined ? [] : [{ at: h.at, side: h.credit, ...(h.cancelledAt !== undefined ? { cancelledAt: h.cancelledAt } : {}) }])
  const sideOf = (participantId: number): HomeAway => participantId === script.home.id ? 'home' : 'away'
  const reds = regular.filter((h) => REDS.has(h.event.type_id)).map((h) => ({ at: h.at, side: sideOf(h.event.participant_id) }))
  const alarms = alarmsOf(goals, regular.map((h) => ({ at: h.at, type_id: h.event.type_id })))
  const finalState = script.states[script.states.length - 1]?.state_id ?? State.NS
  return {
    fixtureId: script.fixtureId,
    home: { id: script.home.id, name: script.home.name },
    away: { id: script.away.id, name: script.away.name },
    ...(first !== undefined ? { start: first.start } : {}),
    ...endOf(finalState, script.endAt, second?.end),
    goals,
    reds,
    alarms,
    clock: [...(first !== undefined ? halfClock(first, 1) : []), ...(second !== undefined ? halfClock(second, 2) : [])]
  }
}

/** The suspensions a match's goals and events call for: goals (with their VAR review), penalty awards, VAR reviews. */
export function alarmsOf (goals: readonly LineGoal[], events: ReadonlyArray<{ at: number, type_id: number }>): Span[] {
  const spans: Span[] = goals.map((g) => g.cancelledAt === undefined
    ? { from: g.at, to: g.at + SUSPEND.goal }
    : { from: g.at, to: g.cancelledAt + SUSPEND.afterDisallowed })
  for (const e of events) {
    if (e.type_id === EventType.PENALTY) spans.push({ from: e.at - SUSPEND.beforePenalty, to: e.at + SUSPEND.goal })
    if (e.type_id === EventType.MISSED_PENALTY) spans.push({ from: e.at - SUSPEND.beforePenalty, to: e.at + SUSPEND.afterMissedPenalty })
    if (VAR.has(e.type_id)) spans.push({ from: e.at - SUSPEND.beforeVar, to: e.at + SUSPEND.afterVar })
  }
  return spans
}

/** The alarms merged where they overlap and kept inside regular time, in time order. */
export function suspensions (line: MatchLine): Span[] {
  if (line.start === undefined) return []
  const lo = line.start
  const hi = line.end ?? Infinity
  const spans = line.alarms
    .map((s) => ({ from: Math.max(lo, s.from), to: Math.min(hi, s.to) }))
    .filter((s) => s.to > s.from)
    .sort((a, b) => a.from - b.from)
  const merged: Span[] = []
  for (const s of spans) {
    const last = merged[merged.length - 1]
    if (last !== undefined && s.from <= last.to) last.to = Math.max(last.to, s.to)
    else merged.push({ ...s })
  }
  return merged
}

/** The last clock point at or before `t` (binary search: a played-back match has one per recorded view). */
function pointAt (line: MatchLine, t: number): ClockPoint | undefined {
  const points = line.clock
  let lo = 0
  let hi = points.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((points[mid] as ClockPoint).at <= t) lo = mid + 1
    else hi = mid
  }
  return points[lo - 1]
}

/** The clock at `t`: the half and the seconds played in it (half 1, 0 s before kick-off). */
export function clockOf (line: MatchLine, t: number): { half: 1 | 2, inHalf: number } {
  const point = pointAt(line, t)
  if (point === undefined) return { half: 1, inHalf: 0 }
  return { half: point.half, inHalf: point.inHalf + (point.ticking ? t - point.at : 0) }
}

/** How long a clock left running at the end of a line (a recording that stops in play) is followed. */
const OPEN_CLOCK_S = 3 * 3600

const ticksCache = new WeakMap<MatchLine, Map<number, number[]>>()

/**
 * The match seconds at which the clock enters a new step of `step` seconds of its half (a re-pricing), in
 * time order: while it runs, every `step` seconds; where it jumps (a half starts or ends, a recorded clock is
 * corrected), at the jump.
 */
export function clockSteps (line: MatchLine, step: number): number[] {
  let byStep = ticksCache.get(line)
  if (byStep === undefined) ticksCache.set(line, byStep = new Map())
  const hit = byStep.get(step)
  if (hit !== undefined) return hit
  const out: number[] = []
  const key = (half: number, inHalf: number): number => half * 1e6 + Math.floor(inHalf / step)
  let last = key(1, 0)
  line.clock.forEach((p, i) => {
    if (key(p.half, p.inHalf) !== last) out.push(p.at)
    last = key(p.half, p.inHalf)
    if (!p.ticking) return
    const until = line.clock[i + 1]?.at ?? Math.min(line.end ?? Infinity, p.at + OPEN_CLOCK_S)
    for (let m = Math.floor(p.inHalf / step) + 1; p.at + m * step - p.inHalf < until; m++) {
      out.push(p.at + m * step - p.inHalf)
      last = key(p.half, m * step)
    }
  })
  byStep.set(step, out)
  return out
}

/** The last element of ascending `values` at or before `t`. */
export function lastAtOrBefore (values: readonly number[], t: number): number | undefined {
  let lo = 0
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((values[mid] as number) <= t) lo = mid + 1
    else hi = mid
  }
  return values[lo - 1]
}

/** Goals standing at `t` (scored, and not yet disallowed). */
export const goalsAt = (line: MatchLine, t: number): LineGoal[] =>
  line.goals.filter((g) => g.at <= t && (g.cancelledAt === undefined || g.cancelledAt > t))

/** The goals that stand for good, in time order. */
export const standingGoals = (line: MatchLine): LineGoal[] => line.goals.filter((g) => g.cancelledAt === undefined).sort((a, b) => a.at - b.at)
