/**
 * Pure scheduling helpers: the slot timeline of a season, round-robin pairings (circle method) and
 * kick-off templates. No records, no ids.
 */
import { parseClock } from './dates.ts'
import type { LeagueSpec, PhaseSpec } from './competitions.ts'

/** One match slot: a round or matchday of a table phase, or one leg of a knock-out phase. */
export interface Slot {
  phase: number
  /** Round index within a table phase, leg index (0, 1) within a knock-out phase. */
  index: number
  /** Days from the season's first slot. */
  offset: number
}

export function slotsOfPhase (phase: PhaseSpec): number {
  if (phase.kind === 'table') return phase.legs * (phase.size - 1 + (phase.size % 2))
  return phase.kind === 'ko' ? phase.legs : phase.days
}

export function timeline (spec: LeagueSpec): Slot[] {
  const slots: Slot[] = []
  let offset = 0
  spec.phases.forEach((phase, p) => {
    if (p > 0) offset += phase.gap
    const count = slotsOfPhase(phase)
    for (let i = 0; i < count; i++) {
      if (i > 0) offset += phase.spacing
      slots.push({ phase: p, index: i, offset })
    }
  })
  return slots
}

export interface Kickoff {
  /** Day within the slot. */
  day: number
  /** Seconds after midnight UTC. */
  time: number
}

/** Parses `0 18:00, 1 14:00` into kick-offs. */
export function parseKickoffs (text: string): Kickoff[] {
  return text.split(',').map((part) => {
    const [day = '0', clock = '15:00'] = part.trim().split(' ')
    return { day: Number(day), time: parseClock(clock) }
  })
}

export type Pairing = readonly [home: number, away: number]

/**
 * Round-robin rounds by the circle method: with `legs` 2, the second half repeats the first with home and
 * away swapped, so every ordered pair meets exactly once. An odd count gets a bye (the team sits out).
 */
export function roundRobin (teams: readonly number[], legs: 1 | 2): Pairing[][] {
  const BYE = -1
  const ring = teams.length % 2 === 0 ? teams.slice() : [...teams, BYE]
  const n = ring.length
  const first: Pairing[][] = []
  for (let r = 0; r < n - 1; r++) {
    const round: Pairing[] = []
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i] as number
      const b = ring[n - 1 - i] as number
      if (a === BYE || b === BYE) continue
      // Alternate the fixed team's venue by round and the others' by position, so home and away stay balanced.
      const swap = i === 0 ? r % 2 === 1 : i % 2 === 1
      round.push(swap ? [b, a] : [a, b])
    }
    first.push(round)
    ring.splice(1, 0, ring.pop() as number)
  }
  if (legs === 1) return first
  return [...first, ...first.map((round) => round.map(([h, a]): Pairing => [a, h]))]
}

/** `[W1, W2, ..., R1, R2, ...]` → pairs first with last, second with second-to-last (winners meet runners-up). */
export function foldPairs (teams: readonly number[]): Pairing[] {
  const out: Pairing[] = []
  for (let i = 0; i < teams.length / 2; i++) out.push([teams[i] as number, teams[teams.length - 1 - i] as number])
  return out
}

/** `[a, b, c, d]` → `[a, b], [c, d]`. */
export function sequentialPairs (teams: readonly number[]): Pairing[] {
  const out: Pairing[] = []
  for (let i = 0; i + 1 < teams.length; i += 2) out.push([teams[i] as number, teams[i + 1] as number])
  return out
}
