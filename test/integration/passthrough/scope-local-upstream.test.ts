/**
 * Shapes the embedded provider does not serve, from a tiny local upstream on a free port: xG rows whose
 * fixture the gateway has never seen, seasons without a `league_id` under a team, player statistics that
 * carry only a `season_id` and were never asked for as an include. The scope must look their leagues up
 * (fixtures/multi, seasons/{id}), charge those lookups to the key, and withhold what it cannot place.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { expectNoLeaks, get, startPassthroughGateway, type TestGateway } from './harness.ts'

/** Fixture and season leagues the upstream knows; fixture 300 and season 12 it does not. */
const FIXTURES: Record<number, number> = { 100: 271, 200: 501 }
const SEASONS: Record<number, number> = { 10: 271, 11: 501 }

const XG = [{ id: 1, fixture_id: 100, type_id: 5304 }, { id: 2, fixture_id: 200, type_id: 5304 }, { id: 3, fixture_id: 300, type_id: 5304 }]
const TEAM = { id: 5, name: 'Team', seasons: [{ id: 10, name: '2026' }, { id: 11, name: '2026' }, { id: 12, name: '2025' }] }
const PLAYER = { id: 7, name: 'Player', statistics: [{ id: 1, season_id: 10, goals: 3 }, { id: 2, season_id: 11, goals: 9 }] }

function body (data: unknown): string {
  return JSON.stringify({ data, subscription: [], rate_limit: { resets_in_seconds: 3600, remaining: 2999, requested_entity: 'Fixture' }, timezone: 'UTC' })
}

/** What the upstream answers, and every path (without the query) it was asked for. */
function route (path: string, query: URLSearchParams): { status: number, text: string } {
  const multi = /^\/v3\/football\/fixtures\/multi\/([\d,]+)$/.exec(path)
  if (multi !== null) {
    const ids = (multi[1] ?? '').split(',').map(Number).filter((id) => FIXTURES[id] !== undefined)
    return { status: 200, text: body(ids.map((id) => ({ id, league_id: FIXTURES[id] }))) }
  }
  const fixture = /^\/v3\/football\/fixtures\/(\d+)$/.exec(path)
  if (fixture !== null && FIXTURES[Number(fixture[1])] !== undefined) {
    const id = Number(fixture[1])
    return { status: 200, text: body({ id, league_id: FIXTURES[id], season_id: 10, state_id: 1, starting_at_timestamp: 1 }) }
  }
  const season = /^\/v3\/football\/seasons\/(\d+)$/.exec(path)
  if (season !== null && SEASONS[Number(season[1])] !== undefined) return { status: 200, text: body({ id: Number(season[1]), league_id: SEASONS[Number(season[1])] }) }
  if (path === '/v3/football/expected/fixtures') return { status: 200, text: body(XG) }
  if (path === '/v3/football/teams/5' && query.get('include') === 'seasons') return { status: 200, text: body(TEAM) }
  if (path === '/v3/football/players/7') return { status: 200, text: body(PLAYER) }
  return { status: 404, text: JSON.stringify({ message: 'No result(s) found.' }) }
}

async function startUpstream (): Promise<{ url: string, paths: string[] }> {
  const paths: string[] = []
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x')
    paths.push(u.pathname)
    const { status, text } = route(u.pathname, u.searchParams)
    res.writeHead(status, { 'content-type': 'application/json' }).end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { await new Promise((resolve) => server.close(resolve)) })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`, paths }
}

async function gateway (quota = 100): Promise<{ t: TestGateway, paths: string[], url: (path: string, key?: string) => string }> {
  const upstream = await startUpstream()
  const t = await startPassthroughGateway({
    keys: [{ key: 'tl-271-key', name: 'danish', leagues: [271], hourly_quota: quota }, { key: 'tl-all-key', name: 'all' }],
    upstreamUrl: upstream.url,
    overrides: { poll: false }
  })
  onTestFinished(async () => { await t.close() })
  const url = (path: string, key = 'tl-271-key'): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`
  return { t, paths: upstream.paths, url }
}

afterEach(() => { expectNoLeaks() })

describe('rows whose league is only reachable through a lookup', () => {
  it('shows xG rows of the key\'s league, hides another league\'s and the unplaceable ones', async () => {
    const g = await gateway()
    const res = await get(g.url('/football/expected/fixtures'))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([XG[0]])
    expect(res.body.pagination?.count ?? 1).toBe(1)
    expect(g.paths.filter((p) => p.startsWith('/v3/football/fixtures/multi/')), 'one batched lookup').toEqual(['/v3/football/fixtures/multi/100,200,300'])
    const all = await get(g.url('/football/expected/fixtures', 'tl-all-key'))
    expect(all.body.data, 'an unscoped key sees every row, with no lookup').toEqual(XG)
    expect(g.paths.filter((p) => p.startsWith('/v3/football/fixtures/multi/'))).toHaveLength(1)
  })

  it('looks up seasons that carry no league_id under a team, and rows with only a season_id at any depth', async () => {
    const g = await gateway()
    const team = await get(g.url('/football/teams/5?include=seasons'))
    expect(team.status).toBe(200)
    expect(team.body.data.seasons, 'season 11 is of league 501, season 12 of no known league').toEqual([TEAM.seasons[0]])
    const player = await get(g.url('/football/players/7'))
    expect(player.body.data.statistics, 'statistics the client never asked for are scoped all the same').toEqual([PLAYER.statistics[0]])
  })

  it('charges the lookups to the key and makes none once that quota is spent (fail closed)', async () => {
    const g = await gateway(1)
    const fixture = await get(g.url('/football/fixtures/100'))
    expect(fixture.status).toBe(200)
    expect(fixture.body.rate_limit.remaining, 'the key\'s one Fixture call').toBe(0)
    const before = g.paths.length
    const xg = await get(g.url('/football/expected/fixtures'))
    expect(xg.status).toBe(200)
    expect(xg.body.data, 'fixture 100 was learned from the fixture just read; 200 and 300 cannot be looked up').toEqual([XG[0]])
    expect(g.paths.slice(before), 'only the xG call itself').toEqual(['/v3/football/expected/fixtures'])
  })
})
