/**
 * The pricing model, pure arithmetic: the goals each side is expected to score in the rest of regular time
 * (its rate per 90 minutes, cut by its red cards and raised by the opponent's, times the minutes left), and
 * from those, with goals as independent Poisson counts, the fair probability of every selection; then a
 * bookmaker's margin and the formats a price is shown in. docs/provider.md ("Odds") explains it in words.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { hashSeed } from '../rng.ts'
import { Market, OU_LINE, type MarketId } from './markets.ts'

export type Sides = Record<HomeAway, number>

/** What a price depends on: the score, the red cards and the minutes of regular time still to play. */
export interface PricingState {
  goals: Sides
  reds: Sides
  /** Minutes of regular time left, stoppage time expected included. */
  remaining: number
}

/** Goals per 90 minutes of the simulator (packages/provider/src/sim/drafts.ts), before any team tilt. */
export const BASE_RATE: Sides = { home: 1.42, away: 1.08 }
/** A red card leaves a side a third less dangerous and its opponent 15 % more. */
const RED_OWN = 0.67
const RED_OTHER = 1.15
/** Regular halves as priced: 45 minutes and the stoppage time usually added (about 2 and 4). */
export const FIRST_HALF_MINUTES = 47
export const SECOND_HALF_MINUTES = 49
/** Scores beyond this many further goals per side are too unlikely to matter. */
const MAX_GOALS = 12
const MIN_PRICE = 1.01
const MAX_PRICE = 501

/** Expected further goals of each side, from its rate per 90 minutes. */
export function expectedGoals (rates: Sides, state: PricingState): Sides {
  const factor = (side: HomeAway, other: HomeAway): number => RED_OWN ** state.reds[side] * RED_OTHER ** state.reds[other]
  const minutes = Math.max(0, state.remaining) / 90
  return { home: rates.home * factor('home', 'away') * minutes, away: rates.away * factor('away', 'home') * minutes }
}

function poisson (mean: number): number[] {
  const out = [Math.exp(-mean)]
  for (let k = 1; k <= MAX_GOALS; k++) out.push((out[k - 1] as number) * mean / k)
  return out
}

/** Probabilities of a home win, a draw and an away win at the end of regular time. */
function result (state: PricingState, mu: Sides): [number, number, number] {
  const home = poisson(mu.home)
  const away = poisson(mu.away)
  let [h, d, a] = [0, 0, 0]
  home.forEach((ph, i) => away.forEach((pa, j) => {
    const diff = state.goals.home + i - state.goals.away - j
    if (diff > 0) h += ph * pa
    else if (diff === 0) d += ph * pa
    else a += ph * pa
  }))
  // The tails past MAX_GOALS are negligible; normalizing keeps the three summing to 1.
  const sum = h + d + a
  return [h / sum, d / sum, a / sum]
}

/**
 * Fair probabilities of a market's selections, in the order of its rows: 1, X, 2; 1X, 12, X2; Over, Under;
 * Yes, No; and for the next goal 1, No Goal, 2.
 */
export function fairProbabilities (market: MarketId, state: PricingState, mu: Sides): number[] {
  switch (market) {
    case Market.FULLTIME_RESULT: return result(state, mu)
    case Market.DOUBLE_CHANCE: {
      const [h, d, a] = result(state, mu)
      return [h + d, h + a, d + a]
    }
    case Market.OVER_UNDER: {
      const needed = Math.max(0, Math.ceil(OU_LINE - state.goals.home - state.goals.away))
      const under = poisson(mu.home + mu.away).slice(0, needed).reduce((s, p) => s + p, 0)
      return [1 - under, under]
    }
    case Market.BOTH_TEAMS_TO_SCORE: {
      const scores = (side: HomeAway): number => state.goals[side] > 0 ? 1 : 1 - Math.exp(-mu[side])
      const yes = scores('home') * scores('away')
      return [yes, 1 - yes]
    }
    case Market.NEXT_GOAL: {
      const total = mu.home + mu.away
      const none = Math.exp(-total)
      if (total === 0) return [0, 1, 0]
      return [(1 - none) * mu.home / total, none, (1 - none) * mu.away / total]
    }
  }
}

/** A decimal price for a probability with the bookmaker's margin, between 1.01 and 501. */
export function decimalPrice (probability: number, margin: number): number {
  const implied = probability * (1 + margin)
  if (!(implied > 0)) return MAX_PRICE
  return Math.min(MAX_PRICE, Math.max(MIN_PRICE, Math.round(100 / implied) / 100))
}

export interface PriceFormats {
  value: string
  dp3: string
  probability: string
  fractional: string
  american: string
}

/** `a/b` closest to `x` with b up to 20 (as a ladder of usual fractions); tiny odds-on stakes as `1/n`. */
function fraction (x: number): string {
  if (x < 0.05) return `1/${Math.round(1 / Math.max(x, 0.002))}`
  let best = { num: Math.round(x), den: 1, error: Math.abs(x - Math.round(x)) }
  for (let den = 2; den <= 20; den++) {
    const num = Math.round(x * den)
    const error = Math.abs(x - num / den)
    if (num > 0 && error < best.error - 1e-9) best = { num, den, error }
  }
  return `${best.num}/${best.den}`
}

/** The formats the API shows a price in: decimal (2 and 3 places), implied probability, fractional, American. */
export function formats (price: number): PriceFormats {
  const american = price >= 2 ? Math.round((price - 1) * 100) : Math.round(-100 / (price - 1))
  return {
    value: price.toFixed(2),
    dp3: price.toFixed(3),
    probability: `${Number((100 / price).toFixed(2))}%`,
    fractional: fraction(price - 1),
    american: String(american)
  }
}

/** A team's rating as the bookmakers see it, between 0.8 and 1.25, drawn from the seed and the team id. */
export function teamRating (seed: number, teamId: number): number {
  return 0.8 + 0.45 * hashSeed(seed, teamId, 0x0dd5) / 0x1_0000_0000
}

/**
 * Goals per 90 minutes of each side: the simulator's rates, tilted by the two ratings. The simulator's own
 * goals do not depend on the teams, so the tilt is the bookmakers' opinion, not a forecast of the script.
 */
export function ratesOf (seed: number, homeId: number, awayId: number): Sides {
  const ratio = teamRating(seed, homeId) / teamRating(seed, awayId)
  return { home: BASE_RATE.home * ratio, away: BASE_RATE.away / ratio }
}
