/**
 * When each market is settled and which selections win. A market is settled as soon as its outcome can no
 * longer change: over 2.5 at the third goal, both teams to score at the goal that makes it so, the next-goal
 * market of goal n at goal n; each when the markets reopen after that goal (VAR may still take it back
 * while they are suspended). Every other market is settled when regular time ends; when the match is called
 * off, those win nothing (void).
 */
import { Market, MAX_NEXT_GOAL } from './markets.ts'
import { standingGoals, suspensions, type MatchLine, type Span } from './line.ts'

export interface Settlement {
  /** Match second from which the market is stopped and its winners shown. */
  at: number
  /** Indexes of the winning selections, in the order of the market's rows; none when void. */
  winners: readonly number[]
}

export interface Settlements {
  byMarket: ReadonlyMap<number, Settlement>
  /** Next-goal markets: the one for goal n at index n − 1. */
  nextGoal: readonly Settlement[]
  /** Suspensions of the line (line.ts), shared with the pricing. */
  windows: readonly Span[]
}

/** When the markets reopen after a moment: the end of the suspension it falls in, else that moment. */
export function reopenAfter (windows: readonly Span[], at: number): number {
  return windows.find((w) => w.from <= at && at < w.to)?.to ?? at
}

const cache = new WeakMap<MatchLine, Settlements>()

export function settlements (line: MatchLine): Settlements {
  const hit = cache.get(line)
  if (hit !== undefined) return hit
  const windows = suspensions(line)
  const end = line.end
  const goals = standingGoals(line).filter((g) => end === undefined || g.at < end)
  const early = (index: number, winners: number[]): Settlement | undefined => {
    const goal = goals[index]
    if (goal === undefined) return undefined
    const at = reopenAfter(windows, goal.at)
    return end !== undefined && at >= end ? { at: end, winners } : { at, winners }
  }
  const atEnd = (winners: number[]): Settlement | undefined => end === undefined ? undefined : { at: end, winners: line.void ? [] : winners }
  const home = goals.filter((g) => g.side === 'home').length
  const away = goals.length - home
  const outcome = home > away ? 0 : home === away ? 1 : 2
  const byMarket = new Map<number, Settlement>()
  const put = (market: number, s: Settlement | undefined): void => { if (s !== undefined) byMarket.set(market, s) }
  put(Market.FULLTIME_RESULT, atEnd([outcome]))
  put(Market.DOUBLE_CHANCE, atEnd([[0, 1], [0, 2], [1, 2]][outcome] as number[]))
  put(Market.OVER_UNDER, early(2, [0]) ?? atEnd([goals.length > 2 ? 0 : 1]))
  const both = goals.findIndex((_, i) => new Set(goals.slice(0, i + 1).map((g) => g.side)).size === 2)
  put(Market.BOTH_TEAMS_TO_SCORE, (both === -1 ? undefined : early(both, [0])) ?? atEnd([both === -1 ? 1 : 0]))
  const nextGoal: Settlement[] = []
  for (let n = 1; n <= Math.min(goals.length + 1, MAX_NEXT_GOAL); n++) {
    const goal = goals[n - 1]
    const s = (goal === undefined ? undefined : early(n - 1, [goal.side === 'home' ? 0 : 2])) ?? atEnd([1])
    if (s === undefined) break
    nextGoal.push(s)
    // The next market opens when this one is settled, if regular time is not over by then.
    if (end !== undefined && s.at >= end) break
  }
  const out = { byMarket, nextGoal, windows }
  cache.set(line, out)
  return out
}
