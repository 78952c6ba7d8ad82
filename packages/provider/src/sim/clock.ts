/**
 * Real time ↔ match time. A fixture kicks off at real time `kickoff` (unix seconds); at real time t its match
 * clock reads (t - kickoff) * speed match seconds. `speed` is TOUCHLINE_SIM_SPEED: match seconds per real
 * second, so at the default 60 a 90-minute match (105 minutes with half-time) lasts about 105 real seconds.
 *
 * Scripts use whole match seconds; `realMsAt` rounds up, so that a change scripted at match second s is
 * visible at exactly `realMsAt(s)` and not one millisecond earlier.
 */

/** @default 60 match seconds per real second. */
export const DEFAULT_SIM_SPEED = 60

export interface MatchClock {
  /** Scheduled kick-off, unix seconds. */
  kickoff: number
  /** Match seconds per real second. */
  speed: number
  /** Match seconds elapsed since the scheduled kick-off (negative before it). */
  seconds: number
}

/** The match clock of a fixture kicking off at `kickoff` (unix s), at real time `nowMs`. */
export function clockAt (kickoff: number, speed: number, nowMs: number): MatchClock {
  return { kickoff, speed, seconds: (nowMs - kickoff * 1000) * speed / 1000 }
}

/** Real time (ms) at which match second `matchSeconds` is reached. */
export function realMsAt (kickoff: number, speed: number, matchSeconds: number): number {
  return kickoff * 1000 + Math.ceil(matchSeconds * 1000 / speed)
}

/** Unix seconds of match second `matchSeconds` (periods' `started` / `ended` are real times). */
export function unixAt (clock: Pick<MatchClock, 'kickoff' | 'speed'>, matchSeconds: number): number {
  return clock.kickoff + Math.floor(matchSeconds / clock.speed)
}

/** A duration in match seconds, in real milliseconds. */
export function realDurationMs (matchSeconds: number, speed: number): number {
  return Math.ceil(matchSeconds * 1000 / speed)
}
