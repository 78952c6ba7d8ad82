/** Part 2, resources: the envelope, pagination, subscription, rate_limit, and the field sets of the core records and leagues. */
import { describe, expect, it } from 'vitest'
import { FREE_LEAGUES, currentSeasonOf, expect400, expectInt, expectRateLimit, expectStatus, ids, listOf } from './context.ts'
import type { Ctx } from './context.ts'
import {
  LEAGUE_SUB_TYPES, LEAGUE_TYPES, checkCity, checkContinent, checkCountry, checkLeague, checkSeason, checkStage,
  checkSubscription
} from './shapes.ts'

export function describeResources (c: Ctx): void {
  describe('2.1 envelope', () => {
    it('2.1 envelope: list endpoints carry data as an array', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      expect(Array.isArray(res.body.data)).toBe(true)
    })

    it('2.1 envelope: single-resource endpoints carry data as an object', async () => {
      const first = await c.discover.first('/core/continents')
      const res = await c.get(`/core/continents/${first.id as number}`)
      expectStatus(res, 200)
      expect(res.body.data).toBeTypeOf('object')
      expect(Array.isArray(res.body.data)).toBe(false)
      expect(res.body.data.id).toBe(first.id)
    })

    it('2.1 envelope: list endpoints carry pagination', async () => {
      for (const path of ['/core/continents', '/core/countries', '/core/cities', '/football/leagues', '/football/teams']) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expect(res.body.pagination, `${path} has pagination`).toBeTypeOf('object')
      }
    })

    it('2.1 envelope: pagination only on list endpoints (not on single resources)', async () => {
      const continent = await c.discover.first('/core/continents')
      const { fixture } = await c.discover.freeFixtures()
      for (const path of [`/core/continents/${continent.id as number}`, '/football/leagues/271', `/football/fixtures/${fixture.id as number}`]) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expect(res.body, `${path} has no pagination`).not.toHaveProperty('pagination')
      }
    })

    it('2.1 envelope: subscription is an array of Subscription objects', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      expect(Array.isArray(res.body.subscription), 'subscription is an array').toBe(true)
      expect(res.body.subscription.length).toBeGreaterThan(0)
    })

    it('2.1 envelope: rate_limit is present on successful responses', async () => {
      for (const path of ['/core/continents', '/football/leagues/271', '/football/teams']) {
        const res = await c.get(path)
        expectStatus(res, 200)
        expectRateLimit(res)
      }
    })

    it('2.1 envelope: rate_limit is present on empty-result responses', async () => {
      const res = await c.get('/football/fixtures/date/1990-01-01')
      expectStatus(res, 200)
      expect(listOf(res)).toEqual([])
      expectRateLimit(res)
    })

    it('2.1 envelope: rate_limit is absent on validation-error responses', async () => {
      expect400(await c.get('/core/continents', { per_page: 51 }))
      expect400(await c.get('/core/continents', { unknown_param: 1 }))
    })

    it('2.1 envelope: timezone is a string, UTC by default', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      expect(res.body.timezone).toBe('UTC')
    })
  })

  describe('2.2 pagination', () => {
    it('2.2 pagination: count is the number of items on this page', async () => {
      const res = await c.get('/core/countries', { per_page: 7 })
      expectStatus(res, 200)
      expectInt(res.body.pagination.count, 'pagination.count')
      expect(res.body.pagination.count).toBe(res.body.data.length)
      expect(res.body.data.length).toBe(7)
    })

    it('2.2 pagination: per_page is the page size used (default 25)', async () => {
      const a = await c.get('/core/countries')
      expectStatus(a, 200)
      expect(a.body.pagination.per_page).toBe(25)
      const b = await c.get('/core/countries', { per_page: 3 })
      expect(b.body.pagination.per_page).toBe(3)
    })

    it('2.2 pagination: current_page reflects page (default 1)', async () => {
      const a = await c.get('/core/countries', { per_page: 3 })
      expect(a.body.pagination.current_page).toBe(1)
      const b = await c.get('/core/countries', { per_page: 3, page: 2 })
      expectStatus(b, 200)
      expect(b.body.pagination.current_page).toBe(2)
      const overlap = ids(b.body.data).filter((id) => ids(a.body.data).includes(id))
      expect(overlap, 'page 2 holds other items than page 1').toEqual([])
    })

    it('2.2 pagination: next_page is a URL that works and keeps the query', async () => {
      const query = { per_page: 2, order: 'desc', include: 'continent' }
      const a = await c.get('/core/countries', query)
      expectStatus(a, 200)
      const p = a.body.pagination
      expect(p.has_more).toBe(true)
      expect(p.next_page).toBeTypeOf('string')
      const next = new URL(p.next_page)
      const base = new URL(c.target().baseUrl)
      expect(next.origin, 'next_page points at the same service').toBe(base.origin)
      expect(next.pathname).toBe(`${base.pathname.replace(/\/$/, '')}/core/countries`)
      expect(next.searchParams.get('page')).toBe('2')
      expect(next.searchParams.get('per_page')).toBe('2')
      expect(next.searchParams.get('order')).toBe('desc')
      expect(next.searchParams.get('include')).toBe('continent')

      const b = await c.getUrl(p.next_page)
      expectStatus(b, 200)
      expect(b.body.pagination.current_page).toBe(2)
      expect(b.body.pagination.per_page).toBe(2)
      const [first, second] = [ids(a.body.data), ids(b.body.data)]
      expect(Math.min(...first), 'desc order continues on page 2').toBeGreaterThan(Math.max(...second))
      for (const country of b.body.data) expect(country, 'include kept on page 2').toHaveProperty('continent')
    })

    it('2.2 pagination: has_more false and next_page null on the last page', async () => {
      let res = await c.get('/core/countries', { per_page: 50 })
      let pages = 1
      while (res.status === 200 && res.body.pagination?.has_more === true && pages < 40) {
        expect(res.body.pagination.next_page).toBeTypeOf('string')
        res = await c.getUrl(res.body.pagination.next_page)
        pages++
      }
      expectStatus(res, 200)
      expect(res.body.pagination.has_more).toBe(false)
      expect(res.body.pagination.next_page).toBeNull()
      expect(res.body.pagination.current_page).toBe(pages)
    })

    it('2.2 pagination: has_more true when another page exists', async () => {
      const res = await c.get('/core/countries', { per_page: 1 })
      expectStatus(res, 200)
      expect(res.body.pagination.has_more).toBe(true)
      expect(res.body.pagination.next_page).toMatch(/^https?:\/\//)
    })
  })

  describe('2.3 subscription', () => {
    it('2.3 subscription: meta.current_timestamp is an integer (epoch seconds)', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      for (const s of res.body.subscription) {
        expectInt(s.meta?.current_timestamp, 'subscription.meta.current_timestamp')
        expect(s.meta.current_timestamp, 'epoch seconds, not milliseconds').toBeLessThan(1e11)
      }
    })

    it('2.3 subscription: meta.next_billing_cycle is formatted YYYY-MM-DDTHH:MM:SS UTC', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      for (const s of res.body.subscription) checkSubscription(s)
    })

    it('2.3 subscription: plans, add_ons and widgets are arrays', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      for (const s of res.body.subscription) {
        expect(Array.isArray(s.plans)).toBe(true)
        expect(Array.isArray(s.add_ons)).toBe(true)
        expect(Array.isArray(s.widgets)).toBe(true)
      }
    })
  })

  describe('2.4 rate_limit', () => {
    it('2.4 rate_limit: resets_in_seconds, remaining and requested_entity', async () => {
      const res = await c.get('/football/teams')
      expectStatus(res, 200)
      const rl = expectRateLimit(res)
      expect(rl.resets).toBeGreaterThanOrEqual(0)
      expect(rl.resets).toBeLessThanOrEqual(3600)
      expect(rl.remaining).toBeGreaterThanOrEqual(0)
      expect(rl.entity).toBe('Team')
    })
  })

  describe('2.5–2.10 records', () => {
    it('2.5 City: fields and types (latitude/longitude as decimal text)', async () => {
      const res = await c.get('/core/cities', { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const city of res.body.data) checkCity(city)
    })

    it('2.5 City: every selectable field is accepted, and region selects region_id', async () => {
      const res = await c.get('/core/cities', { select: 'id,country_id,region,name,latitude,longitude,geonameid' })
      expectStatus(res, 200)
      for (const city of res.body.data) checkCity(city)
      const narrow = await c.get('/core/cities', { select: 'name,region' })
      expectStatus(narrow, 200)
      for (const city of narrow.body.data) {
        expect(city).toHaveProperty('name')
        expect(city).toHaveProperty('region_id')
        expect(city).not.toHaveProperty('latitude')
        expect(city).not.toHaveProperty('geonameid')
      }
    })

    it('2.6 Continent: fields and types (two-letter code)', async () => {
      const res = await c.get('/core/continents')
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const continent of res.body.data) checkContinent(continent)
    })

    it('2.7 Country: fields and types (iso2/iso3/fifa_name lengths, decimal text, borders)', async () => {
      const res = await c.get('/core/countries', { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const country of res.body.data) checkCountry(country)
    })

    it('2.7 Country: every selectable field is accepted, and border selects borders', async () => {
      const all = 'id,continent_id,name,official_name,fifa_name,iso2,iso3,latitude,longitude,geonameid,border,image_path'
      const res = await c.get('/core/countries', { select: all })
      expectStatus(res, 200)
      for (const country of res.body.data) checkCountry(country)
      const narrow = await c.get('/core/countries', { select: 'name,border' })
      expectStatus(narrow, 200)
      for (const country of narrow.body.data) {
        expect(Array.isArray(country.borders), 'borders selected by border').toBe(true)
        expect(country).not.toHaveProperty('official_name')
        expect(country).not.toHaveProperty('iso3')
      }
    })

    it('2.8 League: fields and types', async () => {
      const res = await c.get('/football/leagues', { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const league of res.body.data) checkLeague(league)
    })

    it('2.9 Season: fields and types', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/seasons/${season.id as number}`)
      expectStatus(res, 200)
      checkSeason(res.body.data)
      expect(res.body.data.league_id).toBe(271)
      expect(res.body.data.is_current).toBe(true)
      const league = await c.get('/football/leagues/271', { include: 'seasons' })
      expectStatus(league, 200)
      for (const s of league.body.data.seasons) checkSeason(s)
    })

    it('2.9 Season: at most one season of a league is current, and it is the currentSeason', async () => {
      const res = await c.get('/football/leagues', { per_page: 50, include: 'seasons;currentSeason' })
      expectStatus(res, 200)
      for (const league of res.body.data) {
        const current = (league.seasons as any[]).filter((s) => s.is_current === true)
        expect(current.length, `league ${league.id as number}`).toBeLessThanOrEqual(1)
        const cs = currentSeasonOf(league)
        if (cs !== null && cs !== undefined) expect(ids(current)).toEqual([cs.id])
      }
    })

    it('2.10 Stage: fields and types', async () => {
      const { stages } = await c.discover.freeLeague()
      expect(stages.length).toBeGreaterThan(0)
      for (const stage of stages) checkStage(stage)
      const res = await c.get(`/football/stages/${stages[0].id as number}`)
      expectStatus(res, 200)
      checkStage(res.body.data)
    })

    it('2.10 Stage: type_id is 223 (Group Stage), 224 (Knock Out) or 225 (Qualifying)', async () => {
      const res = await c.get('/football/leagues', { per_page: 50, include: 'currentSeason.stages' })
      expectStatus(res, 200)
      for (const league of res.body.data) {
        for (const stage of currentSeasonOf(league)?.stages ?? []) expect([223, 224, 225]).toContain(stage.type_id)
      }
    })

    it('2.10 fixtures can carry group_id (integer or null)', async () => {
      const { fixtures } = await c.discover.freeFixtures()
      for (const f of fixtures) {
        expect(Object.hasOwn(f, 'group_id'), `fixture ${f.id as number} has group_id`).toBe(true)
        expect(f.group_id === null || Number.isInteger(f.group_id)).toBe(true)
      }
    })

    it('3.1 stages are ordered by ascending sort_order', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/seasons/${season.id as number}`, { include: 'stages' })
      expectStatus(res, 200)
      const orders = (res.body.data.stages as any[]).map((s) => s.sort_order as number)
      expect(orders).toEqual([...orders].sort((x, y) => x - y))
    })

    it('3.1 at most one stage of a season is current', async () => {
      const res = await c.get('/football/leagues', { per_page: 50, include: 'currentSeason.stages' })
      expectStatus(res, 200)
      for (const league of res.body.data) {
        const stages = (currentSeasonOf(league)?.stages ?? []) as any[]
        expect(stages.filter((s) => s.is_current === true).length, `league ${league.id as number}`).toBeLessThanOrEqual(1)
      }
    })
  })

  describe('2.11 league classification', () => {
    const allLeagues = async (): Promise<any[]> => {
      const res = await c.get('/football/leagues', { per_page: 50, include: 'currentSeason.stages' })
      expectStatus(res, 200)
      return res.body.data
    }

    it('2.11 league types: league or phase', async () => {
      for (const l of await allLeagues()) expect(LEAGUE_TYPES).toContain(l.type)
    })

    it('2.11 league sub_types: domestic, domestic_cup, international, cup_international, play-offs, friendly', async () => {
      const leagues = await allLeagues()
      for (const l of leagues) expect(LEAGUE_SUB_TYPES).toContain(l.sub_type)
      expect(leagues.map((l) => l.sub_type)).toContain('domestic')
    })

    it('2.11 the Free plan leagues (271, 501) are domestic leagues', async () => {
      for (const id of FREE_LEAGUES) {
        const res = await c.get(`/football/leagues/${id}`)
        expectStatus(res, 200)
        expect(res.body.data.type).toBe('league')
        expect(res.body.data.sub_type).toBe('domestic')
      }
    })

    it('2.11 structure: a domestic league opens with a Group Stage (regular season)', async () => {
      for (const l of (await allLeagues()).filter((x) => x.sub_type === 'domestic')) {
        const stages = [...(currentSeasonOf(l)?.stages ?? [])].sort((a, b) => a.sort_order - b.sort_order)
        if (stages.length === 0) continue
        expect(stages[0].type_id, `league ${l.id as number} first stage`).toBe(223)
        expect(stages.every((s) => [223, 224].includes(s.type_id)), `league ${l.id as number} has only Group Stage / Knock Out stages`).toBe(true)
      }
    })

    it('2.11 structure: an international cup has Qualifying, Group Stage and Knock Out stages', async (ctx) => {
      const cups = (await allLeagues()).filter((x) => x.sub_type === 'cup_international' && (currentSeasonOf(x)?.stages?.length ?? 0) > 0)
      if (cups.length === 0) return ctx.skip('no international cup with stages in the dataset')
      for (const l of cups) {
        const types = new Set((currentSeasonOf(l).stages as any[]).map((s) => s.type_id))
        expect([...types].sort(), `league ${l.id as number} stage types`).toEqual([223, 224, 225])
      }
    })

    it('2.11 structure: play-offs are Knock Out or Qualifying stages', async (ctx) => {
      const playOffs = (await allLeagues()).filter((x) => /^play[-_]?offs$/.test(x.sub_type) && (currentSeasonOf(x)?.stages?.length ?? 0) > 0)
      if (playOffs.length === 0) return ctx.skip('no play-offs with stages in the dataset')
      for (const l of playOffs) {
        for (const s of currentSeasonOf(l).stages) expect([224, 225], `league ${l.id as number} stage ${s.id as number}`).toContain(s.type_id)
      }
    })

    it('2.11 structure: a domestic cup is mostly Knock Out stages', async (ctx) => {
      const cups = (await allLeagues()).filter((x) => x.sub_type === 'domestic_cup' && (currentSeasonOf(x)?.stages?.length ?? 0) > 0)
      if (cups.length === 0) return ctx.skip('no domestic cup with stages in the dataset')
      for (const l of cups) {
        const stages = currentSeasonOf(l).stages as any[]
        const ko = stages.filter((s) => s.type_id === 224).length
        expect(ko * 2, `league ${l.id as number}: ${ko} of ${stages.length} stages are Knock Out`).toBeGreaterThan(stages.length)
      }
    })
  })
}
