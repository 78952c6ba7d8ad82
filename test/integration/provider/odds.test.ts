/**
 * The provider's odds over real HTTP (docs/provider.md, "Odds"): every in-play and pre-match path, the row
 * shape, the buckets they draw on (InplayOdd and Odd, never Fixture), the 403 of a plan without odds, and a
 * match followed on a movable clock: no in-play odds before kick-off, suspension around a goal, new prices
 * after it, settlement at full time, none once the fixture has left the live feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { standingGoals, suspensions, type MatchLine } from '../../../packages/provider/src/odds/line.ts'
import { realMsAt } from '../../../packages/provider/src/sim/clock.ts'

const START = Date.now()
let clock = START
let p: RunningProvider
const TOKEN = 'odds-test-enterprise'
beforeAll(async () => {
  p = await startProvider({ port: 0, now: () => clock, tokens: [{ token: TOKEN, plan: 'Enterprise', status: 'active' }] })
})
afterAll(async () => { await p.close() })

async function get (path: string, query: Record<string, string> = {}, token = 'demo-enterprise'): Promise<{ status: number, body: any }> {
  const url = new URL(`${p.baseUrl}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  url.searchParams.set('api_token', token)
  const res = await fetch(url)
  return { status: res.status, body: await res.json() }
}

async function ok (path: string, query: Record<string, string> = {}, token?: string): Promise<any> {
  const res = await get(path, query, token)
  expect(res.status, `${path} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200)
  return res.body
}

const ODD_FIELDS = ['id', 'fixture_id', 'market_id', 'bookmaker_id', 'label', 'value', 'name', 'sort_order', 'market_description', 'probability', 'dp3',
  'fractional', 'american', 'winning', 'stopped', 'total', 'handicap', 'participants', 'created_at', 'original_label', 'latest_bookmaker_update']

function expectOddShape (o: any, inplay: boolean): void {
  expect(Object.keys(o)).toEqual(inplay ? [...ODD_FIELDS.slice(0, 14), 'suspended', ...ODD_FIELDS.slice(14)] : ODD_FIELDS)
  for (const k of ['value', 'dp3', 'probability', 'fractional', 'american', 'label', 'name', 'market_description']) expect(typeof o[k], k).toBe('string')
  expect(o.value).toMatch(/^\d+\.\d\d$/)
  expect(o.probability).toMatch(/^[\d.]+%$/)
  expect(o.fractional).toMatch(/^\d+\/\d+$/)
  expect(o.american).toMatch(/^-?\d+$/)
  for (const k of ['winning', 'stopped', ...(inplay ? ['suspended'] : [])]) expect(typeof o[k], k).toBe('boolean')
  expect(o.total).toBe(o.market_id === 80 ? '2.5' : o.market_id === 57 ? /^Goal (\d+):/.exec(String(o.name))?.[1] : null)
  expect(o.handicap).toBeNull()
  expect(o.latest_bookmaker_update).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
}

/** A fixture in play now (the first of `livescores/inplay`). */
async function inPlay (): Promise<any> {
  const live = await ok('/football/livescores/inplay')
  expect(live.data.length).toBeGreaterThan(0)
  return live.data[0]
}

const lineOf = (fixtureId: number): { line: MatchLine, kickoff: number, speed: number } => {
  const placed = p.world.live.oddsLine(p.world.get('fixture', fixtureId) as never)
  if (placed === undefined) throw new Error(`no line for ${fixtureId}`)
  return placed
}

describe('provider odds over HTTP', () => {
  it('serves every in-play path, drawing on InplayOdd: all (paged), latest (whole), by fixture, bookmaker and market', async () => {
    const fixture = await inPlay()
    const all = await ok('/football/odds/inplay', { per_page: '50' })
    expect(all.rate_limit.requested_entity).toBe('InplayOdd')
    expect(all.pagination).toMatchObject({ per_page: 50 })
    for (const o of all.data) expectOddShape(o, true)
    const byFixture = await ok(`/football/odds/inplay/fixtures/${fixture.id as number}`)
    expect(byFixture.pagination).toBeUndefined()
    expect(byFixture.rate_limit.requested_entity).toBe('InplayOdd')
    expect(new Set(byFixture.data.map((o: any) => o.bookmaker_id))).toEqual(new Set([2, 34]))
    expect(new Set(byFixture.data.map((o: any) => o.market_id))).toEqual(new Set([1, 2, 14, 57, 80]))
    for (const o of byFixture.data) expect(o.fixture_id).toBe(fixture.id)
    const bookmaker = await ok(`/football/odds/inplay/fixtures/${fixture.id as number}/bookmakers/34`)
    expect(bookmaker.data).toEqual(byFixture.data.filter((o: any) => o.bookmaker_id === 34))
    const market = await ok(`/football/odds/inplay/fixtures/${fixture.id as number}/markets/80`)
    expect(market.data).toEqual(byFixture.data.filter((o: any) => o.market_id === 80))
    expect(market.data.map((o: any) => o.label)).toEqual(['Over', 'Under', 'Over', 'Under'])
    const latest = await ok('/football/odds/inplay/latest')
    expect(latest.pagination).toBeUndefined()
    expect(latest.rate_limit.requested_entity).toBe('InplayOdd')
    // The whole of the list, over its pages, is the odds of the fixtures in the live feed.
    const ids = new Set<number>()
    let page = all
    for (;;) {
      for (const o of page.data) ids.add(o.fixture_id)
      if (page.pagination.next_cursor === null) break
      page = await ok('/football/odds/inplay', { cursor: page.pagination.next_cursor })
    }
    expect(ids.has(fixture.id)).toBe(true)
  })

  it('includes one level deep: market, bookmaker, fixture; deeper is a 400', async () => {
    const fixture = await inPlay()
    const body = await ok(`/football/odds/inplay/fixtures/${fixture.id as number}/markets/1`, { include: 'market;bookmaker;fixture' })
    for (const o of body.data) expect(o).toMatchObject({ market: { id: 1, name: 'Fulltime Result' }, bookmaker: { id: o.bookmaker_id }, fixture: { id: fixture.id } })
    expect((await get('/football/odds/inplay/latest', { include: 'fixture.league' })).status).toBe(400)
    const fromLivescores = await ok('/football/livescores/inplay', { include: 'inplayOdds' })
    const same = fromLivescores.data.find((f: any) => f.id === fixture.id)
    expect(same.inplayodds).toEqual((await ok(`/football/odds/inplay/fixtures/${fixture.id as number}`)).data)
  })

  it('in-play and pre-match odds never spend the Fixture bucket: InplayOdd and Odd are their own', async () => {
    const fixture = await inPlay()
    const remaining = async (path: string): Promise<[string, number]> => {
      const body = await ok(path, {}, TOKEN)
      return [body.rate_limit.requested_entity, body.rate_limit.remaining]
    }
    const fixturesBefore = await remaining('/football/livescores')
    const inplay = []
    for (const path of ['/football/odds/inplay', '/football/odds/inplay/latest', `/football/odds/inplay/fixtures/${fixture.id as number}`,
      `/football/odds/inplay/fixtures/${fixture.id as number}/bookmakers/2`, `/football/odds/inplay/fixtures/${fixture.id as number}/markets/1`]) inplay.push(await remaining(path))
    const pre = []
    for (const path of ['/football/odds/pre-match', '/football/odds/pre-match/latest', `/football/odds/pre-match/fixtures/${fixture.id as number}`]) pre.push(await remaining(path))
    const fixturesAfter = await remaining('/football/livescores')
    expect(inplay.map(([entity]) => entity)).toEqual(Array(5).fill('InplayOdd'))
    expect(inplay.map(([, left]) => left)).toEqual([4999, 4998, 4997, 4996, 4995])
    expect(pre).toEqual([['Odd', 4999], ['Odd', 4998], ['Odd', 4997]])
    expect(fixturesBefore).toEqual(['Fixture', 4999])
    expect(fixturesAfter).toEqual(['Fixture', 4998])
    const usage = await ok('/my/usage', {}, TOKEN)
    expect(usage.data.find((u: any) => u.entity === 'InplayOdd')).toMatchObject({ requests_made: 5 })
  })

  it('a plan without odds gets 403 on every odds path, and the refusal costs nothing', async () => {
    const fixture = await inPlay()
    const paths = ['/football/odds/inplay', '/football/odds/inplay/latest', `/football/odds/inplay/fixtures/${fixture.id as number}`,
      `/football/odds/inplay/fixtures/${fixture.id as number}/bookmakers/2`, `/football/odds/inplay/fixtures/${fixture.id as number}/markets/1`,
      '/football/odds/pre-match', '/football/odds/pre-match/latest', `/football/odds/pre-match/fixtures/${fixture.id as number}`]
    for (const token of ['demo-starter', 'demo-free']) {
      for (const path of paths) {
        const res = await get(path, {}, token)
        expect(res.status, `${path} ${token}`).toBe(403)
        expect(res.body).toMatchObject({ resource: 'odds', plan_required: 'Odds package' })
      }
    }
    expect((await get('/football/livescores/inplay', { include: 'inplayOdds' }, 'demo-starter')).status).toBe(403)
    const usage = await ok('/my/usage', {}, 'demo-starter')
    expect(usage.data.find((u: any) => u.entity === 'InplayOdd' || u.entity === 'Odd')).toBeUndefined()
    expect((await get(`/football/odds/inplay/fixtures/${fixture.id as number}`, {}, 'demo-growth')).status).toBe(200)
  })
})

describe('provider odds through a match, on a movable clock', () => {
  it('none before kick-off, the kick-off prices pre-match; a goal suspends every market, new prices after; settled at full time; gone after the feed', async () => {
    // The first fixture kicking off after the start whose first goal stands alone in its suspension.
    const candidates = p.world.all('fixture').filter((f) => p.world.kickoff(f) * 1000 > START + 20_000 && p.world.kickoff(f) * 1000 < START + 600_000)
    const chosen = candidates.map((f) => ({ f, ...lineOf(f.id) })).find(({ line }) => {
      const goal = standingGoals(line)[0]
      const windows = suspensions(line)
      return line.end !== undefined && !line.void && goal !== undefined && windows.length > 0 && windows[0]?.from === goal.at &&
        line.alarms.filter((a) => a.from < (windows[0]?.to ?? 0)).length === 1 && (windows[0]?.to ?? 0) < line.end
    })
    expect(chosen).toBeDefined()
    const { f, line, kickoff, speed } = chosen as NonNullable<typeof chosen>
    const at = (matchSecond: number): number => realMsAt(kickoff, speed, matchSecond)
    const path = `/football/odds/inplay/fixtures/${f.id}`

    clock = at((line.start ?? 0) - 120)
    expect((await ok('/football/livescores')).data.map((x: any) => x.id)).toContain(f.id)
    expect((await ok(path)).data).toEqual([])
    const pre = (await ok(`/football/odds/pre-match/fixtures/${f.id}`)).data
    for (const o of pre) expectOddShape(o, false)
    expect(pre.every((o: any) => !o.stopped && !o.winning)).toBe(true)

    clock = at(line.start ?? 0)
    const kickOff = (await ok(path)).data
    expect(kickOff.map((o: any) => [o.market_id, o.bookmaker_id, o.label, o.value])).toEqual(pre.map((o: any) => [o.market_id, o.bookmaker_id, o.label, o.value]))
    expect((await ok(`/football/odds/pre-match/fixtures/${f.id}`)).data.every((o: any) => o.stopped)).toBe(true)

    const goal = standingGoals(line)[0] as NonNullable<ReturnType<typeof standingGoals>[0]>
    const window = suspensions(line)[0] as NonNullable<ReturnType<typeof suspensions>[0]>
    clock = at(goal.at - 1)
    const before = (await ok(path)).data
    expect(before.every((o: any) => !o.suspended)).toBe(true)
    clock = at(goal.at + 30)
    const during = (await ok(path)).data
    expect(during.every((o: any) => o.suspended)).toBe(true)
    expect(during.map((o: any) => o.value)).toEqual(before.map((o: any) => o.value))
    const scores = (await ok(`/football/fixtures/${f.id}`, { include: 'scores' })).data.scores.filter((s: any) => s.description === 'CURRENT')
    expect(scores.reduce((n: number, s: any) => n + s.score.goals, 0)).toBe(1)
    // In the latest feed at once: the suspension is an update.
    const latest = (await ok('/football/odds/inplay/latest', { filters: 'markets:1;bookmakers:2' })).data.filter((o: any) => o.fixture_id === f.id)
    expect(latest.map((o: any) => o.id)).toEqual(before.filter((o: any) => o.market_id === 1 && o.bookmaker_id === 2).map((o: any) => o.id))
    clock = at(window.to + 1)
    const after = (await ok(path)).data
    const open = after.filter((o: any) => !o.stopped)
    expect(open.every((o: any) => !o.suspended)).toBe(true)
    const win = (rows: any[]): number => Number(rows.find((o: any) => o.market_id === 1 && o.bookmaker_id === 2 && o.label === (goal.side === 'home' ? '1' : '2')).value)
    expect(win(after)).toBeLessThan(win(before))
    // The first goal's next-goal market is settled, the second goal's is open.
    const nextGoal = after.filter((o: any) => o.market_id === 57 && o.bookmaker_id === 2)
    expect(nextGoal.filter((o: any) => o.winning).map((o: any) => o.label)).toEqual([goal.side === 'home' ? '1' : '2'])
    expect(nextGoal.filter((o: any) => !o.stopped).map((o: any) => o.name)).toEqual([`Goal 2: ${line.home.name}`, 'Goal 2: No goal', `Goal 2: ${line.away.name}`])

    clock = at((line.end ?? 0) + 1)
    const final = (await ok(path)).data
    expect(final.every((o: any) => o.stopped && !o.suspended)).toBe(true)
    const fx = (await ok(`/football/fixtures/${f.id}`, { include: 'scores' })).data
    const ninety = (side: string): number => fx.scores.find((s: any) => s.description === '2ND_HALF' && s.score.participant === side).score.goals
    const expected = ninety('home') > ninety('away') ? '1' : ninety('home') === ninety('away') ? 'X' : '2'
    for (const bookmaker of [2, 34]) {
      expect(final.filter((o: any) => o.market_id === 1 && o.bookmaker_id === bookmaker && o.winning).map((o: any) => o.label)).toEqual([expected])
    }
    const settledPre = (await ok(`/football/odds/pre-match/fixtures/${f.id}/markets/1`)).data
    expect(settledPre.filter((o: any) => o.winning).map((o: any) => o.label)).toEqual([expected, expected])

    // Once the fixture has left the livescores feed, it has no in-play odds; the pre-match ones stay, settled.
    const leaves = (p.world.live as any).livescores
    for (clock = at((line.end ?? 0) + 60); (leaves(clock) as number[]).includes(f.id); clock += 5_000);
    expect((await ok(path)).data).toEqual([])
    expect((await ok(`/football/odds/pre-match/fixtures/${f.id}/markets/1`)).data).toEqual(settledPre)
  })
})

describe('the latest paths\' 10-second window, in real time (speed 1)', () => {
  let slow: RunningProvider
  let now = START
  beforeAll(async () => { slow = await startProvider({ port: 0, simSpeed: 1, now: () => now }) })
  afterAll(async () => { await slow.close() })
  const fetchBody = async (path: string): Promise<any> => (await fetch(`${slow.baseUrl}${path}${path.includes('?') ? '&' : '?'}api_token=demo-enterprise`)).json()
  const updated = (o: any): number => Date.parse(`${(o.latest_bookmaker_update as string).replace(' ', 'T')}Z`)

  it('holds the rows updated in the last 10 real seconds, no older ones, and answers "No result(s)" without data when there are none', async () => {
    now = START + 90_000
    const live = (await fetchBody('/football/livescores/inplay')).data
    expect(live.length).toBeGreaterThan(0)
    const rows = (await fetchBody(`/football/odds/inplay/fixtures/${live[0].id as number}/bookmakers/2`)).data.filter((o: any) => !o.stopped)
    const last = Math.max(...rows.map(updated))
    const row = rows.find((o: any) => updated(o) === last)
    // Five seconds after its update the row is in `latest`; eleven seconds after, with no update since, it is not.
    now = last + 5_000
    expect((await fetchBody('/football/odds/inplay/latest')).data.map((o: any) => o.id)).toContain(row.id)
    now = last + 11_000
    const again = (await fetchBody(`/football/odds/inplay/fixtures/${live[0].id as number}/bookmakers/2`)).data.find((o: any) => o.id === row.id)
    expect(updated(again)).toBe(last)
    const latest = await fetchBody('/football/odds/inplay/latest')
    for (const o of latest.data ?? []) expect(updated(o)).toBeGreaterThan(now - 11_000)
    expect((latest.data ?? []).map((o: any) => o.id)).not.toContain(row.id)
    // Pre-match odds change at kick-off, at settlement and when offered: most 10-second spells have none.
    let empty: any
    for (let t = now; empty === undefined && t < now + 600_000; t += 10_000) {
      now = t
      const body = await fetchBody('/football/odds/pre-match/latest')
      if (body.data === undefined) empty = body
    }
    expect(empty).toMatchObject({ message: expect.stringContaining('No result(s)'), rate_limit: { requested_entity: 'Odd' } })
  })
})
