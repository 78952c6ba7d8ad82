/** Part 4, core endpoints: cities, continents, countries, regions, types, timezones and the rest of /core, on the real API's paths. */
import { describe, expect, it } from 'vitest'
import { expect400, expectRateLimit, expectStatus, ids, listOf } from './context.ts'
import type { Ctx } from './context.ts'
import { checkCity, checkContinent, checkCountry } from './shapes.ts'

/** A short, case-insensitive search term taken from a name. */
function termOf (name: string): string {
  return name.slice(0, Math.min(4, name.length)).toLowerCase()
}

export function describeCore (c: Ctx): void {
  /** The country of league 271, with its leagues and regions. */
  const denmark = async (): Promise<any> => {
    const league = await c.get('/football/leagues/271')
    expectStatus(league, 200)
    const res = await c.get(`/core/countries/${league.body.data.country_id as number}`, { include: 'leagues;regions' })
    expectStatus(res, 200)
    return res.body.data
  }

  describe('4.2 cities', () => {
    it('4.2 GET /core/cities: paginated list of City', async () => {
      const res = await c.get('/core/cities')
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const city of res.body.data) checkCity(city)
    })

    it('4.2 GET /core/cities: include region', async () => {
      const res = await c.get('/core/cities', { include: 'region' })
      expectStatus(res, 200)
      for (const city of res.body.data) expect(city.region?.id, `city ${city.id as number} region`).toBe(city.region_id)
    })

    it('4.2 GET /core/cities: static filter IdAfter:<city_id> lists cities after that id', async () => {
      const page = await c.get('/core/cities', { per_page: 5 })
      expectStatus(page, 200)
      const after = page.body.data[2].id as number
      const res = await c.get('/core/cities', { filters: `IdAfter:${after}`, per_page: 5 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const city of res.body.data) expect(city.id).toBeGreaterThan(after)
      expect(res.body.data[0].id).toBe(page.body.data[3].id)
    })

    it('4.2 GET /core/cities/search/{name}: cities matching the text', async () => {
      const city = await c.discover.first('/core/cities')
      const term = termOf(city.name)
      const res = await c.get(`/core/cities/search/${encodeURIComponent(term)}`, { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      expect(ids(res.body.data)).toContain(city.id)
      for (const x of res.body.data) expect((x.name as string).toLowerCase()).toContain(term)
      const none = await c.get('/core/cities/search/zzqqxxnomatch')
      expectStatus(none, 200)
      expect(listOf(none)).toEqual([])
    })

    it('4.2 GET /core/cities/search/{name}: include region and dynamic filter regionCities', async () => {
      const city = await c.discover.first('/core/cities')
      const res = await c.get(`/core/cities/search/${encodeURIComponent(termOf(city.name))}`, {
        include: 'region', filters: `regionCities:${city.region_id as number}`, per_page: 50
      })
      expectStatus(res, 200)
      const found = (res.body.data as any[]).find((x) => x.id === city.id)
      expect(found?.region?.id, 'the matching city keeps its region').toBe(city.region_id)
      for (const x of res.body.data) {
        const region = Array.isArray(x.region) ? x.region[0] : x.region
        expect(x.region_id === city.region_id || region === null || region === undefined,
          `city ${x.id as number}: either filtered out or its region include filtered`).toBe(true)
      }
    })

    it('4.2 GET /core/cities/{cityId}: single City with include region and filter regionCities', async () => {
      const city = await c.discover.first('/core/cities')
      const res = await c.get(`/core/cities/${city.id as number}`, { include: 'region', filters: `regionCities:${city.region_id as number}` })
      expectStatus(res, 200)
      expect(res.body).not.toHaveProperty('pagination')
      checkCity(res.body.data)
      expect(res.body.data.id).toBe(city.id)
      expect(res.body.data.region?.id).toBe(city.region_id)
    })
  })

  describe('4.2 continents', () => {
    it('4.2 GET /core/continents: paginated list of Continent, include countries', async () => {
      const res = await c.get('/core/continents', { include: 'countries' })
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      for (const continent of res.body.data) {
        checkContinent(continent)
        expect(Array.isArray(continent.countries)).toBe(true)
        for (const country of continent.countries) expect(country.continent_id).toBe(continent.id)
      }
    })

    it('4.2 GET /core/continents/{continentId}: single Continent, include countries', async () => {
      const first = await c.discover.first('/core/continents')
      const res = await c.get(`/core/continents/${first.id as number}`, { include: 'countries' })
      expectStatus(res, 200)
      checkContinent(res.body.data)
      expect(Array.isArray(res.body.data.countries)).toBe(true)
    })
  })

  describe('4.2 countries', () => {
    it('4.2 GET /core/countries: paginated list of Country, includes continent, leagues, regions', async () => {
      const res = await c.get('/core/countries', { include: 'continent;leagues;regions' })
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      for (const country of res.body.data) {
        checkCountry(country)
        expect(country.continent?.id).toBe(country.continent_id)
        expect(Array.isArray(country.leagues)).toBe(true)
        expect(Array.isArray(country.regions)).toBe(true)
      }
    })

    it('4.2 GET /core/countries: static filter IdAfter:<country_id>', async () => {
      const page = await c.get('/core/countries', { per_page: 5 })
      expectStatus(page, 200)
      const after = page.body.data[1].id as number
      const res = await c.get('/core/countries', { filters: `IdAfter:${after}` })
      expectStatus(res, 200)
      for (const country of res.body.data) expect(country.id).toBeGreaterThan(after)
      expect(res.body.data[0].id).toBe(page.body.data[2].id)
    })

    it('4.2 GET /core/countries: dynamic filter leagueCountries:<league_ids>', async () => {
      const dk = await denmark()
      const one = await c.get(`/core/countries/${dk.id as number}`, { include: 'leagues', filters: 'leagueCountries:271' })
      expectStatus(one, 200)
      expect(ids(one.body.data.leagues)).toContain(271)
      const res = await c.get('/core/countries', { include: 'leagues', filters: 'leagueCountries:271,501', per_page: 50 })
      expectStatus(res, 200)
      for (const country of res.body.data) {
        const leagueIds = ids(country.leagues ?? [])
        expect(leagueIds.length === 0 || leagueIds.some((id) => id === 271 || id === 501),
          `country ${country.id as number} leagues ${leagueIds.join(',')}`).toBe(true)
      }
    })

    it('4.2 GET /core/countries: dynamic filter regionCountries:<region_ids>', async () => {
      const dk = await denmark()
      expect(dk.regions.length, 'the country of league 271 has regions').toBeGreaterThan(0)
      const rid = dk.regions[0].id as number
      const res = await c.get('/core/countries', { include: 'regions', filters: `regionCountries:${rid}`, per_page: 50 })
      expectStatus(res, 200)
      for (const country of res.body.data) {
        const regionIds = ids(country.regions ?? [])
        expect(regionIds.length === 0 || regionIds.includes(rid), `country ${country.id as number} regions ${regionIds.join(',')}`).toBe(true)
      }
    })

    it('4.2 GET /core/countries/search/{name}: countries matching the text, with includes and filters', async () => {
      const dk = await denmark()
      const term = termOf(dk.name)
      const res = await c.get(`/core/countries/search/${encodeURIComponent(term)}`, { include: 'continent;leagues;regions', filters: 'leagueCountries:271' })
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      expect(ids(res.body.data)).toContain(dk.id)
      for (const x of res.body.data) expect((x.name as string).toLowerCase()).toContain(term)
    })

    it('4.2 GET /core/countries/{id}: single Country (not shown; real path)', async () => {
      const dk = await denmark()
      checkCountry(dk)
      expect(ids(dk.leagues)).toContain(271)
      for (const r of dk.regions) expect(r.country_id).toBe(dk.id)
    })
  })

  describe('4.2 other core endpoints', () => {
    it('4.2 GET /core/types: list of type records', async () => {
      const res = await c.get('/core/types')
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const t of res.body.data) {
        expect(Number.isInteger(t.id)).toBe(true)
        expect(t.name).toBeTypeOf('string')
      }
      expect(expectRateLimit(res).entity).toBe('Type')
    })

    it('4.2 GET /core/regions and /core/regions/{id} (not shown; real path)', async () => {
      const res = await c.get('/core/regions')
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      const region = res.body.data[0]
      expect(Number.isInteger(region.id)).toBe(true)
      expect(Number.isInteger(region.country_id)).toBe(true)
      expect(region.name).toBeTypeOf('string')
      const one = await c.get(`/core/regions/${region.id as number}`)
      expectStatus(one, 200)
      expect(one.body.data.id).toBe(region.id)
    })

    it('4.2 GET /core/timezones (not shown; real path)', async () => {
      const res = await c.get('/core/timezones')
      expectStatus(res, 200)
      // Real responses list zone names; a record form ({ name }) is tolerated.
      const zones = listOf(res).map((z) => typeof z === 'string' ? z : z?.name ?? z?.timezone)
      expect(zones).toContain('Europe/Copenhagen')
      expect(zones).toContain('UTC')
    })

    it('4.2 GET /my/filters/entity: filters listing (not shown; real path)', async () => {
      const res = await c.get('/my/filters/entity')
      expectStatus(res, 200)
      expect(res.body.data).toBeTypeOf('object')
      expect(JSON.stringify(res.body.data)).toContain('fixtureLeagues')
    })

    it('4.2 list endpoints accept order, per_page and page; by-id endpoints reject them with 400', async () => {
      const city = await c.discover.first('/core/cities')
      expectStatus(await c.get('/core/cities', { order: 'desc', per_page: 5, page: 2 }), 200)
      expect400(await c.get(`/core/cities/${city.id as number}`, { per_page: 5 }), 'per_page')
      expect400(await c.get(`/core/cities/${city.id as number}`, { page: 1 }), 'page')
      expect400(await c.get(`/core/cities/${city.id as number}`, { order: 'desc' }), 'order')
    })
  })
}
