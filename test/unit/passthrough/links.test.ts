/** Links the passthrough returns: on the gateway's public URL, with the client's parameters and own key, never the upstream's. */
import { describe, expect, it } from 'vitest'
import { gatewayPagination, nextCursorUrl, nextPageUrl } from '../../../src/passthrough/links.ts'
import { singleValues } from '../../../packages/upstream-contract/src/query.ts'

const req = { baseUrl: 'https://gw.example/base', path: '/football/fixtures', query: { api_token: 'client-key', per_page: '2', include: 'participants;scores', page: '1' } }
const pg = { count: 2, per_page: 2, current_page: 1, has_more: true }

describe('nextPageUrl / nextCursorUrl', () => {
  it('keep the client\'s own key and parameters, and set the page or the cursor', () => {
    expect(nextPageUrl(req, 2)).toBe('https://gw.example/base/v3/football/fixtures?api_token=client-key&per_page=2&include=participants;scores&page=2')
    // per_page goes: the real API refuses it beside a cursor.
    expect(nextCursorUrl({ ...req, query: { ...req.query, cursor: 'old' } }, 'a/b+c=')).toBe('https://gw.example/base/v3/football/fixtures?api_token=client-key&include=participants;scores&cursor=a%2Fb%2Bc%3D')
  })
})

describe('gatewayPagination', () => {
  it('rebuilds a full-URL next_cursor and next_page on the gateway, leaving nothing of the upstream\'s', () => {
    const out = gatewayPagination({ ...pg, next_page: 'https://up.example/v3/football/fixtures?page=2&api_token=UPSTREAM', next_cursor: 'https://up.example/v3/football/fixtures?cursor=c2&api_token=UPSTREAM' }, req)
    expect(out.next_page).toBe(nextPageUrl(req, 2))
    expect(out.next_cursor).toBe(nextCursorUrl(req, 'c2'))
    expect(JSON.stringify(out)).not.toMatch(/UPSTREAM|up\.example/)
  })

  it('reads a next_cursor whose origin the scrub already removed', () => {
    expect(gatewayPagination({ ...pg, next_page: null, next_cursor: '/v3/football/fixtures?cursor=c3&api_token=[redacted]' }, req).next_cursor).toBe(nextCursorUrl(req, 'c3'))
  })

  it('keeps a bare cursor bare, and a cursor-only page without next_page', () => {
    const out = gatewayPagination({ ...pg, next_page: null, next_cursor: 'eyJpZCI6MTB9' }, req)
    expect(out.next_cursor).toBe('eyJpZCI6MTB9')
    expect(out.next_page).toBeNull()
  })

  it('ends with the list: no next page, a null cursor stays null', () => {
    const out = gatewayPagination({ ...pg, has_more: false, next_page: null, next_cursor: null }, req)
    expect(out).toMatchObject({ next_page: null, next_cursor: null })
  })

  it('drops a URL cursor it cannot read rather than relay the upstream URL', () => {
    expect(gatewayPagination({ ...pg, next_page: null, next_cursor: 'https://up.example/v3/x?token=1' }, req).next_cursor).toBeNull()
  })
})

describe('singleValues', () => {
  it('takes the last value of a repeated parameter, as the real API does', () => {
    expect(singleValues({ per_page: ['5', '3'], include: 'a', page: undefined })).toEqual({ per_page: '3', include: 'a' })
  })
})
