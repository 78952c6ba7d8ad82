/**
 * Cursor pagination of the embedded provider over HTTP (docs/upstream.md, "Pagination"), the refusal of deep offset pages,
 * and a repeated parameter taken with its last value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'

let p: RunningProvider
beforeAll(async () => { p = await startProvider({ port: 0 }) })
afterAll(async () => { await p.close() })

const TOKEN = 'demo-enterprise'

async function get (path: string, query: Record<string, string | string[]> = {}): Promise<{ status: number, body: any }> {
  const url = new URL(`${p.baseUrl}${path}`)
  for (const [name, value] of Object.entries(query)) for (const v of [value].flat()) url.searchParams.append(name, v)
  url.searchParams.set('api_token', TOKEN)
  const res = await fetch(url)
  return { status: res.status, body: await res.json() }
}

const ids = (body: any): number[] => (body.data as Array<{ id: number }>).map((r) => r.id)

/** Every row of a list, following `next` from the first page. */
async function walk (path: string, first: Record<string, string>, next: (body: any) => Record<string, string>): Promise<{ rows: number[], pages: number }> {
  let res = await get(path, first)
  const rows: number[] = []
  let pages = 0
  for (;;) {
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    rows.push(...ids(res.body))
    pages++
    if (res.body.pagination.has_more !== true) return { rows, pages }
    res = await get(path, next(res.body))
  }
}

describe('provider: cursor pagination', () => {
  for (const [path, query] of [
    ['/core/countries', { per_page: '15' }],
    ['/core/countries', { per_page: '15', order: 'desc' }],
    ['/football/fixtures', { per_page: '50', filters: 'fixtureLeagues:271' }]
  ] as const) {
    it(`walking ${path} ${JSON.stringify(query)} by cursor yields every row once, in the order of the offset pages`, async () => {
      const byPage = await walk(path, query, (b) => ({ ...query, page: String(b.pagination.current_page + 1) }))
      const byCursor = await walk(path, query, (b) => ({ cursor: b.pagination.next_cursor, ...('order' in query ? { order: query.order } : {}), ...('filters' in query ? { filters: query.filters } : {}) }))
      expect(byPage.pages).toBeGreaterThan(2)
      expect(byCursor.rows).toEqual(byPage.rows)
      expect(new Set(byCursor.rows).size).toBe(byCursor.rows.length)
    })
  }

  it('pages carry next_cursor (a bare token) beside next_page; the last page has null for both', async () => {
    const first = await get('/core/countries', { per_page: '20' })
    expect(first.body.pagination.next_cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    let res = first
    while (res.body.pagination.has_more === true) res = await get('/core/countries', { cursor: res.body.pagination.next_cursor })
    expect(res.body.pagination).toMatchObject({ has_more: false, next_cursor: null, next_page: null, per_page: 20 })
  })

  it('a cursor page links the next page by cursor, without page or token', async () => {
    const first = await get('/core/countries', { per_page: '10' })
    const second = await get('/core/countries', { cursor: first.body.pagination.next_cursor })
    const link = new URL(second.body.pagination.next_page)
    expect(link.searchParams.get('cursor')).toBe(second.body.pagination.next_cursor)
    expect(link.searchParams.has('page')).toBe(false)
    expect(link.searchParams.has('api_token')).toBe(false)
    expect(second.body.pagination.current_page).toBe(2)
  })

  it('cursor with per_page is 400, without rate_limit', async () => {
    const first = await get('/core/countries', { per_page: '10' })
    const res = await get('/core/countries', { cursor: first.body.pagination.next_cursor, per_page: '10' })
    expect(res.status).toBe(400)
    expect(res.body.errors).toHaveProperty('cursor')
    expect(res.body).not.toHaveProperty('rate_limit')
  })

  it('a tampered cursor, a cursor of another list and one of the other order are 400', async () => {
    const first = await get('/core/countries', { per_page: '10' })
    const cursor = first.body.pagination.next_cursor as string
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`
    for (const [path, query] of [
      ['/core/countries', { cursor: flipped }],
      ['/core/countries', { cursor: 'not-a-cursor' }],
      ['/core/regions', { cursor }],
      ['/core/countries', { cursor, order: 'desc' }]
    ] as const) {
      const res = await get(path, query)
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400)
      expect(res.body.errors).toHaveProperty('cursor')
    }
  })

  it('an offset page past 20,000 rows is refused with a message pointing at cursors', async () => {
    const ok = await get('/core/cities', { per_page: '50', page: '401' })
    expect(ok.status).toBe(200)
    const res = await get('/core/cities', { per_page: '50', page: '402' })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe(5003)
    expect(res.body.errors.page[0]).toMatch(/cursor/)
    expect(res.body).not.toHaveProperty('rate_limit')
  })
})

describe('provider: repeated parameters', () => {
  it('include=a&include=b takes the last value, as the real API does', async () => {
    const fixture = (await get('/football/fixtures', { per_page: '1' })).body.data[0]
    const res = await get(`/football/fixtures/${fixture.id as number}`, { include: ['participants', 'scores'] })
    expect(res.status).toBe(200)
    expect(Array.isArray(res.body.data.scores)).toBe(true)
    expect(res.body.data).not.toHaveProperty('participants')
  })

  it('a repeated page takes the last one', async () => {
    const two = await get('/core/countries', { per_page: '5', page: '2' })
    const res = await get('/core/countries', { per_page: '5', page: ['1', '2'] })
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual(ids(two.body))
  })
})
