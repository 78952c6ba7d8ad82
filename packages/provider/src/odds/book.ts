/**
 * The odds rows of one fixture at one instant, in-play and pre-match, in the real API's shape (prices as
 * strings, `winning`, `stopped`, in-play `suspended`...). Everything is a function of the match line, the
 * seed and the instant: the same seed gives the same prices on any machine, and asking twice gives the same
 * rows.
 *
 * In play, each bookmaker re-prices at its own pace (every `cadence` seconds of play, and at once on a red
 * card) from the score, the red cards and the minutes left; around a goal, a penalty award or a VAR review
 * every market is suspended and shows its last price, and reopens at new prices. A market is stopped when
 * settled (settle.ts). Pre-match rows carry the price of the kick-off instant, so the two feeds agree there.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { hashSeed, Rng } from '../rng.ts'
import { clockAt, realMsAt } from '../sim/clock.ts'
import type { Rec } from '../records.ts'
import { clockOf, clockSteps, goalsAt, lastAtOrBefore, type MatchLine, type Span } from './line.ts'
import { BOOKMAKERS, Market, MARKET_NAMES, MAX_NEXT_GOAL, nextGoalSlot, oddId, OU_LINE, PRICED_MARKETS, SELECTION_SLOT, type BookmakerSpec, type MarketId } from './markets.ts'
import { decimalPrice, expectedGoals, fairProbabilities, FIRST_HALF_MINUTES, formats, SECOND_HALF_MINUTES, type PricingState, type Sides } from './pricing.ts'
import { settlements, type Settlement } from './settle.ts'

/** A line placed on the real clock. */
export interface OddsLine {
  line: MatchLine
  /** Scheduled kick-off, unix seconds, and match seconds per real second (sim/clock.ts). */
  kickoff: number
  speed: number
}

/** A placed line with the seed and the teams' scoring rates: all the prices depend on. */
export interface PlacedLine extends OddsLine {
  seed: number
  /** Goals per 90 minutes of each side before red cards (rates.ts). */
  rates: Sides
}

/** Pre-match odds are on offer from a day of match time before kick-off. */
export const PRE_MATCH_OPENS_S = 86_400

interface Selection {
  label: string
  name: string
  participants: string | null
}

function selections (line: MatchLine, market: MarketId, goal: number): Selection[] {
  const { home, away } = line
  const team = (t: { id: number, name: string }, label: string, name = t.name): Selection => ({ label, name, participants: String(t.id) })
  const plain = (label: string, name = label): Selection => ({ label, name, participants: null })
  switch (market) {
    case Market.FULLTIME_RESULT: return [team(home, '1'), plain('X', 'Draw'), team(away, '2')]
    case Market.DOUBLE_CHANCE: return [team(home, '1X', `${home.name} or Draw`), { label: '12', name: `${home.name} or ${away.name}`, participants: `${home.id}|${away.id}` }, team(away, 'X2', `Draw or ${away.name}`)]
    case Market.OVER_UNDER: return [plain('Over'), plain('Under')]
    case Market.BOTH_TEAMS_TO_SCORE: return [plain('Yes'), plain('No')]
    case Market.NEXT_GOAL: return [team(home, '1', `Goal ${goal}: ${home.name}`), plain('No Goal', `Goal ${goal}: No goal`), team(away, '2', `Goal ${goal}: ${away.name}`)]
  }
}

/** What the bookmaker prices from at match second `t`: its last re-pricing instant's clock, the score and red cards now. */
function pricingAt (p: PlacedLine, b: BookmakerSpec, t: number): { state: PricingState, mu: Sides } {
  const { line } = p
  const clock = clockOf(line, t)
  const k = Math.floor(clock.inHalf / b.cadence)
  const minutes = k * b.cadence / 60
  const remaining = clock.half === 1
    ? Math.max(1, FIRST_HALF_MINUTES - minutes) + SECOND_HALF_MINUTES
    : Math.max(0.5, SECOND_HALF_MINUTES - minutes)
  const goals = { home: 0, away: 0 }
  for (const g of goalsAt(line, t)) goals[g.side]++
  const reds = { home: 0, away: 0 }
  for (const r of line.reds) if (r.at <= t) reds[r.side]++
  const state: PricingState = { goals, reds, remaining }
  // The bookmaker's own opinion: its expected goals off the model's by up to ±noise (log scale), drawn anew at each re-pricing.
  const rng = new Rng(hashSeed(p.seed, line.fixtureId, b.id, clock.half, k, goals.home, goals.away, reds.home, reds.away))
  const mu = expectedGoals(p.rates, state)
  const tilt = (side: HomeAway): number => mu[side] * Math.exp(rng.float(-b.noise, b.noise))
  return { state, mu: { home: tilt('home'), away: tilt('away') } }
}

const windowAt = (windows: readonly Span[], t: number): Span | undefined => windows.find((w) => w.from <= t && t < w.to)

/** The prices shown at `t`: while suspended, those of the moment the suspension began. */
function shownAt (p: PlacedLine, b: BookmakerSpec, windows: readonly Span[], t: number): { state: PricingState, mu: Sides } {
  const w = windowAt(windows, t)
  return pricingAt(p, b, w === undefined ? t : w.from - 1e-6)
}

/** The instant of the bookmaker's last change before `t` while the markets are open: a re-pricing, a red card, a reopening. */
function lastOpenChange (p: PlacedLine, b: BookmakerSpec, windows: readonly Span[], t: number): number {
  const { line } = p
  const tick = lastAtOrBefore(clockSteps(line, b.cadence), t) ?? -Infinity
  const reopened = windows.filter((w) => w.to <= t).at(-1)?.to ?? -Infinity
  const red = line.reds.filter((r) => r.at <= t).at(-1)?.at ?? -Infinity
  return Math.max(tick, reopened, red)
}

const billing = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
const created = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}.000000Z`

interface MarketRun {
  market: MarketId
  goal: number
  /** Match second from which the market is offered. */
  opens: number
  settlement: Settlement | undefined
}

/** The markets a bookmaker offers at `t`: the four fixed ones, and the next-goal markets opened so far. */
function marketsAt (p: PlacedLine, t: number, inplay: boolean): MarketRun[] {
  const { line } = p
  const s = settlements(line)
  const start = line.start ?? line.end ?? 0
  const fixed = PRICED_MARKETS.filter((m) => m !== Market.NEXT_GOAL).map((market) => ({ market, goal: 0, opens: start, settlement: s.byMarket.get(market) }))
  const goals: MarketRun[] = [{ market: Market.NEXT_GOAL, goal: 1, opens: start, settlement: s.nextGoal[0] }]
  // Pre-match, only the first goal is priced; in play, each goal's market opens when the one before settles.
  for (let n = 2; n <= (inplay ? MAX_NEXT_GOAL : 1); n++) {
    const before = s.nextGoal[n - 2]
    if (before === undefined || before.at > t || (line.end !== undefined && before.at >= line.end)) break
    goals.push({ market: Market.NEXT_GOAL, goal: n, opens: before.at, settlement: s.nextGoal[n - 1] })
  }
  return [...fixed, ...goals].sort((a, b) => a.market - b.market || a.goal - b.goal)
}

interface RowTiming {
  /** Match second at which the row was last updated, or undefined when not yet. */
  updated: number | undefined
  stopped: boolean
  suspended: boolean
  /** Match second whose shown prices the row carries. */
  pricedAt: number
}

function inplayTiming (p: PlacedLine, b: BookmakerSpec, run: MarketRun, windows: readonly Span[], t: number): RowTiming {
  const settled = run.settlement !== undefined && run.settlement.at <= t
  if (settled) return { updated: run.settlement?.at, stopped: true, suspended: false, pricedAt: (run.settlement?.at ?? t) - 1e-6 }
  const w = windowAt(windows, t)
  const updated = w !== undefined ? w.from : lastOpenChange(p, b, windows, t)
  return { updated: Math.max(run.opens, updated), stopped: false, suspended: w !== undefined, pricedAt: t }
}

function preMatchTiming (p: PlacedLine, run: MarketRun, t: number): RowTiming {
  const kickoff = p.line.start
  const stopsAt = kickoff ?? p.line.end ?? Infinity
  const moments = [stopsAt - PRE_MATCH_OPENS_S, stopsAt, run.settlement?.at ?? Infinity].filter((m) => m <= t)
  return { updated: moments.at(-1), stopped: t >= stopsAt, suspended: false, pricedAt: -Infinity }
}

/** A row, and the real ms of its last update (its `latest_bookmaker_update`, to the millisecond). */
export interface TimedOdd {
  row: Rec
  updatedMs: number
}

/**
 * The `total` of a market's rows: the over/under line, and the goal a next-goal market is about (`"2"`: the
 * upstream lists one next-goal market per goal under one market id, and the line tells them apart).
 */
function lineOf (run: MarketRun): string | null {
  if (run.market === Market.OVER_UNDER) return OU_LINE.toFixed(1)
  return run.market === Market.NEXT_GOAL ? String(run.goal) : null
}

/** The rows of one market of one bookmaker at `t`. */
function marketRows (p: PlacedLine, b: BookmakerSpec, run: MarketRun, t: number, inplay: boolean): TimedOdd[] {
  const { line } = p
  const windows = settlements(line).windows
  const timing = inplay ? inplayTiming(p, b, run, windows, t) : preMatchTiming(p, run, t)
  const shown = inplay ? shownAt(p, b, windows, timing.pricedAt) : pricingAt(p, b, -Infinity)
  const probabilities = fairProbabilities(run.market, shown.state, shown.mu)
  const winners = run.settlement !== undefined && run.settlement.at <= t ? run.settlement.winners : []
  const firstSlot = run.market === Market.NEXT_GOAL ? nextGoalSlot(run.goal) : SELECTION_SLOT[run.market]
  const toMs = (at: number): number => realMsAt(p.kickoff, p.speed, at)
  const openedMs = toMs(inplay ? run.opens : (line.start ?? line.end ?? 0) - PRE_MATCH_OPENS_S)
  const updatedMs = timing.updated === undefined ? -Infinity : toMs(timing.updated)
  return selections(line, run.market, run.goal).map((sel, i) => {
    const price = decimalPrice(probabilities[i] ?? 0, b.margin)
    const row: Rec = {
      id: oddId(line.fixtureId, inplay, b, firstSlot + i),
      fixture_id: line.fixtureId,
      market_id: run.market,
      bookmaker_id: b.id,
      label: sel.label,
      ...formats(price),
      name: sel.name,
      sort_order: i,
      market_description: MARKET_NAMES[run.market],
      winning: winners.includes(i)
    }
    if (inplay) row.suspended = timing.suspended
    Object.assign(row, {
      stopped: timing.stopped,
      total: lineOf(run),
      handicap: null,
      participants: sel.participants,
      created_at: created(openedMs),
      original_label: sel.label,
      latest_bookmaker_update: timing.updated === undefined ? null : billing(updatedMs)
    })
    return { row: ordered(row), updatedMs }
  })
}

/** Field order of the real API's rows: the price formats sit between `value`'s neighbours. */
function ordered (row: Rec): Rec {
  const { id, fixture_id: fixtureId, market_id: marketId, bookmaker_id: bookmakerId, label, value, name, sort_order: sortOrder, market_description: description, probability, dp3, fractional, american, ...rest } = row
  return { id, fixture_id: fixtureId, market_id: marketId, bookmaker_id: bookmakerId, label, value, name, sort_order: sortOrder, market_description: description, probability, dp3, fractional, american, ...rest }
}

const byId = (a: TimedOdd, b: TimedOdd): number => a.row.id - b.row.id

/** In-play odds at `nowMs`: none before kick-off. Whether the fixture still shows them (the live feed) is the caller's call. */
export function inplayOdds (p: PlacedLine, nowMs: number): TimedOdd[] {
  const t = clockAt(p.kickoff, p.speed, nowMs).seconds
  if (p.line.start === undefined || t < p.line.start) return []
  const runs = marketsAt(p, t, true)
  return BOOKMAKERS.flatMap((b) => runs.flatMap((run) => marketRows(p, b, run, t, true))).sort(byId)
}

/** Pre-match odds at `nowMs`: the kick-off prices, stopped from kick-off, settled like the in-play ones. */
export function preMatchOdds (p: PlacedLine, nowMs: number): TimedOdd[] {
  const t = clockAt(p.kickoff, p.speed, nowMs).seconds
  const runs = marketsAt(p, t, false)
  return BOOKMAKERS.flatMap((b) => runs.flatMap((run) => marketRows(p, b, run, t, false))).sort(byId)
}
