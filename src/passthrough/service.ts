/**
 * The REST passthrough (docs/passthrough.md): a drop-in for the upstream API in front of one upstream token. For each
 * request, in the upstream's own order (provider/app.ts): the client key (401), the path (404), the query
 * (400), the key's league scope and features (403), the key's hourly quota (429); then the answer (answer.ts), from the
 * live mirror, the cache, or one coalesced upstream call paid from the shared budget (sources.ts). A path or name the catalogue does not know
 * is forwarded after a syntax check (route.ts); links in answers are rebuilt on the gateway (links.ts).
 *
 * Counting (every request that reaches the upstream costs the key a call): the key's quota is
 * taken before anything is fetched, so a spent quota is a 429 with no upstream call. A request keeps its
 * count when it got a 200 (cache hits and live answers included, as the upstream counts them) or when a
 * call was sent upstream for it, whatever came back (404, 403, 429, 5xx, timeout): otherwise a key could
 * make one upstream call per distinct missing id for free. A non-200 answered without sending anything
 * (a cached 404, a follower of another request's call, a refusal by the shared budget) is given back.
 * Validation errors never reach the quota, as on the upstream. The lookups the scope makes for a scoped key (the
 * season or fixture of a path, the leagues of fixtures and seasons its rows name) cost the key one call
 * of their own entity each when sent; with that entity's quota spent they are not made and the rows they
 * would have cleared are withheld. So a key never causes more upstream calls per entity and hour than its
 * `hourly_quota`.
 */
import { randomUUID } from 'node:crypto'
import { isMalformedToken } from '@touchline/upstream-contract/auth'
import { missingFeature } from '@touchline/upstream-contract/features'
import { singleValues } from '@touchline/upstream-contract/query'
import { leagueAllowed, originAllowed, type ClientKey } from '../client-keys.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import { createSingleFlight } from '../util/singleflight.ts'
import { answer, quotaRefused } from './answer.ts'
import { createChargedEntities } from './charged.ts'
import { keyIdOf } from './digest.ts'
import { storeUnavailable } from './fallback.ts'
import { createLeagueIndex } from './league-index.ts'
import { isUnservedAccountPath } from './my.ts'
import {
  INVALID_KEY, MALFORMED_KEY, MISSING_KEY, featureForbidden, leagueForbidden, originForbidden, pathNotFound, serverError,
  unauthorized, unknownForScopedKey, withHeaders, type Reply
} from './replies.ts'
import { canonicalPath, presentedKey, type PassRequest } from './request.ts'
import { routeRequest } from './route.ts'
import { isScoped, leagueInPath } from './scope.ts'
import { DEFAULT_TTL } from './ttl.ts'
import type { PassthroughContext, PassthroughDeps, PassthroughOptions, RequestContext } from './types.ts'

export interface Passthrough {
  handle: (req: PassRequest) => Promise<Reply>
}

const CORS_EXPOSED = 'x-ratelimit-limit, x-ratelimit-remaining, retry-after, x-cache, age'

export function createPassthrough (deps: PassthroughDeps, opts: PassthroughOptions = {}): Passthrough {
  const p = passthroughContext(deps, opts)
  return {
    async handle (req) {
      let out: Reply
      try {
        // A repeated parameter takes its last value, as on the real API.
        out = await serve(p, { ...req, query: singleValues(req.query) })
      } catch (err) {
        const errorId = randomUUID()
        if (isStoreUnavailable(err)) {
          p.log.warn({ errorId, path: req.path }, 'passthrough request refused: shared store unreachable')
          out = storeUnavailable(errorId)
        } else {
          p.log.error({ err, errorId, path: req.path }, 'passthrough request failed')
          out = serverError(500, errorId)
        }
      }
      if (out.headers['x-cache'] === undefined) out.headers['x-cache'] = 'miss'
      deps.metrics?.passthroughRequests.inc({ status: String(out.status) })
      return out
    }
  }
}

function passthroughContext (deps: PassthroughDeps, opts: PassthroughOptions): PassthroughContext {
  const secrets = (deps.secrets ?? []).filter((s) => s.length > 0)
  const origins = deps.upstreamOrigin === undefined ? [] : [deps.upstreamOrigin, deps.upstreamOrigin.replaceAll('/', '\\/')]
  const scrub = (text: string): string => origins.reduce((t, o) => t.includes(o) ? t.replaceAll(o, '') : t,
    secrets.reduce((t, s) => t.includes(s) ? t.replaceAll(s, '[redacted]') : t, text))
  return {
    deps,
    log: deps.log,
    now: opts.now ?? Date.now,
    ttl: { ...DEFAULT_TTL, ...opts.ttl },
    fetchDeps: {
      upstream: deps.upstream,
      ledger: deps.ledger,
      log: deps.log,
      scrub,
      charged: createChargedEntities(),
      ...(opts.ledgerNow !== undefined ? { ledgerNow: opts.ledgerNow } : {}),
      ...(opts.upstreamTimeoutMs !== undefined ? { timeoutMs: opts.upstreamTimeoutMs } : {})
    },
    flights: createSingleFlight(),
    leagueIndex: deps.leagueIndex ?? createLeagueIndex()
  }
}

/** The client key (401) and, from a browser, its origin (403). */
async function serve (p: PassthroughContext, req: PassRequest): Promise<Reply> {
  if (req.token !== undefined && 'refused' in req.token) return unauthorized(req.token.refused)
  // The account paths describe the key (its plan, its usage): the key holder's, not a fan's.
  if (req.token !== undefined && canonicalPath(req.path).startsWith('/my/')) return unauthorized('This path takes the client key, not a fan\'s token.')
  const presented = req.token !== undefined ? req.token.key.key : presentedKey(req)
  if (presented === undefined || presented === '') return unauthorized(MISSING_KEY)
  if (isMalformedToken(presented)) return unauthorized(MALFORMED_KEY)
  const key = req.token !== undefined ? req.token.key : p.deps.keys.find(presented)
  if (key === undefined) return unauthorized(INVALID_KEY)
  if (req.origin === undefined) return await serveKey(p, req, key, presented)
  if (!originAllowed(key, req.origin)) return originForbidden(req.origin)
  // A browser may read the answer (and the quota headers) only from an origin the key allows.
  return withHeaders(await serveKey(p, req, key, presented), {
    'access-control-allow-origin': req.origin, vary: 'Origin', 'access-control-expose-headers': CORS_EXPOSED
  })
}

/** The path (404), query (400), scope and features (403) and quota (429) of a known key; then the answer. */
async function serveKey (p: PassthroughContext, sent: PassRequest, key: ClientKey, presented: string): Promise<Reply> {
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
  const at = p.now()
  const taken = await p.deps.quota.take(keyId, endpoint.entity, key.hourly_quota, at)
  if (!taken.allowed) return quotaRefused(taken.state)
  // One string per parameter: `handle` kept the last of a repeated one.
  const raw = { ...req.query } as Record<string, string | undefined>
  const ctx: RequestContext = { req, key, keyId, endpoint, params, query: routed.query, raw, quota: taken.state, now: at, sentUpstream: false, offline: taken.offline === true }
  if (routed.kind === 'forward') ctx.forwarded = routed.base === undefined ? {} : { base: routed.base }
  let out: Reply
  try {
    out = await answer(p, ctx)
  } catch (err) {
    if (!ctx.sentUpstream) await p.deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch(() => {})
    throw err
  }
  if (out.status !== 200 && !ctx.sentUpstream) {
    await p.deps.quota.refund(keyId, endpoint.entity, taken.state.windowStart).catch((err: unknown) => { p.log.warn({ err }, 'quota refund failed') })
  }
  return out
}
