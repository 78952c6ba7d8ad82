/** Part 4, options: the common query parameters (include, select, filters, order, per_page, page, timezone). */
import { describe, expect, it } from 'vitest'
import { addDays, currentSeasonOf, expect400, expectStatus, formatInZone, ids, listOf } from './context.ts'
import type { Ctx } from './context.ts'

export function describeOptions (c: Ctx): void {
  /** A date range with fixtures of league 271 in it, and one fixture of that range. */
  const fixtureRange = async (): Promise<{ from: string, to: string, fixture: any }> => {
    const { fixture } = await c.discover.freeFixtures()
    const from = (fixture.starting_at as string).slice(0, 10)
    return { from, to: addDays(from, 10), fixture }
  }

  describe('4.1 include', () => {
    it('4.1 include: semicolons separate includes', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const res = await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'participants;scores;events;state' })
      expectStatus(res, 200)
      expect(Array.isArray(res.body.data.participants)).toBe(true)
      expect(Array.isArray(res.body.data.scores)).toBe(true)
      expect(Array.isArray(res.body.data.events)).toBe(true)
      expect(res.body.data.state).toBeTypeOf('object')
    })

    it('4.1 include: dots nest includes (season stages.rounds)', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/seasons/${season.id as number}`, { include: 'stages.rounds' })
      expectStatus(res, 200)
      expect(res.body.data.stages.length).toBeGreaterThan(0)
      for (const stage of res.body.data.stages) expect(Array.isArray(stage.rounds), `stage ${stage.id as number} has rounds`).toBe(true)
    })

    it('4.1 include: a comma is rejected with 400', async () => {
      const { fixture } = await c.discover.freeFixtures()
      expect400(await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'participants,scores' }), 'include')
      expect400(await c.get('/core/countries', { include: 'continent,leagues' }), 'include')
    })

    it('4.1 include: a space is rejected with 400', async () => {
      const { fixture } = await c.discover.freeFixtures()
      expect400(await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'participants; scores' }), 'include')
      expect400(await c.get('/core/countries', { include: 'continent leagues' }), 'include')
    })

    it('4.1 include depth: city endpoints allow 4 levels, a 5th is 400', async () => {
      const ok = await c.get('/core/cities', { include: 'region.country.continent.countries', per_page: 2 })
      expectStatus(ok, 200)
      expect400(await c.get('/core/cities', { include: 'region.country.continent.countries.continent', per_page: 2 }), 'include')
    })

    it('4.1 include depth: continent endpoints allow 3 levels, a 4th is 400', async () => {
      const ok = await c.get('/core/continents', { include: 'countries.continent.countries' })
      expectStatus(ok, 200)
      const withCountries = (ok.body.data as any[]).find((x) => x.countries?.length > 0)
      expect(withCountries?.countries[0]?.continent?.countries, 'three nested levels are returned').toBeDefined()
      expect400(await c.get('/core/continents', { include: 'countries.continent.countries.continent' }), 'include')
    })

    it('4.1 include depth: country endpoints allow 2 levels, a 3rd is 400', async () => {
      const ok = await c.get('/core/countries', { include: 'continent.countries', per_page: 2 })
      expectStatus(ok, 200)
      for (const country of ok.body.data) expect(Array.isArray(country.continent?.countries)).toBe(true)
      expect400(await c.get('/core/countries', { include: 'continent.countries.continent', per_page: 2 }), 'include')
    })

    it('4.1 include depth: league currentSeason.stages is allowed, currentSeason.stages.rounds is 400', async () => {
      const ok = await c.get('/football/leagues/271', { include: 'currentSeason.stages' })
      expectStatus(ok, 200)
      const season = currentSeasonOf(ok.body.data)
      expect(season.league_id).toBe(271)
      expect(Array.isArray(season.stages)).toBe(true)
      for (const stage of season.stages) expect(stage.season_id).toBe(season.id)
      expect400(await c.get('/football/leagues/271', { include: 'currentSeason.stages.rounds' }), 'include')
    })
  })

  describe('4.1 select', () => {
    it('4.1 select: restricts the fields of the base entity', async () => {
      const res = await c.get('/core/continents', { select: 'name' })
      expectStatus(res, 200)
      for (const continent of res.body.data) {
        expect(continent.name).toBeTypeOf('string')
        expect(continent).not.toHaveProperty('code')
      }
      const one = await c.get('/football/leagues/271', { select: 'name,short_code' })
      expectStatus(one, 200)
      expect(one.body.data.name).toBeTypeOf('string')
      expect(one.body.data).not.toHaveProperty('image_path')
      expect(one.body.data).not.toHaveProperty('last_played_at')
    })

    it('4.1 select: does not restrict the fields of includes', async () => {
      const res = await c.get('/core/countries', { select: 'name', include: 'continent', per_page: 3 })
      expectStatus(res, 200)
      for (const country of res.body.data) {
        expect(country).not.toHaveProperty('official_name')
        expect(country.continent?.code, 'the included continent keeps its fields').toMatch(/^[A-Za-z]{2}$/)
      }
    })

    it('4.1 select: a field that is not selectable is 400', async () => {
      expect400(await c.get('/core/continents', { select: 'name,not_a_field' }), 'select')
      expect400(await c.get('/core/countries', { select: 'leagues' }), 'select')
    })
  })

  describe('4.1 filters', () => {
    it('4.1 filters: name:v1,v2 takes comma-separated values', async () => {
      const { from, to } = await fixtureRange()
      const res = await c.get(`/football/fixtures/between/${from}/${to}`, { filters: 'fixtureLeagues:271,501', per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) expect([271, 501]).toContain(f.league_id)
    })

    it('4.1 filters: name1:v1,v2;name2:v3 applies every filter (semicolon-separated)', async () => {
      const { from, to, fixture } = await fixtureRange()
      const filters = `fixtureLeagues:271,501;fixtureStages:${fixture.stage_id as number}`
      const res = await c.get(`/football/fixtures/between/${from}/${to}`, { filters, per_page: 50 })
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(fixture.id)
      for (const f of res.body.data) {
        expect(f.league_id).toBe(271)
        expect(f.stage_id).toBe(fixture.stage_id)
      }
    })

    it('4.1 filters: a malformed value is 400', async () => {
      const { from, to } = await fixtureRange()
      expect400(await c.get(`/football/fixtures/between/${from}/${to}`, { filters: 'fixtureLeagues:abc' }), 'filters')
      expect400(await c.get(`/football/fixtures/between/${from}/${to}`, { filters: ':271' }), 'filters')
    })

    it('4.1 filters: an unknown filter is 400', async () => {
      expect400(await c.get('/core/countries', { filters: 'noSuchFilter:1' }), 'filters')
    })
  })

  describe('4.1 order, per_page, page', () => {
    it('4.1 order: asc is the default and desc reverses it', async () => {
      const def = await c.get('/core/continents', { per_page: 50 })
      const asc = await c.get('/core/continents', { per_page: 50, order: 'asc' })
      const desc = await c.get('/core/continents', { per_page: 50, order: 'desc' })
      for (const r of [def, asc, desc]) expectStatus(r, 200)
      expect(ids(def.body.data)).toEqual(ids(asc.body.data))
      expect(ids(desc.body.data)).toEqual([...ids(asc.body.data)].reverse())
      expect(ids(desc.body.data).length).toBeGreaterThan(1)
      const page = await c.get('/core/countries', { per_page: 10, order: 'desc' })
      expectStatus(page, 200)
      expect(ids(page.body.data), 'desc sorts a paged list').toEqual([...ids(page.body.data)].sort((a, b) => b - a))
      expect(Math.max(...ids(page.body.data)), 'desc starts from the last id').toBeGreaterThan(Math.max(...ids(asc.body.data).slice(0, 10)))
    })

    it('4.1 order: a value other than asc/desc is 400', async () => {
      expect400(await c.get('/core/continents', { order: 'sideways' }), 'order')
    })

    it('4.1 per_page: default 25 (8.3)', async () => {
      const res = await c.get('/core/countries')
      expectStatus(res, 200)
      expect(res.body.pagination.per_page).toBe(25)
      expect(res.body.data.length).toBeLessThanOrEqual(25)
    })

    it('4.1 per_page: maximum 50, 51 is 400 (8.3)', async () => {
      const ok = await c.get('/core/countries', { per_page: 50 })
      expectStatus(ok, 200)
      expect(ok.body.pagination.per_page).toBe(50)
      expect400(await c.get('/core/countries', { per_page: 51 }), 'per_page')
      expect400(await c.get('/core/countries', { per_page: 0 }), 'per_page')
    })

    it('4.1 per_page: the populate filter allows 1000 and disables includes (8.3)', async () => {
      const { from, to } = await fixtureRange()
      const res = await c.get(`/football/fixtures/between/${from}/${to}`, { filters: 'populate', per_page: 1000, include: 'participants' })
      expectStatus(res, 200)
      expect(res.body.pagination.per_page).toBe(1000)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) expect(f, 'includes are disabled under populate').not.toHaveProperty('participants')
      expect400(await c.get(`/football/fixtures/between/${from}/${to}`, { filters: 'populate', per_page: 1001 }), 'per_page')
      expect400(await c.get(`/football/fixtures/between/${from}/${to}`, { per_page: 1000 }), 'per_page')
    })

    it('4.1 page: minimum 1, page 0 is 400 (8.3)', async () => {
      expect400(await c.get('/core/countries', { page: 0 }), 'page')
      expect400(await c.get('/core/countries', { page: 'two' }), 'page')
    })
  })

  describe('4.1 timezone', () => {
    it('4.1 timezone: applied to starting_at on a fixture endpoint', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const path = `/football/fixtures/${fixture.id as number}`
      const utc = await c.get(path)
      const cph = await c.get(path, { timezone: 'Europe/Copenhagen' })
      expectStatus(utc, 200)
      expectStatus(cph, 200)
      const ts = utc.body.data.starting_at_timestamp as number
      expect(utc.body.data.starting_at).toBe(formatInZone(ts, 'UTC'))
      expect(cph.body.data.starting_at).toBe(formatInZone(ts, 'Europe/Copenhagen'))
      expect(cph.body.data.starting_at).not.toBe(utc.body.data.starting_at)
      expect(cph.body.data.starting_at_timestamp).toBe(ts)
      expect(cph.body.timezone).toBe('Europe/Copenhagen')
    })

    it('4.1 timezone: applied on fixture list endpoints', async () => {
      const { from, to } = await fixtureRange()
      const res = await c.get(`/football/fixtures/between/${from}/${to}`, { timezone: 'America/New_York', per_page: 10 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) expect(f.starting_at).toBe(formatInZone(f.starting_at_timestamp, 'America/New_York'))
      const live = await c.get('/football/livescores', { timezone: 'Asia/Tokyo' })
      expectStatus(live, 200)
      expect(live.body.timezone).toBe('Asia/Tokyo')
      for (const f of listOf(live)) expect(f.starting_at).toBe(formatInZone(f.starting_at_timestamp, 'Asia/Tokyo'))
    })

    it('4.1 timezone: an invalid zone is 400', async () => {
      const { fixture } = await c.discover.freeFixtures()
      expect400(await c.get(`/football/fixtures/${fixture.id as number}`, { timezone: 'Mars/Olympus_Mons' }), 'timezone')
      expect400(await c.get('/football/livescores', { timezone: 'Not a zone' }), 'timezone')
    })
  })

  describe('4.1 unknown parameters', () => {
    it('4.1 unknown parameter: 400 with an errors object naming it', async () => {
      expect400(await c.get('/core/continents', { colour: 'blue' }), 'colour')
      const { fixture } = await c.discover.freeFixtures()
      expect400(await c.get(`/football/fixtures/${fixture.id as number}`, { includes: 'participants' }), 'includes')
    })
  })
}
