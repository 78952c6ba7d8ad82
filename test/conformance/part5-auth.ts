/** Part 5, authentication and plan access (with the 401 and 403 bodies). */
import { describe, expect, it } from 'vitest'
import { FREE_LEAGUES, expectStatus, ids, listOf } from './context.ts'
import type { Ctx, Res } from './context.ts'

export function expect401 (res: Res): void {
  expectStatus(res, 401)
  expect(res.body?.error, '401 body has error').toBeTypeOf('string')
  expect(res.body?.message, '401 body has message').toBeTypeOf('string')
  expect(res.body, '401 carries no rate_limit').not.toHaveProperty('rate_limit')
}

export function expect403 (res: Res): void {
  expectStatus(res, 403)
  for (const field of ['error', 'message', 'resource', 'plan_required']) {
    expect(res.body?.[field], `403 body has ${field} (string)`).toBeTypeOf('string')
  }
  expect(res.body, '403 carries no rate_limit').not.toHaveProperty('rate_limit')
}

export function describeAuth (c: Ctx): void {
  const header = (token: string): Record<string, string> => (c.target().authHeader ?? ((t: string) => ({ authorization: t })))(token)

  describe('5 authentication', () => {
    it('5.1 the api_token query parameter authenticates', async () => {
      expectStatus(await c.get('/core/continents', {}, { token: c.target().tokens.pro }), 200)
    })

    it('5.6 the token is also accepted in the header form', async () => {
      expectStatus(await c.get('/core/continents', {}, { token: null, headers: header(c.target().tokens.pro) }), 200)
      const free = await c.get('/football/leagues', {}, { token: null, headers: header(c.target().tokens.free) })
      expectStatus(free, 200)
      expect(ids(free.body.data).every((id) => FREE_LEAGUES.includes(id)), 'the header token selects its plan').toBe(true)
    })

    it('5.2 a missing token gives 401', async () => {
      expect401(await c.get('/core/continents', {}, { token: null }))
      expect401(await c.get('/football/livescores', {}, { token: null }))
    })

    it('5.2 a malformed token (spaces, quotes) gives 401', async () => {
      const pro = c.target().tokens.pro
      for (const bad of [`${pro} x`, ` ${pro}`, `"${pro}"`, `'${pro}'`, '']) {
        expect401(await c.get('/core/continents', {}, { token: bad }))
      }
    })

    it('5.2 a revoked token gives 401', async () => {
      expect401(await c.get('/core/continents', {}, { token: c.target().tokens.revoked }))
    })

    it('5.2 a regenerated (old) token gives 401', async () => {
      expect401(await c.get('/core/continents', {}, { token: c.target().tokens.regenerated }))
    })

    it('5.2 an expired token gives 401', async () => {
      expect401(await c.get('/core/continents', {}, { token: c.target().tokens.expired }))
    })

    it('5.3 a token of another environment gives 401', async () => {
      expect401(await c.get('/core/continents', {}, { token: c.target().tokens.otherEnvironment }))
    })

    it('5.2 an unknown token gives 401, in the header form too', async () => {
      expect401(await c.get('/core/continents', {}, { token: 'no-such-token-0000' }))
      expect401(await c.get('/core/continents', {}, { token: null, headers: header(c.target().tokens.revoked) }))
    })

    it('7 401 body has error and message', async () => {
      expect401(await c.get('/football/leagues/271', {}, { token: null }))
    })
  })

  describe('5.4 plan access (403)', () => {
    it('5.4 a league outside the Free plan gives 403', async () => {
      const { league } = await c.discover.paidLeague()
      expect403(await c.get(`/football/leagues/${league.id as number}`, {}, { token: c.target().tokens.free }))
      expectStatus(await c.get(`/football/leagues/${league.id as number}`), 200)
    })

    it('5.4 a fixture of a league outside the Free plan gives 403', async (ctx) => {
      const { fixture } = await c.discover.paidLeague()
      if (fixture === undefined) return ctx.skip('the paid league has no fixtures')
      expect403(await c.get(`/football/fixtures/${fixture.id as number}`, {}, { token: c.target().tokens.free }))
    })

    it('5.4 the Free plan sees leagues 271 and 501 in lists (7.4: plan filtering is 200, not an error)', async () => {
      const { fixture } = await c.discover.paidLeague()
      const free = await c.get('/football/leagues', { per_page: 50 }, { token: c.target().tokens.free })
      expectStatus(free, 200)
      expect(ids(free.body.data).sort((a, b) => a - b)).toEqual([...FREE_LEAGUES])
      if (fixture !== undefined) {
        const date = (fixture.starting_at as string).slice(0, 10)
        const res = await c.get(`/football/fixtures/date/${date}`, { per_page: 50 }, { token: c.target().tokens.free })
        expectStatus(res, 200)
        for (const f of listOf(res)) expect(FREE_LEAGUES).toContain(f.league_id)
      }
    })

    it('5.4 the xGFixture include without the needed tier gives 403 (Starter), and works on Pro', async (ctx) => {
      const unsupported = c.target().unsupported?.planFeatures
      if (unsupported !== undefined) return ctx.skip(unsupported)
      const { fixture } = await c.discover.freeFixtures()
      const path = `/football/fixtures/${fixture.id as number}`
      expect403(await c.get(path, { include: 'xGFixture' }, { token: c.target().tokens.starter }))
      expectStatus(await c.get(path, { include: 'xGFixture' }, { token: c.target().tokens.pro }), 200)
    })

    it('5.4 predictions without the add-on give 403 (Pro), and work on Enterprise (include and endpoint)', async (ctx) => {
      const unsupported = c.target().unsupported?.planFeatures
      if (unsupported !== undefined) return ctx.skip(unsupported)
      const { fixture } = await c.discover.freeFixtures()
      const { pro, enterprise } = c.target().tokens
      const path = `/football/fixtures/${fixture.id as number}`
      expect403(await c.get(path, { include: 'predictions' }, { token: pro }))
      expectStatus(await c.get(path, { include: 'predictions' }, { token: enterprise }), 200)
      // The real API's predictions endpoint.
      const endpoint = `/football/predictions/probabilities/fixtures/${fixture.id as number}`
      expect403(await c.get(endpoint, {}, { token: pro }))
      expectStatus(await c.get(endpoint, {}, { token: enterprise }), 200)
    })

    it('5.4 odds without the odds package give 403 (Starter), and work on Growth (include and endpoint)', async (ctx) => {
      const unsupported = c.target().unsupported?.planFeatures
      if (unsupported !== undefined) return ctx.skip(unsupported)
      const { fixture } = await c.discover.freeFixtures()
      const { starter, growth } = c.target().tokens
      const path = `/football/fixtures/${fixture.id as number}`
      expect403(await c.get(path, { include: 'odds' }, { token: starter }))
      expectStatus(await c.get(path, { include: 'odds' }, { token: growth }), 200)
      // The real API's odds feeds, pre-match and in play.
      for (const endpoint of [`/football/odds/pre-match/fixtures/${fixture.id as number}`, `/football/odds/inplay/fixtures/${fixture.id as number}`, '/football/odds/inplay/latest']) {
        expect403(await c.get(endpoint, {}, { token: starter }))
        expectStatus(await c.get(endpoint, {}, { token: growth }), 200)
      }
    })

    it('7 403 body has error, message, resource and plan_required', async () => {
      const { league } = await c.discover.paidLeague()
      const res = await c.get(`/football/leagues/${league.id as number}`, {}, { token: c.target().tokens.free })
      expect403(res)
      expect(res.body.plan_required.length).toBeGreaterThan(0)
      expect(res.body.resource.length).toBeGreaterThan(0)
    })
  })
}
