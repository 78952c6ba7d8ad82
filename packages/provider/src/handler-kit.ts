/**
 * What every provider handler shares: the context it gets, what it answers, and the steps most lists take
 * (plan scope, the generic filters, 404/403 for the records a list hangs off, date parameters).
 */
import type { Endpoint } from '@touchline/upstream-contract/endpoints'
import { badRequestBody, type ParsedQuery } from '@touchline/upstream-contract/query'
import type { Kind } from '@touchline/upstream-contract/resources'
import type { WindowState } from '@touchline/upstream-contract/hourly-window'
import { leagueForbidden, leagueOf, leagueVisible } from './access.ts'
import type { Caller } from './auth.ts'
import { notFound, type ErrorReply } from './error-replies.ts'
import { filterFixtures } from './fixture-filters.ts'
import type { Rec } from './records.ts'
import type { World } from './world.ts'

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

export type Handler = (ctx: HandlerContext) => HandlerResult

export const num = (ctx: HandlerContext, name: string): number => Number(ctx.params[name])
export const many = (records: readonly Rec[]): HandlerResult => ({ kind: 'many', records })

export function visible (ctx: HandlerContext, kind: Kind, records: readonly Rec[]): Rec[] {
  return records.filter((r) => {
    const league = leagueOf(kind, r)
    return league === undefined || leagueVisible(ctx.caller.plan, league)
  })
}

/** Base list of a family endpoint, narrowed by the generic filters (IdAfter, the dynamic relation filters). */
export function listOf (ctx: HandlerContext, records: readonly Rec[]): HandlerResult {
  const { kind } = ctx.endpoint
  let out = visible(ctx, kind, records)
  const idAfter = ctx.query.filters.get('idafter')
  if (idAfter !== undefined) out = out.filter((r) => r.id > Number(idAfter.values[0]))
  out = ctx.world.applyRelationFilters(kind, out, ctx.query.filters)
  if (kind === 'fixture') out = filterFixtures(ctx.world, out, ctx.query.filters, ctx.now)
  return many(out)
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

export function dateParam (ctx: HandlerContext, name: string): string | ErrorReply {
  const value = ctx.params[name] ?? ''
  // A round trip catches dates JavaScript rolls over (2026-02-30 would read as 2026-03-02).
  const parsed = Date.parse(`${value}T00:00:00Z`)
  if (!DATE.test(value) || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value) {
    return { status: 400, body: badRequestBody(name, `The ${name} "${value}" is not a valid date (YYYY-MM-DD).`) }
  }
  return value
}

/** A list scoped to a season: 404 for an unknown season, 403 for one of a league outside the plan. */
export function seasonScoped (ctx: HandlerContext, seasonId: number, records: () => readonly Rec[]): HandlerResult {
  const season = ctx.world.get('season', seasonId)
  if (season === undefined) return notFound('season', seasonId)
  if (!leagueVisible(ctx.caller.plan, Number(season.league_id))) return leagueForbidden(Number(season.league_id))
  return listOf(ctx, records())
}

export function fixtureScoped (ctx: HandlerContext, produce: (f: Rec) => Rec[]): HandlerResult {
  const fixture = ctx.world.get('fixture', num(ctx, 'fixtureId'))
  if (fixture === undefined) return notFound('fixture', num(ctx, 'fixtureId'))
  if (!leagueVisible(ctx.caller.plan, Number(fixture.league_id))) return leagueForbidden(Number(fixture.league_id))
  return many(produce(fixture))
}

/** Path parameters that name one record, and the kind of that record. */
const PATH_RECORDS: ReadonlyArray<readonly [string, Kind]> = [
  ['fixtureId', 'fixture'], ['seasonId', 'season'], ['stageId', 'stage'], ['roundId', 'round'], ['leagueId', 'league'],
  ['teamId', 'team'], ['playerId', 'player'], ['coachId', 'coach'], ['refereeId', 'referee'],
  ['marketId', 'market'], ['bookmakerId', 'bookmaker'], ['tvStationId', 'tvstation']
]

/**
 * For a path that hangs off records (`/match-facts/leagues/{leagueId}`, `/news/pre-match/seasons/{seasonId}`):
 * 404 when one does not exist, 403 when one belongs to a league outside the plan, else undefined.
 */
export function pathRecordsGate (ctx: HandlerContext): ErrorReply | undefined {
  for (const [param, kind] of PATH_RECORDS) {
    const raw = ctx.params[param]
    if (raw === undefined) continue
    const record = ctx.world.get(kind, Number(raw))
    if (record === undefined) return notFound(kind, Number(raw))
    const league = leagueOf(kind, record)
    if (league !== undefined && !leagueVisible(ctx.caller.plan, league)) return leagueForbidden(league)
  }
  return undefined
}
