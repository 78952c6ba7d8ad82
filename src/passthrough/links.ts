/**
 * The links the passthrough returns (`pagination.next_page`, `pagination.next_cursor`), rebuilt on the
 * gateway: the configured public URL (TOUCHLINE_PUBLIC_URL, else the listener's URL; never the Host
 * header), the client's own path and parameters, and the client's own key when it sent one in the query.
 * Never the upstream's host or token: whatever the upstream wrote, only a page number or a cursor token
 * is taken from it.
 */
import type { Pagination } from '@touchline/upstream-contract/envelope'
import { encodeQueryValue } from '@touchline/upstream-contract/query'
import { readCursor } from '../upstream/request.ts'
import type { EnvelopeParts } from './entry.ts'
import type { PassRequest } from './request.ts'

/** Pagination as the real API may send it: cursor pagination (since 2026-06-05) adds `next_cursor`. */
export type UpstreamPagination = Pagination & { next_cursor?: string | null }

type LinkRequest = Pick<PassRequest, 'baseUrl' | 'path' | 'query'>

/** Parameters a link sets itself; a cursor link also drops `per_page`, which the API refuses beside `cursor`. */
const PAGE_OWN = new Set(['page', 'cursor'])
const CURSOR_OWN = new Set(['page', 'cursor', 'per_page'])

function link (req: LinkRequest, own: ReadonlySet<string>, name: string, value: string): string {
  const parts: string[] = []
  for (const [param, v] of Object.entries(req.query)) {
    // The client's own `api_token` stays, so the link works as given; the upstream's never gets here.
    if (own.has(param) || typeof v !== 'string') continue
    parts.push(`${encodeURIComponent(param)}=${encodeQueryValue(v)}`)
  }
  parts.push(`${name}=${encodeQueryValue(value)}`)
  return `${req.baseUrl}/v3${req.path}?${parts.join('&')}`
}

/** `next_page` on the gateway: the client's request with the next page number. */
export function nextPageUrl (req: LinkRequest, page: number): string {
  return link(req, PAGE_OWN, 'page', String(page))
}

/** `next_cursor` on the gateway: the client's request with the cursor (and without `page`/`per_page`). */
export function nextCursorUrl (req: LinkRequest, cursor: string): string {
  return link(req, CURSOR_OWN, 'cursor', cursor)
}

/** The page an upstream `next_page` names (`page=`), else the one after `current_page`. */
function nextPageNumber (p: UpstreamPagination): number | undefined {
  if (typeof p.next_page === 'string') {
    try {
      const named = Number(new URL(p.next_page, 'http://upstream.invalid').searchParams.get('page'))
      if (Number.isInteger(named) && named > 0) return named
    } catch {}
  }
  return Number.isInteger(p.current_page) ? p.current_page + 1 : undefined
}

/**
 * The upstream's pagination with its links rebuilt on the gateway. `next_page` is null when there is no
 * next page or the upstream sent none (a cursor-only page); `next_cursor` keeps the upstream's form: a bare
 * token stays as it is (the client passes it back as `cursor=`), a URL becomes a gateway URL.
 */
export function gatewayPagination (p: UpstreamPagination, req: LinkRequest): UpstreamPagination {
  const page = p.has_more && p.next_page !== null ? nextPageNumber(p) : undefined
  const out: UpstreamPagination = { ...p, next_page: page === undefined ? null : nextPageUrl(req, page) }
  if (typeof p.next_cursor === 'string') {
    // A URL may have lost the upstream's origin to the scrub already (service.ts): relative is read the same.
    const cursor = readCursor(p.next_cursor)
    out.next_cursor = cursor === undefined ? null : cursor.url ? nextCursorUrl(req, cursor.token) : cursor.token
  }
  return out
}

/** The envelope parts with gateway links, for this client. */
export function withGatewayLinks (parts: EnvelopeParts, req: LinkRequest): EnvelopeParts {
  return parts.pagination === undefined ? parts : { ...parts, pagination: gatewayPagination(parts.pagination, req) }
}
