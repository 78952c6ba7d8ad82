/**
 * What each endpoint returns, before rendering (includes, select, timezone) and pagination. A handler gets
 * the validated query and answers with records, or with a 403/404 reply (which costs no budget).
 */
import { badRequestBody } from '@touchline/upstream-contract/query'
import { leagueForbidden, leagueOf, leagueVisible } from './access.ts'
import { notFound } from './error-replies.ts'
import { billingFormat } from './envelope.ts'
import type { Rec } from './records.ts'
import { dateParam, fixtureScoped, listOf, many, num, pathRecordsGate, seasonScoped, visible, type Handler, type HandlerContext, type HandlerResult } from './handler-kit.ts'
import { roundStandings, seasonStandings } from './standings.ts'
import { SURFACE_HANDLERS } from './surface-handlers.ts'
import { ODDS_HANDLERS } from './odds-handlers.ts'

export type { HandlerContext, HandlerResult } from './handler-kit.ts'

/** IANA zone names; Intl leaves out UTC, which is the API's default zone. */
const TIMEZONES: readonly Rec[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')].map((name, i) => ({ id: i + 1, name }))

function byId (ctx: HandlerContext): HandlerResult {
  const { kind } = ctx.endpoint
  const id = num(ctx, 'id')
  const record = ctx.world.get(kind, id)
  if (record === undefined) return notFound(kind, id)
  const league = leagueOf(kind, record)
  if (league !== undefined && !leagueVisible(ctx.caller.plan, league)) return leagueForbidden(league)
  return { kind: 'one', record }
}

const textMatch = (text: string) => {
  const needle = text.toLowerCase()
  return (r: Rec): boolean => typeof r.name === 'string' && r.name.toLowerCase().includes(needle)
}

function fixturesBetween (ctx: HandlerContext, teamId?: number): HandlerResult {
  const start = dateParam(ctx, 'start')
  const end = dateParam(ctx, 'end')
  if (typeof start !== 'string') return start
  if (typeof end !== 'string') return end
  const from = Date.parse(`${start}T00:00:00Z`) / 1000
  const to = Date.parse(`${end}T23:59:59Z`) / 1000
  if (to < from || to - from > 100 * 86400) {
    return { status: 400, body: badRequestBody('end', 'The date range must run forward and span at most 100 days.') }
  }
  const fixtures = ctx.world.all('fixture').filter((f) => {
    const ts = ctx.world.kickoff(f, ctx.now)
    return ts >= from && ts <= to && (teamId === undefined || f.home_team_id === teamId || f.away_team_id === teamId)
  })
  return listOf(ctx, [...fixtures].sort((a, b) => ctx.world.kickoff(a, ctx.now) - ctx.world.kickoff(b, ctx.now) || a.id - b.id))
}

const HANDLERS: Record<string, Handler> = {
  ...SURFACE_HANDLERS,
  ...ODDS_HANDLERS,
  'timezones.list': () => many(TIMEZONES),
  'filters.entity': (ctx) => many(ctx.world.filterListing()),
  'my.filters': (ctx) => many(ctx.world.filterListing()),
  'leagues.live': (ctx) => listOf(ctx, ctx.world.leaguesWithFixtures(ctx.world.inplay(ctx.now))),
  'leagues.date': (ctx) => {
    const date = dateParam(ctx, 'date')
    return typeof date === 'string' ? listOf(ctx, ctx.world.leaguesWithFixtures(ctx.world.fixturesOn(date, ctx.now))) : date
  },
  'leagues.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'leagues', num(ctx, 'countryId'))),
  'seasons.teams': (ctx) => listOf(ctx, ctx.world.related('team', 'seasons', num(ctx, 'teamId'))),
  'stages.seasons': (ctx) => listOf(ctx, ctx.world.related('season', 'stages', num(ctx, 'seasonId'))),
  'rounds.seasons': (ctx) => listOf(ctx, ctx.world.related('season', 'rounds', num(ctx, 'seasonId'))),
  'schedules.seasons': (ctx) => scheduled(ctx, ctx.world.related('season', 'stages', num(ctx, 'seasonId')), num(ctx, 'seasonId')),
  'schedules.teams': (ctx) => many(visible(ctx, 'stage', ctx.world.teamSchedule(num(ctx, 'teamId'), ctx.now))),
  // Tables counted from the simulated results (standings.ts).
  'standings.list': (ctx) => listOf(ctx, ctx.world.all('season').flatMap((s) => seasonStandings(ctx.world, s.id, ctx.now)).sort((a, b) => a.id - b.id)),
  'standings.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => seasonStandings(ctx.world, num(ctx, 'seasonId'), ctx.now)),
  'standings.rounds': (ctx) => {
    const round = ctx.world.get('round', num(ctx, 'roundId'))
    if (round === undefined) return notFound('round', num(ctx, 'roundId'))
    return seasonScoped(ctx, Number(round.season_id), () => roundStandings(ctx.world, round.id, ctx.now))
  },
  'fixtures.multi': (ctx) => {
    const ids = (ctx.params.ids ?? '').split(',').map(Number)
    if (ids.length > 50) return { status: 400, body: badRequestBody('ids', 'At most 50 fixture ids per request.') }
    return listOf(ctx, ids.map((id) => ctx.world.get('fixture', id)).filter((f): f is Rec => f !== undefined))
  },
  'fixtures.date': (ctx) => {
    const date = dateParam(ctx, 'date')
    return typeof date === 'string' ? listOf(ctx, ctx.world.fixturesOn(date, ctx.now)) : date
  },
  'fixtures.between': (ctx) => fixturesBetween(ctx),
  'fixtures.betweenTeam': (ctx) => fixturesBetween(ctx, num(ctx, 'teamId')),
  'fixtures.headToHead': (ctx) => {
    const [a, b] = [num(ctx, 'team1'), num(ctx, 'team2')]
    return listOf(ctx, ctx.world.related('team', 'fixtures', a).filter((f) => f.home_team_id === b || f.away_team_id === b))
  },
  'fixtures.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'fixtures', num(ctx, 'seasonId'))),
  // Any date's fixtures whose tracked base fields changed in the last 10 s (kick-off moves, postponements...).
  'fixtures.latest': (ctx) => listOf(ctx, ctx.world.fixturesLatest(ctx.now)),
  'livescores.all': (ctx) => listOf(ctx, ctx.world.livescores(ctx.now)),
  'livescores.inplay': (ctx) => listOf(ctx, ctx.world.inplay(ctx.now)),
  'livescores.latest': (ctx) => listOf(ctx, ctx.world.latest(ctx.now)),
  'teams.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'teams', num(ctx, 'countryId'))),
  'teams.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'teams', num(ctx, 'seasonId'))),
  'players.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'players', num(ctx, 'countryId'))),
  'coaches.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'coaches', num(ctx, 'countryId'))),
  'referees.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'referees', num(ctx, 'countryId'))),
  'referees.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'referees', num(ctx, 'seasonId'))),
  'venues.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'venues', num(ctx, 'seasonId'))),
  'expected.fixtures': (ctx) => many(ctx.world.expected(ctx.now)),
  'predictions.fixtures': (ctx) => fixtureScoped(ctx, (f) => ctx.world.predictions(f)),
  'my.leagues': (ctx) => listOf(ctx, ctx.world.all('league')),
  'my.resources': (ctx) => many(ctx.world.resources(ctx.caller.plan)),
  'my.usage': () => ({
    kind: 'usage',
    format: (s) => ({
      entity: s.entity,
      requests_made: s.used,
      remaining_requests: s.remaining,
      period_start: billingFormat(s.windowStart).slice(0, 19).replace('T', ' '),
      period_end: billingFormat(s.windowStart + 3_600_000).slice(0, 19).replace('T', ' ')
    })
  })
}

function scheduled (ctx: HandlerContext, stages: readonly Rec[], id: number): HandlerResult {
  return seasonScoped(ctx, id, () => ctx.world.schedule(stages, ctx.now))
}

export function runHandler (ctx: HandlerContext): HandlerResult {
  const special = HANDLERS[ctx.endpoint.id]
  if (special !== undefined) return special(ctx)
  const gate = pathRecordsGate(ctx)
  if (gate !== undefined) return gate
  const [, op] = ctx.endpoint.id.split('.')
  const { kind } = ctx.endpoint
  if (op === 'byId') return byId(ctx)
  if (op === 'search') return listOf(ctx, ctx.world.all(kind).filter(textMatch(ctx.params.name ?? '')))
  return listOf(ctx, ctx.world.all(kind))
}
