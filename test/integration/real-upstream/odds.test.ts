/**
 * Live odds against a server that answers like the real API (test/helpers/real-upstream.ts) on its odds
 * paths: rows with every field of an in-play odd (prices as strings, `external_id`, `suspended`, `stopped`,
 * `winning`, `total`, `handicap`), `latest` holding only the rows updated in the last 10 seconds and the
 * "No result(s)" body without `data` otherwise, and, for a plan without odds, a 403 on each odds path. The
 * pipeline turns the rows into the same typed changes as the provider's; a plan without odds turns odds
 * polling off once and leaves the livescore side as it was.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StatusBody } from '../../../src/http/status.ts'
import type { Gateway } from '../../../src/gateway.ts'
import type { FixtureOdds, OddsChange } from '../../../src/wire-model/model.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { envelope, noResults, SHOOTOUT_FIXTURE_ID, startRealUpstream, type RealUpstream, pollingGatewayEnv } from '../../helpers/real-upstream.ts'
import { waitFor } from '../../helpers/wait.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { captureLogger } from '../passthrough/harness.ts'

type Json = Record<string, any>
const TOKEN = `real-${randomUUID()}`

/** An in-play odd as the real API's reference shows one. */
function odd (id: number, marketId: number, label: string, value: string, extra: Json = {}): Json {
  return {
    id,
    fixture_id: SHOOTOUT_FIXTURE_ID,
    external_id: 900_000 + id,
    market_id: marketId,
    bookmaker_id: 2,
    label,
    value,
    name: label,
    sort_order: id % 10,
    market_description: marketId === 1 ? 'Fulltime Result' : 'Goals Over/Under',
    probability: '47.62%',
    dp3: value,
    fractional: '11/10',
    american: '110',
    winning: false,
    suspended: false,
    stopped: false,
    total: marketId === 80 ? '2.5' : null,
    handicap: null,
    participants: null,
    created_at: '2026-11-26T19:00:00.000000Z',
    latest_bookmaker_update: '2026-11-26 20:00:00',
    ...extra
  }
}

/** The odds the fake upstream serves: every row, and when each last changed (for `latest`'s 10 s window). */
class OddsBook {
  rows: Json[] = [odd(1, 1, '1', '2.10'), odd(2, 1, 'X', '3.40'), odd(3, 1, '2', '3.75'), odd(4, 80, 'Over', '1.909'), odd(5, 80, 'Under', '1.952')]
  readonly changed = new Map<number, number>()

  update (ids: number[], fields: Json): void {
    this.rows = this.rows.map((r) => ids.includes(r.id as number) ? { ...r, ...fields } : r)
    for (const id of ids) this.changed.set(id, Date.now())
  }

  serve (upstream: RealUpstream): void {
    upstream.set('/football/odds/inplay/latest', {
      entity: 'InplayOdd',
      handler: () => {
        const fresh = this.rows.filter((r) => Date.now() - (this.changed.get(r.id as number) ?? 0) < 10_000)
        return { body: fresh.length === 0 ? noResults() : envelope(fresh) }
      }
    })
    upstream.set('/football/odds/inplay/fixtures/{fixtureId}', {
      entity: 'InplayOdd',
      handler: (req) => ({ body: Number(req.params.fixtureId) === SHOOTOUT_FIXTURE_ID ? envelope(this.rows) : noResults() })
    })
  }
}

async function gateway (upstream: RealUpstream, log: ReturnType<typeof captureLogger>['log']): Promise<Gateway> {
  return await startTestGateway({
    env: pollingGatewayEnv(upstream, TOKEN),
    log
  })
}

const kinds = (f: Frame): string[] => (f.changes as OddsChange[]).map((c) => c.kind)

describe('odds from a real-like upstream', () => {
  let upstream: RealUpstream
  let gw: Gateway
  let ws: WsTestClient
  let lines: string[]
  const book = new OddsBook()

  beforeAll(async () => {
    upstream = await startRealUpstream({ token: TOKEN, remaining: 100_000 })
    book.serve(upstream)
    const captured = captureLogger()
    lines = captured.lines
    gw = await gateway(upstream, captured.log)
    ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
    await ws.request({ op: 'subscribe', ref: 'odds', fixtures: [SHOOTOUT_FIXTURE_ID], odds: true })
  })

  afterAll(async () => {
    ws?.ws.close()
    await gw?.close()
    await upstream?.close()
  })

  it('turns the rows into an image, then each update into typed changes, prices exactly as written', async () => {
    const first = await ws.take((f) => f.type === 'odds', 10_000)
    expect(kinds(first)).toEqual(['market_added', 'market_added'])
    const image = first.odds as FixtureOdds
    expect(image.markets.map((m) => [m.market_id, m.line, m.market, m.status, m.selections.map((s) => s.price)])).toEqual([
      [1, null, 'Fulltime Result', 'open', ['2.10', '3.40', '3.75']],
      [80, '2.5', 'Goals Over/Under', 'open', ['1.909', '1.952']]
    ])

    book.update([1], { value: '1.95' })
    const moved = await ws.take((f) => f.type === 'odds', 5000)
    expect(moved.changes).toEqual([{
      kind: 'odds_changed',
      bookmaker_id: 2,
      market_id: 1,
      line: null,
      selection: { label: '1', total: null, handicap: null },
      price: '1.95',
      decimal: 1.95,
      previous: { price: '2.10', decimal: 2.1 },
      direction: 'down'
    }])

    book.update([1, 2, 3, 4, 5], { suspended: true })
    expect(kinds(await ws.take((f) => f.type === 'odds', 5000))).toEqual(['market_suspended', 'market_suspended'])
    book.update([1, 2, 3], { suspended: false, value: '1.50' })
    book.update([4, 5], { suspended: false })
    const reopened = await ws.take((f) => f.type === 'odds', 5000)
    expect(kinds(reopened)).toEqual(['market_reopened', 'market_reopened', 'odds_changed', 'odds_changed', 'odds_changed'])
    expect((reopened.changes as OddsChange[]).filter((c) => c.kind === 'odds_changed').map((c) => 'price' in c && c.price)).toEqual(['1.50', '1.50', '1.50'])

    book.update([1, 2, 3], { stopped: true, suspended: false })
    book.update([1], { winning: true })
    const settled = await ws.take((f) => f.type === 'odds', 5000)
    expect(settled.changes).toEqual([{ kind: 'market_settled', bookmaker_id: 2, market_id: 1, line: null, winning: [{ label: '1', total: null, handicap: null }] }])
  })

  it('spends InplayOdd on the odds paths only, and the upstream token shows in no log line', () => {
    const oddsCalls = upstream.requests.filter((r) => r.path.startsWith('/football/odds/'))
    expect(oddsCalls.length).toBeGreaterThan(3)
    expect(upstream.remaining('InplayOdd')).toBe(100_000 - oddsCalls.length)
    expect(lines.join('\n')).not.toContain(TOKEN)
  })
})

describe('a plan without odds, against a real-like upstream', () => {
  let upstream: RealUpstream
  let gw: Gateway
  let lines: string[]

  beforeAll(async () => {
    upstream = await startRealUpstream({ token: TOKEN, remaining: 100_000 })
    const forbidden = {
      entity: 'InplayOdd',
      handler: () => ({ status: 403, body: { message: 'You do not have access to this endpoint.', resource: 'odds', plan_required: 'Odds package' } })
    }
    upstream.set('/football/odds/inplay/latest', forbidden)
    upstream.set('/football/odds/inplay/fixtures/{fixtureId}', forbidden)
    const captured = captureLogger()
    lines = captured.lines
    gw = await gateway(upstream, captured.log)
    await waitFor('five livescore polls', () => upstream.hits('/football/livescores/latest').length >= 5, 10_000)
  })

  afterAll(async () => {
    await gw?.close()
    await upstream?.close()
  })

  it('asks for odds once, says so once, and shows odds polling off on /v1/status', async () => {
    const asked = upstream.requests.filter((r) => r.path.startsWith('/football/odds/')).length
    await waitFor('ten livescore polls', () => upstream.hits('/football/livescores/latest').length >= 10, 10_000)
    expect(upstream.requests.filter((r) => r.path.startsWith('/football/odds/'))).toHaveLength(asked)
    expect(asked).toBe(1)
    expect(lines.filter((l) => l.includes('odds polling is off'))).toHaveLength(1)
    expect(lines.filter((l) => l.includes('odds poll failed'))).toEqual([])
    const status = await (await fetch(`${gw.url}/v1/status`)).json() as StatusBody
    expect(status.odds_poller).toMatchObject({ running: true, enabled: false, last_error: expect.any(String) })
    expect(status.poller).toMatchObject({ running: true, consecutive_failures: 0, last_error: null })
  })

  it('leaves the livescore side as it was: the live fixtures served, subscribers fed, no 403 but the one odds call', async () => {
    const live = await (await fetch(`${gw.url}/v1/fixtures/live?api_token=demo`)).json() as { data: Array<{ id: number }> }
    expect(live.data.map((f) => f.id)).toContain(SHOOTOUT_FIXTURE_ID)
    const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
    ws.send({ op: 'subscribe', ref: 'all', leagues: '*', odds: true })
    const snapshot = await ws.take('snapshot')
    expect((snapshot.fixtures as Array<{ id: number }>).map((f) => f.id)).toContain(SHOOTOUT_FIXTURE_ID)
    expect(snapshot.odds).toEqual([])
    ws.ws.close()
    expect(upstream.requests.filter((r) => r.status === 403)).toHaveLength(1)
    expect(upstream.requests.filter((r) => r.path.startsWith('/football/livescores')).every((r) => r.status === 200)).toBe(true)
  })
})
