/** Part 7, errors: status codes, the body of each, and the rules on unknown includes, rate_limit and empty results. */
import { describe, expect, it } from 'vitest'
import { expect400, expectRateLimit, expectStatus, listOf } from './context.ts'
import type { Ctx, Res } from './context.ts'
import { expect401, expect403 } from './part5-auth.ts'

function expect404 (res: Res): void {
  expectStatus(res, 404)
  expect(res.body?.error, '404 body has error').toBeTypeOf('string')
  expect(res.body?.message, '404 body has message').toBeTypeOf('string')
  expect(res.body, '404 carries no rate_limit').not.toHaveProperty('rate_limit')
}

export function describeErrors (c: Ctx): void {
  describe('7 status codes and bodies', () => {
    it('7 200 OK: an empty result set is 200, not an error (7.4)', async () => {
      for (const path of ['/football/fixtures/date/1990-01-01', '/core/cities/search/zzqqxxnomatch', '/football/fixtures/between/1990-01-01/1990-01-05']) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expect(listOf(res)).toEqual([])
        expectRateLimit(res)
      }
    })

    it('7 200 OK: over-strict filters give 200 with empty data (7.4)', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const date = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/fixtures/date/${date}`, { filters: 'fixtureLeagues:999999999' })
      expectStatus(res, 200)
      expect(listOf(res)).toEqual([])
    })

    it('7 400 body has message and errors {param: [string]}, and no rate_limit (7.2)', async () => {
      expect400(await c.get('/core/countries', { per_page: 51 }), 'per_page')
      expect400(await c.get('/core/countries', { include: 'continent,leagues' }), 'include')
      expect400(await c.get('/core/countries', { filters: 'IdAfter:abc' }), 'filters')
      expect400(await c.get('/football/livescores', { timezone: 'Nowhere/Null' }), 'timezone')
      expect400(await c.get('/core/countries', { bogus: 'x' }), 'bogus')
    })

    it('7 401 body has error and message, and no rate_limit', async () => {
      expect401(await c.get('/core/countries', {}, { token: null }))
      expect401(await c.get('/core/countries', {}, { token: c.target().tokens.expired }))
    })

    it('7 403 carries error, message, resource, plan_required and no rate_limit', async (ctx) => {
      const unsupported = c.target().unsupported?.planFeatures
      if (unsupported !== undefined) return ctx.skip(unsupported)
      const { fixture } = await c.discover.freeFixtures()
      expect403(await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'xGFixture' }, { token: c.target().tokens.starter }))
    })

    it('7 404 body has error, message, resource_type, resource_id (string) for an unknown id', async () => {
      for (const [path, id] of [['/football/teams', '987654321'], ['/football/fixtures', '987654321'], ['/core/countries', '987654321'], ['/football/leagues', '987654321']] as const) {
        const res = await c.get(`${path}/${id}`)
        expect404(res)
        expect(res.body.resource_type, `${path}: resource_type`).toBeTypeOf('string')
        expect(res.body.resource_type.length).toBeGreaterThan(0)
        expect(res.body.resource_id, `${path}: resource_id is the id as a string`).toBe(id)
      }
    })

    it('7 404 for a wrong path', async () => {
      expect404(await c.get('/football/no-such-thing'))
      expect404(await c.get('/core/planets'))
      expect404(await c.get('/football/fixtures/between/2026-01-01'))
      expect404(await c.get('/football/fixtures/not-a-number'))
    })

    it('7 404 for another sport in the sport position (/v3/basketball, 9)', async () => {
      expect404(await c.get('/basketball/leagues'))
      expect404(await c.get('/basketball/fixtures/1'))
    })

    it.skip('7 422 validation error: its body shape is not documented', () => {})

    it('7 429 body has error, message, retry_after and rate_limit {remaining, total, resets_in_seconds, requested_entity}', async (ctx) => {
      const limited = c.target().limited
      if (limited === undefined) return ctx.skip('the target declares no limited token')
      const opts = { token: limited.token, baseUrl: limited.baseUrl }
      let res = await c.get('/football/venues', {}, opts)
      for (let i = 0; i <= limited.limit && res.status === 200; i++) res = await c.get('/football/venues', {}, opts)
      expectStatus(res, 429)
      const b = res.body
      expect(b.error).toBeTypeOf('string')
      expect(b.message).toBeTypeOf('string')
      expect(Number.isInteger(b.retry_after), 'retry_after is integer seconds').toBe(true)
      expect(b.retry_after).toBeGreaterThan(0)
      expect(b.retry_after).toBeLessThanOrEqual(3600)
      expect(b.rate_limit).toEqual({
        remaining: 0,
        total: limited.limit,
        resets_in_seconds: expect.any(Number),
        requested_entity: 'Venue'
      })
      expect(Math.abs(b.rate_limit.resets_in_seconds - b.retry_after)).toBeLessThanOrEqual(1)
    })

    it('7 500 body has error, message, error_id and no stack trace', async (ctx) => {
      const failing = c.target().failing
      if (failing === undefined) return ctx.skip('the target declares no fault-injected instance')
      const res = await c.get('/core/continents', {}, { token: failing.token, baseUrl: failing.baseUrl })
      expectStatus(res, 500)
      expect(res.body.error).toBeTypeOf('string')
      expect(res.body.message).toBeTypeOf('string')
      expect(res.body.error_id).toBeTypeOf('string')
      expect(res.body.error_id.length).toBeGreaterThan(0)
      expect(res.body).not.toHaveProperty('stack')
      expect(res.text, 'no stack trace leaks').not.toMatch(/\n\s+at |\.ts:\d+|node_modules/)
    })
  })

  describe('7 rules', () => {
    it('7.1 a non-existent include yields error code 5001 and no rate_limit', async () => {
      for (const path of ['/core/continents', '/football/leagues/271']) {
        const res = await c.get(path, { include: 'noSuchInclude' })
        expect(res.status, `${res.url} → ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        expect(res.body?.code, 'internal code 5001').toBe(5001)
        expect(res.body?.message).toBeTypeOf('string')
        expect(res.body).not.toHaveProperty('rate_limit')
      }
    })

    it('7.2 validation-type errors carry no rate_limit', async () => {
      for (const query of [{ per_page: 0 }, { page: 0 }, { order: 'up' }, { include: 'a b' }, { filters: 'IdAfter' }, { x: 1 }]) {
        const res = await c.get('/core/countries', query)
        expect(res.status, `${res.url} → ${res.status}`).toBe(400)
        expect(res.body).not.toHaveProperty('rate_limit')
      }
    })
  })
}
