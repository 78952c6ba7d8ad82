/**
 * What each endpoint returns, before rendering (includes, select, timezone) and pagination. A handler gets
 * the validated query and answers with records, or with a 403/404 reply (which costs no budget).
 */
import type { Endpoint } from '../contract/endpoints.ts'
import { badRequestBody, type ParsedQuery } from '../contract/query.ts'
import type { Kind } from '../contract/resources.ts'
import { leagueForbidden, leagueOf, leagueVisible } from './access.ts'
import type { Caller } from './auth.ts'
import { notFound, type ErrorReply } from './errors.ts'
import type { WindowState } from '../contract/hourly-window.ts'
import { billingFormat } from './envelope.ts'
import type { Rec, World } from './world.ts'
import { filterFixtures } from './fixture-filters.ts'

export interface HandlerContext {
  world: World
  caller: Caller
  params: Record<string, string>
  query: ParsedQuery
  now: number
  endpoint: Endpoint
}

export type HandlerResult =
  | { kind: 'one', record: Rec }
  | { kind: 'many', records: readonly Rec[] }
  | { kind: 'usage', format: (s: WindowState) => Record<string, unknown> }
  | ErrorReply

type Handler = (ctx: HandlerContext) => HandlerResult

/** IANA zone names; Intl leaves out UTC, which is the API's default zone. */
const TIMEZONES: readonly Rec[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')].map((name, i) => ({ id: i + 1, name }))

const num = (ctx: HandlerContext, name: string): number => Number(ctx.params[name])
const many = (records: readonly Rec[]): HandlerResult => ({ kind: 'many', records })

function visible (ctx: HandlerContext, kind: Kind, records: readonly Rec[]): Rec[] {
  return records.filter((r) => {
    const league = leagueOf(kind, r)
    return league === undefined || leagueVisible(ctx.caller.plan, league)
  })
}

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

/** Base list of a family endpoint, narrowed by the generic filters (IdAfter, the dynamic relation filters). */
function listOf (ctx: HandlerContext, records: readonly Rec[]): HandlerResult {
  const { kind } = ctx.endpoint
  let out = visible(ctx, kind, records)
  const idAfter = ctx.query.filters.get('idafter')
  if (idAfter !== undefined) out = out.filter((r) => r.id > Number(idAfter.values[0]))
  out = ctx.world.applyRelationFilters(kind, out, ctx.query.filters)
  if (kind === 'fixture') out = filterFixtures(ctx.world, out, ctx.query.filters, ctx.now)
  return many(out)
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

function dateParam (ctx: HandlerContext, name: string): string | ErrorReply {
  const value = ctx.params[name] ?? ''
  // A round trip catches dates JavaScript rolls over (2026-02-30 would read as 2026-03-02).
  const parsed = Date.parse(`${value}T00:00:00Z`)
  if (!DATE.test(value) || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value) {
    return { status: 400, body: badRequestBody(name, `The ${name} "${value}" is not a valid date (YYYY-MM-DD).`) }
  }
  return value
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
    const ts = ctx.world.kickoff(f)
    return ts >= from && ts <= to && (teamId === undefined || f.home_team_id === teamId || f.away_team_id === teamId)
  })
  return listOf(ctx, [...fixtures].sort((a, b) => ctx.world.kickoff(a) - ctx.world.kickoff(b) || a.id - b.id))
}

const HANDLERS: Record<string, Handler> = {
  'timezones.list': () => many(TIMEZONES),
  'filters.entity': (ctx) => many(ctx.world.filterListing()),
  'my.filters': (ctx) => many(ctx.world.filterListing()),
  'leagues.live': (ctx) => listOf(ctx, ctx.world.leaguesWithFixtures(ctx.world.inplay(ctx.now))),
  'leagues.date': (ctx) => {
    const date = dateParam(ctx, 'date')
    return typeof date === 'string' ? listOf(ctx, ctx.world.leaguesWithFixtures(ctx.world.fixturesOn(date))) : date
  },
  'leagues.countries': (ctx) => listOf(ctx, ctx.world.related('country', 'leagues', num(ctx, 'countryId'))),
  'seasons.teams': (ctx) => listOf(ctx, ctx.world.related('team', 'seasons', num(ctx, 'teamId'))),
  'stages.seasons': (ctx) => listOf(ctx, ctx.world.related('season', 'stages', num(ctx, 'seasonId'))),
  'rounds.seasons': (ctx) => listOf(ctx, ctx.world.related('season', 'rounds', num(ctx, 'seasonId'))),
  'schedules.seasons': (ctx) => scheduled(ctx, ctx.world.related('season', 'stages', num(ctx, 'seasonId')), num(ctx, 'seasonId')),
  'schedules.teams': (ctx) => many(visible(ctx, 'stage', ctx.world.teamSchedule(num(ctx, 'teamId'), ctx.now))),
  'standings.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'standings', num(ctx, 'seasonId'))),
  'standings.rounds': (ctx) => {
    const round = ctx.world.get('round', num(ctx, 'roundId'))
    if (round === undefined) return notFound('round', num(ctx, 'roundId'))
    return seasonScoped(ctx, Number(round.season_id), () => ctx.world.related('season', 'standings', Number(round.season_id)))
  },
  'fixtures.multi': (ctx) => {
    const ids = (ctx.params.ids ?? '').split(',').map(Number)
    if (ids.length > 50) return { status: 400, body: badRequestBody('ids', 'At most 50 fixture ids per request.') }
    return listOf(ctx, ids.map((id) => ctx.world.get('fixture', id)).filter((f): f is Rec => f !== undefined))
  },
  'fixtures.date': (ctx) => {
    const date = dateParam(ctx, 'date')
    return typeof date === 'string' ? listOf(ctx, ctx.world.fixturesOn(date)) : date
  },
  'fixtures.between': (ctx) => fixturesBetween(ctx),
  'fixtures.betweenTeam': (ctx) => fixturesBetween(ctx, num(ctx, 'teamId')),
  'fixtures.headToHead': (ctx) => {
    const [a, b] = [num(ctx, 'team1'), num(ctx, 'team2')]
    return listOf(ctx, ctx.world.related('team', 'fixtures', a).filter((f) => f.home_team_id === b || f.away_team_id === b))
  },
  'fixtures.seasons': (ctx) => seasonScoped(ctx, num(ctx, 'seasonId'), () => ctx.world.related('season', 'fixtures', num(ctx, 'seasonId'))),
  'fixtures.latest': (ctx) => listOf(ctx, ctx.world.latest(ctx.now)),
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
  'odds.fixtures': (ctx) => fixtureScoped(ctx, (f) => ctx.world.odds(f)),
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

/** A list scoped to a season: 404 for an unknown season, 403 for one of a league outside the plan. */
function seasonScoped (ctx: HandlerContext, seasonId: number, records: () => readonly Rec[]): HandlerResult {
  const season = ctx.world.get('season', seasonId)
  if (season === undefined) return notFound('season', seasonId)
  if (!leagueVisible(ctx.caller.plan, Number(season.league_id))) return leagueForbidden(Number(season.league_id))
  return listOf(ctx, records())
}

function scheduled (ctx: HandlerContext, stages: readonly Rec[], id: number): HandlerResult {
  return seasonScoped(ctx, id, () => ctx.world.schedule(stages, ctx.now))
}

function fixtureScoped (ctx: HandlerContext, produce: (f: Rec) => Rec[]): HandlerResult {
  const fixture = ctx.world.get('fixture', num(ctx, 'fixtureId'))
  if (fixture === undefined) return notFound('fixture', num(ctx, 'fixtureId'))
  if (!leagueVisible(ctx.caller.plan, Number(fixture.league_id))) return leagueForbidden(Number(fixture.league_id))
  return many(produce(fixture))
}

export function runHandler (ctx: HandlerContext): HandlerResult {
  const special = HANDLERS[ctx.endpoint.id]
  if (special !== undefined) return special(ctx)
  const [, op] = ctx.endpoint.id.split('.')
  const { kind } = ctx.endpoint
  if (op === 'byId') return byId(ctx)
  if (op === 'search') return listOf(ctx, ctx.world.all(kind).filter(textMatch(ctx.params.name ?? '')))
  return listOf(ctx, ctx.world.all(kind))
}
