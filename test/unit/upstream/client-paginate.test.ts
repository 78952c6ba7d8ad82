/** paginate(): walks `has_more` by cursor when offered, else by page number up to the offset cap; follows `next_page` only on our own upstream. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/client.ts'
import type { UpstreamResponse } from '../../../src/upstream/client.ts'
import { envelope, startServer, type TestServer } from './client-server.ts'

const TOKEN = 'tl-test-token-pages'
const TEAMS = '/football/teams'

let server: TestServer
let client: UpstreamClient

const page = (current: number, items: unknown[], hasMore: boolean, nextPage: string | null = null) => ({
  body: envelope(items, { pagination: { count: items.length, per_page: 2, current_page: current, next_page: nextPage, has_more: hasMore } })
})

async function collect<T> (iterable: AsyncIterable<UpstreamResponse<T[]>>): Promise<T[][]> {
  const pages: T[][] = []
  for await (const res of iterable) pages.push(res.data)
  return pages
}

beforeEach(async () => {
  server = await startServer()
  client = createUpstreamClient({ baseUrl: server.baseUrl, token: TOKEN, retryBaseMs: 1 })
})

afterEach(async () => {
  await client.close()
  await server.close()
})

describe('upstream client: pagination', () => {
  it('walks every page while has_more, one call per page', async () => {
    server.on(TEAMS, page(1, [1, 2], true), page(2, [3, 4], true), page(3, [5], false))
    const pages = await collect<number>(client.paginate(TEAMS, { per_page: '2' }))
    expect(pages).toEqual([[1, 2], [3, 4], [5]])
    const hits = server.hits(TEAMS)
    expect(hits).toHaveLength(3)
    expect(hits.map((r) => r.query.get('page'))).toEqual([null, '2', '3'])
    expect(hits.every((r) => r.query.get('per_page') === '2' && r.query.get('api_token') === TOKEN)).toBe(true)
  })

  it('does not follow a next_page that points at another host', async () => {
    server.on(TEAMS, page(1, [1], true, 'https://elsewhere.example/v3/football/teams?page=2&steal=1'), page(2, [2], false))
    expect(await collect(client.paginate(TEAMS))).toEqual([[1], [2]])
    const second = server.hits(TEAMS)[1]
    expect(second?.query.get('page')).toBe('2')
    expect(second?.query.get('steal')).toBeNull()
  })

  it('follows a next_page on our upstream, swapping its token for ours', async () => {
    const next = `${server.origin}/v3/football/teams?page=2&per_page=2&extra=kept&api_token=leaked`
    server.on(TEAMS, page(1, [1], true, next), page(2, [2], false))
    await collect(client.paginate(TEAMS, { per_page: '2', include: 'country' }))
    const second = server.hits(TEAMS)[1]
    expect(second?.query.get('extra')).toBe('kept')
    expect(second?.query.get('page')).toBe('2')
    // The caller's parameters carry over when the link leaves them out.
    expect(second?.query.get('include')).toBe('country')
    expect(second?.query.getAll('api_token')).toEqual([TOKEN])
  })

  it('does not follow a next_page outside our base path on the same host', async () => {
    server.on(TEAMS, page(1, [1], true, `${server.origin}/v2/football/teams?page=2&legacy=1`), page(2, [2], false))
    await collect(client.paginate(TEAMS))
    expect(server.hits(TEAMS)[1]?.query.get('legacy')).toBeNull()
  })

  it('ignores a next_page that would go backwards', async () => {
    server.on(TEAMS, page(1, [1], true), page(2, [2], true, `${server.origin}/v3/football/teams?page=1`), page(3, [3], false))
    expect(await collect(client.paginate(TEAMS))).toEqual([[1], [2], [3]])
  })

  it('starts from the given page and stops on an empty page that claims more', async () => {
    server.on(TEAMS, page(4, [7], true), page(5, [], true))
    expect(await collect(client.paginate(TEAMS, { page: '4' }))).toEqual([[7], []])
    expect(server.hits(TEAMS).map((r) => r.query.get('page'))).toEqual(['4', '5'])
  })

  it('throws TL_ERR_UPSTREAM_PAGINATION past maxPages', async () => {
    server.on(TEAMS, page(1, [1], true), page(2, [2], true), page(3, [3], true))
    const seen: number[][] = []
    const walk = async () => { for await (const res of client.paginate<number>(TEAMS, {}, { maxPages: 2 })) seen.push(res.data) }
    await expect(walk()).rejects.toMatchObject({ code: 'TL_ERR_UPSTREAM_PAGINATION' })
    expect(seen).toEqual([[1], [2]])
    expect(server.hits(TEAMS)).toHaveLength(2)
  })

  it('yields a single page for an endpoint without pagination', async () => {
    server.on('/football/livescores/inplay', { body: envelope([{ id: 1 }]) })
    expect(await collect(client.paginate('/football/livescores/inplay'))).toEqual([[{ id: 1 }]])
  })

  it('follows a full-URL next_cursor by its token, wherever it points, without page or per_page', async () => {
    const cursorPage = (current: number, items: unknown[], cursor: string | null) => ({
      body: envelope(items, { pagination: { count: items.length, per_page: 2, current_page: current, next_page: null, next_cursor: cursor, has_more: cursor !== null } })
    })
    server.on(TEAMS, cursorPage(1, [1, 2], 'https://elsewhere.example/v3/football/teams?cursor=abc%2B1&api_token=leaked'), cursorPage(2, [3], null))
    expect(await collect(client.paginate(TEAMS, { per_page: '2', page: '1', include: 'country' }))).toEqual([[1, 2], [3]])
    const second = server.hits(TEAMS)[1]
    expect(second?.query.get('cursor')).toBe('abc+1')
    expect(second?.query.get('per_page'), 'the API refuses per_page beside a cursor').toBeNull()
    expect(second?.query.get('page')).toBeNull()
    expect(second?.query.get('include')).toBe('country')
    expect(second?.query.getAll('api_token')).toEqual([TOKEN])
  })

  it('follows a bare next_cursor', async () => {
    const bare = (items: unknown[], cursor: string | null) => ({
      body: envelope(items, { pagination: { count: items.length, per_page: 1, current_page: 1, next_page: null, next_cursor: cursor, has_more: cursor !== null } })
    })
    server.on(TEAMS, bare([1], 'c1'), bare([2], 'c2'), bare([3], null))
    expect(await collect(client.paginate(TEAMS))).toEqual([[1], [2], [3]])
    expect(server.hits(TEAMS).map((r) => r.query.get('cursor'))).toEqual([null, 'c1', 'c2'])
  })

  it('never asks for an offset page past 20,000 rows: with no cursor offered it throws there', async () => {
    const deep = (current: number) => ({ body: envelope([current], { pagination: { count: 1, per_page: 50, current_page: current, next_page: null, has_more: true } }) })
    server.on(TEAMS, deep(399), deep(400), deep(401))
    const seen: unknown[][] = []
    const walk = async () => { for await (const res of client.paginate(TEAMS, { page: '399', per_page: '50' })) seen.push(res.data) }
    await expect(walk()).rejects.toMatchObject({ code: 'TL_ERR_UPSTREAM_PAGINATION' })
    expect(seen).toEqual([[399], [400]])
    expect(server.hits(TEAMS).map((r) => r.query.get('page')), 'page 401 at 50 a page is never asked for').toEqual(['399', '400'])
  })
})
