/**
 * The day and the match centre over HTTP (docs/provider.md): statistics that agree with the events, by plan;
 * `fixtures/latest` and the kick-offs that move or matches postponed before the day, on every endpoint;
 * league tables counted from the results, and live ones that move with a goal. The provider's clock is driven
 * by the test (`now`), never waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'

const START = Date.parse('2026-11-26T14:00:00Z')
let now = START
let p: RunningProvider
beforeAll(async () => { p = await startProvider({ port: 0, now: () => now }) })
afterAll(async () => { await p.close() })

async function get (path: string, query: Record<string, string> = {}, token = 'demo-enterprise'): Promise<any> {
  const url = new URL(`${p.baseUrl}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  url.searchParams.set('api_token', token)
  const res = await fetch(url)
  const body = await res.json() as any
  expect(res.status, `${path} ${JSON.stringify(body).slice(0, 300)}`).toBe(200)
  return body
}

const ids = (body: any): number[] => (body.data ?? []).map((f: any) => f.id)
const stat = (f: any, type: number, location: string): number | undefined => f.statistics.find((s: any) => s.type_id === type && s.location === location)?.data.value
const current = (f: any, location: string): number => f.scores.find((s: any) => s.description === 'CURRENT' && s.score.participant === location)?.score.goals ?? 0

describe('statistics over HTTP', () => {
  it('agree with the events and the score at every minute of the live matches, xG for the plans that have it', async () => {
    now = START
    const live = ids(await get('/football/livescores/inplay'))
    expect(live.length).toBeGreaterThanOrEqual(3)
    for (let minute = 0; minute < 40; minute++) {
      now = START + minute * 3_000
      const body = await get(`/football/fixtures/multi/${live.join(',')}`, { include: 'statistics;events;scores;participants' })
      for (const f of body.data) {
        if (f.statistics.length === 0) continue
        expect(stat(f, 45, 'home')! + stat(f, 45, 'away')!).toBe(100)
        for (const location of ['home', 'away']) {
          const team = f.participants.find((t: any) => t.meta.location === location).id
          const events = (types: number[]): number => f.events.filter((e: any) => e.participant_id === team && types.includes(e.type_id)).length
          expect(stat(f, 52, location), `${f.id} goals`).toBe(current(f, location))
          expect(stat(f, 84, location), `${f.id} yellow cards`).toBe(events([19]))
          expect(stat(f, 83, location), `${f.id} red cards`).toBe(events([20, 21]))
          expect(stat(f, 86, location)).toBeGreaterThanOrEqual(events([14, 16]))
          expect(stat(f, 42, location)).toBe(stat(f, 86, location)! + stat(f, 41, location)!)
          expect(stat(f, 44, location)).toBeLessThanOrEqual(stat(f, 43, location)!)
          expect(typeof stat(f, 5304, location)).toBe('number')
        }
      }
    }
  })

  it('leave xG (5304) out for the plans without expected goals, and follow fixtureStatisticTypes', async () => {
    now = START + 60_000
    const starter = await get('/football/livescores/inplay', { include: 'statistics' }, 'demo-starter')
    const rows = starter.data.flatMap((f: any) => f.statistics)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((s: any) => s.type_id === 5304)).toBe(false)
    const enterprise = await get('/football/livescores/inplay', { include: 'statistics;xGFixture', filters: 'fixtureStatisticTypes:5304,34' })
    for (const f of enterprise.data) {
      expect([...new Set(f.statistics.map((s: any) => s.type_id))].sort()).toEqual(f.statistics.length === 0 ? [] : [34, 5304])
      // The xGFixture include carries the same values.
      for (const x of f.xgfixture) expect(x.data.value).toBe(stat(f, 5304, x.location))
    }
  })
})

describe('schedule changes and fixtures/latest', () => {
  it('a moved kick-off is listed by fixtures/latest for 10 s and shown everywhere from its announcement', async () => {
    const move = p.schedule.changes().find((c) => c.kind === 'move' && c.source === 'generated' && c.atMs > START + 20_000)
    if (move === undefined) throw new Error('no generated move after the start')
    const id = move.fixtureId
    const shown = async (): Promise<number> => (await get(`/football/fixtures/${id}`)).data.starting_at_timestamp * 1000
    now = move.atMs - 1
    expect(await shown()).toBe(move.fromKickoffMs)
    expect(ids(await get('/football/fixtures/latest'))).not.toContain(id)
    now = move.atMs
    const latest = await get('/football/fixtures/latest')
    expect(ids(latest)).toContain(id)
    expect(latest.data.find((f: any) => f.id === id).starting_at_timestamp * 1000).toBe(move.kickoffMs)
    expect(ids(await get('/football/livescores/latest'))).not.toContain(id)
    now = move.atMs + 9_999
    expect(ids(await get('/football/fixtures/latest'))).toContain(id)
    now = move.atMs + 10_000
    expect(ids(await get('/football/fixtures/latest'))).not.toContain(id)
    // Like livescores/latest, an empty window is the "No result(s)" body without data (late at night, when the
    // rolling schedule has played its fixtures).
    const saved = now
    let empty: any
    for (now = START + 20 * 3600_000; empty === undefined && now < START + 21 * 3600_000; now += 10_000) {
      const body = await get('/football/fixtures/latest')
      if (body.data === undefined) empty = body
    }
    expect(empty?.message).toMatch(/^No result\(s\) found/)
    now = saved
    expect(await shown()).toBe(move.kickoffMs)
    const day = new Date(move.kickoffMs).toISOString().slice(0, 10)
    const onDay = (await get(`/football/fixtures/date/${day}`, { per_page: '50', filters: `fixtureLeagues:${(await get(`/football/fixtures/${id}`)).data.league_id as number}` })).data
    expect(onDay.find((f: any) => f.id === id)?.starting_at_timestamp * 1000).toBe(move.kickoffMs)
    const multi = await get(`/football/fixtures/multi/${id}`)
    expect(multi.data[0].starting_at).toBe(new Date(move.kickoffMs).toISOString().slice(0, 19).replace('T', ' '))
    // In the livescores feed from 15 match minutes (15 s) before the new kick-off, not before.
    now = move.kickoffMs - 16_000
    expect(ids(await get('/football/livescores'))).not.toContain(id)
    now = move.kickoffMs - 14_000
    const feed = await get('/football/livescores')
    expect(feed.data.find((f: any) => f.id === id)?.starting_at_timestamp * 1000).toBe(move.kickoffMs)
  })

  it('a forced move and a forced postponement show from the instant the test gives, on every endpoint', async () => {
    now = START + 30_000
    const upcoming = (await get('/football/fixtures/between/2026-11-26/2026-11-28', { per_page: '50', filters: 'fixtureStates:1' })).data
      .filter((f: any) => f.starting_at_timestamp * 1000 > now + 60_000)
    const [a, b] = upcoming
    const newKickoff = a.starting_at_timestamp * 1000 + 2 * 3600_000
    const move = p.schedule.move(a.id, newKickoff, now + 5_000)
    expect(move).toMatchObject({ fixtureId: a.id, kind: 'move', fromKickoffMs: a.starting_at_timestamp * 1000, kickoffMs: newKickoff, source: 'forced' })
    const postpone = p.schedule.postpone(b.id, now + 5_000)
    expect((await get(`/football/fixtures/${a.id}`)).data.starting_at_timestamp * 1000).toBe(move.fromKickoffMs)
    expect((await get(`/football/fixtures/${b.id}`)).data.state_id).toBe(1)
    now += 5_000
    expect(ids(await get('/football/fixtures/latest'))).toEqual(expect.arrayContaining([a.id, b.id]))
    const both = await get(`/football/fixtures/multi/${a.id},${b.id}`, { include: 'state' })
    expect(both.data.find((f: any) => f.id === a.id).starting_at_timestamp * 1000).toBe(newKickoff)
    expect(both.data.find((f: any) => f.id === b.id)).toMatchObject({ state_id: 10, state: { developer_name: 'POSTPONED' }, starting_at_timestamp: b.starting_at_timestamp })
    expect(p.schedule.changesOf(b.id).at(-1)).toEqual(postpone)
    // The postponed match is never played.
    now = b.starting_at_timestamp * 1000 + 60_000
    expect(ids(await get('/football/livescores/inplay'))).not.toContain(b.id)
    expect((await get(`/football/fixtures/${b.id}`, { include: 'events' })).data).toMatchObject({ state_id: 10, events: [] })
    expect(() => p.schedule.move(b.id, now + 3600_000, now)).toThrow(RangeError)
  })

  it('lists a live fixture whose state or result changed, as livescores/latest does with base fields', async () => {
    let listed = 0
    for (now = START; now < START + 120_000; now += 5_000) {
      const latest = ids(await get('/football/fixtures/latest'))
      for (const id of ids(await get('/football/livescores/inplay'))) {
        const at = p.world.live.scoreAt(p.world.get('fixture', id) as never, now)
        const before = p.world.live.scoreAt(p.world.get('fixture', id) as never, now - 5_000)
        if (at !== undefined && before !== undefined && at.state_id !== before.state_id) {
          listed++
          expect(latest, `${id} changed state in the last 5 s`).toContain(id)
        }
      }
    }
    expect(listed).toBeGreaterThan(0)
  })
})

describe('standings', () => {
  /** A current-season table of a league with a match in play, and the moment of a goal in it. */
  async function liveGoal (): Promise<{ league: number, fixture: any, goalAt: number }> {
    for (now = START; now < START + 600_000; now += 2_000) {
      for (const f of (await get('/football/livescores/inplay')).data) {
        const league = f.league_id as number
        if ((await get(`/football/standings/live/leagues/${league}`)).data.length === 0) continue
        const fixture = p.world.get('fixture', f.id) as never
        for (let t = now; t < now + 120_000; t += 500) {
          const [a, b] = [p.world.live.scoreAt(fixture, t), p.world.live.scoreAt(fixture, t + 500)]
          if (a !== undefined && b !== undefined && a.home + a.away < b.home + b.away && [2, 22].includes(b.state_id)) {
            return { league, fixture: f, goalAt: t + 500 }
          }
        }
      }
    }
    throw new Error('no live goal in a league with a table')
  }

  const row = (body: any, team: number): any => body.data.find((r: any) => r.participant_id === team)
  const detail = (r: any, type: number): number => r.details.find((d: any) => d.type_id === type)?.value

  it('live standings move with a live goal; the season table waits for the final whistle', async () => {
    const { league, fixture, goalAt } = await liveGoal()
    const season = fixture.season_id as number
    now = goalAt - 500
    const before = await get(`/football/standings/live/leagues/${league}`, { include: 'details' })
    const seasonBefore = await get(`/football/standings/seasons/${season}`, { include: 'details' })
    now = goalAt
    const after = await get(`/football/standings/live/leagues/${league}`, { include: 'details' })
    const seasonAfter = await get(`/football/standings/seasons/${season}`, { include: 'details' })
    expect(seasonAfter.data).toEqual(seasonBefore.data)
    const record = p.world.get('fixture', fixture.id) as any
    const score = p.world.live.scoreAt(record, goalAt)
    const teams: number[] = [record.home_team_id, record.away_team_id]
    const goalsFor = (body: any): number => teams.reduce((n: number, t: number) => n + detail(row(body, t), 133), 0)
    expect(goalsFor(after)).toBe(goalsFor(before) + 1)
    expect(teams.reduce((n: number, t: number) => n + detail(row(after, t), 133), 0) - teams.reduce((n: number, t: number) => n + detail(row(seasonAfter, t), 133), 0)).toBe((score?.home ?? 0) + (score?.away ?? 0))
    // Each row compares its live position with the table without the live matches.
    for (const r of after.data) {
      const base = seasonAfter.data.find((x: any) => x.participant_id === r.participant_id && x.group_id === r.group_id && x.stage_id === r.stage_id)
      expect(r.result).toBe(r.position === base.position ? 'equal' : r.position < base.position ? 'up' : 'down')
      expect(detail(r, 187)).toBe(r.points)
      expect(detail(r, 129)).toBe(detail(r, 130) + detail(r, 131) + detail(r, 132))
    }
    // At the final whistle, the season table counts the match as the live one did.
    for (now = goalAt; [2, 3, 11, 18, 22].includes(p.world.stateOf(record, now)); now += 1_000);
    const counted = p.world.stateOf(record, now) === 5
    const live = await get(`/football/standings/live/leagues/${league}`, { include: 'details' })
    const final = await get(`/football/standings/seasons/${season}`, { include: 'details' })
    for (const team of teams) {
      const figures = (r: any): number[] => [r.points, ...[129, 130, 131, 132, 133, 134].map((type) => detail(r, type))]
      expect(figures(row(final, team))).toEqual(figures(row(counted ? live : seasonAfter, team)))
    }
  })

  it('season tables are counted from the finished fixtures of the season, ranked by points and goal difference', async () => {
    now = START + 200_000
    const league = await get('/football/leagues/271', { include: 'currentSeason' })
    const season = league.data.currentseason.id as number
    const tally = new Map<number, { played: number, points: number, gf: number, ga: number }>()
    let page = await get(`/football/fixtures/seasons/${season}`, { per_page: '50', include: 'scores;participants', filters: 'fixtureStates:5' })
    for (;;) {
      for (const f of page.data) {
        for (const t of f.participants) {
          const side = t.meta.location as string
          const other = side === 'home' ? 'away' : 'home'
          const [gf, ga] = [current(f, side), current(f, other)]
          const s = tally.get(t.id) ?? { played: 0, points: 0, gf: 0, ga: 0 }
          tally.set(t.id, { played: s.played + 1, points: s.points + (gf > ga ? 3 : gf === ga ? 1 : 0), gf: s.gf + gf, ga: s.ga + ga })
        }
      }
      if (page.pagination.next_cursor === null) break
      page = await get(`/football/fixtures/seasons/${season}`, { cursor: page.pagination.next_cursor, include: 'scores;participants', filters: 'fixtureStates:5' })
    }
    const table = await get(`/football/standings/seasons/${season}`, { include: 'details;participant' })
    expect(table.data.length).toBeGreaterThan(0)
    for (const r of table.data) {
      const t = tally.get(r.participant_id) ?? { played: 0, points: 0, gf: 0, ga: 0 }
      expect([r.points, detail(r, 129), detail(r, 133), detail(r, 134), detail(r, 179)]).toEqual([t.points, t.played, t.gf, t.ga, t.gf - t.ga])
      expect(r.participant.id).toBe(r.participant_id)
    }
    const order = table.data.filter((r: any) => r.stage_id === table.data[0].stage_id && r.group_id === table.data[0].group_id)
    expect(order.map((r: any) => r.position)).toEqual(order.map((_: any, i: number) => i + 1))
    for (let i = 1; i < order.length; i++) {
      const [a, b] = [order[i - 1], order[i]]
      expect(a.points > b.points || (a.points === b.points && detail(a, 179) >= detail(b, 179))).toBe(true)
    }
    // The table by round counts that round and those before it.
    // The table by round counts that round and those before it: by the latest round, all the season's.
    const round = await get(`/football/standings/rounds/${order[0].round_id as number}`, { include: 'details' })
    const pairs = (rows: any[]): string[] => rows.map((r) => `${r.participant_id as number}:${r.points as number}`).sort()
    expect(pairs(round.data)).toEqual(pairs(order))
    const first = (await get(`/football/rounds/seasons/${season}`)).data[0]
    const opening = await get(`/football/standings/rounds/${first.id as number}`, { include: 'details' })
    for (const r of opening.data) expect(detail(r, 129)).toBeLessThanOrEqual(1)
  })
})
