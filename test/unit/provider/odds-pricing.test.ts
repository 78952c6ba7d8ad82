/**
 * The pricing model alone (packages/provider/src/odds/pricing.ts): fair probabilities that add up, margins that show
 * in the prices, prices that move the right way with the clock, a goal and a red card, and the formats.
 */
import { describe, expect, it } from 'vitest'
import { Market, PRICED_MARKETS } from '../../../packages/provider/src/odds/markets.ts'
import { BASE_RATE, decimalPrice, expectedGoals, fairProbabilities, formats, ratesOf, teamRating, type PricingState } from '../../../packages/provider/src/odds/pricing.ts'

const state = (over: Partial<PricingState> = {}): PricingState => ({ goals: { home: 0, away: 0 }, reds: { home: 0, away: 0 }, remaining: 96, ...over })
const probs = (market: number, s: PricingState) => fairProbabilities(market as never, s, expectedGoals(BASE_RATE, s))
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)

/** Scores and clocks a match goes through, from kick-off to the last minute. */
const STATES: PricingState[] = [0, 1, 2, 3].flatMap((home) => [0, 1, 2].flatMap((away) =>
  [96, 60, 30, 10, 2].map((remaining) => state({ goals: { home, away }, remaining, reds: { home: home % 2, away: 0 } }))))

describe('odds pricing', () => {
  it('fair probabilities of every market add up to 1 (2 for double chance), at every score and minute', () => {
    for (const s of STATES) {
      for (const market of PRICED_MARKETS) {
        const p = probs(market, s)
        for (const x of p) expect(x).toBeGreaterThanOrEqual(0)
        expect(sum(p)).toBeCloseTo(market === Market.DOUBLE_CHANCE ? 2 : 1, 9)
      }
    }
  })

  it('the implied probabilities of the prices add up to about 1 + margin while the outcome is open', () => {
    for (const margin of [0.04, 0.06]) {
      for (const market of [Market.FULLTIME_RESULT, Market.OVER_UNDER, Market.BOTH_TEAMS_TO_SCORE, Market.NEXT_GOAL]) {
        const p = probs(market, state())
        const implied = sum(p.map((x) => 1 / decimalPrice(x, margin)))
        // Two-decimal rounding moves each price by at most half a cent.
        expect(implied).toBeGreaterThan(1 + margin - 0.01)
        expect(implied).toBeLessThan(1 + margin + 0.01)
      }
      const dc = sum(probs(Market.DOUBLE_CHANCE, state()).map((x) => 1 / decimalPrice(x, margin)))
      expect(dc).toBeCloseTo(2 * (1 + margin), 1)
    }
  })

  it('a home goal shortens the home win, over and home-next-goal prices and lengthens the away win', () => {
    for (const remaining of [90, 45, 10]) {
      const before = state({ remaining })
      const after = state({ remaining, goals: { home: 1, away: 0 } })
      const [hb, , ab] = probs(Market.FULLTIME_RESULT, before)
      const [ha, , aa] = probs(Market.FULLTIME_RESULT, after)
      expect(ha).toBeGreaterThan(hb as number)
      expect(aa).toBeLessThan(ab as number)
      expect(probs(Market.OVER_UNDER, after)[0]).toBeGreaterThan(probs(Market.OVER_UNDER, before)[0] as number)
      expect(probs(Market.BOTH_TEAMS_TO_SCORE, after)[0]).toBeGreaterThan(probs(Market.BOTH_TEAMS_TO_SCORE, before)[0] as number)
    }
  })

  it('the clock drifts the prices: at 0-0 the draw, under and no-goal shorten as minutes pass', () => {
    const minutes = [96, 80, 60, 40, 20, 5]
    const draw = minutes.map((remaining) => probs(Market.FULLTIME_RESULT, state({ remaining }))[1] as number)
    const under = minutes.map((remaining) => probs(Market.OVER_UNDER, state({ remaining }))[1] as number)
    const none = minutes.map((remaining) => probs(Market.NEXT_GOAL, state({ remaining }))[1] as number)
    for (const series of [draw, under, none]) {
      for (let i = 1; i < series.length; i++) expect(series[i]).toBeGreaterThan(series[i - 1] as number)
    }
  })

  it('a red card makes its side less likely to win and its opponent more', () => {
    const fair = probs(Market.FULLTIME_RESULT, state({ remaining: 60 }))
    const red = probs(Market.FULLTIME_RESULT, state({ remaining: 60, reds: { home: 1, away: 0 } }))
    expect(red[0]).toBeLessThan(fair[0] as number)
    expect(red[2]).toBeGreaterThan(fair[2] as number)
  })

  it('a decided outcome is certain: 3 goals make over 2.5 sure, goals at both ends make both-teams-to-score sure', () => {
    expect(probs(Market.OVER_UNDER, state({ goals: { home: 2, away: 1 } }))).toEqual([1, 0])
    expect(probs(Market.BOTH_TEAMS_TO_SCORE, state({ goals: { home: 1, away: 1 } }))[0]).toBe(1)
    expect(probs(Market.NEXT_GOAL, state({ remaining: 0 }))).toEqual([0, 1, 0])
  })

  it('prices stay between 1.01 and 501, with two decimals', () => {
    expect(decimalPrice(1, 0.06)).toBe(1.01)
    expect(decimalPrice(0, 0.06)).toBe(501)
    expect(decimalPrice(1e-6, 0.06)).toBe(501)
    expect(decimalPrice(0.5, 0.06)).toBe(1.89)
  })

  it('formats a price as the API shows it: decimal, three places, implied probability, fractional, American', () => {
    expect(formats(2.1)).toEqual({ value: '2.10', dp3: '2.100', probability: '47.62%', fractional: '11/10', american: '110' })
    expect(formats(1.62)).toEqual({ value: '1.62', dp3: '1.620', probability: '61.73%', fractional: '8/13', american: '-161' })
    expect(formats(4.5)).toMatchObject({ fractional: '7/2', american: '350', probability: '22.22%' })
    expect(formats(1.01)).toMatchObject({ fractional: '1/100', american: '-10000' })
    expect(formats(2)).toMatchObject({ fractional: '1/1', american: '100', probability: '50%' })
  })

  it('team ratings tilt the rates, the same for the same seed, differently for another', () => {
    expect(teamRating(1, 42)).toBe(teamRating(1, 42))
    expect(teamRating(1, 42)).not.toBe(teamRating(2, 42))
    for (let id = 1; id < 200; id++) {
      expect(teamRating(1, id)).toBeGreaterThanOrEqual(0.8)
      expect(teamRating(1, id)).toBeLessThan(1.25)
    }
    const rates = ratesOf(1, 10, 11)
    expect(rates.home * rates.away).toBeCloseTo(BASE_RATE.home * BASE_RATE.away, 9)
  })
})
