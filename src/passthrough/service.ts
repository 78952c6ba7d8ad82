/**
 * The REST passthrough (DESIGN §5): a drop-in for the upstream API in front of one upstream token. For each
 * request, in the upstream's own order (provider/app.ts): the client key (401), the path (404), the query
 * (400), the key's league scope and features (403), the key's hourly quota (429); then the answer, from the live mirror,
 * the cache, or one coalesced upstream call paid from the shared budget.
 *
 * Counting: like the upstream, a request counts against the key's quota when it gets a 200 (cache hits and
 * live answers included); one that ends in an error is given back, so that a key is never charged for the
 * gateway's or the upstream's failures. Validation errors never reach the quota (spec 8.2.5).
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import { isMalformedToken } from '../contract/auth.ts'
import { missingFeature } from '../contract/features.ts'
import { matchEndpoint, parseQuery } from '../contract/query.ts'
import { SELECTABLE, type Kind } from '../contract/resources.ts'
import { leagueAllowed, originAllowed, type ClientKey, type KeyRing } from '../keys.ts'
import type { Metrics } from '../metrics.ts'
import type { UpstreamClient } from '../upstream/index.ts'
import type { ResponseCache } from './cache.ts'
import { storeUnavailable } from './fallback.ts'
import { isStoreUnavailable, StoreUnavailableError } from '../store/unavailable.ts'
import { renderEnvelope, type EnvelopeParts } from './entry.ts'
import { fetchUpstream, type FetchDeps, type Fetched, type FetchInput } from './fetch.ts'
import { keyIdOf } from './keys.ts'
import type { LiveSource, Rec } from './live.ts'
import { shapeLive } from './live-shape.ts'
import { QUOTA_WINDOW_MS, type QuotaState, type QuotaStore } from './quota.ts'
import {
  INVALID_KEY, MALFORMED_KEY, MISSING_KEY, featureForbidden, leagueForbidden, originForbidden, pathNotFound, rateLimitBody, rateLimitHeaders,
  reply, serverError, tooManyRequests, unauthorized, type QuotaView, type Reply
} from './replies.ts'
import { nextPageUrl, presentedKey, upstreamRequest, type PassRequest } from './request.ts'
import { filterRecords, isScoped, leagueInPath, narrowFilters, scopeEntry, scopeLookup } from './scope.ts'
import { createSingleFlight } from './singleflight.ts'
import { DEFAULT_TTL, ttlFor, type TtlPolicy } from './ttl.ts'
import type { RequestContext } from './types.ts'

export interface PassthroughDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  keys: KeyRing
  cache: ResponseCache
  quota: QuotaStore
  log: Logger
  metrics?: Metrics
  /** Answers livescores from the poller's last payloads while they are fresh (live.ts). */
  live?: LiveSource
  /** Values that must never leave (the upstream token): scrubbed from every upstream body. */
  secrets?: readonly string[]
}

export interface PassthroughOptions {
  /** The gateway's clock: quota windows, cache expiry, live freshness. Tests move it. @default Date.now */
  now?: () => number
  /** The budget ledger's clock. @default Date.now */
  ledgerNow?: () => number
  ttl?: Partial<TtlPolicy>
  /** Deadline of one upstream call; unset keeps the upstream client's (10 s). */
  upstreamTimeoutMs?: number
}

export interface Passthrough {
  handle: (req: PassRequest) => Promise<Reply>
}

/** The upstream's "no results" message (its empty `latest` has no `data`, upstream-facts §0.3). */
const NO_RESULTS = "No result(s) found matching your request. Either the query did not return any results or you don't have access to it via your current subscription."
const BUDGET_MESSAGE = 'The gateway has used its upstream allowance for this entity until the upstream window resets; your own quota is untouched. Try again later.'

const CORS_EXPOSED = 'x-ratelimit-limit, x-ratelimit-remaining, retry-after, x-cache, age'

type Source = 'hit' | 'miss' | 'coalesced' | 'live'
interface Loaded { fetched: Fetched, source: Source }

const view = (s: QuotaState): QuotaView => ({ entity: s.entity, limit: s.limit, remaining: s.remaining, resetsInSeconds: s.resetsInSeconds })
/** The state a refunded request leaves behind, for the body of the error that caused the refund. */
const refunded = (s: QuotaState): QuotaState => ({ ...s, used: s.used - 1, remaining: Math.min(s.limit, s.remaining + 1) })
const formatDateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

export function createPassthrough (deps: PassthroughDeps, opts: PassthroughOptions = {}): Passthrough {
  const now = opts.now ?? Date.now
  const ttl: TtlPolicy = { ...DEFAULT_TTL, ...opts.ttl }
  const secrets = (deps.secrets ?? []).filter((s) => s.length > 0)
  const scrub = (text: string): string => secrets.reduce((t, s) => t.includes(s) ? t.replaceAll(s, '[redacted]') : t, text)
  const log = deps.log
  const fetchDeps: FetchDeps = {
    upstream: deps.upstream,
    ledger: deps.ledger,
    log,
    scrub,
    ...(opts.ledgerNow !== undefined ? { ledgerNow: opts.ledgerNow } : {}),
    ...(opts.upstreamTimeoutMs !== undefined ? { timeoutMs: opts.upstreamTimeoutMs } : {})
  }
  const flights = createSingleFlight<{ fetched: Fetched, hit: boolean }>()
  /** The upstream account's last `subscription`, for answers made here (`/my/usage`). */
  let subscription: unknown

  /** Cache, else one upstream call shared by every identical request in flight. */
  async function load (input: FetchInput, offline = false): Promise<Loaded> {
    const key = input.request.key
    const flight = await flights.run(key, async () => {
      const cached = await deps.cache.get(key, now()).catch((err: unknown) => { log.warn({ err }, 'passthrough cache read failed'); return undefined })
      if (cached !== undefined) return { fetched: { kind: 'entry', entry: cached, cacheable: false } as const, hit: true }
      // Fail closed: a request its key's quota could not count gets no upstream call (fallback.ts).
      if (offline) throw new StoreUnavailableError(new Error('quota uncounted: no upstream call'))
      const fetched = await fetchUpstream(fetchDeps, input)
      if (fetched.kind === 'entry' && fetched.cacheable) {
        await deps.cache.set(key, fetched.entry, now()).catch((err: unknown) => { log.warn({ err }, 'passthrough cache write failed') })
      }
      return { fetched, hit: false }
    })
    const source: Source = flight.value.hit ? 'hit' : flight.shared ? 'coalesced' : 'miss'
    return { fetched: flight.value.fetched, source }
  }

  function ok (ctx: RequestContext, parts: EnvelopeParts, source: Source, extra: Record<string, string> = {}): Reply {
    const q = view(ctx.quota)
    return { status: 200, headers: { ...rateLimitHeaders(q), 'x-cache': source === 'miss' ? 'miss' : 'hit', ...extra }, body: renderEnvelope(parts, rateLimitBody(q)) }
  }

  /** `/my/usage` from the key's own quota windows: the upstream's would describe the gateway's token. */
  async function usage (ctx: RequestContext): Promise<Reply> {
    const rows = await deps.quota.usage(ctx.keyId, ctx.key.hourly_quota, ctx.now)
    const data = rows.map((r) => ({
      entity: r.entity,
      requests_made: r.used,
      remaining_requests: r.remaining,
      period_start: formatDateTime(r.windowStart),
      period_end: formatDateTime(r.windowStart + QUOTA_WINDOW_MS)
    }))
    const parts: EnvelopeParts = { data: JSON.stringify(data), timezone: ctx.query.timezone }
    if (subscription !== undefined) parts.subscription = subscription
    deps.metrics?.cacheRequests.inc({ outcome: 'local' })
    return ok(ctx, parts, 'live')
  }

  /** Livescores from the live mirror, or undefined to fall through. */
  function live (ctx: RequestContext): Reply | undefined {
    const snapshot = deps.live?.fixtures(ctx.endpoint.id, ctx.now)
    if (snapshot === undefined) return undefined
    // Scope first, on the full records: `select` may drop the league_id the scope is judged by.
    const records = shapeLive(filterRecords(ctx.key, 'fixture', snapshot.fixtures) as Rec[], ctx.query)
    if (records === undefined) return undefined
    const parts: EnvelopeParts = { timezone: ctx.query.timezone }
    if (ctx.endpoint.id === 'livescores.latest' && records.length === 0) parts.extra = { message: NO_RESULTS }
    else parts.data = JSON.stringify(records)
    if (snapshot.subscription !== undefined) parts.subscription = snapshot.subscription
    deps.metrics?.cacheRequests.inc({ outcome: 'live' })
    return ok(ctx, parts, 'live', { 'x-touchline-source': 'live' })
  }

  /** For a scoped key: the league of the season, round or fixture an endpoint is scoped to, if known. */
  async function scopedLeague (ctx: RequestContext): Promise<number | undefined> {
    const lookup = scopeLookup(ctx.params)
    const match = lookup === undefined ? undefined : matchEndpoint(lookup.path)
    if (lookup === undefined || match === undefined) return undefined
    const { fetched } = await load({
      request: upstreamRequest(lookup.path, {}), entity: lookup.entity, kind: lookup.kind, now: now(), ttlMs: ttlFor(match.endpoint, [], ttl), notFoundTtlMs: ttl.notFoundMs
    }, ctx.offline)
    return fetched.kind === 'entry' && fetched.entry.status === 200 ? fetched.entry.leagues?.[0] : undefined
  }

  async function answer (ctx: RequestContext): Promise<Reply> {
    const { endpoint, key } = ctx
    if (endpoint.id === 'my.usage') return await usage(ctx)
    if (endpoint.id.startsWith('livescores.')) {
      const fromLive = live(ctx)
      if (fromLive !== undefined) return fromLive
    }
    const raw = ctx.raw
    if (isScoped(key)) {
      const league = await scopedLeague(ctx)
      if (league !== undefined && !leagueAllowed(key, league)) return leagueForbidden(league)
      raw.filters = narrowFilters(endpoint, ctx.query, raw.filters, key.leagues as number[])
      raw.select = selectWithLeague(endpoint.kind, raw.select)
    }
    const { fetched, source } = await load({
      request: upstreamRequest(ctx.req.path, raw), entity: endpoint.entity, kind: endpoint.kind, now: ctx.now, ttlMs: ttlFor(endpoint, ctx.query.includes, ttl), notFoundTtlMs: ttl.notFoundMs
    }, ctx.offline)
    deps.metrics?.cacheRequests.inc({ outcome: source })
    const cacheHeaders = { 'x-cache': source === 'miss' ? 'miss' : 'hit' }
    if (fetched.kind === 'budget') {
      return withHeaders(tooManyRequests(view(refunded(ctx.quota)), fetched.retryAfter, BUDGET_MESSAGE), cacheHeaders)
    }
    if (fetched.kind === 'failure') return withHeaders(serverError(fetched.status, fetched.errorId), cacheHeaders)
    const { entry } = fetched
    if (entry.status !== 200) return { status: entry.status, headers: cacheHeaders, body: entry.body ?? '{}' }
    if (entry.parts?.subscription !== undefined) subscription = entry.parts.subscription
    const scoped = scopeEntry(key, endpoint, entry, ctx.query.includes)
    if (!scoped.ok) return leagueForbidden(scoped.league)
    let parts = scoped.parts
    if (parts.pagination !== undefined) {
      const p = parts.pagination
      parts = { ...parts, pagination: { ...p, next_page: p.has_more ? nextPageUrl(ctx.req, p.current_page + 1) : null } }
    }
    const age: Record<string, string> = source === 'hit' ? { age: String(Math.max(0, Math.floor((ctx.now - entry.storedAt) / 1000))) } : {}
    return ok(ctx, parts, source, age)
  }

  async function serve (req: PassRequest): Promise<Reply> {
    const presented = presentedKey(req)
    if (presented === undefined || presented === '') return unauthorized(MISSING_KEY)
    if (isMalformedToken(presented)) return unauthorized(MALFORMED_KEY)
    const key = deps.keys.find(presented)
    if (key === undefined) return unauthorized(INVALID_KEY)
    if (req.origin === undefined) return await serveKey(req, key, presented)
    if (!originAllowed(key, req.origin)) return originForbidden(req.origin)
    // A browser may read the answer (and the quota headers) only from an origin the key allows.
    return withHeaders(await serveKey(req, key, presented), {
      'access-control-allow-origin': req.origin, vary: 'Origin', 'access-control-expose-headers': CORS_EXPOSED
    })
  }

  async function serveKey (req: PassRequest, key: ClientKey, presented: string): Promise<Reply> {
    const match = matchEndpoint(req.path)
    if (match === undefined) return pathNotFound(`/v3${req.path}`)
    const parsed = parseQuery(match.endpoint, req.query)
    if (!parsed.ok) return reply(400, parsed.error.body)
    const { endpoint, params } = match
    const pathLeague = leagueInPath(endpoint, params)
    if (pathLeague !== undefined && !leagueAllowed(key, pathLeague)) return leagueForbidden(pathLeague)
    const feature = missingFeature(endpoint, parsed.query.includes, (f) => key.features.includes(f))
    if (feature !== undefined) return featureForbidden(feature)

    const keyId = keyIdOf(presented)
    const at = now()
    const taken = await deps.quota.take(keyId, endpoint.entity, key.hourly_quota, at)
    if (!taken.allowed) return tooManyRequests(view(taken.state), taken.state.resetsInSeconds)
    // After validation every parameter is a single string (parseQuery rejects repeated ones).
    const raw = { ...req.query } as Record<string, string | undefined>
    const ctx: RequestContext = { req, key, keyId, endpoint, params, query: parsed.query, raw, quota: taken.state, now: at, offline: taken.offline === true }
    let out: Reply
    try {
      out = await answer(ctx)
    } catch (err) {
      await deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch(() => {})
      throw err
    }
    if (out.status !== 200) {
      await deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch((err: unknown) => { log.warn({ err }, 'quota refund failed') })
    }
    return out
  }

  return {
    async handle (req) {
      let out: Reply
      try {
        out = await serve(req)
      } catch (err) {
        const errorId = randomUUID()
        if (isStoreUnavailable(err)) {
          log.warn({ errorId, path: req.path }, 'passthrough request refused: shared store unreachable')
          out = storeUnavailable(errorId)
        } else {
          log.error({ err, errorId, path: req.path }, 'passthrough request failed')
          out = serverError(500, errorId)
        }
      }
      if (out.headers['x-cache'] === undefined) out.headers['x-cache'] = 'miss'
      deps.metrics?.passthroughRequests.inc({ status: String(out.status) })
      return out
    }
  }
}

/**
 * A scoped key's records are judged by their `league_id`, so a `select` that leaves it out still asks the
 * upstream for it (the real API adds relation keys itself; this does not rely on it).
 */
function selectWithLeague (kind: Kind, select: string | undefined): string | undefined {
  if (select === undefined || select === '' || SELECTABLE[kind]?.includes('league_id') !== true) return select
  return select.split(',').includes('league_id') ? select : `${select},league_id`
}

function withHeaders (r: Reply, headers: Record<string, string>): Reply {
  return { ...r, headers: { ...r.headers, ...headers } }
}
