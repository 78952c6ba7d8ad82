/**
 * The embedded provider serves the real API's wider paths and includes, beyond the core ones: what it can
 * derive from its dataset and simulator, and honest empty lists with the right envelope for the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'

let p: RunningProvider
/** A stopped clock, so that derived figures (topscorers) and the fixtures they come from agree. */
const NOW = Date.now()
beforeAll(async () => { p = await startProvider({ port: 0, now: () => NOW }) })
afterAll(async () => { await p.close() })

async function get (path: string, query: Record<string, string> = {}, token = 'demo-enterprise'): Promise<{ status: number, body: any }> {
  const url = new URL(`${p.baseUrl}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  url.searchParams.set('api_token', token)
  const res = await fetch(url)
  return { status: res.status, body: await res.json() }
}

async function ok (path: string, query: Record<string, string> = {}): Promise<any> {
  const res = await get(path, query)
  expect(res.status, `${path} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200)
  return res.body
}

/** League 271's current season, a team of it and a finished fixture of it. */
async function context (): Promise<{ season: any, team: number, fixture: any }> {
  const league = await ok('/football/leagues/271', { include: 'currentSeason' })
  const season = league.data.currentseason
  const fixtures = await ok(`/football/fixtures/seasons/${season.id as number}`, { per_page: '50', filters: 'fixtureStates:5' })
  const fixture = fixtures.data[0]
  const teams = await ok(`/football/teams/seasons/${season.id as number}`)
  return { season, team: teams.data[0].id, fixture }
}

describe('provider: the real API\'s wider paths', () => {
  it('topscorers of a season come from the simulated goals: ranked, per type, paged', async () => {
    const { season } = await context()
    const body = await ok(`/football/topscorers/seasons/${season.id as number}`, { per_page: '50', include: 'player;participant;type' })
    expect(body.rate_limit.requested_entity).toBe('Topscorer')
    expect(body.pagination).toBeDefined()
    const goals = (body.data as any[]).filter((t) => t.type_id === 208)
    expect(goals.length).toBeGreaterThan(0)
    for (const t of goals) expect(t).toMatchObject({ season_id: season.id, player: { id: t.player_id }, participant: { id: t.participant_id }, type: { id: 208 } })
    expect(goals.map((t) => t.total)).toEqual([...goals.map((t) => t.total)].sort((a, b) => b - a))
    expect(goals[0].position).toBe(1)
    // The goals of the season's fixtures, counted from their events, give the same leader and total.
    const tally = new Map<number, number>()
    let page = await ok(`/football/fixtures/seasons/${season.id as number}`, { per_page: '50', include: 'events' })
    for (;;) {
      for (const f of page.data) for (const e of f.events) if (e.type_id === 14 || e.type_id === 16) tally.set(e.player_id, (tally.get(e.player_id) ?? 0) + 1)
      if (page.pagination.next_cursor === null) break
      page = await ok(`/football/fixtures/seasons/${season.id as number}`, { cursor: page.pagination.next_cursor, include: 'events' })
    }
    const best = Math.max(...tally.values())
    expect(goals[0].total).toBe(best)
    expect(tally.get(goals[0].player_id)).toBe(best)
  })

  it('topscorers of a stage carry the stage; an unknown stage is 404', async () => {
    const { season } = await context()
    const stage = (await ok(`/football/stages/seasons/${season.id as number}`)).data[0]
    const body = await ok(`/football/topscorers/stages/${stage.id as number}`)
    for (const t of body.data) expect(t).toMatchObject({ stage_id: stage.id, season_id: season.id })
    expect((await get('/football/topscorers/stages/999999999')).status).toBe(404)
  })

  it('squads by team and by season and team list the squad, unpaged', async () => {
    const { season, team } = await context()
    const body = await ok(`/football/squads/teams/${team}`, { include: 'player' })
    expect(body.rate_limit.requested_entity).toBe('TeamSquad')
    expect(body).not.toHaveProperty('pagination')
    expect(body.data.length).toBeGreaterThan(10)
    for (const row of body.data) expect(row).toMatchObject({ team_id: team, player: { id: row.player_id } })
    const bySeason = await ok(`/football/squads/seasons/${season.id as number}/teams/${team}`)
    expect(bySeason.data.map((r: any) => r.player_id)).toEqual(body.data.map((r: any) => r.player_id))
    expect((await get('/football/squads/teams/999999999')).status).toBe(404)
  })

  it('transfers: list, by id, by player, by team, between dates, with includes', async () => {
    const list = await ok('/football/transfers', { include: 'player;fromTeam;toTeam;type' })
    expect(list.rate_limit.requested_entity).toBe('Transfer')
    const t = list.data[0]
    expect(t).toMatchObject({ player: { id: t.player_id }, fromteam: { id: t.from_team_id }, toteam: { id: t.to_team_id }, type: { id: t.type_id } })
    expect((await ok(`/football/transfers/${t.id as number}`)).data.id).toBe(t.id)
    expect((await ok(`/football/transfers/players/${t.player_id as number}`)).data.map((x: any) => x.id)).toContain(t.id)
    expect((await ok(`/football/transfers/teams/${t.to_team_id as number}`)).data.map((x: any) => x.id)).toContain(t.id)
    const between = await ok(`/football/transfers/between/${t.date as string}/${t.date as string}`)
    expect(between.data.map((x: any) => x.id)).toContain(t.id)
    expect((await get('/football/transfers/999999999')).status).toBe(404)
  })

  it('tv stations: the fixture list by station, the stations of a fixture, the tvStations include', async () => {
    const { fixture } = await context()
    const stations = await ok(`/football/tv-stations/fixtures/${fixture.id as number}`)
    expect(stations.rate_limit.requested_entity).toBe('TvStation')
    expect(stations.data.length).toBeGreaterThan(0)
    const included = await ok(`/football/fixtures/${fixture.id as number}`, { include: 'tvStations.tvStation' })
    expect(included.data.tvstations.map((r: any) => r.tvstation.id)).toEqual(stations.data.map((s: any) => s.id))
    const past = await ok(`/football/fixtures/past/tv-stations/${stations.data[0].id as number}`, { per_page: '50' })
    expect(past.data.length).toBeGreaterThan(0)
    expect((await ok('/football/tv-stations')).data.length).toBeGreaterThan(0)
  })

  it('odds markets and bookmakers are fixed lists, searchable; upcoming fixtures by market', async () => {
    const markets = await ok('/odds/markets')
    expect(markets.rate_limit.requested_entity).toBe('Market')
    expect(markets.data.map((m: any) => m.id)).toEqual([1, 2, 14, 57, 80])
    expect((await ok('/odds/markets/search/result')).data.map((m: any) => m.id)).toEqual([1])
    expect((await ok('/odds/bookmakers/2')).data.name).toBe('bet365')
    expect((await ok('/odds/bookmakers/34')).data.name).toBe('Betfair')
    for (const market of [1, 80]) {
      const upcoming = await ok(`/football/fixtures/upcoming/markets/${market}`, { per_page: '10' })
      expect(upcoming.data.length).toBeGreaterThan(0)
      for (const f of upcoming.data) expect(f.state_id).toBe(1)
    }
    expect((await get('/football/fixtures/upcoming/markets/4242')).status).toBe(404)
  })

  it('rivals, commentaries, leagues of a team, states by id, live standings', async () => {
    const { team, fixture, season } = await context()
    const rivals = await ok(`/football/rivals/teams/${team}`, { include: 'rival' })
    for (const r of rivals.data) expect(r.rival.id).toBe(r.rival_id)
    const comments = await ok(`/football/commentaries/fixtures/${fixture.id as number}`)
    expect(comments.data.length).toBeGreaterThan(0)
    expect(comments.data[0]).toMatchObject({ fixture_id: fixture.id, order: 1 })
    expect((await ok(`/football/teams/${team}/leagues`)).data.map((l: any) => l.id)).toContain(271)
    expect((await ok(`/football/leagues/teams/${team}/current`)).data.map((l: any) => l.id)).toContain(271)
    expect((await ok('/football/states/5')).data.developer_name).toBe('FT')
    const live = await ok('/football/standings/live/leagues/271')
    for (const s of live.data) expect(s.season_id).toBe(season.id)
  })

  it('what the provider cannot derive is an empty list with the right envelope', async () => {
    const { team } = await context()
    for (const [path, entity] of [
      ['/football/news/pre-match', 'News'], ['/football/news/post-match/upcoming', 'News'], ['/football/team-rankings', 'TeamRanking'],
      ['/football/transfer-rumours', 'TransferRumour'], ['/football/match-facts', 'MatchFact'], ['/my/enrichments', 'Resource'],
      [`/football/statistics/seasons/teams/${team}`, 'Statistic'], ['/football/coaches/latest', 'Coach']
    ] as const) {
      const body = await ok(path)
      expect(body.data, path).toEqual([])
      expect(body.rate_limit.requested_entity, path).toBe(entity)
      expect(body.timezone).toBe('UTC')
    }
  })

  it('the records a path names must exist (404) and be in the plan (403), even where the list is empty', async () => {
    expect((await get('/football/news/pre-match/seasons/999999999')).status).toBe(404)
    expect((await get('/football/statistics/seasons/players/999999999')).status).toBe(404)
    expect((await get('/football/match-facts/leagues/8', {}, 'demo-free')).status).toBe(403)
    expect((await get('/football/standings/live/leagues/8', {}, 'demo-free')).status).toBe(403)
    expect((await get('/football/standings/live/leagues/271', {}, 'demo-free')).status).toBe(200)
    const { season } = await context()
    expect((await get(`/football/news/post-match/seasons/${season.id as number}`, {}, 'demo-free')).status).toBe(200)
  })

  it('odds feeds need the odds package (403 without it)', async () => {
    const { fixture } = await context()
    expect((await get(`/football/odds/inplay/fixtures/${fixture.id as number}`, {}, 'demo-starter')).status).toBe(403)
    expect((await get(`/football/odds/pre-match/fixtures/${fixture.id as number}/markets/1`)).status).toBe(200)
  })

  it('odds narrowed by market and bookmaker, in the path or with the markets:/bookmakers: filters', async () => {
    const { fixture } = await context()
    const path = `/football/odds/pre-match/fixtures/${fixture.id as number}`
    const all = (await ok(path)).data
    expect(all.length).toBeGreaterThan(0)
    const of = (test: (o: any) => boolean): any[] => all.filter(test)
    expect((await ok(path, { filters: 'markets:1' })).data).toEqual(of((o) => o.market_id === 1))
    expect((await ok(path, { filters: 'markets:1,80;bookmakers:34' })).data).toEqual(of((o) => [1, 80].includes(o.market_id) && o.bookmaker_id === 34))
    expect((await ok(`${path}/bookmakers/23`)).data).toEqual([])
    expect((await ok(`${path}/bookmakers/2`)).data).toEqual(of((o) => o.bookmaker_id === 2))
    expect((await ok(`${path}/markets/14`)).data).toEqual(of((o) => o.market_id === 14))
    expect((await get(`${path}/bookmakers/4242`)).status).toBe(404)
    const included = await ok(`/football/fixtures/${fixture.id as number}`, { include: 'odds.market;odds.bookmaker', filters: 'bookmakers:2' })
    expect(included.data.odds).toHaveLength(of((o) => o.bookmaker_id === 2).length)
    for (const o of included.data.odds) expect(o).toMatchObject({ market: { id: o.market_id }, bookmaker: { id: 2 } })
    expect((await ok(`/football/fixtures/${fixture.id as number}`, { include: 'odds', filters: 'bookmakers:23' })).data.odds).toEqual([])
  })
})

describe('provider: the real API\'s wider includes', () => {
  it('lineups, formations, coaches, weatherReport, state.type, events.type/period, statistics.type, comments on a played fixture', async () => {
    const { fixture } = await context()
    const include = 'lineups.player;lineups.type;lineups.details;formations;coaches;weatherReport;state.type;events.type;events.period;statistics.type;comments;timeline;currentPeriod;detailedPeriods;metadata;trends;sidelined'
    const f = (await ok(`/football/fixtures/${fixture.id as number}`, { include })).data
    const starters = f.lineups.filter((l: any) => l.type_id === 11)
    expect(starters.length).toBe(22)
    for (const l of f.lineups) expect(l).toMatchObject({ fixture_id: f.id, player: { id: l.player_id }, type: { id: l.type_id }, details: [] })
    expect(f.formations.map((x: any) => x.location)).toEqual(['home', 'away'])
    expect(f.coaches.length).toBe(2)
    for (const c of f.coaches) expect(c.meta.fixture_id).toBe(f.id)
    expect(f.weatherreport).toMatchObject({ fixture_id: f.id, type: 'actual' })
    expect(f.state.id).toBe(5)
    expect(f.events.length).toBeGreaterThan(0)
    for (const e of f.events) {
      expect(e.type.id).toBe(e.type_id)
      expect(e.period?.id).toBe(e.period_id)
    }
    for (const s of f.statistics) expect(s.type.id).toBe(s.type_id)
    expect(f.comments.length).toBe(f.events.length)
    // Timeline rows: the corners and shots on and off target of the statistics, one row per unit, by minute.
    expect(f.timeline.length).toBeGreaterThan(0)
    for (const row of f.timeline) expect(row).toMatchObject({ fixture_id: f.id, section: 'timeline' })
    expect(new Set(f.timeline.map((r: any) => r.type_id))).toEqual(new Set([126, 569, 570]))
    const stat = (type: number): number => f.statistics.filter((x: any) => x.type_id === type).reduce((n: number, x: any) => n + Number(x.data.value), 0)
    expect(f.timeline.filter((r: any) => r.type_id === 126).length).toBe(stat(34))
    expect(f.timeline.filter((r: any) => r.type_id === 569).length).toBe(stat(86))
    expect(f.timeline.filter((r: any) => r.type_id === 570).length).toBe(stat(41))
    const minutes = f.timeline.map((r: any) => r.minute)
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b))
    expect(f.events.every((e: any) => e.section === 'event')).toBe(true)
    expect(f.currentperiod).toBeNull()
    expect(Array.isArray(f.detailedperiods)).toBe(true)
    for (const empty of ['metadata', 'trends', 'sidelined']) expect(f[empty], empty).toEqual([])
  })

  it('lineups and formations of a fixture far ahead are empty until about an hour before kick-off', async () => {
    const later = await ok('/football/fixtures/upcoming/markets/1', { per_page: '50', order: 'desc' })
    const f = later.data[0]
    const body = await ok(`/football/fixtures/${f.id as number}`, { include: 'lineups;formations;weatherReport' })
    expect(body.data.lineups).toEqual([])
    expect(body.data.formations).toEqual([])
    expect(body.data.weatherreport.type).toBe('forecast')
  })

  it('livescores take the new includes, with lower-cased keys', async () => {
    const body = await ok('/football/livescores', { include: 'tvStations;weatherReport;lineups;coaches;state.type;events.period;currentPeriod' })
    expect(body.data.length).toBeGreaterThan(0)
    for (const f of body.data) {
      for (const key of ['tvstations', 'weatherreport', 'lineups', 'coaches', 'currentperiod']) expect(f, key).toHaveProperty(key)
      expect(f).not.toHaveProperty('tvStations')
    }
  })

  it('team, player and season includes of the real API', async () => {
    const { team, season } = await context()
    const t = (await ok(`/football/teams/${team}`, { include: 'sport;rivals;activeSeasons;trophies;players' })).data
    expect(t.sport).toEqual({ id: 1, name: 'Football' })
    expect(t.activeseasons.every((s: any) => s.is_current === true)).toBe(true)
    expect(t.trophies).toEqual([])
    const transferred = (await ok('/football/transfers')).data[0]
    const player = (await ok(`/football/players/${transferred.player_id as number}`, { include: 'position;transfers' })).data
    expect(player.position.id).toBe(player.position_id)
    expect(player.transfers.map((x: any) => x.id)).toContain(transferred.id)
    const s = (await ok(`/football/seasons/${season.id as number}`, { include: 'topscorers' })).data
    expect(s.topscorers.length).toBeGreaterThan(0)
  })
})
