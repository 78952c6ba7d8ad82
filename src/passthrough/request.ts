/**
 * A client request as the passthrough sees it, and the normalized upstream request derived from it: the
 * cache key, the coalescing key and what is actually sent upstream are one and the same thing, so two
 * requests that mean the same call share one cache entry and one upstream call.
 */
import { presentedToken } from '@touchline/upstream-contract/auth'
import type { ClientKey } from '../client-keys.ts'
import { encodeQueryValue } from '@touchline/upstream-contract/query'

/** What the HTTP layer hands the passthrough: nothing fastify-specific. */
export interface PassRequest {
  /** Path under `/v3`, still percent-encoded, without the query: `/football/fixtures/1`. */
  path: string
  /**
   * Query parameters as parsed by the HTTP layer. The HTTP binding passes one value per name (the last of a
   * repeated one, see `singleValues` in upstream-contract/query.ts); an array here is refused as a repeated parameter.
   */
  query: Record<string, string | string[] | undefined>
  /** The `Authorization` header (the header form of the key, as the upstream accepts its token). */
  authorization?: string
  /** The `Origin` header of a browser request. */
  origin?: string
  /** The gateway's public base URL (TOUCHLINE_PUBLIC_URL or the listener's), e.g. `http://127.0.0.1:8080`, for links. */
  baseUrl: string
  /**
   * A fan's signed connection token, verified by the HTTP layer (docs/tokens.md): the key as the token
   * narrows it, or why it was refused. The key's quota pays for what the fan asks.
   */
  token?: { key: ClientKey } | { refused: string }
}

/** A normalized upstream call: path and query as sent, and the key naming it in the cache and in flight. */
export interface UpstreamRequest {
  path: string
  query: Record<string, string>
  key: string
}

/** The presented key, read as the upstream reads tokens (upstream-contract/auth.ts). */
export const presentedKey = (req: Pick<PassRequest, 'query' | 'authorization'>): string | undefined =>
  presentedToken(req.query, req.authorization)

/**
 * Parameters whose value changes nothing when it is the default: dropped, so that `?page=1`
 * and no page share one entry. `per_page` is 25 with and without `populate` (only the maximum differs).
 */
const DEFAULTS: Readonly<Record<string, string>> = { page: '1', order: 'asc', per_page: '25', timezone: 'UTC' }
const EMPTY_MEANS_NONE = new Set(['include', 'select', 'filters'])

/**
 * The path as it is sent upstream: each segment decoded and encoded one way, the trailing slash dropped.
 * `/football/%6Fdds/` is `/football/odds` to the upstream, so it must be to everything that judges a
 * request too (catalogue, features, quota, cache, scope); a segment that does not decode is left as is.
 */
export function canonicalPath (path: string): string {
  const segments = path.split('/')
  if (segments.length > 2 && segments.at(-1) === '') segments.pop()
  return segments.map((s) => {
    try {
      return encodeQueryValue(decodeURIComponent(s))
    } catch {
      return s
    }
  }).join('/')
}

/**
 * The upstream request for a validated client query (`api_token` removed: the upstream client adds the
 * gateway's own). Parameters are sorted so that their order does not split the cache.
 */
export function upstreamRequest (path: string, query: Readonly<Record<string, string | undefined>>): UpstreamRequest {
  const out: Record<string, string> = {}
  for (const name of Object.keys(query).sort()) {
    const value = query[name]
    if (value === undefined || name === 'api_token') continue
    if (DEFAULTS[name] === value || (EMPTY_MEANS_NONE.has(name) && value === '')) continue
    out[name] = value
  }
  const canonical = canonicalPath(path)
  const qs = Object.entries(out).map(([k, v]) => `${encodeURIComponent(k)}=${encodeQueryValue(v)}`).join('&')
  return { path: canonical, query: out, key: qs === '' ? canonical : `${canonical}?${qs}` }
}
