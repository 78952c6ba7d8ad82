/**
 * The rolling schedule: kick-off times that keep about `liveTarget` fixtures in play at any time, from the
 * moment the provider starts, so that `npm start` shows live matches at once.
 *
 * Fixtures are played in `liveTarget` slots. At the start, all slots but two are already mid-match (kick-offs
 * in the past, spread one nominal interval apart) and those two kick off within the first minute. Each slot
 * then kicks off its next fixture a short gap after its previous one ends; since every fixture is scripted
 * (the script does not depend on its kick-off), the end is known exactly. On average that is one kick-off
 * every (match duration / liveTarget). Candidates are taken league by league in turn, so the live set mixes
 * leagues. Planning stops at the horizon or when the candidates run out (each fixture plays once; a dataset
 * with fewer fixtures than the horizon needs simply leaves the later slots empty).
 */
import { realDurationMs } from './clock.ts'
import type { SimFixtureInput } from './model.ts'
import { hashSeed, Rng } from '../rng.ts'
import { changeTo, drawChange, type ChangeRates, type ScheduleChange } from './reschedule.ts'
import { matchOutcome } from './script.ts'

export interface ScheduleOptions {
  candidates: ReadonlyArray<Omit<SimFixtureInput, 'kickoff'>>
  /** Real time the schedule starts, ms. */
  startMs: number
  /** Match seconds per real second. */
  speed: number
  /** Fixtures to keep in play. @default 6 */
  liveTarget?: number
  seed: number
  /** Plan kick-offs up to this long after `startMs`. @default 25 hours */
  horizonMs?: number
}

/** A typical league match from kick-off to FT: 2 × (45' + ~4' stoppage) + 15' half-time. */
const NOMINAL_MATCH_SECONDS = 113 * 60
/** One match minute between a slot's final whistle and its next kick-off: short, so the live count rarely dips. */
const GAP_SECONDS = 60
export const DEFAULT_LIVE_TARGET = 6
const DEFAULT_HORIZON_MS = 25 * 3600_000

/** Candidates in seeded league order, one league after another in turn, each league's own order kept. */
function interleave<T extends { league_id: number }> (candidates: readonly T[], seed: number): T[] {
  const byLeague = new Map<number, T[]>()
  for (const c of candidates) {
    const queue = byLeague.get(c.league_id)
    if (queue === undefined) byLeague.set(c.league_id, [c])
    else queue.push(c)
  }
  const queues = new Rng(hashSeed(seed, 0x5c4ed)).shuffle([...byLeague.keys()].sort((a, b) => a - b)).map((id) => byLeague.get(id) ?? [])
  const out: T[] = []
  for (let round = 0; out.length < candidates.length; round++) {
    for (const queue of queues) {
      const next = queue[round]
      if (next !== undefined) out.push(next)
    }
  }
  return out
}

/** Real times (ms) at which the slots take their first fixture. */
function firstKickoffs (startMs: number, speed: number, liveTarget: number): number[] {
  const interval = realDurationMs(NOMINAL_MATCH_SECONDS, speed) / liveTarget
  // All but two slots are already mid-match; the other two kick off at the start and within the first minute.
  const running = Math.max(0, liveTarget - 2)
  const stagger = Math.min(interval, 60_000 / (liveTarget - running))
  return Array.from({ length: liveTarget }, (_, i) => i < running ? startMs - (running - i) * interval : startMs + (i - running) * stagger)
}

/** The plan: kick-offs, and the schedule changes drawn for planned fixtures (when asked for). */
export interface DayPlan {
  /** Fixture id → kick-off (unix seconds) after any change: the time its slot plays it. */
  kickoffs: Map<number, number>
  changes: ScheduleChange[]
}

/**
 * The rolling schedule, and with `changes` the moves and postponements the seed draws for its fixtures
 * (reschedule.ts), planned so that they keep the live target: a moved fixture is played when its slot is free,
 * having been announced at another time before (its kick-off before the move is the slot's time minus the
 * shift); a postponed fixture takes no slot (the next candidate kicks off in its place) and is never played.
 * Pure: the same options give the same plan.
 */
export function planDay (options: ScheduleOptions & { changes?: ChangeRates | false }): DayPlan {
  const { startMs, speed, seed } = options
  const liveTarget = Math.max(1, options.liveTarget ?? DEFAULT_LIVE_TARGET)
  const until = startMs + (options.horizonMs ?? DEFAULT_HORIZON_MS)
  const slots = firstKickoffs(startMs, speed, liveTarget)
  const kickoffs = new Map<number, number>()
  const changes: ScheduleChange[] = []
  const rates = options.changes
  for (const candidate of interleave(options.candidates, seed)) {
    const slot = slots.indexOf(Math.min(...slots))
    const free = slots[slot] ?? until
    if (free > until) break
    const kickoff = Math.floor(free / 1000)
    kickoffs.set(candidate.id, kickoff)
    const drawn = rates === undefined || rates === false ? undefined : drawChange(seed, candidate.id, rates)
    if (drawn !== undefined) changes.push(changeTo(candidate.id, kickoff, drawn, speed))
    if (drawn?.kind === 'postpone') continue
    // Only the duration matters here: the outcome is cheap for league matches (script.ts).
    const end = matchOutcome({ ...candidate, kickoff }, seed).endAt
    // A postponed fixture ends before its kick-off; the slot stays free until that kick-off anyway.
    slots[slot] = kickoff * 1000 + realDurationMs(Math.max(0, end) + GAP_SECONDS, speed)
  }
  return { kickoffs, changes }
}

/** Fixture id → kick-off (unix seconds), without schedule changes. Pure: the same options give the same plan. */
export function planSchedule (options: ScheduleOptions): Map<number, number> {
  return planDay(options).kickoffs
}
