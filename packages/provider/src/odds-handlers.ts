/**
 * The odds feeds (docs/provider.md, "Odds"): `/football/odds/inplay[...]` and `/football/odds/pre-match[...]`,
 * all, latest, by fixture, by fixture and bookmaker or market, narrowed by the `markets:`/`bookmakers:`
 * filters. In-play odds are those of the fixtures in the livescores feed from their kick-off; the `latest`
 * paths hold the rows updated in the last 10 real seconds, as livescores/latest does.
 */
import { LATEST_WINDOW_MS } from './sim/engine.ts'
import { filterOdds } from './fixture-filters.ts'
import { fixtureScoped, listOf, many, pathRecordsGate, type Handler, type HandlerContext, type HandlerResult } from './handler-kit.ts'
import { PRE_MATCH_OPENS_S, type TimedOdd } from './odds/book.ts'
import type { Rec } from './records.ts'

type Feed = 'inplay' | 'preMatch'

const rowsOf = (odds: readonly TimedOdd[]): Rec[] => odds.map((o) => o.row)
const byId = (a: Rec, b: Rec): number => a.id - b.id

function oddsOf (ctx: HandlerContext, feed: Feed, fixture: Rec): TimedOdd[] {
  return feed === 'inplay' ? ctx.world.inplayOdds(fixture, ctx.now) : ctx.world.preMatchOdds(fixture, ctx.now)
}

/** Real ms from kick-off to the end of the settling: no fixture settles its markets later than this after kick-off. */
const SETTLE_SPAN_S = 6 * 3600

/**
 * The fixtures whose odds of a feed are on offer now (`all`), or may have changed in the last 10 s
 * (`latest`): in play, those of the livescores feed; pre-match, those kicking off within a day of match
 * time, and for `latest` also those that kicked off or settled lately.
 */
function fixturesOf (ctx: HandlerContext, feed: Feed, which: 'all' | 'latest'): Rec[] {
  const { world, now } = ctx
  if (feed === 'inplay') return world.livescores(now)
  const nowS = now / 1000
  const day = PRE_MATCH_OPENS_S / world.live.speed
  const window = LATEST_WINDOW_MS / 1000
  const offered = (k: number): boolean => k > nowS && k <= nowS + day
  const recent = (k: number): boolean => (k > nowS - window - SETTLE_SPAN_S / world.live.speed && k <= nowS) || (k > nowS + day - window && k <= nowS + day)
  return world.all('fixture').filter((f) => which === 'all' ? offered(world.kickoff(f, now)) : recent(world.kickoff(f, now)))
}

/** `/odds/{feed}`: every row on offer, paged, by id. */
function allOdds (feed: Feed): Handler {
  return (ctx) => {
    const rows = fixturesOf(ctx, feed, 'all').flatMap((f) => rowsOf(oddsOf(ctx, feed, f)))
    return listOf(ctx, filterOdds(rows, ctx.query.filters).sort(byId))
  }
}

/** `/odds/{feed}/latest`: the rows updated in the last 10 real seconds, whole (no pages). */
function latestOdds (feed: Feed): Handler {
  return (ctx) => {
    const since = ctx.now - LATEST_WINDOW_MS
    const fresh = fixturesOf(ctx, feed, 'latest').flatMap((f) => oddsOf(ctx, feed, f).filter((o) => o.updatedMs > since && o.updatedMs <= ctx.now))
    return many(filterOdds(rowsOf(fresh), ctx.query.filters).sort(byId))
  }
}

/** `/odds/{feed}/fixtures/{id}[/bookmakers/{id}|/markets/{id}]`: one fixture's rows, narrowed by the path too. */
function fixtureOdds (feed: Feed): Handler {
  return (ctx): HandlerResult => pathRecordsGate(ctx) ?? fixtureScoped(ctx, (f) => {
    const { bookmakerId, marketId } = ctx.params
    return filterOdds(rowsOf(oddsOf(ctx, feed, f)), ctx.query.filters).filter((o) =>
      (bookmakerId === undefined || o.bookmaker_id === Number(bookmakerId)) && (marketId === undefined || o.market_id === Number(marketId)))
  })
}

export const ODDS_HANDLERS: Readonly<Record<string, Handler>> = {
  'odds.preMatch.list': allOdds('preMatch'),
  'odds.preMatch.latest': latestOdds('preMatch'),
  'odds.fixtures': fixtureOdds('preMatch'),
  'odds.preMatch.fixturesBookmakers': fixtureOdds('preMatch'),
  'odds.preMatch.fixturesMarkets': fixtureOdds('preMatch'),
  'odds.inplay.list': allOdds('inplay'),
  'odds.inplay.latest': latestOdds('inplay'),
  'odds.inplay.fixtures': fixtureOdds('inplay'),
  'odds.inplay.fixturesBookmakers': fixtureOdds('inplay'),
  'odds.inplay.fixturesMarkets': fixtureOdds('inplay')
}
