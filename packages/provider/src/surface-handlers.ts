/**
 * Handlers for the real API's paths beyond the core ones (packages/upstream-contract/src/endpoints.ts): what the provider can derive
 * from its dataset and simulator (derived.ts). Paths without a handler here or in handlers.ts answer the
 * generic way: 404/403 for the records their path names, then, for kinds the provider holds no records of,
 * an empty list with the right envelope.
 */
import { badRequestBody } from '@touchline/upstream-contract/query'
import { State } from '@touchline/upstream-contract/states'
import { commentaries, showsOn, squad, stationsOf, topscorers } from './derived.ts'
import { dateParam, fixtureScoped, listOf, many, num, pathRecordsGate, seasonScoped, type Handler, type HandlerContext, type HandlerResult } from './handler-kit.ts'
import { PRICED_MARKETS } from './odds/markets.ts'
import type { Rec } from './records.ts'
import { seasonStandings } from './standings.ts'

const NONE: Handler = () => many([])

/** A list about the records its path names: 404/403 for those first (pathRecordsGate). */
function gated (ctx: HandlerContext, produce: () => readonly Rec[]): HandlerResult {
  return pathRecordsGate(ctx) ?? listOf(ctx, produce())
}

function leaguesOfTeam (ctx: HandlerContext, currentOnly: boolean): HandlerResult {
  return gated(ctx, () => {
    const seasons = ctx.world.related('team', 'seasons', num(ctx, 'teamId')).filter((s) => !currentOnly || s.is_current === true)
    const ids = new Set(seasons.map((s) => Number(s.league_id)))
    return ctx.world.all('league').filter((l) => ids.has(l.id))
  })
}

/** Fixtures sorted by kick-off, then id (the order of the fixture lists by date). */
const byKickoff = (ctx: HandlerContext, fixtures: readonly Rec[]): Rec[] =>
  [...fixtures].sort((a, b) => ctx.world.kickoff(a, ctx.now) - ctx.world.kickoff(b, ctx.now) || a.id - b.id)

function fixturesOfStation (ctx: HandlerContext, upcoming: boolean): HandlerResult {
  const nowS = ctx.now / 1000
  return gated(ctx, () => byKickoff(ctx, ctx.world.all('fixture').filter((f) => showsOn(f, num(ctx, 'tvStationId')) && (ctx.world.kickoff(f, ctx.now) >= nowS) === upcoming)))
}

/** Fixtures not yet started that have odds in a market: every one for the markets the provider prices. */
function upcomingWithMarket (ctx: HandlerContext): HandlerResult {
  const nowS = ctx.now / 1000
  return gated(ctx, () => !(PRICED_MARKETS as readonly number[]).includes(num(ctx, 'marketId'))
    ? []
    : byKickoff(ctx, ctx.world.all('fixture').filter((f) => ctx.world.kickoff(f, ctx.now) >= nowS && ctx.world.stateOf(f, ctx.now) === State.NS)))
}

function stageTopscorers (ctx: HandlerContext): HandlerResult {
  return gated(ctx, () => {
    const stage = ctx.world.get('stage', num(ctx, 'stageId')) as Rec
    const fixtures = (ctx.world.ds.fixturesByStage.get(stage.id) ?? []) as unknown as Rec[]
    return topscorers(ctx.world, fixtures, ctx.now, { season_id: Number(stage.season_id), stage_id: stage.id })
  })
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

/** `/standings/live/leagues/{id}`: the current season's tables with the matches in play counted at their score. */
function liveStandings (ctx: HandlerContext): HandlerResult {
  return gated(ctx, () => {
    const season = ctx.world.ds.currentSeasonByLeague.get(num(ctx, 'leagueId'))
    return season === undefined ? [] : seasonStandings(ctx.world, season.id, ctx.now, true)
  })
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
  'squads.teams': (ctx) => gated(ctx, () => squad(ctx.world, num(ctx, 'teamId'))),
  'squads.seasonTeams': seasonSquad,
  'transfers.latest': (ctx) => listOf(ctx, [...ctx.world.all('transfer')].sort((a, b) => String(b.date).localeCompare(String(a.date)) || a.id - b.id)),
  'transfers.between': transfersBetween,
  'transfers.players': (ctx) => gated(ctx, () => ctx.world.all('transfer').filter((t) => t.player_id === num(ctx, 'playerId'))),
  'transfers.teams': (ctx) => gated(ctx, () => ctx.world.all('transfer').filter((t) => t.from_team_id === num(ctx, 'teamId') || t.to_team_id === num(ctx, 'teamId'))),
  'rivals.teams': (ctx) => gated(ctx, () => ctx.world.all('rival').filter((r) => r.team_id === num(ctx, 'teamId'))),
  'tvStations.fixtures': (ctx) => fixtureScoped(ctx, stationsOf),
  'fixtures.upcomingTvStations': (ctx) => fixturesOfStation(ctx, true),
  'fixtures.pastTvStations': (ctx) => fixturesOfStation(ctx, false),
  'fixtures.upcomingMarkets': upcomingWithMarket,
  'commentaries.list': (ctx) => listOf(ctx, ctx.world.inplay(ctx.now).flatMap((f) => commentaries(ctx.world, f, ctx.now))),
  'commentaries.fixtures': (ctx) => fixtureScoped(ctx, (f) => commentaries(ctx.world, f, ctx.now)),
  'bookmakers.fixtures': (ctx) => fixtureScoped(ctx, (f) => {
    const ids = new Set(ctx.world.preMatchOdds(f, ctx.now).map((o) => Number(o.row.bookmaker_id)))
    return ctx.world.all('bookmaker').filter((b) => ids.has(b.id))
  }),
  'predictions.probabilities': (ctx) => listOf(ctx, ctx.world.livescores(ctx.now).flatMap((f) => ctx.world.predictions(f))),
  // The provider has no premium odds feed: the fixture must exist, the list is empty.
  'odds.premium.fixtures': (ctx) => fixtureScoped(ctx, () => []),
  'odds.premium.fixturesBookmakers': (ctx) => fixtureScoped(ctx, () => []),
  'odds.premium.fixturesMarkets': (ctx) => fixtureScoped(ctx, () => [])
}
