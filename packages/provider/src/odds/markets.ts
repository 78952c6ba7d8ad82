/**
 * The markets and bookmakers the provider prices (docs/upstream.md, "Odds"; docs/provider.md, "Odds"), and
 * the layout of odd ids. Market ids and names are those of the real API's common markets; the bookmakers are
 * two of its well-known ones, each with its own margin, noise and re-pricing pace.
 */

export const Market = {
  FULLTIME_RESULT: 1,
  DOUBLE_CHANCE: 2,
  BOTH_TEAMS_TO_SCORE: 14,
  NEXT_GOAL: 57,
  OVER_UNDER: 80
} as const

export type MarketId = typeof Market[keyof typeof Market]

/** Market ids in the order rows are listed (by id). */
export const PRICED_MARKETS: readonly MarketId[] = [Market.FULLTIME_RESULT, Market.DOUBLE_CHANCE, Market.BOTH_TEAMS_TO_SCORE, Market.NEXT_GOAL, Market.OVER_UNDER]

export const MARKET_NAMES: Readonly<Record<MarketId, string>> = {
  [Market.FULLTIME_RESULT]: 'Fulltime Result',
  [Market.DOUBLE_CHANCE]: 'Double Chance',
  [Market.BOTH_TEAMS_TO_SCORE]: 'Both Teams To Score',
  [Market.NEXT_GOAL]: 'Next Goal',
  [Market.OVER_UNDER]: 'Goals Over/Under'
}

export interface BookmakerSpec {
  id: number
  name: string
  /** Overround: implied probabilities of a market add up to 1 + margin (2 × (1 + margin) for double chance). */
  margin: number
  /** Spread of the bookmaker's own opinion: each fair probability is scaled by e^u, u uniform in ±noise. */
  noise: number
  /** Seconds of play between two re-pricings while the ball rolls. */
  cadence: number
  /** Index of the bookmaker in the odd id layout (oddId). */
  slot: number
}

/** A traditional bookmaker with a wider margin that re-prices every minute, and an exchange-like one with a thin margin, every two. */
export const BOOKMAKERS: readonly BookmakerSpec[] = [
  { id: 2, name: 'bet365', margin: 0.06, noise: 0.03, cadence: 60, slot: 0 },
  { id: 34, name: 'Betfair', margin: 0.04, noise: 0.05, cadence: 120, slot: 1 }
]

/** The over/under line priced. */
export const OU_LINE = 2.5
/** Next-goal markets are kept for goals 1 to this (a match with more goals shows no market for the rest). */
export const MAX_NEXT_GOAL = 60

/**
 * Odd ids: fixture id × 1000, + 500 for in-play rows, + 250 × the bookmaker's slot, + the selection's slot:
 * 0-2 fulltime result (1, X, 2), 3-5 double chance (1X, 12, X2), 6-7 over/under (Over, Under), 8-9 both
 * teams to score (Yes, No), then 10 + 3 × (n − 1) + 0-2 for the next goal after n − 1 goals (1, No Goal, 2).
 * Stable: the same selection keeps its id for the whole match, in-play and pre-match rows never share one.
 */
export function oddId (fixtureId: number, inplay: boolean, bookmaker: BookmakerSpec, selectionSlot: number): number {
  return fixtureId * 1000 + (inplay ? 500 : 0) + bookmaker.slot * 250 + selectionSlot
}

export const SELECTION_SLOT: Readonly<Record<Exclude<MarketId, typeof Market.NEXT_GOAL>, number>> = {
  [Market.FULLTIME_RESULT]: 0,
  [Market.DOUBLE_CHANCE]: 3,
  [Market.OVER_UNDER]: 6,
  [Market.BOTH_TEAMS_TO_SCORE]: 8
}

export const nextGoalSlot = (goal: number): number => 10 + 3 * (goal - 1)
