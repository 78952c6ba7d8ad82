/** Provider behaviours found in review: plan scope through schedules and includes, date validation, next_page origin. */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'

let p: RunningProvider
beforeAll(async () => { p = await startProvider({ port: 0 }) })
afterAll(async () => { await p.close() })

const get = async (path: string, token = 'demo-free'): Promise<{ status: number, body: any }> => {
  const res = await fetch(`${p.baseUrl}${path}${path.includes('?') ? '&' : '?'}api_token=${token}`)
  return { status: res.status, body: await res.json() }
}

/** A team that plays outside the Free plan's leagues (271, 501). */
async function outsideTeam (): Promise<number> {
  const season = (await get('/football/leagues/8?include=currentSeason', 'demo-enterprise')).body.data.currentseason
  const teams = await get(`/football/teams/seasons/${season.id as number}`, 'demo-enterprise')
  return teams.body.data[0].id as number
}

describe('provider plan scope and input checks', () => {
  it('a team schedule holds no stage of a league outside the plan', async () => {
    const team = await outsideTeam()
    const full = await get(`/football/schedules/teams/${team}`, 'demo-enterprise')
    expect(full.body.data.length).toBeGreaterThan(0)
    const free = await get(`/football/schedules/teams/${team}`)
    expect(free.status).toBe(200)
    for (const stage of free.body.data ?? []) expect([271, 501]).toContain(stage.league_id)
  })

  it('includes leave out records of leagues outside the plan', async () => {
    const team = await outsideTeam()
    const full = await get(`/football/teams/${team}?include=latest;upcoming`, 'demo-enterprise')
    expect(full.body.data.latest.length + full.body.data.upcoming.length).toBeGreaterThan(0)
    const free = await get(`/football/teams/${team}?include=latest;upcoming`)
    expect(free.status).toBe(200)
    for (const f of [...free.body.data.latest, ...free.body.data.upcoming]) expect([271, 501]).toContain(f.league_id)
  })

  it('a date that does not exist is 400, not the next month\'s fixtures', async () => {
    const res = await get('/football/fixtures/date/2026-02-30', 'demo-enterprise')
    expect(res.status).toBe(400)
    expect(res.body.errors).toHaveProperty('date')
  })

  it('next_page points at the provider itself whatever Host the client sent', async () => {
    // node:http, because fetch does not let a caller set Host.
    const body = await new Promise<any>((resolve, reject) => {
      const req = request(`${p.baseUrl}/core/cities?per_page=5&api_token=demo-enterprise`, { headers: { host: 'evil.example' } }, (res) => {
        let text = ''
        res.on('data', (d: Buffer) => { text += d.toString() })
        res.on('end', () => { resolve(JSON.parse(text)) })
      })
      req.on('error', reject)
      req.end()
    })
    expect(body.pagination.next_page).toMatch(new RegExp(`^${p.baseUrl.replace('/v3', '')}/v3/core/cities\\?`))
    expect(body.pagination.next_page).not.toContain('evil.example')
  })
})
