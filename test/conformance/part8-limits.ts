/** Part 8, limits: hourly quotas per plan, per-entity buckets and their counting rules, 429, burst buffer. */
import { describe, expect, it } from 'vitest'
import { FREE_LEAGUES, expect400, expectRateLimit, expectStatus, ids, listOf } from './context.ts'
import type { Ctx, GetOptions, Res } from './context.ts'
import type { Query } from '../helpers/http.ts'

/** Remaining count of a successful response, checked against its headers (x-ratelimit-remaining matches the body). */
function remainingOf (res: Res): number {
  expectStatus(res, 200)
  return expectRateLimit(res).remaining
}

function limitHeader (res: Res): number {
  const raw = res.headers['x-ratelimit-limit']
  expect(raw, `${res.url}: x-ratelimit-limit header`).toMatch(/^\d+$/)
  return Number(raw)
}

export function describeLimits (c: Ctx): void {
  /** Requests `path` until a non-200 (at most limit + extra times); returns the 200 count and the last response. */
  const exhaust = async (path: string, limit: number, opts: GetOptions, extra = 2): Promise<{ ok: number, last: Res }> => {
    let ok = 0
    let last = await c.get(path, {}, opts)
    while (last.status === 200 && ok < limit + extra) {
      ok++
      expect(last.body.rate_limit.remaining, 'remaining never goes below 0').toBeGreaterThanOrEqual(0)
      last = await c.get(path, {}, opts)
    }
    return { ok, last }
  }

  describe('8.1 hourly quota', () => {
    it('8.1 calls per entity per hour: Free 3000, Starter 2000, Growth 2500, Pro 3000, Enterprise 5000', async (ctx) => {
      const limits = c.target().planLimits
      if (limits === undefined) return ctx.skip('the target does not use the documented plan limits')
      const t = c.target().tokens
      const plans = [['free', t.free], ['starter', t.starter], ['growth', t.growth], ['pro', t.pro], ['enterprise', t.enterprise]] as const
      for (const [plan, token] of plans) {
        const res = await c.get('/football/leagues/271', {}, { token })
        expectStatus(res, 200)
        expect(limitHeader(res), `${plan} limit`).toBe(limits[plan])
        expect(res.body.rate_limit.remaining).toBeLessThan(limits[plan])
      }
      expect(limits).toEqual({ free: 3000, starter: 2000, growth: 2500, pro: 3000, enterprise: 5000 })
    })

    it('8.1 the Free plan covers the Danish and Scottish top leagues only (271, 501)', async () => {
      const res = await c.get('/my/leagues', {}, { token: c.target().tokens.free })
      expectStatus(res, 200)
      expect(ids(listOf(res)).sort((a, b) => a - b)).toEqual([...FREE_LEAGUES])
    })
  })

  describe('8.2 counting rules', () => {
    it('8.2.1 limits are per entity: each endpoint draws on the bucket of the entity it returns', async () => {
      const { season } = await c.discover.freeLeague()
      const { fixture } = await c.discover.freeFixtures()
      const team = await c.discover.first('/football/teams')
      const cases: Array<[string, string]> = [
        ['/football/teams', 'Team'],
        [`/football/teams/${team.id as number}`, 'Team'],
        ['/football/players', 'Player'],
        ['/football/venues', 'Venue'],
        ['/football/coaches', 'Coach'],
        ['/football/referees', 'Referee'],
        ['/football/leagues', 'League'],
        ['/football/leagues/271', 'League'],
        ['/football/leagues/search/a', 'League'],
        [`/football/seasons/${season.id as number}`, 'Season'],
        ['/core/types', 'Type'],
        [`/football/fixtures/${fixture.id as number}`, 'Fixture'],
        [`/football/fixtures/date/${(fixture.starting_at as string).slice(0, 10)}`, 'Fixture'],
        ['/my/leagues', 'League'],
        ['/my/usage', 'Resource'],
        ['/my/resources', 'Resource']
      ]
      for (const [path, entity] of cases) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expect(expectRateLimit(res).entity, `${path} draws on`).toBe(entity)
      }
    })

    it('8.2.1 livescore endpoints draw on Fixture (the same bucket as /fixtures)', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const byId = `/football/fixtures/${fixture.id as number}`
      const start = remainingOf(await c.get(byId))
      const paths = ['/football/livescores', '/football/livescores/inplay', '/football/livescores/latest', byId]
      for (const [i, path] of paths.entries()) {
        const res = await c.get(path)
        expect(expectRateLimit(res).entity, `${path} draws on`).toBe('Fixture')
        expect(remainingOf(res), `${path} spends the shared Fixture bucket`).toBe(start - i - 1)
      }
    })

    it('8.2.1 odds feeds draw on InplayOdd (in play) and Odd (pre-match), never on Fixture', async (ctx) => {
      const unsupported = c.target().unsupported?.planFeatures
      if (unsupported !== undefined) return ctx.skip(unsupported)
      const { fixture } = await c.discover.freeFixtures()
      const byId = `/football/fixtures/${fixture.id as number}`
      const start = remainingOf(await c.get(byId))
      const cases: Array<[string, string]> = [
        ['/football/odds/inplay', 'InplayOdd'], ['/football/odds/inplay/latest', 'InplayOdd'], [`/football/odds/inplay/fixtures/${fixture.id as number}`, 'InplayOdd'],
        ['/football/odds/pre-match/latest', 'Odd'], [`/football/odds/pre-match/fixtures/${fixture.id as number}`, 'Odd']
      ]
      for (const [path, entity] of cases) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expect(expectRateLimit(res).entity, `${path} draws on`).toBe(entity)
      }
      expect(remainingOf(await c.get(byId)), 'the odds calls did not spend Fixture').toBe(start - 1)
    })

    it('8.2.2 different entities have separate buckets', async () => {
      const team0 = remainingOf(await c.get('/football/teams'))
      const player0 = remainingOf(await c.get('/football/players'))
      for (let i = 1; i <= 3; i++) expect(remainingOf(await c.get('/football/teams'))).toBe(team0 - i)
      expect(remainingOf(await c.get('/football/players')), 'Team calls did not spend Player').toBe(player0 - 1)
    })

    it('8.2.4 each request counts as one, regardless of includes', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const path = `/football/fixtures/${fixture.id as number}`
      const r0 = remainingOf(await c.get(path))
      const r1 = remainingOf(await c.get(path, { include: 'participants;scores;events;state;statistics;periods' }))
      expect(r1).toBe(r0 - 1)
      expectStatus(await c.get('/football/leagues/271', { include: 'currentSeason.stages;country;seasons' }), 200)
      expect(remainingOf(await c.get(path)), 'a League request in between did not spend Fixture').toBe(r1 - 1)
    })

    it('8.2.4 every page of a paginated result counts', async () => {
      const p1 = await c.get('/football/players', { per_page: 2 })
      const r1 = remainingOf(p1)
      const r2 = remainingOf(await c.get('/football/players', { per_page: 2, page: 2 }))
      expect(r2).toBe(r1 - 1)
      const r3 = remainingOf(await c.getUrl(p1.body.pagination.next_page))
      expect(r3, 'following next_page counts too').toBe(r2 - 1)
    })

    it('8.2.4 a valid query with an empty result counts', async () => {
      const r0 = remainingOf(await c.get('/football/fixtures/date/1990-01-01'))
      const empty = await c.get('/football/fixtures/date/1990-01-02')
      expect(listOf(empty)).toEqual([])
      expect(remainingOf(empty)).toBe(r0 - 1)
    })

    it('8.2.5 requests failing validation expose no rate_limit', async () => {
      const queries: Query[] = [{ per_page: 51 }, { include: 'continent,leagues' }, { filters: 'IdAfter:x' }, { nope: 1 }]
      for (const q of queries) expect400(await c.get('/core/countries', q))
      expect400(await c.get('/football/livescores', { timezone: 'Bad/Zone' }))
    })

    it('8.2.6 /my/leagues draws on League', async () => {
      const r0 = remainingOf(await c.get('/football/leagues/271'))
      const res = await c.get('/my/leagues')
      expect(expectRateLimit(res).entity).toBe('League')
      expect(remainingOf(res)).toBe(r0 - 1)
    })

    it('8.2.6 /my/usage draws on Resource', async () => {
      const r0 = remainingOf(await c.get('/my/resources'))
      const res = await c.get('/my/usage')
      expect(expectRateLimit(res).entity).toBe('Resource')
      expect(remainingOf(res)).toBe(r0 - 1)
    })

    it('8.2.6 /my/resources draws on Resource', async () => {
      const r0 = remainingOf(await c.get('/my/usage'))
      const res = await c.get('/my/resources')
      expect(expectRateLimit(res).entity).toBe('Resource')
      expect(remainingOf(res)).toBe(r0 - 1)
    })

    it('8.2.7 once an entity is exhausted it gives 429, and other entities remain usable', async (ctx) => {
      const limited = c.target().limited
      if (limited === undefined) return ctx.skip('the target declares no limited token')
      const opts = { token: limited.token, baseUrl: limited.baseUrl }
      const { ok, last } = await exhaust('/football/coaches', limited.limit, opts)
      expectStatus(last, 429)
      expect(ok, 'at most the hourly limit succeeded').toBeLessThanOrEqual(limited.limit)
      expect(last.body.rate_limit?.requested_entity).toBe('Coach')
      expectStatus(await c.get('/football/coaches', { page: 2 }, opts), 429)
      const other = await c.get('/football/teams', {}, opts)
      expectStatus(other, 200)
      expect(other.body.rate_limit.requested_entity).toBe('Team')
      expect(other.body.rate_limit.remaining).toBeGreaterThan(0)
    })

    it('8.2.8 x-ratelimit-limit and x-ratelimit-remaining headers equal the body', async () => {
      const { fixture } = await c.discover.freeFixtures()
      for (const path of ['/core/continents', '/football/teams', `/football/fixtures/${fixture.id as number}`, '/football/livescores', '/my/usage']) {
        const res = await c.get(path)
        expectStatus(res, 200)
        const rl = expectRateLimit(res)
        expect(res.headers['x-ratelimit-remaining'], `${path}: x-ratelimit-remaining`).toBe(String(rl.remaining))
        expect(limitHeader(res)).toBeGreaterThanOrEqual(rl.remaining)
      }
      const limits = c.target().planLimits
      if (limits !== undefined) expect(limitHeader(await c.get('/football/teams'))).toBe(limits.pro)
    })

    it('8.2.9 Enterprise burst buffer: requests continue above the limit until the buffer is exceeded', async (ctx) => {
      const burst = c.target().burst
      if (burst === undefined) return ctx.skip('the target declares no burst instance')
      const opts = { token: burst.token, baseUrl: burst.baseUrl }
      const { ok, last } = await exhaust('/football/teams', burst.limit + burst.buffer, opts, 3)
      expect(ok, `requests 1..${burst.limit + burst.buffer} succeed`).toBe(burst.limit + burst.buffer)
      expectStatus(last, 429)
    })
  })

  // Time moves forward from here on: these run last so that no other test sees a shifted clock.
  describe('8.2.3 hour window (moves the clock)', () => {
    it('8.2.3 window starts at the first request to an entity', async (ctx) => {
      const advance = c.target().advanceClock
      if (advance === undefined) return ctx.skip('the target clock cannot be moved')
      const a = await c.get('/football/referees')
      const limit = limitHeader(a)
      // Past the end of the current window, then half an hour more with no request to this entity.
      advance((expectRateLimit(a).resets + 1800) * 1000)
      const b = await c.get('/football/referees')
      expect(remainingOf(b), 'a fresh window after the hour').toBe(limit - 1)
      const resets = expectRateLimit(b).resets
      expect(resets, 'the new window starts at this request, not when the old one ended').toBeGreaterThanOrEqual(3597)
      expect(resets).toBeLessThanOrEqual(3600)
    })

    it('8.2.3 window resets one hour after the first request (fixed, not sliding)', async (ctx) => {
      const advance = c.target().advanceClock
      if (advance === undefined) return ctx.skip('the target clock cannot be moved')
      const first = await c.get('/football/venues')
      const limit = limitHeader(first)
      advance((expectRateLimit(first).resets + 1) * 1000)
      const a = await c.get('/football/venues')
      expect(remainingOf(a)).toBe(limit - 1)
      const startResets = expectRateLimit(a).resets
      advance(20 * 60_000)
      const b = await c.get('/football/venues')
      expect(remainingOf(b)).toBe(limit - 2)
      expect(Math.abs(expectRateLimit(b).resets - (startResets - 1200)), 'resets_in_seconds counts down from the first request').toBeLessThanOrEqual(3)
      advance((expectRateLimit(b).resets - 5) * 1000)
      expect(remainingOf(await c.get('/football/venues')), 'still the same window 5 s before the hour').toBe(limit - 3)
      advance(6000)
      const d = await c.get('/football/venues')
      expect(remainingOf(d), 'full limit again after one hour').toBe(limit - 1)
      expect(expectRateLimit(d).resets).toBeGreaterThanOrEqual(3597)
    })

    it('8.2.3 an exhausted entity is usable again when its hour ends (429 retry_after)', async (ctx) => {
      const { advanceClock: advance, limited } = c.target()
      if (advance === undefined || limited === undefined) return ctx.skip('needs a movable clock and a limited token')
      const opts = { token: limited.token, baseUrl: limited.baseUrl }
      const { last } = await exhaust('/football/referees', limited.limit, opts)
      expectStatus(last, 429)
      advance((last.body.retry_after + 1) * 1000)
      const res = await c.get('/football/referees', {}, opts)
      expect(remainingOf(res)).toBe(limited.limit - 1)
    })
  })
}
