/** Part 4.5, the odds feeds (docs/upstream.md, "Odds"): in-play and pre-match, all, latest, by fixture, bookmaker and market. */
import { describe, expect, it } from 'vitest'
import { expect400, expectRateLimit, expectStatus, listOf } from './context.ts'
import type { Ctx } from './context.ts'
import { checkOdd } from './shapes.ts'

export function describeOdds (c: Ctx): void {
  /** A fixture in play, if the target has one now. */
  const live = async (): Promise<any | undefined> => {
    const res = await c.get('/football/livescores/inplay')
    expectStatus(res, 200)
    return listOf(res)[0]
  }

  describe('4.5 odds feeds', () => {
    it('4.5 /football/odds/inplay: odd rows with suspended, paged, on the InplayOdd bucket', async () => {
      const res = await c.get('/football/odds/inplay')
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      expect(expectRateLimit(res).entity).toBe('InplayOdd')
      for (const o of listOf(res)) checkOdd(o, true)
    })

    it('4.5 /football/odds/inplay/latest: an array (or 200 with a message and no data), no pagination', async () => {
      const res = await c.get('/football/odds/inplay/latest')
      expectStatus(res, 200)
      expect(res.body).not.toHaveProperty('pagination')
      expect(expectRateLimit(res).entity).toBe('InplayOdd')
      for (const o of listOf(res)) checkOdd(o, true)
    })

    it('4.5 in-play odds of a fixture, of one of its bookmakers, of one of its markets', async (ctx) => {
      const fixture = await live()
      if (fixture === undefined) return ctx.skip('no fixture in play now')
      const res = await c.get(`/football/odds/inplay/fixtures/${fixture.id as number}`)
      expectStatus(res, 200)
      expect(res.body).not.toHaveProperty('pagination')
      const rows = listOf(res)
      for (const o of rows) {
        checkOdd(o, true)
        expect(o.fixture_id).toBe(fixture.id)
      }
      const first = rows[0]
      if (first === undefined) return
      const byBookmaker = listOf(await c.get(`/football/odds/inplay/fixtures/${fixture.id as number}/bookmakers/${first.bookmaker_id as number}`))
      expect(byBookmaker.length).toBeGreaterThan(0)
      for (const o of byBookmaker) expect(o.bookmaker_id).toBe(first.bookmaker_id)
      const byMarket = listOf(await c.get(`/football/odds/inplay/fixtures/${fixture.id as number}/markets/${first.market_id as number}`))
      expect(byMarket.length).toBeGreaterThan(0)
      for (const o of byMarket) expect(o.market_id).toBe(first.market_id)
    })

    it('4.5 pre-match odds of a fixture: odd rows on the Odd bucket', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const res = await c.get(`/football/odds/pre-match/fixtures/${fixture.id as number}`)
      expectStatus(res, 200)
      expect(expectRateLimit(res).entity).toBe('Odd')
      for (const o of listOf(res)) {
        checkOdd(o, false)
        expect(o.fixture_id).toBe(fixture.id)
      }
      expect(expectRateLimit(await c.get('/football/odds/pre-match/latest')).entity).toBe('Odd')
    })

    it('4.5 odds feeds include market, bookmaker and fixture, one level deep only', async () => {
      const res = await c.get('/football/odds/inplay/latest', { include: 'market;bookmaker;fixture' })
      expectStatus(res, 200)
      for (const o of listOf(res)) {
        expect(o.market.id).toBe(o.market_id)
        expect(o.bookmaker.id).toBe(o.bookmaker_id)
        expect(o.fixture.id).toBe(o.fixture_id)
      }
      expect400(await c.get('/football/odds/inplay/latest', { include: 'fixture.league' }))
    })
  })
}
