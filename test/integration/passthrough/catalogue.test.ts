/**
 * The gateway's passthrough validates with the catalogue (packages/upstream-contract/src), so the real API's paths and includes
 * beyond the core API reach the upstream (here the embedded provider) instead of a local 404/400, a
 * repeated parameter counts with its last value, and a walk by the upstream's bare `next_cursor` goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPassthroughGateway, type TestGateway } from './harness.ts'

let t: TestGateway
beforeAll(async () => {
  t = await startPassthroughGateway({ keys: [{ key: 'all-leagues', name: 'all' }, { key: 'scoped-271', name: 'scoped', leagues: [271] }] })
})
afterAll(async () => { await t.close() })

const get = async (path: string, key = 'all-leagues'): Promise<{ status: number, body: any }> => {
  const res = await fetch(`${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`)
  return { status: res.status, body: await res.json() }
}

describe('passthrough: the real API surface', () => {
  it('the paths of the issue are answered, not refused locally', async () => {
    const season = (await get('/football/leagues/271?include=currentSeason')).body.data.currentseason
    const team = (await get(`/football/teams/seasons/${season.id as number}`)).body.data[0]
    const fixture = (await get(`/football/fixtures/seasons/${season.id as number}?filters=fixtureStates:5`)).body.data[0]
    for (const path of [
      `/football/topscorers/seasons/${season.id as number}`, `/football/squads/teams/${team.id as number}`, '/football/transfers',
      `/football/tv-stations/fixtures/${fixture.id as number}`, '/football/fixtures/upcoming/markets/1', '/odds/markets', '/odds/bookmakers'
    ]) {
      const res = await get(path)
      expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200)
      expect(Array.isArray(res.body.data), path).toBe(true)
    }
  })

  it('the includes of the issue are answered on livescores and fixtures', async () => {
    const include = 'lineups;timeline;coaches;tvStations;metadata;formations;trends;sidelined;weatherReport;events.period;state.type;statistics.type'
    const live = await get(`/football/livescores?include=${include}`)
    expect(live.status, JSON.stringify(live.body).slice(0, 200)).toBe(200)
    const one = live.body.data[0] ?? (await get('/football/fixtures?per_page=1')).body.data[0]
    const res = await get(`/football/fixtures/${one.id as number}?include=${include}`)
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200)
    for (const key of ['lineups', 'timeline', 'coaches', 'tvstations', 'formations', 'weatherreport']) expect(res.body.data, key).toHaveProperty(key)
  })

  it('include=a&include=b is answered with the last value', async () => {
    const one = (await get('/football/fixtures?per_page=1')).body.data[0]
    const res = await get(`/football/fixtures/${one.id as number}?include=participants&include=scores`)
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveProperty('scores')
    expect(res.body.data).not.toHaveProperty('participants')
  })

  it('a walk by next_cursor reaches every row once; cursor with per_page and deep offset pages are 400', async () => {
    const offset: number[] = []
    for (let page = 1; ; page++) {
      const res = await get(`/core/countries?per_page=20&page=${page}`)
      offset.push(...res.body.data.map((c: any) => c.id))
      if (res.body.pagination.has_more !== true) break
    }
    const walked: number[] = []
    let res = await get('/core/countries?per_page=20')
    for (;;) {
      expect(res.status).toBe(200)
      walked.push(...res.body.data.map((c: any) => c.id))
      if (res.body.pagination.next_cursor === null) break
      res = await get(`/core/countries?cursor=${encodeURIComponent(res.body.pagination.next_cursor as string)}`)
    }
    expect(walked).toEqual(offset)
    expect((await get('/core/countries?cursor=abc&per_page=10')).status).toBe(400)
    expect((await get('/core/cities?per_page=50&page=402')).status).toBe(400)
  })

  it('a key scoped to league 271 gets 403 for the new paths that name another league or its stage', async () => {
    const season = (await get('/football/leagues/8?include=currentSeason')).body.data.currentseason
    const stage = (await get(`/football/stages/seasons/${season.id as number}`)).body.data[0]
    for (const path of [
      `/football/topscorers/stages/${stage.id as number}`, `/football/statistics/stages/${stage.id as number}`,
      `/football/topscorers/seasons/${season.id as number}`, '/football/standings/live/leagues/8', '/football/match-facts/leagues/8',
      '/football/team-of-the-week/leagues/8/latest'
    ]) {
      const res = await get(path, 'scoped-271')
      expect(res.status, path).toBe(403)
    }
    expect((await get('/football/standings/live/leagues/271', 'scoped-271')).status).toBe(200)
  })
})
