/**
 * Schedule changes before the day: now and then a kick-off moves, or a match is postponed, announced some
 * time before the kick-off it had. Drawn from the seed per fixture (the `schedule` stream), so the same seed
 * moves the same fixtures; tests can force more through the simulator (engine.ts `reschedule`).
 *
 * Durations are match time, like everything on the simulator's clock (at speed 60 a minute is a real
 * second; at speed 1 they are real): a move shifts the kick-off by 15 to 120 minutes, later or earlier, and
 * is announced between 24 hours and 30 minutes before the kick-off it replaces, and at least 30 minutes
 * before the new one (never into the past of the announcement); a postponement is announced in the same
 * window, and the match is then never played (state POSTPONED, the kick-off kept).
 */
import { hashSeed, Rng } from '../rng.ts'

export interface ScheduleChange {
  fixtureId: number
  kind: 'move' | 'postpone'
  /** Real ms of the announcement: from then on the change shows, before it the old kick-off and state. */
  atMs: number
  /** Kick-off (unix s) shown before the change. */
  from: number
  /** Kick-off (unix s) shown from the change on: the new one for a move, `from` for a postponement. */
  to: number
  /** Drawn from the seed, or forced by a caller (a test). */
  source: 'generated' | 'forced'
}

export interface ChangeRates {
  /** Share of the fixtures whose kick-off moves. @default 0.03 */
  move?: number
  /** Share of the fixtures postponed before the day. @default 0.01 */
  postpone?: number
}

export const DEFAULT_CHANGE_RATES: Required<ChangeRates> = { move: 0.03, postpone: 0.01 }

const MINUTE = 60
const HOUR = 3600
const MIN_SHIFT = 15 * MINUTE
const MAX_SHIFT = 120 * MINUTE
const MIN_LEAD = 30 * MINUTE
const MAX_LEAD = 24 * HOUR

/** What the seed makes of one fixture, in match seconds: a signed shift and the lead of its announcement. */
export type DrawnChange = { kind: 'move', shift: number, lead: number } | { kind: 'postpone', lead: number }

/** Deterministic per (seed, fixture); undefined for the ~96 % of fixtures that keep their kick-off. */
export function drawChange (seed: number, fixtureId: number, rates: ChangeRates = {}): DrawnChange | undefined {
  const move = rates.move ?? DEFAULT_CHANGE_RATES.move
  const postpone = rates.postpone ?? DEFAULT_CHANGE_RATES.postpone
  // The `schedule` stream of the fixture (sim/streams.ts, index 8), spelled out: streams.ts is the match's.
  const rng = new Rng(hashSeed(seed, fixtureId, 8))
  const roll = rng.next()
  if (roll < postpone) return { kind: 'postpone', lead: rng.int(MIN_LEAD, MAX_LEAD) }
  if (roll >= postpone + move) return undefined
  const shift = rng.int(MIN_SHIFT, MAX_SHIFT) * (rng.chance(0.6) ? 1 : -1)
  // Moved earlier, the announcement also comes 30 minutes before the new kick-off.
  return { kind: 'move', shift, lead: rng.int(MIN_LEAD + Math.max(0, -shift), MAX_LEAD) }
}

/** Match seconds in whole real seconds (kick-offs are whole seconds), never 0: a move always moves. */
const realS = (matchSeconds: number, speed: number): number => Math.sign(matchSeconds) * Math.max(1, Math.round(Math.abs(matchSeconds) / speed))

/**
 * The change of a fixture whose kick-off before any change is `from` (unix s): a move to `from + shift`, or a
 * postponement, announced `lead` before `from`.
 */
export function changeFrom (fixtureId: number, from: number, drawn: DrawnChange, speed: number): ScheduleChange {
  const atMs = (from - realS(drawn.lead, speed)) * 1000
  const to = drawn.kind === 'move' ? from + realS(drawn.shift, speed) : from
  return { fixtureId, kind: drawn.kind, atMs, from, to, source: 'generated' }
}

/**
 * The change of a fixture of the rolling schedule, whose kick-off after the change is `to` (its slot's): a move
 * comes from `to - shift`, so the slot plays it when it is free, as planned.
 */
export function changeTo (fixtureId: number, to: number, drawn: DrawnChange, speed: number): ScheduleChange {
  return changeFrom(fixtureId, drawn.kind === 'move' ? to - realS(drawn.shift, speed) : to, drawn, speed)
}
