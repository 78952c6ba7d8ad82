/**
 * The answer to a request that passed authentication, routing, validation and the key's quota: the key's
 * own account data, the live mirror, or a loaded upstream answer (sources.ts) put in the key's scope, with
 * the key's quota in its `rate_limit` and headers.
 */
import { SELECTABLE, type Kind } from '@touchline/upstream-contract/resources'
import { leagueAllowed } from '../client-keys.ts'
import { renderEnvelope, type EnvelopeParts } from './entry.ts'
import { withGatewayLinks } from './links.ts'
import type { Rec } from './mirror.ts'
import { shapeLive } from './mirror-shape.ts'
import { resourcesParts, usageParts } from './my.ts'
import type { QuotaState } from './quota.ts'
import {
  leagueForbidden, leagueUnknownForbidden, rateLimitBody, rateLimitHeaders, serverError, tooManyRequests, withHeaders, type QuotaView, type Reply
} from './replies.ts'
import { fetchInputOf } from './route.ts'
import { filterRecords, isScoped, narrowFilters, scopeEntry } from './scope.ts'
import { load, lookupLeagues, scopedLeague, sentUpstream, type Source } from './sources.ts'
import type { PassthroughContext, RequestContext } from './types.ts'

/** The upstream's "no results" message: its empty `latest` has no `data`, only this `message`. */
const NO_RESULTS = "No result(s) found matching your request. Either the query did not return any results or you don't have access to it via your current subscription."
const BUDGET_MESSAGE = 'The gateway has used its upstream allowance for this entity until the upstream window resets; your own quota is untouched. Try again later.'

const view = (s: QuotaState): QuotaView => ({ entity: s.entity, limit: s.limit, remaining: s.remaining, resetsInSeconds: s.resetsInSeconds })
/** The state a refunded request leaves behind, for the body of the error that caused the refund. */
const refunded = (s: QuotaState): QuotaState => ({ ...s, used: s.used - 1, remaining: Math.min(s.limit, s.remaining + 1) })

/** The quota reply of a request refused before anything was loaded (its quota spent). */
export function quotaRefused (state: QuotaState): Reply {
  return tooManyRequests(view(state), state.resetsInSeconds)
}

export async function answer (p: PassthroughContext, ctx: RequestContext): Promise<Reply> {
  const { endpoint, key } = ctx
  if (endpoint.id === 'my.usage' || endpoint.id === 'my.resources') return await account(p, ctx)
  if (endpoint.id.startsWith('livescores.')) {
    const fromLive = live(p, ctx)
    if (fromLive !== undefined) return fromLive
  }
  const raw = ctx.raw
  if (isScoped(key)) {
    const league = await scopedLeague(p, ctx)
    if (league === null) return leagueUnknownForbidden()
    if (typeof league === 'object') return league
    if (league !== undefined && !leagueAllowed(key, league)) return leagueForbidden(league)
    raw.filters = narrowFilters(endpoint, ctx.query, raw.filters, key.leagues as number[])
    raw.select = selectWithLeague(endpoint.kind, raw.select)
  }
  const loaded = await load(p, fetchInputOf(ctx, p.ttl), ctx.offline)
  ctx.sentUpstream = sentUpstream(loaded)
  const { fetched, source } = loaded
  p.deps.metrics?.cacheRequests.inc({ outcome: source })
  const cacheHeaders = { 'x-cache': source === 'miss' ? 'miss' : 'hit' }
  if (fetched.kind === 'budget') {
    return withHeaders(tooManyRequests(view(ctx.sentUpstream ? ctx.quota : refunded(ctx.quota)), fetched.retryAfter, BUDGET_MESSAGE), cacheHeaders)
  }
  if (fetched.kind === 'failure') return withHeaders(serverError(fetched.status, fetched.errorId), cacheHeaders)
  const { entry } = fetched
  if (entry.status !== 200) return { status: entry.status, headers: cacheHeaders, body: entry.body ?? '{}' }
  const scoped = await scopeEntry(key, endpoint, entry, { index: p.leagueIndex, lookup: async (need) => { await lookupLeagues(p, ctx, need) } })
  if (!scoped.ok) return scoped.league === null ? leagueUnknownForbidden() : leagueForbidden(scoped.league)
  const parts = withGatewayLinks(scoped.parts, ctx.req)
  const age: Record<string, string> = source === 'hit' ? { age: String(Math.max(0, Math.floor((ctx.now - entry.storedAt) / 1000))) } : {}
  return ok(ctx, parts, source, age)
}

function ok (ctx: RequestContext, parts: EnvelopeParts, source: Source, extra: Record<string, string> = {}): Reply {
  const q = view(ctx.quota)
  return { status: 200, headers: { ...rateLimitHeaders(q), 'x-cache': source === 'miss' ? 'miss' : 'hit', ...extra }, body: renderEnvelope(parts, rateLimitBody(q)) }
}

/** `/my/usage` and `/my/resources`, from the key itself (my.ts). */
async function account (p: PassthroughContext, ctx: RequestContext): Promise<Reply> {
  const parts = ctx.endpoint.id === 'my.usage'
    ? usageParts(await p.deps.quota.usage(ctx.keyId, ctx.key.hourly_quota, ctx.now), ctx.query.timezone)
    : resourcesParts(ctx.key, ctx.query.timezone)
  p.deps.metrics?.cacheRequests.inc({ outcome: 'local' })
  return ok(ctx, parts, 'live')
}

/** Livescores from the live mirror, or undefined to fall through. */
function live (p: PassthroughContext, ctx: RequestContext): Reply | undefined {
  const snapshot = p.deps.live?.fixtures(ctx.endpoint.id, ctx.now)
  if (snapshot === undefined) return undefined
  // Scope first, on the full records: `select` may drop the league_id the scope is judged by.
  const records = shapeLive(filterRecords(ctx.key, 'fixture', snapshot.fixtures) as Rec[], ctx.query)
  if (records === undefined) return undefined
  const parts: EnvelopeParts = { timezone: ctx.query.timezone }
  if (ctx.endpoint.id === 'livescores.latest' && records.length === 0) parts.extra = { message: NO_RESULTS }
  else parts.data = JSON.stringify(records)
  if (snapshot.subscription !== undefined) parts.subscription = snapshot.subscription
  p.deps.metrics?.cacheRequests.inc({ outcome: 'live' })
  return ok(ctx, parts, 'live', { 'x-touchline-source': 'live' })
}

/**
 * A scoped key's records are judged by their `league_id`, so a `select` that leaves it out still asks the
 * upstream for it (the real API adds relation keys itself; this does not rely on it).
 */
function selectWithLeague (kind: Kind, select: string | undefined): string | undefined {
  if (select === undefined || select === '' || SELECTABLE[kind]?.includes('league_id') !== true) return select
  return select.split(',').includes('league_id') ? select : `${select},league_id`
}
