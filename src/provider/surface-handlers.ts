/**
 * Handlers for the real API's paths beyond the spec (src/contract/endpoints.ts): what the provider can derive
 * from its dataset and simulator (derived.ts). Paths without a handler here or in handlers.ts answer the
 * generic way, which for kinds the provider holds no records of is an empty list with the right envelope.
 */
import { badRequestBody } from '../contract/query.ts'
import { LIVE_STATE_IDS } from '../contract/states.ts'
import { leagueForbidden, leagueVisible } from './access.ts'
import { commentaries, showsOn, squad, stationsOf, topscorers } from './derived.ts'
import { notFound } from './errors.ts'
import { dateParam, fixtureScoped, listOf, many, num, seasonScoped, type Handler, type HandlerContext, type HandlerResult } from './handler-kit.ts'
import { ODDS_MARKET, type Rec } from './world.ts'

const NONE: Handler = () => many([])

/** A list about one team: 404 for a team that does not exist. */
function teamScoped (ctx: HandlerContext, produce: (team: Rec) => readonly Rec[]): HandlerResult {
  const team = ctx.world.get('team', num(ctx, 'teamId'))
  return team === undefined ? notFound('team', num(ctx, 'teamId')) : listOf(ctx, produce(team))
}

function leaguesOfTeam (ctx: HandlerContext, currentOnly: boolean): HandlerResult {
  return teamScoped(ctx, (team) => {
    const seasons = ctx.world.related('team', 'seasons', team.id).filter((s) => !currentOnly || s.is_current === true)
    const ids = new Set(seasons.map((s) => Number(s.league_id)))
    return ctx.world.all('league').filter((l) => ids.has(l.id))
  })
}

/** Fixtures sorted by kick-off, then id (the order of the fixture lists by date). */
const byKickoff = (ctx: HandlerContext, fixtures: readonly Rec[]): Rec[] =>
  [...fixtures].sort((a, b) => ctx.world.kickoff(a) - ctx.world.kickoff(b) || a.id - b.id)

function fixturesOfStation (ctx: HandlerContext, upcoming: boolean): HandlerResult {
  const station = num(ctx, 'tvStationId')
  if (ctx.world.get('tvstation', station) === undefined) return notFound('tvstation', station)
  const nowS = ctx.now / 1000
  const fixtures = ctx.world.all('fixture').filter((f) => showsOn(f, station) && (ctx.world.kickoff(f) >= nowS) === upcoming)
  return listOf(ctx, byKickoff(ctx, fixtures))
}

/** Fixtures not yet started that have odds in a market: every one for the market the provider prices. */
function upcomingWithMarket (ctx: HandlerContext): HandlerResult {
  const market = num(ctx, 'marketId')
  if (ctx.world.get('market', market) === undefined) return notFound('market', market)
  const nowS = ctx.now / 1000
  const fixtures = market === ODDS_MARKET ? ctx.world.all('fixture').filter((f) => ctx.world.kickoff(f) >= nowS && ctx.world.stateOf(f, ctx.now) === 1) : []
  return listOf(ctx, byKickoff(ctx, fixtures))
}

function stageTopscorers (ctx: HandlerContext): HandlerResult {
  const stage = ctx.world.get('stage', num(ctx, 'stageId'))
  if (stage === undefined) return notFound('stage', num(ctx, 'stageId'))
  const seasonId = Number(stage.season_id)
  return seasonScoped(ctx, seasonId, () => topscorers(ctx.world, (ctx.world.ds.fixturesByStage.get(stage.id) ?? []) as unknown as Rec[], ctx.now, { season_id: seasonId, stage_id: stage.id }))
}

function seasonSquad (ctx: HandlerContext): HandlerResult {
  const seasonId = num(ctx, 'seasonId')
  const teamId = num(ctx, 'teamId')
  return seasonScoped(ctx, seasonId, () => {
    const plays = ctx.world.related('season', 'teams', seasonId).some((t) => t.id === teamId)
    return plays ? squad(ctx.world, teamId, ctx.world.get('season', seasonId)) : []
  })
}

/** `/schedules/seasons/{id}/teams/{id}`: the season's schedule with only that team's fixtures. */
function seasonTeamSchedule (ctx: HandlerContext): HandlerResult {
  const seasonId = num(ctx, 'seasonId')
  const own = new Set(ctx.world.related('team', 'fixtures', num(ctx, 'teamId')).map((f) => f.id))
  return seasonScoped(ctx, seasonId, () => ctx.world.schedule(ctx.world.related('season', 'stages', seasonId), ctx.now).map((stage) => ({
    ...stage,
    rounds: (stage.rounds as Rec[]).map((round) => ({ ...round, fixtures: (round.fixtures as Rec[]).filter((f) => own.has(f.id)) }))
  })))
}

function liveStandings (ctx: HandlerContext): HandlerResult {
  const leagueId = num(ctx, 'leagueId')
  if (ctx.world.get('league', leagueId) === undefined) return notFound('league', leagueId)
  if (!leagueVisible(ctx.caller.plan, leagueId)) return leagueForbidden(leagueId)
  const season = ctx.world.ds.currentSeasonByLeague.get(leagueId)
  return many(season === undefined ? [] : ctx.world.related('season', 'standings', season.id))
}

/** `/transfers/between/{start}/{end}`: transfers dated within the range. */
function transfersBetween (ctx: HandlerContext): HandlerResult {
  const start = dateParam(ctx, 'start')
  const end = dateParam(ctx, 'end')
  if (typeof start !== 'string') return start
  if (typeof end !== 'string') return end
  if (end < start) return { status: 400, body: badRequestBody('end', 'The date range must run forward.') }
  return listOf(ctx, ctx.world.all('transfer').filter((t) => String(t.date) >= start && String(t.date) <= end))
}

const live = (ctx: HandlerContext, f: Rec): boolean => LIVE_STATE_IDS.has(ctx.world.stateOf(f, ctx.now))
const inplayOdds = (ctx: HandlerContext, f: Rec): Rec[] => (live(ctx, f) ? ctx.world.odds(f) : [])

export const SURFACE_HANDLERS: Readonly<Record<string, Handler>> = {
  'leagues.teams': (ctx) => leaguesOfTeam(ctx, false),
  'leagues.teamsCurrent': (ctx) => leaguesOfTeam(ctx, true),
  'teams.leagues': (ctx) => leaguesOfTeam(ctx, false),
  'teams.leaguesCurrent': (ctx) => leaguesOfTeam(ctx, true),
  'leagues.includes': NONE,
  'players.latest': NONE,
  'coaches.latest': NONE,
  'markets.premium': NONE,
  'bookmakers.premium': NONE,
  'bookmakers.fixturesMapping': NONE,
  'schedules.seasonTeams': seasonTeamSchedule,
  'standings.live': liveStandings,
  'standings.corrections': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => []),
  'topscorers.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () =>
    topscorers(ctx.world, ctx.world.related('season', 'fixtures', num(ctx, 'seasonId')), ctx.now, { season_id: num(ctx, 'seasonId') })),
  'topscorers.stages': stageTopscorers,
  'squads.teams': (ctx) => teamScoped(ctx, (team) => squad(ctx.world, team.id)),
  'squads.seasonTeams': seasonSquad,
  'transfers.latest': (ctx) => listOf(ctx, [...ctx.world.all('transfer')].sort((a, b) => String(b.date).localeCompare(String(a.date)) || a.id - b.id)),
  'transfers.between': transfersBetween,
  'transfers.players': (ctx) => listOf(ctx, ctx.world.all('transfer').filter((t) => t.player_id === num(ctx, 'playerId'))),
  'transfers.teams': (ctx) => teamScoped(ctx, (team) => ctx.world.all('transfer').filter((t) => t.from_team_id === team.id || t.to_team_id === team.id)),
  'rivals.teams': (ctx) => teamScoped(ctx, (team) => ctx.world.all('rival').filter((r) => r.team_id === team.id)),
  'tvStations.fixtures': (ctx) => fixtureScoped(ctx, stationsOf),
  'fixtures.upcomingTvStations': (ctx) => fixturesOfStation(ctx, true),
  'fixtures.pastTvStations': (ctx) => fixturesOfStation(ctx, false),
  'fixtures.upcomingMarkets': upcomingWithMarket,
  'commentaries.list': (ctx) => listOf(ctx, ctx.world.inplay(ctx.now).flatMap((f) => commentaries(ctx.world, f, ctx.now))),
  'commentaries.fixtures': (ctx) => fixtureScoped(ctx, (f) => commentaries(ctx.world, f, ctx.now)),
  'bookmakers.fixtures': (ctx) => fixtureScoped(ctx, (f) => {
    const ids = new Set(ctx.world.odds(f).map((o) => Number(o.bookmaker_id)))
    return ctx.world.all('bookmaker').filter((b) => ids.has(b.id))
  }),
  'predictions.probabilities': (ctx) => listOf(ctx, ctx.world.livescores(ctx.now).flatMap((f) => ctx.world.predictions(f))),
  'odds.preMatch.fixturesBookmakers': (ctx) => fixtureScoped(ctx, (f) => ctx.world.odds(f).filter((o) => o.bookmaker_id === num(ctx, 'bookmakerId'))),
  'odds.preMatch.fixturesMarkets': (ctx) => fixtureScoped(ctx, (f) => ctx.world.odds(f).filter((o) => o.market_id === num(ctx, 'marketId'))),
  'odds.inplay.fixtures': (ctx) => fixtureScoped(ctx, (f) => inplayOdds(ctx, f)),
  'odds.inplay.fixturesBookmakers': (ctx) => fixtureScoped(ctx, (f) => inplayOdds(ctx, f).filter((o) => o.bookmaker_id === num(ctx, 'bookmakerId'))),
  'odds.inplay.fixturesMarkets': (ctx) => fixtureScoped(ctx, (f) => inplayOdds(ctx, f).filter((o) => o.market_id === num(ctx, 'marketId'))),
  // The provider has no premium odds feed: the fixture must exist, the list is empty.
  'odds.premium.fixtures': (ctx) => fixtureScoped(ctx, () => []),
  'odds.premium.fixturesBookmakers': (ctx) => fixtureScoped(ctx, () => []),
  'odds.premium.fixturesMarkets': (ctx) => fixtureScoped(ctx, () => [])
}
