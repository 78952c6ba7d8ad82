/** Part 4, football endpoints: leagues (real v3 paths), seasons, stages, standings, fixtures, livescores, entity lists, account endpoints. */
import { describe, expect, it } from 'vitest'
import {
  DATETIME, FREE_LEAGUES, addDays, currentSeasonOf, expectRateLimit, expectStatus, ids, listOf
} from './context.ts'
import type { Ctx } from './context.ts'
import { LIVE_STATES, checkFixture, checkLeague, checkSeason, checkStage } from './shapes.ts'

export function describeFootball (c: Ctx): void {
  describe('4.3 league endpoints', () => {
    it('4.3 All Leagues: GET /football/leagues lists the leagues within the subscription', async () => {
      const pro = await c.get('/football/leagues', { per_page: 50 })
      expectStatus(pro, 200)
      expect(pro.body.pagination).toBeTypeOf('object')
      for (const l of pro.body.data) checkLeague(l)
      expect(ids(pro.body.data)).toEqual(expect.arrayContaining([...FREE_LEAGUES]))
      expect(pro.body.data.length).toBeGreaterThan(2)
      const free = await c.get('/football/leagues', { per_page: 50 }, { token: c.target().tokens.free })
      expectStatus(free, 200)
      expect(ids(free.body.data).sort((a, b) => a - b)).toEqual([...FREE_LEAGUES])
    })

    it('4.3 League by ID: GET /football/leagues/{id}', async () => {
      const res = await c.get('/football/leagues/271')
      expectStatus(res, 200)
      checkLeague(res.body.data)
      expect(res.body.data.id).toBe(271)
    })

    it('4.3 Leagues by Live: GET /football/leagues/live lists leagues with live fixtures now', async () => {
      const before = await c.get('/football/livescores')
      const res = await c.get('/football/leagues/live')
      const after = await c.get('/football/livescores')
      expectStatus(res, 200)
      for (const l of listOf(res)) checkLeague(l)
      expect(expectRateLimit(res).entity).toBe('League')
      // Around the call, every league listed had a fixture in the livescores feed.
      const liveLeagues = new Set([...listOf(before), ...listOf(after)].map((f) => f.league_id as number))
      for (const id of ids(listOf(res))) expect(liveLeagues.has(id), `league ${id} has a live fixture`).toBe(true)
    })

    it('4.3 Leagues by Fixture Date: GET /football/leagues/date/{date}', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const date = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/leagues/date/${date}`)
      expectStatus(res, 200)
      for (const l of res.body.data) checkLeague(l)
      expect(ids(res.body.data)).toContain(271)
      const none = await c.get('/football/leagues/date/1990-01-01')
      expectStatus(none, 200)
      expect(listOf(none)).toEqual([])
    })

    it('4.3 Leagues by Country ID: GET /football/leagues/countries/{countryId}', async () => {
      const { league } = await c.discover.freeLeague()
      const res = await c.get(`/football/leagues/countries/${league.country_id as number}`)
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(271)
      for (const l of res.body.data) expect(l.country_id).toBe(league.country_id)
    })

    it('4.3 Leagues Search by Name: GET /football/leagues/search/{name}', async () => {
      const { league } = await c.discover.freeLeague()
      const term = (league.name as string).split(' ')[0]?.toLowerCase() ?? ''
      const res = await c.get(`/football/leagues/search/${encodeURIComponent(term)}`)
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(271)
      for (const l of res.body.data) expect((l.name as string).toLowerCase()).toContain(term)
    })

    it('4.3 include currentSeason: the current season under currentseason or currentSeason', async () => {
      const res = await c.get('/football/leagues/271', { include: 'currentSeason' })
      expectStatus(res, 200)
      const keys = Object.keys(res.body.data).filter((k) => k === 'currentseason' || k === 'currentSeason')
      expect(keys.length, 'one of currentseason / currentSeason').toBeGreaterThan(0)
      const season = currentSeasonOf(res.body.data)
      checkSeason(season)
      expect(season.is_current).toBe(true)
      expect(season.league_id).toBe(271)
    })

    it('4.3 league includes: sport, country, stages, currentSeason, seasons, latest, upcoming, inplay, today', async () => {
      const { league } = await c.discover.freeLeague()
      for (const include of ['sport', 'country', 'stages', 'currentSeason', 'seasons', 'latest', 'upcoming', 'inplay', 'today']) {
        const res = await c.get('/football/leagues/271', { include })
        expectStatus(res, 200)
        const key = Object.keys(res.body.data).find((k) => k.toLowerCase() === include.toLowerCase())
        expect(key, `include ${include} appears in the league`).toBeDefined()
      }
      const all = await c.get('/football/leagues/271', { include: 'sport;country;stages;seasons;latest;upcoming;inplay;today' })
      expectStatus(all, 200)
      const d = all.body.data
      expect(d.country.id).toBe(league.country_id)
      for (const s of d.seasons) expect(s.league_id).toBe(271)
      for (const s of d.stages) checkStage(s)
      for (const key of ['latest', 'upcoming', 'inplay', 'today']) {
        expect(Array.isArray(d[key]), `${key} is a list of fixtures`).toBe(true)
        for (const f of d[key]) expect(f.league_id).toBe(271)
      }
    })
  })

  describe('4.4 seasons, stages, standings', () => {
    it('4.4 /football/seasons/{id}: include stages and stages.rounds', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/seasons/${season.id as number}`, { include: 'stages' })
      expectStatus(res, 200)
      checkSeason(res.body.data)
      for (const s of res.body.data.stages) {
        checkStage(s)
        expect(s.season_id).toBe(season.id)
      }
      const nested = await c.get(`/football/seasons/${season.id as number}`, { include: 'stages.rounds' })
      expectStatus(nested, 200)
      for (const s of nested.body.data.stages) {
        for (const r of s.rounds) {
          expect(Number.isInteger(r.id)).toBe(true)
          if (r.stage_id !== undefined) expect(r.stage_id).toBe(s.id)
        }
      }
    })

    it('4.4 /football/stages/{stage_id}: include rounds', async () => {
      const { stages } = await c.discover.freeLeague()
      const stage = stages[0]
      const res = await c.get(`/football/stages/${stage.id as number}`, { include: 'rounds' })
      expectStatus(res, 200)
      checkStage(res.body.data)
      expect(res.body.data.id).toBe(stage.id)
      expect(Array.isArray(res.body.data.rounds)).toBe(true)
    })

    it('4.4 /football/standings/seasons/{season_id}: league table(s) of a season', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/standings/seasons/${season.id as number}`)
      expectStatus(res, 200)
      const rows = listOf(res)
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) {
        expect(row).toBeTypeOf('object')
        if (row.season_id !== undefined) expect(row.season_id).toBe(season.id)
      }
    })
  })

  describe('4.4 standings by kind of competition', () => {
    const leaguesWithStages = async (): Promise<any[]> => {
      const res = await c.get('/football/leagues', { per_page: 50, include: 'currentSeason.stages' })
      expectStatus(res, 200)
      return (res.body.data as any[]).filter((l) => (currentSeasonOf(l)?.stages?.length ?? 0) > 0)
    }
    /** Standing rows of a season grouped into tables by stage and group. */
    const tables = async (seasonId: number): Promise<Map<string, number[]>> => {
      const res = await c.get(`/football/standings/seasons/${seasonId}`)
      expectStatus(res, 200)
      const out = new Map<string, number[]>()
      for (const row of listOf(res)) {
        const key = `${row.stage_id as number}/${row.group_id as number | null}`
        out.set(key, [...(out.get(key) ?? []), row.position])
      }
      return out
    }
    const expectPositions = (positions: number[], what: string): void => {
      expect([...positions].sort((a, b) => a - b), `${what}: positions 1..n`).toEqual(positions.map((_, i) => i + 1))
    }

    it('4.4 standings: one table for a simple league (271)', async () => {
      const { season } = await c.discover.freeLeague()
      const t = await tables(season.id)
      expect(t.size, 'one table').toBe(1)
      for (const [key, positions] of t) expectPositions(positions, key)
    })

    it('4.4 standings: several group tables for a group tournament', async (ctx) => {
      const cups = (await leaguesWithStages()).filter((l) => ['cup_international', 'international'].includes(l.sub_type) &&
        (currentSeasonOf(l).stages as any[]).some((s) => s.type_id === 223))
      if (cups.length === 0) return ctx.skip('no international tournament with a Group Stage in the dataset')
      let grouped = 0
      for (const l of cups) {
        const t = await tables(currentSeasonOf(l).id)
        for (const [key, positions] of t) expectPositions(positions, `league ${l.id as number} table ${key}`)
        if (t.size > 1) grouped++
      }
      expect(grouped, 'at least one tournament has several group tables').toBeGreaterThan(0)
    })

    it('2.10 a season of Knock Out stages only has no standings', async (ctx) => {
      const ko = (await leaguesWithStages()).filter((l) => (currentSeasonOf(l).stages as any[]).every((s) => s.type_id === 224))
      if (ko.length === 0) return ctx.skip('no Knock Out-only season in the dataset')
      for (const l of ko) expect((await tables(currentSeasonOf(l).id)).size, `league ${l.id as number}`).toBe(0)
    })
  })

  describe('4.4 fixtures', () => {
    it('4.4 /football/fixtures/{id}: include participants;scores;events;state', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const res = await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'participants;scores;events;state' })
      expectStatus(res, 200)
      const f = res.body.data
      checkFixture(f)
      expect(f.id).toBe(fixture.id)
      expect(f.participants).toHaveLength(2)
      expect(f.participants.map((p: any) => p.meta?.location).sort()).toEqual(['away', 'home'])
      for (const s of f.scores) {
        expect(s.fixture_id).toBe(f.id)
        expect(['home', 'away']).toContain(s.score?.participant)
      }
      for (const e of f.events) expect(e.fixture_id).toBe(f.id)
      expect(f.state.id).toBe(f.state_id)
    })

    it('4.4 /football/fixtures/{id}: include statistics', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const res = await c.get(`/football/fixtures/${fixture.id as number}`, { include: 'statistics' })
      expectStatus(res, 200)
      expect(Array.isArray(res.body.data.statistics)).toBe(true)
    })

    it('4.4 /football/fixtures/multi/{id_list}: several fixtures in one call', async () => {
      const { fixtures } = await c.discover.freeFixtures()
      const wanted = ids(fixtures.slice(0, 3))
      const res = await c.get(`/football/fixtures/multi/${wanted.join(',')}`)
      expectStatus(res, 200)
      expect(Array.isArray(res.body.data)).toBe(true)
      expect(ids(res.body.data).sort((a, b) => a - b)).toEqual([...wanted].sort((a, b) => a - b))
    })

    it('4.4 /football/fixtures/date/{date}: fixtures of a date', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const date = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/fixtures/date/${date}`, { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.pagination).toBeTypeOf('object')
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) {
        checkFixture(f)
        expect(f.starting_at.slice(0, 10)).toBe(date)
      }
    })

    it('4.4 /football/fixtures/between/{start_date}/{end_date}: fixtures in a date range', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const from = (fixture.starting_at as string).slice(0, 10)
      const to = addDays(from, 6)
      const res = await c.get(`/football/fixtures/between/${from}/${to}`, { per_page: 50 })
      expectStatus(res, 200)
      expect(ids(res.body.data).length).toBeGreaterThan(0)
      for (const f of res.body.data) {
        const d = (f.starting_at as string).slice(0, 10)
        expect(d >= from && d <= to, `${d} within ${from}..${to}`).toBe(true)
      }
    })

    it('4.4 /football/fixtures/seasons/{season_id}: all fixtures of a season', async () => {
      const { season } = await c.discover.freeLeague()
      const res = await c.get(`/football/fixtures/seasons/${season.id as number}`, { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) expect(f.season_id).toBe(season.id)
    })

    it('4.4 /football/fixtures/search/{name}: fixture search', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const term = (fixture.name as string).split(' ')[0]?.toLowerCase() ?? ''
      const res = await c.get(`/football/fixtures/search/${encodeURIComponent(term)}`, { per_page: 50 })
      expectStatus(res, 200)
      expect(res.body.data.length).toBeGreaterThan(0)
      for (const f of res.body.data) expect((f.name as string).toLowerCase()).toContain(term)
    })

    it('4.4 fixture-list filter fixtureLeagues:<league_ids>', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const date = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/fixtures/date/${date}`, { filters: 'fixtureLeagues:271', per_page: 50 })
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(fixture.id)
      for (const f of res.body.data) expect(f.league_id).toBe(271)
    })

    it('4.4 fixture-list filter fixtureStages:<stage_ids>', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const from = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/fixtures/between/${from}/${addDays(from, 10)}`, { filters: `fixtureStages:${fixture.stage_id as number}`, per_page: 50 })
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(fixture.id)
      for (const f of res.body.data) expect(f.stage_id).toBe(fixture.stage_id)
    })

    it('4.4 fixture-list filter fixtureSeason:<season_id>', async () => {
      const { fixture } = await c.discover.freeFixtures()
      const from = (fixture.starting_at as string).slice(0, 10)
      const res = await c.get(`/football/fixtures/between/${from}/${addDays(from, 10)}`, { filters: `fixtureSeason:${fixture.season_id as number}`, per_page: 50 })
      expectStatus(res, 200)
      expect(ids(res.body.data)).toContain(fixture.id)
      for (const f of res.body.data) expect(f.season_id).toBe(fixture.season_id)
    })
  })

  describe('4.4 livescores', () => {
    it('4.4 /football/livescores: fixtures as an array, no pagination', async () => {
      const res = await c.get('/football/livescores', { include: 'participants;scores;state' })
      expectStatus(res, 200)
      for (const f of listOf(res)) checkFixture(f)
      expect(res.body).not.toHaveProperty('pagination')
    })

    it('4.4 /football/livescores/inplay: only fixtures in play', async () => {
      const res = await c.get('/football/livescores/inplay')
      expectStatus(res, 200)
      for (const f of listOf(res)) {
        checkFixture(f)
        expect(LIVE_STATES, `fixture ${f.id as number} state`).toContain(f.state_id)
      }
    })

    it('4.4 /football/livescores/latest: an array, or 200 with a message and no data when empty', async () => {
      const res = await c.get('/football/livescores/latest')
      expectStatus(res, 200)
      if (res.body.data === undefined) {
        expect(res.body.message).toBeTypeOf('string')
      } else {
        expect(Array.isArray(res.body.data), 'latest returns an array').toBe(true)
        for (const f of res.body.data) checkFixture(f)
      }
      expectRateLimit(res)
    })
  })

  describe('4.4 entity lists and records', () => {
    for (const path of ['teams', 'players', 'venues', 'coaches', 'referees']) {
      it(`4.4 /football/${path} and /football/${path}/{id}`, async () => {
        const list = await c.get(`/football/${path}`)
        expectStatus(list, 200)
        expect(list.body.pagination).toBeTypeOf('object')
        expect(list.body.data.length).toBeGreaterThan(0)
        const item = list.body.data[0]
        expect(Number.isInteger(item.id)).toBe(true)
        expect(typeof (item.name ?? item.common_name ?? item.display_name)).toBe('string')
        const one = await c.get(`/football/${path}/${item.id as number}`)
        expectStatus(one, 200)
        expect(one.body.data.id).toBe(item.id)
        expect(one.body).not.toHaveProperty('pagination')
      })
    }
  })

  describe('4.4 account endpoints', () => {
    it('4.4 /my/leagues: League records available to the account', async () => {
      const pro = await c.get('/my/leagues')
      expectStatus(pro, 200)
      for (const l of listOf(pro)) checkLeague(l)
      const free = await c.get('/my/leagues', {}, { token: c.target().tokens.free })
      expectStatus(free, 200)
      expect(ids(listOf(free)).sort((a, b) => a - b)).toEqual([...FREE_LEAGUES])
    })

    it('4.4 /my/resources: resources available to the account', async () => {
      const res = await c.get('/my/resources')
      expectStatus(res, 200)
      expect(res.body.data).toBeDefined()
      expect(expectRateLimit(res).entity).toBe('Resource')
    })

    it('4.4 /my/usage: records of entity, requests_made, remaining_requests, period_start, period_end', async () => {
      const team = await c.get('/football/teams')
      expectStatus(team, 200)
      const teamRemaining = expectRateLimit(team).remaining
      const res = await c.get('/my/usage')
      expectStatus(res, 200)
      expect(Array.isArray(res.body.data)).toBe(true)
      for (const r of res.body.data) {
        expect(r.entity).toBeTypeOf('string')
        expect(Number.isInteger(r.requests_made)).toBe(true)
        expect(Number.isInteger(r.remaining_requests)).toBe(true)
        expect(r.period_start).toMatch(DATETIME)
        expect(r.period_end).toMatch(DATETIME)
        expect(r.period_end > r.period_start, 'period_end after period_start').toBe(true)
      }
      const teamRow = (res.body.data as any[]).find((r) => String(r.entity).toLowerCase() === 'team')
      expect(teamRow, 'a usage record for the Team entity').toBeDefined()
      expect(teamRow.requests_made).toBeGreaterThanOrEqual(1)
      expect(teamRow.remaining_requests).toBe(teamRemaining)
    })
  })
}
