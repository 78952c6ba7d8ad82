/**
 * What the passthrough makes of a path and query before it counts anything; it never refuses what the real
 * API accepts (docs/passthrough.md, "Local validation"):
 *
 * - known: a path of the catalogue (packages/upstream-contract/src) whose every name it knows is validated in full, as the
 *   upstream does, and answered as before;
 * - forward: a path the catalogue does not know, or an include, filter or select name it does not know, is
 *   checked for syntax only (syntax.ts) and sent to the upstream, whose 4xx is then cached for an hour, so a
 *   wrong name costs one upstream call an hour however often it is asked;
 * - refused: the upstream's 400 (bad syntax, unknown parameter) or 404 (a root the API does not have), locally.
 *
 * `cursor` (cursor pagination, docs/upstream.md "Pagination") is judged by the catalogue's query rules on known paths and
 * by syntax.ts on forwarded ones. `/my/*` is never forwarded: the upstream's answer would describe the gateway's account.
 */
import { ENDPOINT_FEATURES, SINGLE_PARAMS, type Endpoint } from '@touchline/upstream-contract/endpoints'
import { UpstreamInternalCode, matchEndpoint, parseQuery, type ParsedQuery, type QueryError } from '@touchline/upstream-contract/query'
import { RELATIONS, type Feature } from '@touchline/upstream-contract/resources'
import { ENDPOINTS } from '@touchline/upstream-contract/endpoints'
import { chargeKeyOf } from './charged.ts'
import type { FetchInput } from './fetch.ts'
import { pathNotFound, reply, type Reply } from './replies.ts'
import { upstreamRequest } from './request.ts'
import { DOCUMENTED_PARAMS, syntaxError, UNKNOWN_PATH_MAX_DEPTH } from './syntax.ts'
import { forwardedTtl, ttlFor, type TtlPolicy } from './ttl.ts'
import type { RequestContext } from './types.ts'

type Query = Readonly<Record<string, string | undefined>>

export type Route =
  | { kind: 'known', endpoint: Endpoint, params: Record<string, string>, query: ParsedQuery }
  | {
    kind: 'forward'
    /** The entity bucket, kind and mode the request is charged and cached as (see `forwardedEndpoint`). */
    endpoint: Endpoint
    params: Record<string, string>
    query: ParsedQuery
    /** The catalogue endpoint the request is closest to, for its TTL. */
    base?: Endpoint
    /** Paid features the request may reach (judged by name: the catalogue cannot tell). */
    features: readonly Feature[]
    /** What the catalogue does not know, for a key that cannot be served it ("the include ..."). */
    unknown: string
  }
  | { kind: 'refused', reply: Reply }

/** Roots the real API serves; another sport or root is the upstream's 404. */
const FORWARDED_ROOTS = new Set(['core', 'football', 'odds'])

const badRequest = (body: QueryError['body']): Route => ({ kind: 'refused', reply: reply(400, body) })

export function routeRequest (path: string, query: Query): Route {
  const match = matchEndpoint(path)
  if (match === undefined) return unknownPath(path, query)
  const { endpoint, params } = match
  const paged = endpoint.mode !== 'single'
  const parsed = parseQuery(endpoint, query)
  if (parsed.ok) return { kind: 'known', endpoint, params, query: parsed.query }
  const unknownName = namesUnknown(parsed.error)
  if (unknownName === undefined || endpoint.id.startsWith('my.')) return badRequest(parsed.error.body)
  const syntax = syntaxError(query, { params: paged ? DOCUMENTED_PARAMS : SINGLE_PARAMS, maxDepth: endpoint.maxDepth })
  if (syntax !== undefined) return badRequest(syntax)
  return forward(forwardedEndpoint(endpoint, endpoint), params, query, endpoint, `the ${unknownName} of this request`)
}

/** The parameter whose name the catalogue does not know, when that is all that failed. */
function namesUnknown (error: QueryError): string | undefined {
  const param = Object.keys(error.body.errors)[0]
  if (error.code === UpstreamInternalCode.INCLUDE_NOT_FOUND || error.code === UpstreamInternalCode.INAPPLICABLE_FILTER) return param
  // parseSelect refuses one thing only: a field it does not know.
  return param === 'select' ? param : undefined
}

function unknownPath (path: string, query: Query): Route {
  const segments = path.split('/').slice(1)
  if (segments.length > 1 && segments.at(-1) === '') segments.pop()
  const root = segments[0] ?? ''
  if (!FORWARDED_ROOTS.has(root) || segments.length < 2 || !segments.every(isSegment)) return { kind: 'refused', reply: pathNotFound(`/v3${path}`) }
  const base = closestEndpoint(segments)
  // The depth a new path allows is not known: only past the deepest of any endpoint is refused, not the family's.
  const syntax = syntaxError(query, { params: DOCUMENTED_PARAMS, maxDepth: UNKNOWN_PATH_MAX_DEPTH })
  if (syntax !== undefined) return badRequest(syntax)
  const family = segments[1] as string
  const entity = base?.entity ?? (REAL_FAMILIES.has(family) ? entityOf(family) : FALLBACK.entity)
  return forward(forwardedEndpoint({ ...(base ?? FALLBACK), entity }, base), {}, query, base, `the path /v3${path}`)
}

function isSegment (segment: string): boolean {
  try {
    const decoded = decodeURIComponent(segment)
    // eslint-disable-next-line no-control-regex
    return decoded !== '' && decoded !== '.' && decoded !== '..' && !/[\u0000-\u001f\u007f]/.test(decoded)
  } catch {
    return false
  }
}

function forward (endpoint: Endpoint, params: Record<string, string>, query: Query, base: Endpoint | undefined, unknown: string): Route {
  const features = new Set<Feature>()
  const own = base === undefined ? undefined : ENDPOINT_FEATURES[base.id]
  if (own !== undefined) features.add(own)
  if (endpoint.path.startsWith('/odds/')) features.add('odds')
  for (const name of (query.include ?? '').split(/[;.]/)) {
    const feature = featureOfInclude(name.split(':')[0] ?? '')
    if (feature !== undefined) features.add(feature)
  }
  return { kind: 'forward', endpoint, params, query: lenientQuery(query), ...(base !== undefined ? { base } : {}), features: [...features], unknown }
}

/** The query as far as the passthrough needs it when the catalogue could not parse it: no include tree. */
function lenientQuery (query: Query): ParsedQuery {
  const filters = query.filters ?? ''
  return {
    includes: [],
    select: null,
    filters: new Map(),
    order: query.order === 'desc' ? 'desc' : 'asc',
    perPage: Number(query.per_page ?? 25),
    page: Number(query.page ?? 1),
    timezone: query.timezone ?? 'UTC',
    cursor: query.cursor === undefined || query.cursor === '' ? null : query.cursor,
    populate: filters.split(';').some((p) => p.toLowerCase() === 'populate')
  }
}

/** Include names the catalogue gives a paid feature, anywhere in the resource graph. */
const FEATURE_INCLUDES: ReadonlyMap<string, Feature> = new Map(Object.values(RELATIONS).flatMap((relations) =>
  Object.entries(relations).flatMap(([name, r]) => r.feature === undefined ? [] : [[name.toLowerCase(), r.feature] as const])))

/** The feature an include name reaches: the catalogue's, else by the real API's naming (odds, predictions, xG). */
function featureOfInclude (name: string): Feature | undefined {
  const known = FEATURE_INCLUDES.get(name.toLowerCase())
  if (known !== undefined) return known
  if (/odds/i.test(name)) return 'odds'
  if (/^(predictions|probabilities|valuebets?)$/i.test(name)) return 'predictions'
  return /^(xg|expected)/i.test(name) ? 'xg' : undefined
}

/**
 * The catalogue endpoint sharing the most leading segments with the path (two at least: root and family),
 * e.g. `/football/expected/fixtures` for `/football/expected/lineups`: its entity is the bucket an unknown
 * path is charged to.
 */
function closestEndpoint (segments: readonly string[]): Endpoint | undefined {
  let best: Endpoint | undefined
  let bestShared = 1
  for (const endpoint of ENDPOINTS) {
    const own = endpoint.path.split('/').slice(1)
    let shared = 0
    while (shared < own.length && shared < segments.length && own[shared] === segments[shared]) shared++
    if (shared > bestShared) {
      best = endpoint
      bestShared = shared
    }
  }
  return best
}

/**
 * Families of the real API (its published OpenAPI document) the catalogue has no endpoint of. Only these name their own
 * bucket; any other path is charged to one bucket, so that a client cannot mint fresh quota buckets by
 * inventing path names.
 */
const REAL_FAMILIES: ReadonlySet<string> = new Set(['commentaries', 'news', 'rivals', 'squads', 'topscorers', 'transfers', 'tv-stations', 'bookmakers', 'markets'])

/** An entity name from a path segment the catalogue lacks (`tv-stations` → `TvStation`): inferred, not documented. */
export function entityOf (segment: string): string {
  const words = segment.split('-').filter((w) => w !== '')
  const last = words.pop() ?? segment
  const singular = /ies$/.test(last) ? `${last.slice(0, -3)}y` : /[^su]s$/.test(last) && last !== 'news' ? last.slice(0, -1) : last
  return [...words, singular].map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')
}

/** For a path no catalogue family covers: a list of records in the `Unknown` bucket, cached as moving data. */
const FALLBACK: Endpoint = { id: 'forward', path: '', entity: 'Unknown', kind: 'fixture', mode: 'list', maxDepth: UNKNOWN_PATH_MAX_DEPTH, filters: [], fixtureType: true }

/**
 * The endpoint a forwarded request is served as: `from`'s entity, kind and mode under an id of its own, so
 * that nothing keyed on a catalogue id (live answers, `/my/usage`, features) applies to it.
 */
function forwardedEndpoint (from: Endpoint, base: Endpoint | undefined): Endpoint {
  return { ...from, id: `forward:${base?.id ?? 'path'}`, filters: [] }
}

/** The upstream call for a request: a forwarded one is cached no longer than moving data, and so is its 4xx for an hour. */
export function fetchInputOf (ctx: RequestContext, policy: TtlPolicy): FetchInput {
  const { endpoint } = ctx
  const input: FetchInput = {
    request: upstreamRequest(ctx.req.path, ctx.raw),
    entity: endpoint.entity,
    kind: endpoint.kind,
    now: ctx.now,
    ttlMs: ctx.forwarded === undefined ? ttlFor(endpoint, ctx.query.includes, policy) : forwardedTtl(ctx.forwarded.base, policy),
    notFoundTtlMs: policy.notFoundMs,
    chargeKey: chargeKeyOf(endpoint, ctx.req.path)
  }
  if (ctx.forwarded !== undefined) input.rejectionTtlMs = policy.unknownRejectionMs
  return input
}
