/**
 * Subscriptions by team, by kind of change and for every league of the key (`leagues: "*"`), over real
 * sockets and HTTP, with the scope rules of docs/protocol.md. Every frame received and every response is checked
 * against the protocol documents (/docs/asyncapi.json, /docs/openapi.json) after each test.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import type { ClientKey } from '../../../src/client-keys.ts'
import type { Change, ChangeRecord, LiveFixture } from '../../../src/wire-model/model.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { httpGet as rawGet, type HttpResponse } from '../../helpers/http.ts'
import { responseErrors, serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { redisStores } from '../store/helpers.ts'
import { AT, clientKey, fixture, KEYS, openSse, startPush, type PushServer } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const team = (id: number): LiveFixture['home'] => ({ id, name: `Team ${id}`, short_code: null, image_path: null, score: 0 })
const clock = (minute: number): Change => ({ kind: 'clock', minute, previous: minute - 1 })
const goal = (home: number): Change => ({ kind: 'score_changed', home, away: 0, previous: { home: home - 1, away: 0 } })
const whistle: Change = {
  kind: 'state_changed',
  state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' },
  previous: { id: 2, code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' }
}

/** What each test received, checked against the protocol documents when it ends. */
const received: Array<() => string[]> = []
afterEach(() => { expect(received.splice(0).flatMap((complaints) => complaints())).toEqual([]) })

async function httpGet (url: string): Promise<HttpResponse> {
  const res = await rawGet(url)
  received.push(() => responseErrors(new URL(url).pathname, res.status, res.body))
  return res
}

/** A matchday driven by hand: fixtures with chosen teams, each change applied as the poller would. */
class Matchday {
  private readonly versions = new Map<number, number>()
  private readonly fixtures = new Map<number, LiveFixture>()
  readonly records: ChangeRecord[] = []

  constructor (private readonly store: LiveStore) {}

  /** Starts fixture `id` of `leagueId` between teams `home` and `away` (a fixture_added record). */
  async kickOff (id: number, leagueId: number, home: number, away: number): Promise<ChangeRecord> {
    this.fixtures.set(id, fixture(id, leagueId, { home: team(home), away: team(away) }))
    return await this.change(id, [{ kind: 'fixture_added' }])
  }

  async change (id: number, changes: Change[]): Promise<ChangeRecord> {
    const f = this.fixtures.get(id)
    if (f === undefined) throw new Error(`fixture ${id} not started`)
    const expectedVersion = this.versions.get(id) ?? 0
    const result = await this.store.apply({ fixture: f, changes, expectedVersion, live: true, at: AT })
    if (!result.ok) throw new Error(`apply of ${id} rejected`)
    this.versions.set(id, expectedVersion + 1)
    this.records.push(result.record)
    return result.record
  }
}

async function connect (s: PushServer, token = 'all-key'): Promise<WsTestClient> {
  const c = await WsTestClient.connect(s.wsUrl(token))
  received.push(() => c.frames.flatMap(serverFrameErrors))
  await c.take('hello')
  return c
}

/** Waits until the client has answered a ping sent now: every frame sent before it has arrived. */
async function settle (c: WsTestClient, ref: string): Promise<void> {
  expect(await c.request({ op: 'ping', ref })).toEqual({ type: 'pong', ref })
}

/** Waits until the hub has routed every change of the day (over Redis its tail follows the log a moment later). */
async function routed (s: PushServer, day: Matchday): Promise<void> {
  await waitFor('the hub to route the last change', () => s.hub.head() === day.records.at(-1)?.cursor, 5000)
}

const cursors = (frames: Frame[]): string[] => frames.map((f) => f.cursor)
const teamsOf = (r: ChangeRecord): number[] => [r.fixture.home.id, r.fixture.away.id]

/** A store of the engine the test runs on; a Redis one on its own prefix, deleted when the test ends. */
function storeOf (engine: 'memory' | 'redis'): LiveStore | undefined {
  if (engine === 'memory') return undefined
  const env = redisStores()
  onTestFinished(env.close)
  return env.open()
}

describe.each(['memory', 'redis'] as const)('teams (%s store)', (engine) => {
  it('delivers every change of a followed team\'s fixtures and nothing else, across a matchday', async () => {
    const s = await startPush({ store: storeOf(engine) })
    const day = new Matchday(s.store)
    const fan = await connect(s)
    expect(await fan.request({ op: 'subscribe', ref: 't', teams: [10], snapshot: false }))
      .toEqual({ type: 'subscribed', ref: 't', leagues: [], fixtures: [], teams: [10] })
    const both = await connect(s)
    // Team 10 and team 11 meet in fixture 1: a client following both gets each of its changes once.
    await both.request({ op: 'subscribe', ref: 't', teams: [10, 11], leagues: [271], snapshot: false })
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    await day.kickOff(3, 8, 30, 31)
    for (let minute = 1; minute <= 30; minute++) {
      await day.change(1 + (minute % 3), minute % 10 === 0 ? [clock(minute), goal(minute / 10)] : [clock(minute)])
    }
    // Later in the day team 10 plays again, away, in another league.
    await day.kickOff(4, 501, 40, 10)
    for (let minute = 31; minute <= 40; minute++) await day.change(minute % 2 === 0 ? 4 : 2, [clock(minute)])
    await day.change(4, [whistle])
    await routed(s, day)
    await settle(fan, 'end')
    await settle(both, 'end')
    const expected = day.records.filter((r) => teamsOf(r).includes(10))
    expect(expected.length).toBeGreaterThan(15)
    expect(cursors(fan.changes())).toEqual(cursors(expected))
    expect(fan.changes()[0]).toEqual({ type: 'change', ...expected[0] })
    const viaEither = day.records.filter((r) => r.league_id === 271 || teamsOf(r).some((t) => t === 10 || t === 11))
    expect(cursors(both.changes())).toEqual(cursors(viaEither))
    fan.close()
    both.close()
  })

  it('snapshots and replays by team, and unsubscribes a team', async () => {
    const s = await startPush({ store: storeOf(engine) })
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    const since = (await day.change(2, [clock(1)])).cursor
    const missed = await day.change(1, [clock(2)])
    await day.change(2, [clock(3)])
    const c = await connect(s)
    c.send({ op: 'subscribe', ref: 's', teams: [11] })
    expect((await c.take('snapshot')).fixtures.map((f: LiveFixture) => f.id)).toEqual([1])
    c.send({ op: 'subscribe', ref: 'r', teams: [11], since, snapshot: false })
    expect(await c.take('replay')).toMatchObject({ ref: 'r', recovered: true, count: 1 })
    expect((await c.take('change')).cursor).toBe(missed.cursor)
    expect(await c.request({ op: 'unsubscribe', ref: 'u', teams: [11] }))
      .toEqual({ type: 'unsubscribed', ref: 'u', leagues: [], fixtures: [], teams: [] })
    await day.change(1, [clock(4)])
    await routed(s, day)
    await settle(c, 'p')
    expect(c.changes()).toHaveLength(1)
    c.close()
  })
})

describe('kinds', () => {
  it('delivers only the kinds asked for, sends no frame when none is left, and replays with the cursor moved on', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    const goals = await connect(s)
    expect(await goals.request({ op: 'subscribe', ref: 'g', leagues: [271], kinds: ['score_changed', 'state_changed'], snapshot: false }))
      .toEqual({ type: 'subscribed', ref: 'g', leagues: [271], fixtures: [], teams: [], kinds: ['score_changed', 'state_changed'] })
    const everything = await connect(s)
    await everything.request({ op: 'subscribe', ref: 'e', leagues: [271], snapshot: false })
    await day.kickOff(1, 271, 10, 11)
    const start = await day.change(1, [clock(1)])
    const scored = await day.change(1, [clock(2), goal(1)])
    await day.change(1, [clock(3)])
    const ended = await day.change(1, [whistle])
    const quiet = await day.change(1, [clock(4)])
    await settle(goals, 'p')
    await settle(everything, 'p')
    expect(everything.changes()).toHaveLength(6)
    expect(goals.changes()).toEqual([
      { type: 'change', ...scored, changes: [goal(1)] },
      { type: 'change', ...ended }
    ])

    // Resuming from the first change: the clock-only changes are skipped, and the replay tells how far it read.
    const back = await connect(s)
    back.send({ op: 'subscribe', ref: 'b', leagues: [271], kinds: ['score_changed'], since: start.cursor, snapshot: false })
    expect(await back.take('replay')).toEqual({ type: 'replay', ref: 'b', recovered: true, count: 1, cursor: quiet.cursor })
    await settle(back, 'p')
    expect(cursors(back.changes())).toEqual([scored.cursor])

    // Unsubscribing a kind narrows the filter; unsubscribing everything resets it.
    expect(await goals.request({ op: 'unsubscribe', ref: 'u', kinds: ['state_changed'] })).toMatchObject({ kinds: ['score_changed'] })
    expect(await goals.request({ op: 'unsubscribe', ref: 'v' })).toEqual({ type: 'unsubscribed', ref: 'v', leagues: [], fixtures: [], teams: [] })
    for (const c of [goals, everything, back]) c.close()
  })

  it('refuses an unknown kind with invalid_message and keeps the connection', async () => {
    const s = await startPush()
    const c = await connect(s)
    expect(await c.request({ op: 'subscribe', ref: 'k', leagues: [271], kinds: ['goal'] })).toMatchObject({ type: 'error', code: 'invalid_message' })
    expect(await c.request({ op: 'subscribe', ref: 'k2', leagues: [271], kinds: [] })).toMatchObject({ type: 'error', code: 'invalid_message' })
    await settle(c, 'p')
    c.close()
  })
})

describe('leagues: "*"', () => {
  it('follows a league whose first fixture starts after the subscribe, within the key\'s scope', async () => {
    const s = await startPush({ keys: [...KEYS, clientKey('two', { leagues: [271, 999] })] })
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    const all = await connect(s)
    all.send({ op: 'subscribe', ref: 'a', leagues: '*' })
    expect(await all.take('subscribed')).toEqual({ type: 'subscribed', ref: 'a', leagues: '*', fixtures: [], teams: [] })
    expect((await all.take('snapshot')).fixtures.map((f: LiveFixture) => f.id)).toEqual([1])
    const two = await connect(s, 'two-key')
    await two.request({ op: 'subscribe', ref: 'a', leagues: '*', snapshot: false })
    const later = await day.kickOff(2, 999, 20, 21)
    const other = await day.kickOff(3, 501, 30, 31)
    await settle(all, 'p')
    await settle(two, 'p')
    expect(cursors(all.changes())).toEqual([later.cursor, other.cursor])
    expect(cursors(two.changes())).toEqual([later.cursor])
    all.close()
    two.close()
  })

  it('follows a key narrowed by a keys reload to its new leagues, without an error', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    const c = await connect(s)
    await c.request({ op: 'subscribe', ref: 'a', leagues: '*', snapshot: false })
    await day.kickOff(1, 501, 10, 11)
    const narrowed: ClientKey = { ...KEYS[0] as ClientKey, leagues: [271] }
    await s.hub.applyKeys((old) => old.name === 'all' ? narrowed : old)
    await day.change(1, [clock(1)])
    const mine = await day.kickOff(2, 271, 20, 21)
    await settle(c, 'p')
    expect(cursors(c.changes())).toEqual([day.records[0]?.cursor, mine.cursor])
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([])
    c.close()
  })
  it('keeps an SSE stream without a filter open across a narrowing reload, following the new scope', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    await day.kickOff(1, 501, 10, 11)
    const stream = await openSse(`${s.base}/v1/sse?api_token=all-key`)
    received.push(() => stream.events.flatMap((e) => serverFrameErrors(e.data)))
    await waitFor('the snapshot', () => stream.events.length >= 1, 5000)
    await s.hub.applyKeys((old) => old.name === 'all' ? { ...old, leagues: [271] } : old)
    await day.change(1, [clock(1)])
    const mine = await day.kickOff(2, 271, 20, 21)
    await waitFor('a change', () => stream.events.length >= 2, 5000)
    await day.change(2, [clock(2)])
    await waitFor('another change', () => stream.events.length >= 3, 5000)
    expect(stream.events.slice(1).map((e) => [e.event, e.data.fixture_id])).toEqual([['change', 2], ['change', 2]])
    expect(stream.events[1]?.id).toBe(mine.cursor)
    stream.close()
  })
})

describe('scoped keys and teams', () => {
  it('refuses teams playing only outside the key\'s leagues and never delivers another league\'s change', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    // Team 10 also plays in league 501 today.
    await day.kickOff(3, 501, 10, 30)
    const c = await connect(s, 'scoped-key')
    expect(await c.request({ op: 'subscribe', ref: 'x', teams: [20, 10, 21] }))
      .toMatchObject({ type: 'error', ref: 'x', code: 'forbidden', teams: [20, 21] })
    c.send({ op: 'subscribe', ref: 'y', teams: [10, 77] })
    expect((await c.take('snapshot')).fixtures.map((f: LiveFixture) => f.id)).toEqual([1])
    const mine = await day.change(1, [clock(1)])
    await day.change(3, [goal(1)])
    // Team 77 was not live at subscribe time: accepted, and delivered from the key's leagues only.
    await day.kickOff(4, 501, 77, 78)
    const inScope = await day.kickOff(5, 271, 79, 77)
    await settle(c, 'p')
    expect(cursors(c.changes())).toEqual([mine.cursor, inScope.cursor])
    c.close()
  })
})

describe('HTTP filters', () => {
  it('filters /v1/changes by teams and kinds, and its cursor moves past what was filtered out', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    const scored = await day.change(2, [clock(1), goal(1)])
    await day.change(1, [clock(2)])
    const last = await day.change(2, [clock(3)])
    const res = await httpGet(`${s.base}/v1/changes?api_token=all-key&teams=21&kinds=score_changed`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [{ type: 'change', ...scored, changes: [goal(1)] }], cursor: last.cursor, recovered: true, more: false })
    const byTeam = await httpGet(`${s.base}/v1/changes?api_token=all-key&teams=10`)
    expect(cursors(byTeam.body.data)).toEqual([day.records[0]?.cursor, day.records[3]?.cursor])
    const star = await httpGet(`${s.base}/v1/changes?api_token=scoped-key&leagues=*`)
    expect(star.body.data.map((c: Frame) => c.league_id)).toEqual([271, 271])
    expect((await httpGet(`${s.base}/v1/changes?api_token=all-key&kinds=goal`)).body).toMatchObject({ code: 'invalid_request' })
    expect((await httpGet(`${s.base}/v1/changes?api_token=all-key&leagues=*,271`)).body)
      .toMatchObject({ code: 'invalid_request', message: 'leagues: expected * or comma-separated positive integer ids' })
  })

  it('filters /v1/fixtures/live by team and refuses a scoped key a team playing only outside its leagues', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    await day.kickOff(3, 501, 10, 30)
    const ids = async (query: string): Promise<number[]> =>
      (await httpGet(`${s.base}/v1/fixtures/live?${query}`)).body.data.map((f: LiveFixture) => f.id)
    expect(await ids('api_token=all-key&teams=10')).toEqual([1, 3])
    expect(await ids('api_token=all-key&teams=30&leagues=271')).toEqual([1, 3])
    expect(await ids('api_token=scoped-key&teams=10')).toEqual([1])
    expect(await ids('api_token=scoped-key&leagues=*')).toEqual([1])
    const refused = await httpGet(`${s.base}/v1/fixtures/live?api_token=scoped-key&teams=20`)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'forbidden' })
  })

  it('streams /v1/sse by team and kind', async () => {
    const s = await startPush()
    const day = new Matchday(s.store)
    await day.kickOff(1, 271, 10, 11)
    await day.kickOff(2, 501, 20, 21)
    const stream = await openSse(`${s.base}/v1/sse?api_token=all-key&teams=21&kinds=score_changed,state_changed`)
    received.push(() => stream.events.flatMap((e) => serverFrameErrors(e.data)))
    await waitFor('the snapshot', () => stream.events.length >= 1, 5000)
    expect(stream.events[0]?.data.fixtures.map((f: LiveFixture) => f.id)).toEqual([2])
    await day.change(2, [clock(1)])
    await day.change(1, [goal(1)])
    const scored = await day.change(2, [clock(2), goal(1)])
    const ended = await day.change(2, [whistle])
    await waitFor('two changes', () => stream.events.length >= 3, 5000)
    expect(stream.events.slice(1).map((e) => [e.id, e.data.changes.map((c: Change) => c.kind)]))
      .toEqual([[scored.cursor, ['score_changed']], [ended.cursor, ['state_changed']]])
    stream.close()
  })
})
