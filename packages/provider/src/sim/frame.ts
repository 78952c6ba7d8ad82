/**
 * The time frame of a generated match: when each period is played, stoppage time, and the occasional
 * disruption (delay, suspension, interruption, abandonment, postponement). Durations are match seconds.
 */
import { State } from '@touchline/upstream-contract/states'
import type { Pause, PeriodKey, PeriodPlan } from './model.ts'
import type { Rng } from '../rng.ts'
import { matchSecondOf, PERIOD_DEFS, periodId } from './timeline.ts'

export type Disruption =
  | { kind: 'none' }
  | { kind: 'delayed', seconds: number }
  | { kind: 'pause', key: 'first' | 'second', atPlay: number, seconds: number, state_id: number }
  | { kind: 'abandoned', key: 'first' | 'second', atPlay: number, seconds: number, state_id: number }
  | { kind: 'postponed' }

/** About one match in 25 is disrupted (delay, stoppage, abandonment or postponement). */
const DISRUPTION_RATE = 1 / 25
/** A postponement is announced 10 match minutes before kick-off, inside the livescores window. */
export const POSTPONED_AT = -600
/** Half-time lasts 15 minutes; the break before extra time 5 (FT included); ETB 1-2; before penalties 2. */
export const HALF_TIME = 900
export const BREAK_BEFORE_ET = 300
export const PEN_BREAK = 120

export function drawDisruption (rng: Rng): Disruption {
  if (!rng.chance(DISRUPTION_RATE)) return { kind: 'none' }
  const key = rng.chance(0.5) ? 'first' : 'second'
  const atPlay = rng.int(10, 40) * 60 + rng.int(0, 59)
  switch (rng.weighted([35, 20, 20, 10, 15])) {
    case 0: return { kind: 'delayed', seconds: rng.int(5, 20) * 60 }
    // A suspension (weather, crowd) lasts longer than an interruption (injury, floodlights).
    case 1: return { kind: 'pause', key, atPlay, seconds: rng.int(5, 25) * 60, state_id: State.SUSPENDED }
    case 2: return { kind: 'pause', key, atPlay, seconds: rng.int(2, 8) * 60, state_id: State.INTERRUPTED }
    case 3: return { kind: 'abandoned', key, atPlay, seconds: rng.int(10, 30) * 60, state_id: rng.chance(0.5) ? State.SUSPENDED : State.INTERRUPTED }
    default: return { kind: 'postponed' }
  }
}

/** Index of each period behind its derived id (`periodId`). */
export const PERIOD_INDEX: Readonly<Record<PeriodKey, number>> = { first: 1, second: 2, et1: 4, et2: 5, pens: 6 }
/** Id of the single legacy extra-time period that both ET halves belong to. */
const LEGACY_ET_INDEX = 3

export interface PeriodSpec {
  key: PeriodKey
  start: number
  /** Seconds actually played, stoppage included, pauses excluded. */
  played: number
  timeAdded: number | null
  /** A pause at `atPlay` seconds of play, lasting `seconds`. */
  pause?: { atPlay: number, seconds: number, state_id: number }
  hasTimer?: boolean
}

export function makePeriod (fixtureId: number, spec: PeriodSpec): PeriodPlan {
  const def = PERIOD_DEFS[spec.key]
  const pauses: Pause[] = spec.pause === undefined
    ? []
    : [{ from: spec.start + spec.pause.atPlay, to: spec.start + spec.pause.atPlay + spec.pause.seconds, state_id: spec.pause.state_id }]
  const stopped = pauses.reduce((sum, p) => sum + p.to - p.from, 0)
  const isEt = spec.key === 'et1' || spec.key === 'et2'
  const plan: PeriodPlan = {
    key: spec.key,
    id: periodId(fixtureId, PERIOD_INDEX[spec.key]),
    legacyId: periodId(fixtureId, isEt ? LEGACY_ET_INDEX : PERIOD_INDEX[spec.key]),
    type_id: def.type_id,
    description: def.description,
    counts_from: def.counts_from,
    period_length: def.period_length,
    sort_order: def.sort_order,
    has_timer: spec.hasTimer ?? true,
    start: spec.start,
    end: spec.start + spec.played + stopped,
    timeAdded: spec.timeAdded,
    announceAt: 0,
    pauses
  }
  // Stoppage time is announced in the last regular minute of the period.
  plan.announceAt = spec.timeAdded === null ? plan.end : matchSecondOf(plan, Math.max(0, def.period_length * 60 - 60))
  return plan
}

/** Seconds played in a half: the regular length, the announced stoppage, and a little more as refs do. */
function halfPlayed (rng: Rng, minutes: number, timeAdded: number, slack: number): number {
  return minutes * 60 + timeAdded * 60 + rng.int(0, slack)
}

export interface Frame {
  periods: PeriodPlan[]
  delayed: boolean
  postponedAt?: number
  abandoned: boolean
}

function halfSpec (rng: Rng, key: 'first' | 'second', start: number, disruption: Disruption): { spec: PeriodSpec, abandoned: boolean } {
  const timeAdded = key === 'first' ? 1 + rng.weighted([30, 35, 20, 10, 5]) : 2 + rng.weighted([10, 25, 30, 20, 10, 5])
  const spec: PeriodSpec = { key, start, played: halfPlayed(rng, 45, timeAdded, key === 'first' ? 75 : 100), timeAdded }
  if ((disruption.kind === 'pause' || disruption.kind === 'abandoned') && disruption.key === key) {
    spec.pause = { atPlay: disruption.atPlay, seconds: disruption.seconds, state_id: disruption.state_id }
    // Abandoned: the period ends when the stoppage is called off, with only the time played before it.
    if (disruption.kind === 'abandoned') return { spec: { ...spec, played: disruption.atPlay }, abandoned: true }
  }
  return { spec, abandoned: false }
}

/** Regulation time: both halves with half-time between, shifted by a delay, cut short when abandoned. */
export function regulationFrame (fixtureId: number, rng: Rng, disruption: Disruption): Frame {
  if (disruption.kind === 'postponed') return { periods: [], delayed: false, postponedAt: POSTPONED_AT, abandoned: false }
  const delayed = disruption.kind === 'delayed'
  const first = halfSpec(rng, 'first', delayed ? disruption.seconds : 0, disruption)
  const firstPlan = makePeriod(fixtureId, first.spec)
  if (first.abandoned) return { periods: [firstPlan], delayed, abandoned: true }
  const second = halfSpec(rng, 'second', firstPlan.end + HALF_TIME, disruption)
  return { periods: [firstPlan, makePeriod(fixtureId, second.spec)], delayed, abandoned: second.abandoned }
}

/** Both halves of extra time after the break; the real API adds 0-3 minutes to each. */
export function extraTimePeriods (fixtureId: number, rng: Rng, regulationEnd: number): PeriodPlan[] {
  const ta1 = rng.int(0, 2)
  const et1 = makePeriod(fixtureId, { key: 'et1', start: regulationEnd + BREAK_BEFORE_ET, played: halfPlayed(rng, 15, ta1, 40), timeAdded: ta1 })
  const ta2 = rng.int(1, 3)
  const et2 = makePeriod(fixtureId, { key: 'et2', start: et1.end + rng.int(60, 120), played: halfPlayed(rng, 15, ta2, 40), timeAdded: ta2 })
  return [et1, et2]
}

/** Seconds between shoot-out kicks: about one minute per pair of kicks. */
const KICK_INTERVAL = 30
const SHOOTOUT_MARGIN = 20

/** Seconds a shoot-out of `kicks` kicks needs at least. */
export const shootoutSeconds = (kicks: number): number => SHOOTOUT_MARGIN * 2 + Math.max(0, kicks - 1) * KICK_INTERVAL

/** The penalties period: it starts after PEN_BREAK and lasts as long as its kicks. */
export function penaltiesPeriod (fixtureId: number, etEnd: number, kicks: number): PeriodPlan {
  return makePeriod(fixtureId, { key: 'pens', start: etEnd + PEN_BREAK, played: shootoutSeconds(kicks), timeAdded: null })
}

/** Match second of the k-th of `total` kicks (1-based), spread evenly over the penalties period. */
export function kickAt (period: PeriodPlan, kick: number, total: number): number {
  const interval = total > 1 ? (period.end - period.start - SHOOTOUT_MARGIN * 2) / (total - 1) : 0
  return period.start + SHOOTOUT_MARGIN + Math.floor((kick - 1) * interval)
}
