/**
 * Pages of a list endpoint, by offset (`page`, `per_page`) or by cursor (docs/upstream.md, "Pagination"), for the embedded
 * provider. A cursor is a bare opaque token (as the docs show it, not the full URL the official MCP server
 * describes): `<payload>.<signature>`, base64url. Its payload names the list it walks (endpoint, path
 * parameters, filters, order), the page size, and the last row handed out (id and sort key), never a page
 * number, so a walk resumes after that row even when rows before it come or go. The signature (HMAC-SHA256
 * with the provider's secret) makes a tampered or invented cursor a 400, and the list name makes a cursor
 * of another list a 400 too.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Pagination } from '@touchline/upstream-contract/envelope'
import { badRequestBody, type ParsedQuery } from '@touchline/upstream-contract/query'
import type { ErrorReply } from './error-replies.ts'
import type { Rec } from './records.ts'

interface CursorPayload {
  /** Version of the payload layout. */
  v: 1
  /** Fingerprint of the list: endpoint, path parameters, filters, order. */
  l: string
  /** Page size of the walk. */
  n: number
  /** Id and sort key of the last row handed out. */
  id: number
  k: number
}

export interface PageRequest {
  endpointId: string
  params: Readonly<Record<string, string>>
  query: ParsedQuery
  /**
   * The rows' sort key besides the id, e.g. the kick-off of fixtures. Only used when the cursor's last row
   * has left the list: the walk then resumes at the first row after (key, id), as in lists ordered that way.
   */
  sortKey: (r: Rec) => number
  /** The URL of another page of the same request, by page number or by cursor. */
  link: (next: { page: number } | { cursor: string }) => string
}

export interface Page {
  rows: Rec[]
  pagination: Pagination
}

const SIGNATURE_BYTES = 16

export class CursorCodec {
  readonly #secret: Buffer

  /** @param secret signs cursors; one per provider (random unless given, e.g. derived from the seed). */
  constructor (secret: string | Buffer = randomBytes(32)) {
    this.#secret = Buffer.isBuffer(secret) ? secret : Buffer.from(secret)
  }

  encode (payload: CursorPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
    return `${body}.${this.#sign(body).toString('base64url')}`
  }

  /** The payload of a cursor this provider signed, or undefined for anything else. */
  decode (token: string): CursorPayload | undefined {
    const [body, signature, ...rest] = token.split('.')
    if (body === undefined || signature === undefined || rest.length > 0) return undefined
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== SIGNATURE_BYTES || !timingSafeEqual(given, this.#sign(body))) return undefined
    try {
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<CursorPayload>
      const valid = p.v === 1 && typeof p.l === 'string' && Number.isInteger(p.n) && Number.isInteger(p.id) && typeof p.k === 'number'
      return valid ? p as CursorPayload : undefined
    } catch {
      return undefined
    }
  }

  #sign (body: string): Buffer {
    return createHmac('sha256', this.#secret).update(body).digest().subarray(0, SIGNATURE_BYTES)
  }
}

/** What names a list: the same request gives the same rows in the same order, whatever its page. */
function listFingerprint (req: PageRequest): string {
  const filters = [...req.query.filters.values()].map((f) => `${f.spec.name.toLowerCase()}:${f.values.join(',')}`).sort()
  const params = Object.entries(req.params).sort(([a], [b]) => a.localeCompare(b))
  return createHash('sha256').update(JSON.stringify([req.endpointId, params, filters, req.query.order])).digest('base64url').slice(0, 16)
}

const invalidCursor = (): ErrorReply => ({
  status: 400,
  body: badRequestBody('cursor', 'The cursor is not valid for this request: it was altered, or it belongs to another list or another order. Start again without a cursor.')
})

/** Where a walk resumes: after its last row, or, if that row left the list, after its place in the order. */
function resumeAt (rows: readonly Rec[], cursor: CursorPayload, req: PageRequest): number {
  const at = rows.findIndex((r) => r.id === cursor.id)
  if (at !== -1) return at + 1
  const sign = req.query.order === 'desc' ? -1 : 1
  const after = rows.findIndex((r) => sign * (req.sortKey(r) - cursor.k || r.id - cursor.id) > 0)
  return after === -1 ? rows.length : after
}

/** One page of `rows` (already in the requested order), or the 400 of a cursor that is not ours. */
export function pageOf (rows: readonly Rec[], req: PageRequest, codec: CursorCodec): Page | ErrorReply {
  const list = listFingerprint(req)
  let start: number
  let perPage: number
  if (req.query.cursor === null) {
    perPage = req.query.perPage
    start = (req.query.page - 1) * perPage
  } else {
    const cursor = codec.decode(req.query.cursor)
    if (cursor === undefined || cursor.l !== list) return invalidCursor()
    perPage = cursor.n
    start = resumeAt(rows, cursor, req)
  }
  const slice = rows.slice(start, start + perPage)
  const last = slice.at(-1)
  const hasMore = start + perPage < rows.length && last !== undefined
  const nextCursor = hasMore ? codec.encode({ v: 1, l: list, n: perPage, id: last.id, k: req.sortKey(last) }) : null
  const currentPage = Math.floor(start / perPage) + 1
  const nextPage = nextCursor === null ? null : req.query.cursor === null ? req.link({ page: currentPage + 1 }) : req.link({ cursor: nextCursor })
  return {
    rows: slice,
    pagination: { count: slice.length, per_page: perPage, current_page: currentPage, next_page: nextPage, next_cursor: nextCursor, has_more: hasMore }
  }
}
