/**
 * The REST passthrough (DESIGN §5): a drop-in for the upstream API in front of one upstream token. For each
 * request, in the upstream's own order (provider/app.ts): the client key (401), the path (404), the query
 * (400), the key's league scope and features (403), the key's hourly quota (429); then the answer, from the live mirror,
 * the cache, or one coalesced upstream call paid from the shared budget. A path or name the catalogue does not know
 * is forwarded after a syntax check (route.ts); links in answers are rebuilt on the gateway (links.ts).
 *
 * Counting (DESIGN §5, "every request that reaches the upstream costs the key a call"): the key's quota is
 * taken before anything is fetched, so a spent quota is a 429 with no upstream call. A request keeps its
 * count when it got a 200 (cache hits and live answers included, as the upstream counts them) or when a
 * call was sent upstream for it, whatever came back (404, 403, 429, 5xx, timeout): otherwise a key could
 * make one upstream call per distinct missing id for free. A non-200 answered without sending anything
 * (a cached 404, a follower of another request's call, a refusal by the shared budget) is given back.
 * Validation errors never reach the quota (spec 8.2.5). The lookups the scope makes for a scoped key (the
 * season or fixture of a path, the leagues of fixtures and seasons its rows name) cost the key one call
 * of their own entity each when sent; with that entity's quota spent they are not made and the rows they
 * would have cleared are withheld. So a key never causes more upstream calls per entity and hour than its
 * `hourly_quota`.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import { isMalformedToken } from '../contract/auth.ts'
import { missingFeature } from '../contract/features.ts'
import { matchEndpoint, singleValues } from '../contract/query.ts'
import { SELECTABLE, type Kind } from '../contract/resources.ts'
import { leagueAllowed, originAllowed, type ClientKey, type KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import type { UpstreamClient } from '../upstream/index.ts'
import type { ResponseCache } from './cache.ts'
import { createChargedEntities } from './charged.ts'
import { storeUnavailable } from './fallback.ts'
import { isStoreUnavailable, StoreUnavailableError } from '../store/unavailable.ts'
import { renderEnvelope, type EnvelopeParts } from './entry.ts'
import { fetchUpstream, type FetchDeps, type Fetched, type FetchInput } from './fetch.ts'
import { keyIdOf } from './digest.ts'
import { createLeagueIndex, type LeagueIndex } from './league-index.ts'
import type { LiveSource, Rec } from './live.ts'
import { shapeLive } from './live-shape.ts'
import { isUnservedAccountPath, resourcesParts, usageParts } from './my.ts'
import type { QuotaState, QuotaStore } from './quota.ts'
import {
  INVALID_KEY, MALFORMED_KEY, MISSING_KEY, featureForbidden, leagueForbidden, leagueUnknownForbidden, originForbidden, pathNotFound, rateLimitBody,
  rateLimitHeaders, serverError, tooManyRequests, unauthorized, unknownForScopedKey, type QuotaView, type Reply
} from './replies.ts'
import { withGatewayLinks } from './links.ts'
import { canonicalPath, presentedKey, upstreamRequest, type PassRequest } from './request.ts'
import { fetchInputOf, routeRequest } from './route.ts'
import { filterRecords, isScoped, learnLeagues, learnShown, leagueInPath, narrowFilters, scopeEntry, scopeLookup, type ScopeLookup } from './scope.ts'
import { createSingleFlight } from '../util/singleflight.ts'
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
  /**
   * The upstream's origin (`https://api.example.com`): removed from every upstream body, so that no link
   * the gateway relays names the upstream host (pagination links are rebuilt on the gateway, links.ts).
   */
  upstreamOrigin?: string
  /** Fixture and season leagues for the scope (league-index.ts); a fresh one when unset. */
  leagueIndex?: LeagueIndex
}

export interface PassthroughOptions {
  /** The gateway's clock: quota windows, cache expiry, live freshness. Tests move it. @default Date.now */
  now?: () => number
  /** The budget ledger's clock. @default Date.now */
  ledgerNow?: () => number
  ttl?: Partial<TtlPolicy>
  /** Deadline of one upstream call; unset keeps the upstream client's (10 s). */
  upstreamTimeoutMs?: number
  /** TOUCHLINE_POLL_RESERVE: what the poller leaves the passthrough decides what it keeps for itself. */
  pollReserve?: number
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

/** Ids per `fixtures/multi` call (upstream-facts §6). */
const MULTI_IDS = 50
/**
 * Scope lookups one request may make: 4 `fixtures/multi` calls (200 fixtures, a `populate` page of xG rows
 * spans fewer) and 5 seasons. Rows past them stay unplaced and are withheld.
 */
const MAX_FIXTURE_LOOKUPS = 4
const MAX_SEASON_LOOKUPS = 5

const view = (s: QuotaState): QuotaView => ({ entity: s.entity, limit: s.limit, remaining: s.remaining, resetsInSeconds: s.resetsInSeconds })
/** The state a refunded request leaves behind, for the body of the error that caused the refund. */
const refunded = (s: QuotaState): QuotaState => ({ ...s, used: s.used - 1, remaining: Math.min(s.limit, s.remaining + 1) })

export function createPassthrough (deps: PassthroughDeps, opts: PassthroughOptions = {}): Passthrough {
  const now = opts.now ?? Date.now
  const ttl: TtlPolicy = { ...DEFAULT_TTL, ...opts.ttl }
  const secrets = (deps.secrets ?? []).filter((s) => s.length > 0)
  const origins = deps.upstreamOrigin === undefined ? [] : [deps.upstreamOrigin, deps.upstreamOrigin.replaceAll('/', '\\/')]
  const scrub = (text: string): string => origins.reduce((t, o) => t.includes(o) ? t.replaceAll(o, '') : t,
    secrets.reduce((t, s) => t.includes(s) ? t.replaceAll(s, '[redacted]') : t, text))
  const log = deps.log
  const fetchDeps: FetchDeps = {
    upstream: deps.upstream,
    ledger: deps.ledger,
    log,
    scrub,
    charged: createChargedEntities(),
    ...(opts.ledgerNow !== undefined ? { ledgerNow: opts.ledgerNow } : {}),
    ...(opts.upstreamTimeoutMs !== undefined ? { timeoutMs: opts.upstreamTimeoutMs } : {}),
    ...(opts.pollReserve !== undefined ? { pollReserve: opts.pollReserve } : {})
  }
  const flights = createSingleFlight<{ fetched: Fetched, hit: boolean }>()
  const leagueIndex = deps.leagueIndex ?? createLeagueIndex()

  /** Cache, else one upstream call shared by every identical request in flight. */
  async function load (input: FetchInput, offline = false): Promise<Loaded> {
    const key = input.request.key
    const flight = await flights.run(key, async () => {
      const cached = await deps.cache.get(key, now()).catch((err: unknown) => { log.warn({ err }, 'passthrough cache read failed'); return undefined })
      if (cached !== undefined) return { fetched: { kind: 'entry', entry: cached, cacheable: false } as const, hit: true }
      // Fail closed: a request its key's quota could not count gets no upstream call (fallback.ts).
      if (offline) throw new StoreUnavailableError(new Error('quota uncounted: no upstream call'))
      const fetched = await fetchUpstream(fetchDeps, input)
      // Every body fetched teaches the scope's index the fixtures and seasons it shows (scope.ts).
      if (fetched.kind === 'entry' && fetched.entry.refs !== undefined) learnShown(leagueIndex, fetched.entry.refs)
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

  /** `/my/usage` and `/my/resources`, from the key itself (my.ts). */
  async function account (ctx: RequestContext): Promise<Reply> {
    const parts = ctx.endpoint.id === 'my.usage'
      ? usageParts(await deps.quota.usage(ctx.keyId, ctx.key.hourly_quota, ctx.now), ctx.query.timezone)
      : resourcesParts(ctx.key, ctx.query.timezone)
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

  /**
   * An upstream read made for the scope on the key's behalf: costs the key one call of its entity when it
   * is sent (module doc); undefined, and nothing sent, when that quota is spent.
   */
  async function lookup (ctx: RequestContext, target: ScopeLookup, query: Record<string, string> = {}): Promise<Loaded | undefined> {
    const match = matchEndpoint(target.path)
    const taken = await deps.quota.take(ctx.keyId, target.entity, ctx.key.hourly_quota, now())
    if (!taken.allowed) return undefined
    const ttlMs = match === undefined ? ttl.notFoundMs : ttlFor(match.endpoint, [], ttl)
    const loaded = await load({ request: upstreamRequest(target.path, query), entity: target.entity, kind: target.kind, now: now(), ttlMs, notFoundTtlMs: ttl.notFoundMs }, ctx.offline === true || taken.offline === true)
    if (!sentUpstream(loaded)) await deps.quota.refund(ctx.keyId, target.entity, taken.state.windowStart).catch(() => {})
    if (loaded.fetched.kind === 'entry') {
      const { entry } = loaded.fetched
      if (entry.refs !== undefined) learnShown(leagueIndex, entry.refs)
      else if (entry.parts?.data !== undefined) learnLeagues(leagueIndex, JSON.parse(entry.parts.data), target.kind)
    }
    return loaded
  }

  /**
   * For a scoped key: the league of the season, round or fixture an endpoint is scoped to (known, or looked
   * up); null when it cannot be established (the request is then refused: fail closed); a Reply to send
   * instead when the record does not exist; undefined when the endpoint is scoped to none.
   */
  async function scopedLeague (ctx: RequestContext): Promise<number | null | Reply | undefined> {
    const target = scopeLookup(ctx.params)
    if (target === undefined) return undefined
    const known = target.kind === 'season' ? leagueIndex.season(Number(ctx.params.seasonId)) : target.kind === 'fixture' ? leagueIndex.fixture(Number(ctx.params.fixtureId)) : undefined
    if (known !== undefined) return known
    const loaded = await lookup(ctx, target)
    if (loaded?.fetched.kind !== 'entry') return null
    const { entry } = loaded.fetched
    if (entry.status === 404) return { status: 404, headers: {}, body: entry.body ?? '{}' }
    return entry.status === 200 ? entry.leagues?.[0] ?? null : null
  }

  /** Learns the leagues of fixtures and seasons a scoped answer's rows name: the live mirror, then the upstream. */
  async function lookupLeagues (ctx: RequestContext, need: { fixtures: number[], seasons: number[] }): Promise<void> {
    for (const f of deps.live?.fixtures('livescores.all', ctx.now)?.fixtures ?? []) {
      if (typeof f.league_id === 'number') leagueIndex.learnFixture(f.id as number, f.league_id)
    }
    const fixtures = need.fixtures.filter((id) => leagueIndex.fixture(id) === undefined).sort((a, b) => a - b)
    for (let i = 0; i < Math.min(fixtures.length, MULTI_IDS * MAX_FIXTURE_LOOKUPS); i += MULTI_IDS) {
      const ids = fixtures.slice(i, i + MULTI_IDS).join(',')
      if (await lookup(ctx, { path: `/football/fixtures/multi/${ids}`, entity: 'Fixture', kind: 'fixture' }, { select: 'league_id' }) === undefined) return
    }
    for (const id of need.seasons.filter((s) => leagueIndex.season(s) === undefined).slice(0, MAX_SEASON_LOOKUPS)) {
      if (await lookup(ctx, { path: `/football/seasons/${id}`, entity: 'Season', kind: 'season' }, { select: 'league_id' }) === undefined) return
    }
  }

  async function answer (ctx: RequestContext): Promise<Reply> {
    const { endpoint, key } = ctx
    if (endpoint.id === 'my.usage' || endpoint.id === 'my.resources') return await account(ctx)
    if (endpoint.id.startsWith('livescores.')) {
      const fromLive = live(ctx)
      if (fromLive !== undefined) return fromLive
    }
    const raw = ctx.raw
    if (isScoped(key)) {
      const league = await scopedLeague(ctx)
      if (league === null) return leagueUnknownForbidden()
      if (typeof league === 'object') return league
      if (league !== undefined && !leagueAllowed(key, league)) return leagueForbidden(league)
      raw.filters = narrowFilters(endpoint, ctx.query, raw.filters, key.leagues as number[])
      raw.select = selectWithLeague(endpoint.kind, raw.select)
    }
    const loaded = await load(fetchInputOf(ctx, ttl), ctx.offline)
    ctx.sentUpstream = sentUpstream(loaded)
    const { fetched, source } = loaded
    deps.metrics?.cacheRequests.inc({ outcome: source })
    const cacheHeaders = { 'x-cache': source === 'miss' ? 'miss' : 'hit' }
    if (fetched.kind === 'budget') {
      return withHeaders(tooManyRequests(view(ctx.sentUpstream ? ctx.quota : refunded(ctx.quota)), fetched.retryAfter, BUDGET_MESSAGE), cacheHeaders)
    }
    if (fetched.kind === 'failure') return withHeaders(serverError(fetched.status, fetched.errorId), cacheHeaders)
    const { entry } = fetched
    if (entry.status !== 200) return { status: entry.status, headers: cacheHeaders, body: entry.body ?? '{}' }
    const scoped = await scopeEntry(key, endpoint, entry, { index: leagueIndex, lookup: async (need) => { await lookupLeagues(ctx, need) } })
    if (!scoped.ok) return scoped.league === null ? leagueUnknownForbidden() : leagueForbidden(scoped.league)
    const parts = withGatewayLinks(scoped.parts, ctx.req)
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

  async function serveKey (sent: PassRequest, key: ClientKey, presented: string): Promise<Reply> {
    // Judged as the upstream would read it: an encoded spelling of a path is that path (canonicalPath).
    const req = { ...sent, path: canonicalPath(sent.path) }
    // Account paths describe the key (my.ts): one not answered here is never forwarded.
    if (isUnservedAccountPath(req.path)) return pathNotFound(`/v3${req.path}`)
    const routed = routeRequest(req.path, req.query as Record<string, string | undefined>)
    if (routed.kind === 'refused') return routed.reply
    const { endpoint, params } = routed
    const pathLeague = leagueInPath(endpoint, params)
    if (pathLeague !== undefined && !leagueAllowed(key, pathLeague)) return leagueForbidden(pathLeague)
    const feature = missingFeature(endpoint, routed.query.includes, (f) => key.features.includes(f)) ??
      (routed.kind === 'forward' ? routed.features.find((f) => !key.features.includes(f)) : undefined)
    if (feature !== undefined) return featureForbidden(feature)
    if (routed.kind === 'forward' && isScoped(key)) return unknownForScopedKey(routed.unknown)

    const keyId = keyIdOf(presented)
    const at = now()
    const taken = await deps.quota.take(keyId, endpoint.entity, key.hourly_quota, at)
    if (!taken.allowed) return tooManyRequests(view(taken.state), taken.state.resetsInSeconds)
    // One string per parameter: `handle` kept the last of a repeated one.
    const raw = { ...req.query } as Record<string, string | undefined>
    const ctx: RequestContext = { req, key, keyId, endpoint, params, query: routed.query, raw, quota: taken.state, now: at, sentUpstream: false, offline: taken.offline === true }
    if (routed.kind === 'forward') ctx.forwarded = routed.base === undefined ? {} : { base: routed.base }
    let out: Reply
    try {
      out = await answer(ctx)
    } catch (err) {
      if (!ctx.sentUpstream) await deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch(() => {})
      throw err
    }
    if (out.status !== 200 && !ctx.sentUpstream) {
      await deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch((err: unknown) => { log.warn({ err }, 'quota refund failed') })
    }
    return out
  }

  return {
    async handle (req) {
      let out: Reply
      try {
        // A repeated parameter takes its last value, as on the real API.
        out = await serve({ ...req, query: singleValues(req.query) })
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

/** True when this request's own load sent a call upstream: not a cache hit, not a follower, not refused by the budget. */
function sentUpstream (loaded: Loaded): boolean {
  return loaded.source === 'miss' && !(loaded.fetched.kind === 'budget' && !loaded.fetched.sent)
}

function withHeaders (r: Reply, headers: Record<string, string>): Reply {
  return { ...r, headers: { ...r.headers, ...headers } }
}
