/**
 * A key limited to some leagues must not see other leagues' data by narrowing `select` so that the records
 * no longer show their league (found in review: `select=name` once hid `league_id` from the scope check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPassthroughGateway, type TestGateway } from './harness.ts'

let t: TestGateway
beforeAll(async () => {
  t = await startPassthroughGateway({ keys: [{ key: 'scoped-271', name: 'scoped', leagues: [271] }, { key: 'all-leagues', name: 'all' }] })
})
afterAll(async () => { await t.close() })

const get = async (path: string, key: string): Promise<{ status: number, body: any }> => {
  const res = await fetch(`${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`)
  return { status: res.status, body: await res.json() }
}

describe('league scope survives select', () => {
  it('a livescores list with select=name holds only the key\'s leagues', async () => {
    const all = await get('/football/livescores?include=scores', 'all-leagues')
    expect(all.status).toBe(200)
    expect(new Set(all.body.data.map((f: { league_id: number }) => f.league_id)).size).toBeGreaterThan(1)
    for (const path of ['/football/livescores?select=name&include=scores', '/football/livescores/inplay?select=name']) {
      const scoped = await get(path, 'scoped-271')
      expect(scoped.status).toBe(200)
      for (const f of scoped.body.data) expect(f.league_id).toBe(271)
    }
  })

  it('a fixture of another league is 403 with or without select', async () => {
    const all = await get('/football/livescores', 'all-leagues')
    const other = all.body.data.find((f: { league_id: number }) => f.league_id !== 271)
    expect(other).toBeDefined()
    for (const query of ['', '?select=name&include=events', '?select=name,starting_at']) {
      const res = await get(`/football/fixtures/${other.id as number}${query}`, 'scoped-271')
      expect(res.status, query).toBe(403)
      expect(res.body).toMatchObject({ error: 'Forbidden', resource: `league ${other.league_id as number}` })
    }
  })

  it('fixture lists with select are filtered to the key\'s leagues', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const res = await get(`/football/fixtures/date/${today}?select=name&per_page=50`, 'scoped-271')
    expect(res.status).toBe(200)
    for (const f of res.body.data) expect(f.league_id).toBe(271)
  })
})

describe('league scope reaches into includes', () => {
  it('included fixtures, seasons and leagues of other leagues are left out, at any depth', async () => {
    const season = (await get('/football/leagues/8?include=currentSeason', 'all-leagues')).body.data.currentseason
    const team = (await get(`/football/teams/seasons/${season.id as number}`, 'all-leagues')).body.data[0]
    const path = `/football/teams/${team.id as number}?include=latest;upcoming;seasons.league`
    const all = await get(path, 'all-leagues')
    expect(all.status).toBe(200)
    const leaguesSeen = [...all.body.data.latest, ...all.body.data.upcoming].map((f: { league_id: number }) => f.league_id)
    expect(leaguesSeen.some((id: number) => id !== 271)).toBe(true)
    expect(all.body.data.seasons.length).toBeGreaterThan(0)

    const scoped = await get(path, 'scoped-271')
    expect(scoped.status).toBe(200)
    for (const f of [...scoped.body.data.latest, ...scoped.body.data.upcoming]) expect(f.league_id).toBe(271)
    for (const s of scoped.body.data.seasons) {
      expect(s.league_id).toBe(271)
      expect(s.league.id).toBe(271)
    }
  })

  it('a country shows only the key\'s leagues among its included leagues', async () => {
    const england = await get('/core/countries/462?include=leagues', 'all-leagues')
    expect(england.body.data.leagues.length).toBeGreaterThan(0)
    const scoped = await get('/core/countries/462?include=leagues', 'scoped-271')
    expect(scoped.status).toBe(200)
    expect(scoped.body.data.leagues).toEqual([])
    const denmark = await get('/core/countries/320?include=leagues', 'scoped-271')
    expect(denmark.body.data.leagues.map((l: { id: number }) => l.id)).toEqual([271])
  })
})
