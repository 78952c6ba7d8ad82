/** Cursor pages of the embedded provider (packages/provider/src/paging.ts): signed, bound to their list, resumed by row. */
import { describe, expect, it } from 'vitest'
import { parseQuery, matchEndpoint, type ParsedQuery } from '../../../packages/upstream-contract/src/query.ts'
import { CursorCodec, pageOf, type Page, type PageRequest } from '../../../packages/provider/src/paging.ts'
import type { Rec } from '../../../packages/provider/src/records.ts'

const endpoint = matchEndpoint('/core/countries')?.endpoint
if (endpoint === undefined) throw new Error('no endpoint')

function query (raw: Record<string, string>): ParsedQuery {
  const parsed = parseQuery(endpoint as NonNullable<typeof endpoint>, raw)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error.body))
  return parsed.query
}

const request = (raw: Record<string, string>, endpointId = 'countries.list'): PageRequest => ({
  endpointId,
  params: {},
  query: query(raw),
  sortKey: (r) => r.id,
  link: (next) => JSON.stringify(next)
})

const rows = (ids: number[]): Rec[] => ids.map((id) => ({ id }))
const ids = (page: Page): number[] => page.rows.map((r) => r.id)

function page (result: ReturnType<typeof pageOf>): Page {
  if ('status' in result) throw new Error(`refused: ${JSON.stringify(result.body)}`)
  return result
}

describe('provider cursor pages', () => {
  const codec = new CursorCodec('test-secret')
  const data = rows([1, 2, 3, 4, 5, 6, 7])

  it('walks the list by cursor, keeping the first page size, and ends with a null cursor', () => {
    const first = page(pageOf(data, request({ per_page: '3' }), codec))
    expect(ids(first)).toEqual([1, 2, 3])
    expect(first.pagination.next_cursor).toBeTypeOf('string')
    const second = page(pageOf(data, request({ cursor: first.pagination.next_cursor as string }), codec))
    expect(ids(second)).toEqual([4, 5, 6])
    expect(second.pagination).toMatchObject({ per_page: 3, current_page: 2, has_more: true })
    expect(JSON.parse(second.pagination.next_page as string)).toEqual({ cursor: second.pagination.next_cursor })
    const last = page(pageOf(data, request({ cursor: second.pagination.next_cursor as string }), codec))
    expect(ids(last)).toEqual([7])
    expect(last.pagination).toMatchObject({ has_more: false, next_cursor: null, next_page: null })
  })

  it('resumes after the last row handed out, not at a page number, when rows before it come or go', () => {
    const first = page(pageOf(data, request({ per_page: '3' }), codec))
    const cursor = first.pagination.next_cursor as string
    expect(ids(page(pageOf(rows([2, 3, 4, 5, 6, 7]), request({ cursor }), codec)))).toEqual([4, 5, 6])
    // Even the last row itself gone: the walk goes on from its place in the order.
    expect(ids(page(pageOf(rows([1, 2, 4, 5, 6, 7]), request({ cursor }), codec)))).toEqual([4, 5, 6])
    // A row added before it does not repeat a row either.
    expect(ids(page(pageOf(rows([0, 1, 2, 3, 4, 5, 6, 7]), request({ cursor }), codec)))).toEqual([4, 5, 6])
  })

  it('refuses a tampered cursor, a cursor of another list or order, and one signed by another provider', () => {
    const cursor = page(pageOf(data, request({ per_page: '3' }), codec)).pagination.next_cursor as string
    const [body, signature] = cursor.split('.') as [string, string]
    const forged = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"n":3', '"n":50')).toString('base64url')
    for (const bad of [`${forged}.${signature}`, `${body}.${signature.slice(0, -2)}AA`, 'abc', `${body}.${signature}.x`]) {
      const r = pageOf(data, request({ cursor: bad }), codec)
      expect('status' in r && r.status, bad).toBe(400)
    }
    const other = pageOf(data, request({ cursor }, 'regions.list'), codec)
    expect('status' in other && other.status).toBe(400)
    const desc = pageOf(data, request({ cursor, order: 'desc' }), codec)
    expect('status' in desc && desc.status).toBe(400)
    const stranger = pageOf(data, request({ cursor }), new CursorCodec('another-secret'))
    expect('status' in stranger && stranger.status).toBe(400)
  })
})
