/**
 * Building upstream requests and reading their answers, for the client (client.ts): where a request goes
 * (with the token, only ever handed to undici) and how it is shown (without it), the real API's data
 * quirks, and how pagination moves on.
 */
import type { Mode } from '@touchline/upstream-contract/endpoints'
import { encodeQueryValue, matchEndpoint } from '@touchline/upstream-contract/query'
import { redactUrl } from '../logger.ts'
import type { Envelope } from './schemas.ts'

/** Query parameters; a list repeats the name. `api_token` is always replaced by the client's token. */
export type Query = Record<string, string | readonly string[] | undefined>
/** A request resolved once for all its attempts. */
export interface Target {
  /** Path under the origin with the query and the token: only ever handed to undici. */
  requestPath: string
  /** Path relative to the base URL with the query, without the token: for logs, errors and metrics. */
  display: string
  /** Entity bucket and response shape of the path's endpoint in the contract, when it has one. */
  entity?: string
  mode?: Mode
}

export function resolveTarget (base: URL, path: string, query: Query, token: string): Target {
  const q = path.indexOf('?')
  const rawPath = q === -1 ? path : path.slice(0, q)
  const pathname = rawPath.startsWith('/') ? rawPath : `/${rawPath}`
  const params = new Map<string, readonly string[]>()
  // A query inside `path` (a followed next_page link) first; explicit parameters override it.
  if (q !== -1) {
    for (const [key, value] of new URLSearchParams(path.slice(q + 1))) params.set(key, [...(params.get(key) ?? []), value])
  }
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, typeof value === 'string' ? [value] : value)
  }
  const parts: string[] = []
  for (const [key, values] of params) {
    if (key.toLowerCase() === 'api_token') continue
    for (const value of values) parts.push(`${encodeURIComponent(key)}=${encodeQueryValue(value)}`)
  }
  const qs = parts.join('&')
  const tokenParam = `api_token=${encodeURIComponent(token)}`
  const match = matchEndpoint(pathname)
  const target: Target = {
    requestPath: `${base.pathname.replace(/\/+$/, '')}${pathname}?${qs === '' ? tokenParam : `${qs}&${tokenParam}`}`,
    display: redactUrl(qs === '' ? pathname : `${pathname}?${qs}`)
  }
  if (match !== undefined) {
    target.entity = match.endpoint.entity
    target.mode = match.endpoint.mode
  }
  return target
}

/** The real API's quirks: a missing `data` means no results; a list endpoint may answer one object. */
export function shapeData (data: Envelope['data'], mode: Mode | undefined): unknown {
  if (data === undefined || data === null) return mode === 'single' ? null : []
  if ((mode === 'list' || mode === 'unpaged') && !Array.isArray(data)) return [data]
  return data
}

/**
 * The real API refuses offset pages past 20,000 rows (since 2026-06-23; its documentation words the limit
 * both as `(page - 1) * per_page > 20000` and as "page 401 at 50 a page", and the stricter reading is kept;
 * docs/upstream.md, "Pagination"); past that only cursors go on.
 */
export const OFFSET_ROWS_CAP = 20_000

export type NextPage =
  | { path: string, query: Query }
  /** More pages exist but only an offset page past the cap would reach them, and the upstream offered no cursor. */
  | { capped: true }

/**
 * The next page's request, or undefined when the walk is over. A `next_cursor` (a bare token or a URL) is
 * followed first, as `cursor=` without `page` or `per_page` (the API refuses `per_page` beside a cursor);
 * else `next_page` when it stays on our upstream and moves forward; else page + 1, up to the offset cap.
 */
export function nextPage (base: URL, current: { path: string, query: Query }, pg: Envelope['pagination'], count: number): NextPage | undefined {
  // An empty page that claims more would loop forever; stop there.
  if (pg === undefined || !pg.has_more || count === 0) return undefined
  const cursor = readCursor(pg.next_cursor)?.token
  if (cursor !== undefined) {
    const { page: _page, per_page: _perPage, cursor: _cursor, ...kept } = current.query
    return { path: current.path, query: { ...kept, cursor } }
  }
  const followed = followLink(base, pg.next_page)
  const next = followed !== undefined && Number(followed.query.page) > pg.current_page
    // The caller's parameters carry over; the link's own ones win.
    ? { path: followed.path, query: { ...current.query, ...followed.query } }
    : { path: current.path, query: { ...current.query, page: String(pg.current_page + 1) } }
  const rowsBefore = (Number(next.query.page) - 1) * pg.per_page
  return rowsBefore >= OFFSET_ROWS_CAP ? { capped: true } : next
}

/**
 * The token of a `next_cursor` (the docs show a bare token, the official MCP a full URL): the value itself
 * when bare, its `cursor` parameter when a URL, absolute or relative, wherever it points. Undefined when
 * there is none.
 */
export function readCursor (value: string | null | undefined): { token: string, url: boolean } | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  if (!/^(https?:\/\/|\/)/i.test(value)) return { token: value, url: false }
  try {
    const token = new URL(value, 'http://upstream.invalid').searchParams.get('cursor')
    return token === null || token === '' ? undefined : { token, url: true }
  } catch {
    return undefined
  }
}

/** A `next_page` URL as a path and query under our base URL, or undefined when it points elsewhere. */
function followLink (base: URL, link: string | null | undefined): { path: string, query: Query } | undefined {
  if (typeof link !== 'string') return undefined
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return undefined
  }
  const basePath = base.pathname.replace(/\/+$/, '')
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) return undefined
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) query[key] = value
  return { path: url.pathname.slice(basePath.length), query }
}

export function parseJson (body: Buffer): unknown {
  if (body.length === 0) return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}
