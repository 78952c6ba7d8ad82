/**
 * Live tables (docs/protocol.md, "Standings"): the standings poller beside a stepped poller, on the clock the
 * provider plays its matches by, over real HTTP, on both stores. It reads the table of every league with a
 * match in play, equal to the upstream's live table; a goal that moves a table reaches a WebSocket
 * subscriber that takes standings as `standings_changed` with the table after it (and no subscriber that
 * does not), the client library holds it, `/v1/standings/{league}` and `/v1/changes?standings=true` answer
 * it; and the `Standing` budget is spent on what moved, not on a clock.
 */
import { pino } from 'pino'
import { WebSocket } from 'ws'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { TouchlineClient } from '@touchline/client'
import { CONFIRM_AFTER_MS, createStandingsPoller, REFRESH_MS, STANDINGS_ENTITY, type StandingsPoller } from '../../../src/poller/standings.ts'
import { DEMO_TOKENS } from '../../../packages/provider/src/index.ts'
import { standingsOf } from '../../../src/standings/table.ts'
import { isStandingsRecord } from '../../../src/store/types.ts'
import type { UpstreamClient } from '../../../src/upstream/index.ts'
import { parseStandings } from '../../../src/upstream/standings-schemas.ts'
import type { LeagueStandings, StandingsRecord } from '../../../src/wire-model/model.ts'
import { responseErrors, serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { ENGINES, startSteppedGateway, type SteppedRig } from './harness.ts'

/** The upstream's live table of a league, in touchline's shape (the tables alone are compared). */
async function upstreamTable (rig: SteppedRig, league: number): Promise<LeagueStandings | undefined> {
  const res = await fetch(`${rig.provider.baseUrl}/football/standings/live/leagues/${league}?api_token=${DEMO_TOKENS.enterprise}&include=participant;details`)
  return standingsOf(league, parseStandings(await res.json()), new Date(rig.clock.now).toISOString())
}

const get = async (rig: SteppedRig, path: string): Promise<{ status: number, body: any }> => {
  const res = await fetch(`${rig.gw.url}${path}`)
  return { status: res.status, body: await res.json() }
}

/** The leagues with a fixture in play in the store's live set. */
async function leaguesInPlay (rig: SteppedRig): Promise<number[]> {
  const live = await rig.gw.store.liveFixtures()
  return [...new Set(live.filter((f) => f.state.phase === 'live' || f.state.phase === 'break').map((f) => f.league_id))].sort((a, b) => a - b)
}

describe.each(ENGINES)('live tables on the %s store', (engine) => {
  let rig: SteppedRig
  let standings: StandingsPoller
  let ws: WsTestClient
  let plain: WsTestClient
  let client: TouchlineClient
  const records: StandingsRecord[] = []
  const answered = new Map<string, unknown>()
  /** The cursor of the last record the store delivered to this test. */
  let delivered = ''

  /**
   * Steps the standings poller, and resolves once every record appended so far has reached this test: a
   * table the step before wrote can arrive during the next step (pub/sub lags on a busy machine), and then
   * seems to be that step's, while the upstream has moved on since (a loaded run caught it: read a second
   * before the clock, a goal behind the upstream's table).
   */
  const standingsStep = async (): Promise<void> => {
    await standings.step()
    await caughtUp()
  }
  /** Resolves once every record appended so far has reached this test. */
  const caughtUp = async (): Promise<void> => {
    const head = await rig.gw.store.head()
    await vi.waitFor(() => { expect(delivered).toBe(head) }, { timeout: 10_000 })
  }

  /** Moves the clock a second, steps the poller, then the standings poller. */
  const step = async (): Promise<void> => {
    await rig.step(1000)
    await standings.step()
  }

  beforeAll(async () => {
    rig = await startSteppedGateway(engine)
    // The upstream's last answer for each league's table, as the poller received it.
    const upstream: UpstreamClient = {
      ...rig.gw.upstream,
      get: async (path, query, opts) => {
        const res = await rig.gw.upstream.get(path, query, opts)
        answered.set(path, res.envelope)
        return res as never
      }
    }
    standings = createStandingsPoller({ upstream, ledger: rig.gw.ledger, store: rig.gw.store, log: pino({ level: 'silent' }), now: () => rig.clock.now })
    await rig.gw.store.subscribe((r) => { delivered = r.cursor; if (isStandingsRecord(r)) records.push(r) })
    ws = await WsTestClient.connect(rig.wsUrl)
    plain = await WsTestClient.connect(rig.wsUrl)
    expect(await ws.request({ op: 'subscribe', ref: 's', leagues: '*', standings: true })).toMatchObject({ type: 'subscribed', standings: true })
    expect(await plain.request({ op: 'subscribe', ref: 'p', leagues: '*' })).toMatchObject({ type: 'subscribed' })
    client = new TouchlineClient({ url: rig.gw.url, key: 'demo' }).subscribe({ leagues: '*', standings: true })
    await client.connect()
    // The live set, then every league in play read (a few a step).
    for (let i = 0; i < 10; i++) await step()
  }, 60_000)

  afterAll(async () => {
    client?.close()
    ws?.ws.close()
    plain?.ws.close()
    await standings?.stop()
    await rig?.close()
  })

  it('reads the table of every league with a match in play, as the upstream answered it', async () => {
    const leagues = await leaguesInPlay(rig)
    expect(leagues.length).toBeGreaterThan(1)
    // Every one was asked; those with a table (a cup has none) are held.
    const bodies = leagues.map((id) => answered.get(`/football/standings/live/leagues/${id}`))
    expect(bodies.every((b) => b !== undefined)).toBe(true)
    const withTable = leagues.filter((_, i) => parseStandings(bodies[i]).length > 0)
    expect(withTable.length).toBeGreaterThan(1)
    const held = await rig.gw.store.getStandings(leagues)
    expect(held.map((t) => t.league_id)).toEqual(withTable)
    for (const table of held) {
      const body = answered.get(`/football/standings/live/leagues/${table.league_id}`)
      expect(body, `league ${table.league_id} read`).toBeDefined()
      expect(table.tables, `league ${table.league_id}`).toEqual(standingsOf(table.league_id, parseStandings(body), table.updated_at)?.tables)
      expect(table.tables.every((t) => t.rows.length > 1 && t.rows.every((r, i) => r.position === i + 1 && r.team.name !== null && r.played !== null && r.goals_for !== null))).toBe(true)
    }
  })

  it('pushes a goal\'s move of a table as standings_changed, to subscribers that take standings only; the client holds it', async () => {
    await caughtUp()
    const before = records.length
    // A goal in a league in play: its table moves (goals for, and the points of a draw or a lead changing).
    const moved = await rig.stepUntil(async () => { await standingsStep(); return records.length > before }, rig.clock.now + 20 * 60_000)
    expect(moved).toBe(true)
    const record = records.at(-1) as StandingsRecord
    expect(record.standings.updated_at, 'read at the clock of the step that stopped').toBe(new Date(rig.clock.now).toISOString())
    expect(record.changes).toHaveLength(1)
    expect(record.changes[0]?.kind).toBe('standings_changed')
    expect(record.changes[0]?.rows.length).toBeGreaterThan(0)
    // Each row named is the table's row now, and it did move.
    for (const move of record.changes[0]?.rows ?? []) {
      const table = record.standings.tables.find((t) => t.stage_id === move.stage_id && t.group_id === move.group_id)
      expect(table?.rows.find((r) => r.team.id === move.team_id)).toMatchObject({ position: move.position, points: move.points })
    }
    const frame = await ws.take((f) => f.type === 'standings' && f.cursor === record.cursor, 5000)
    expect(frame).toMatchObject({ league_id: record.league_id, changes: record.changes, standings: record.standings })
    await expect.poll(() => client.standings.get(record.league_id)?.version).toBe(record.standings.version)
    expect(client.standings.get(record.league_id)).toEqual(record.standings)
    // The subscriber without standings got the goal, and no table.
    expect(plain.frames.some((f) => f.type === 'standings')).toBe(false)
    expect(plain.frames.some((f) => f.type === 'change')).toBe(true)
    // What the gateway answers is the upstream's table at that instant.
    const answer = await get(rig, `/v1/standings/${record.league_id}?api_token=demo`)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual(record.standings)
    // As the protocol documents say: the frames over the socket, the answer over HTTP.
    expect(ws.frames.flatMap((f) => serverFrameErrors(f))).toEqual([])
    expect(responseErrors('/v1/standings/{league}', 200, answer.body)).toEqual([])
    // The table is the upstream's at that clock.
    expect(record.standings.tables).toEqual((await upstreamTable(rig, record.league_id))?.tables)
  }, 60_000)

  it('a client that gives the tables up holds none, tells the gateway (standings: false) and gets none after', async () => {
    const sent: Array<Record<string, unknown>> = []
    class Watched extends WebSocket {
      override send (data: any, ...rest: any[]): void { sent.push(JSON.parse(String(data))); super.send(data, ...rest as []) }
    }
    const c = new TouchlineClient({ url: rig.gw.url, key: 'demo', WebSocket: Watched as never }).subscribe({ leagues: '*', standings: true })
    try {
      await c.connect()
      expect(c.standings.size).toBeGreaterThan(0)
      const tables: number[] = []
      c.on('standings', (e) => tables.push(e.standings.league_id))
      c.subscribe({ standings: false })
      const gaveUp = sent.length
      expect(c.standings.size).toBe(0)
      expect(c.subscription.standings).toBeUndefined()
      expect(sent.filter((f) => f.op === 'subscribe').at(-1)).toMatchObject({ standings: false })
      // A table moves, and a match change comes after it: the client is past the table's cursor, without it.
      await caughtUp()
      const before = records.length
      expect(await rig.stepUntil(async () => { await standingsStep(); return records.length > before }, rig.clock.now + 20 * 60_000)).toBe(true)
      const table = records.at(-1) as StandingsRecord
      const offset = (cursor: string): number => Number(cursor.split(':')[1])
      expect(await rig.stepUntil(() => offset(c.cursor ?? '0:0') > offset(table.cursor), rig.clock.now + 20 * 60_000)).toBe(true)
      expect(tables).toEqual([])
      expect(c.standings.size).toBe(0)
      expect(sent.slice(gaveUp).some((f) => f.standings === true)).toBe(false)
    } finally {
      c.close()
    }
  }, 60_000)

  it('carries the tables in a snapshot that takes standings, and standings frames on /v1/changes only when asked', async () => {
    const late = await WsTestClient.connect(rig.wsUrl)
    try {
      await late.request({ op: 'subscribe', ref: 'l', leagues: '*', standings: true, snapshot: false })
      late.send({ op: 'subscribe', ref: 'l2', leagues: [271, 501], standings: true })
      const snap = await late.take((f) => f.type === 'snapshot' && f.ref === 'l2')
      const held = await rig.gw.store.getStandings([271, 501])
      expect(snap.standings).toEqual(held)
      expect(serverFrameErrors(snap)).toEqual([])
    } finally {
      late.ws.close()
    }
    const first = records[0] as StandingsRecord
    const since = `${first.cursor.split(':')[0] ?? ''}:${Number(first.cursor.split(':')[1]) - 1}`
    const taken = await get(rig, `/v1/changes?api_token=demo&since=${since}&standings=true&limit=1000`)
    expect(taken.body.data.filter((f: { type: string }) => f.type === 'standings')[0]).toMatchObject({ cursor: first.cursor, league_id: first.league_id })
    const without = await get(rig, `/v1/changes?api_token=demo&since=${since}&limit=1000`)
    expect(without.body.data.some((f: { type: string }) => f.type === 'standings')).toBe(false)
    const onlyTables = await get(rig, `/v1/changes?api_token=demo&since=${since}&kinds=standings_changed&limit=1000`)
    expect(onlyTables.body.data.length).toBeGreaterThan(0)
    expect(onlyTables.body.data.every((f: { type: string }) => f.type === 'standings')).toBe(true)
    expect(responseErrors('/v1/changes', 200, taken.body)).toEqual([])
  })

  it('answers /v1/standings/{league}: 404 for a league it holds no table of, 400 for no id, 401 without a key', async () => {
    const held = new Set((await rig.gw.store.getStandings()).map((t) => t.league_id))
    const none = [271, 501, 82, 24, 2, 8, 9].find((id) => !held.has(id)) ?? 999_999
    const missing = await get(rig, `/v1/standings/${none}?api_token=demo`)
    expect(missing.status).toBe(404)
    expect(responseErrors('/v1/standings/{league}', 404, missing.body)).toEqual([])
    expect((await get(rig, '/v1/standings/abc?api_token=demo')).status).toBe(400)
    expect((await get(rig, '/v1/standings/271')).status).toBe(401)
  })

  it('spends the Standing budget on what moved: a read per change and its confirmation, and a refresh every 5 minutes', async () => {
    const reads = standings.status().reads
    const spent = (await rig.gw.ledger.get(STANDINGS_ENTITY))?.spent.pollers ?? 0
    // Every read was reserved (the first one before the ledger knew the bucket is not counted).
    expect(spent).toBeGreaterThanOrEqual(reads - 1)
    expect(spent).toBeLessThanOrEqual(reads)
    // The confirmations of the last changes read first (CONFIRM_AFTER_MS); then ten minutes in which the
    // store's live set does not move (the poller is not stepped): the leagues followed are read again only at
    // their refresh.
    for (let i = 0; i < CONFIRM_AFTER_MS; i += 2000) {
      rig.clock.now += 2000
      await standings.step()
    }
    const leagues = standings.status().leagues
    const from = standings.status().reads
    for (let i = 0; i < 10 * 60; i += 10) {
      rig.clock.now += 10_000
      await standings.step()
    }
    const refreshes = standings.status().reads - from
    expect(refreshes).toBeGreaterThan(0)
    expect(refreshes).toBeLessThanOrEqual(leagues * Math.ceil(10 * 60_000 / REFRESH_MS))
  }, 60_000)

  it('forgets what it knew when the log is lost: every league followed is read again at once, not at its refresh', async () => {
    // Just after the refreshes: nothing is due for minutes.
    await standings.step()
    const quiet = standings.status().reads
    rig.clock.now += 2000
    await standings.step()
    expect(standings.status().reads).toBe(quiet)
    standings.forget()
    for (let i = 0; i < 10; i++) {
      rig.clock.now += 2000
      await standings.step()
    }
    expect(standings.status().reads - quiet).toBeGreaterThanOrEqual(standings.status().leagues)
  }, 60_000)
})
