/** The HTTP side of the push layer: Server-Sent Events, the /v1/changes feed and the live snapshot. */
import { describe, expect, it } from 'vitest'
import { httpGet } from '../../helpers/http.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { AT, fixture, openSse, startPush, type SseStream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const waitEvents = async (stream: SseStream, n: number) => await waitFor(`${n} SSE events`, () => stream.events.length >= n, 5000)

describe('GET /v1/sse', () => {
  it('streams a snapshot first, then the matching changes with their cursor as event id', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    await s.apply(2, 501)
    const stream = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271`)
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/)
    await waitEvents(stream, 1)
    expect(stream.events[0]).toMatchObject({ event: 'snapshot', id: await s.store.head(), data: { type: 'snapshot', fixtures: [{ id: 1 }] } })
    const rec = await s.apply(2, 501)
    const mine = await s.apply(1, 271)
    await waitEvents(stream, 2)
    expect(stream.events[1]).toEqual({ event: 'change', id: mine.cursor, data: { type: 'change', ...mine } })
    expect(stream.events.map((e) => e.id)).not.toContain(rec.cursor)
    stream.close()
  })

  it('resumes from Last-Event-ID (or since) with a replay and no snapshot', async () => {
    const s = await startPush()
    const first = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271`)
    const seen = await s.apply(1, 271)
    await waitEvents(first, 2)
    first.close()
    const missed = [await s.apply(1, 271), await s.apply(3, 501), await s.apply(4, 271)]
    const again = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271`, { 'last-event-id': first.events[1]?.id as string })
    await waitEvents(again, 3)
    expect(again.events.map((e) => e.event)).toEqual(['replay', 'change', 'change'])
    expect(again.events[0]?.data).toMatchObject({ recovered: true, count: 2 })
    expect(again.events.slice(1).map((e) => e.id)).toEqual([missed[0]?.cursor, missed[2]?.cursor])
    const viaParam = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271&since=${seen.cursor}`)
    await waitEvents(viaParam, 3)
    expect(viaParam.events.map((e) => e.event)).toEqual(['replay', 'change', 'change'])
    again.close()
    viaParam.close()
  })

  it('follows only the key scope without a filter, and refuses bad requests before streaming', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    await s.apply(2, 501)
    const scoped = await openSse(`${s.base}/v1/sse?api_token=scoped-key`)
    await waitEvents(scoped, 1)
    expect(scoped.events[0]?.data.fixtures.map((f: { id: number }) => f.id)).toEqual([1])
    scoped.close()
    expect((await httpGet(`${s.base}/v1/sse?api_token=bad`)).status).toBe(401)
    expect((await httpGet(`${s.base}/v1/sse?api_token=scoped-key&leagues=501`)).body).toMatchObject({ code: 'forbidden' })
    expect((await httpGet(`${s.base}/v1/sse?api_token=all-key&leagues=x`)).status).toBe(400)
  })

  it('sends heartbeat comments and ends cleanly on shutdown', async () => {
    const s = await startPush({ limits: { sseHeartbeatMs: 20 } })
    const stream = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271`)
    await waitFor('a ping comment', () => stream.comments.includes('ping'))
    expect(s.hub.stats().connections).toBe(1)
    await s.app.close()
    await stream.ended
    expect(s.hub.stats().connections).toBe(0)
  })
})

describe('GET /v1/changes', () => {
  it('pages through the log by cursor', async () => {
    const s = await startPush()
    const all = []
    for (let i = 0; i < 7; i++) all.push(await s.apply(1 + (i % 3), i % 2 === 0 ? 271 : 501))
    const got: string[] = []
    let since: string | undefined
    for (let page = 0; page < 10; page++) {
      const res = await httpGet(`${s.base}/v1/changes?api_token=all-key&limit=3${since === undefined ? '' : `&since=${since}`}`)
      expect(res.status).toBe(200)
      expect(res.body.recovered).toBe(true)
      got.push(...res.body.data.map((c: { cursor: string }) => c.cursor))
      since = res.body.cursor
      if (res.body.data.length === 0) break
    }
    expect(got).toEqual(all.map((r) => r.cursor))
    const first = (await httpGet(`${s.base}/v1/changes?api_token=all-key&limit=1`)).body
    expect(first).toEqual({ data: [{ type: 'change', ...all[0] }], cursor: all[0]?.cursor, recovered: true, more: true })
  })

  it('filters by league and fixture and by the key scope', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    await s.apply(2, 501)
    await s.apply(3, 8)
    const ids = async (query: string) => (await httpGet(`${s.base}/v1/changes?${query}`)).body.data.map((c: { fixture_id: number }) => c.fixture_id)
    expect(await ids('api_token=all-key&leagues=501,8')).toEqual([2, 3])
    expect(await ids('api_token=all-key&leagues=271&fixtures=3')).toEqual([1, 3])
    expect(await ids('api_token=scoped-key')).toEqual([1])
    // A fixture known to be of another league is refused (as the league would be); an unknown one reads nothing.
    expect((await httpGet(`${s.base}/v1/changes?api_token=scoped-key&fixtures=2`)).status).toBe(403)
    expect(await ids('api_token=scoped-key&fixtures=4')).toEqual([])
  })

  it('answers recovered:false with the head for a lost cursor', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    const res = await httpGet(`${s.base}/v1/changes?api_token=all-key&since=abc:1`)
    expect(res.body).toEqual({ data: [], cursor: await s.store.head(), recovered: false, more: false })
  })

  it('answers 400, 401 and 403 as JSON', async () => {
    const s = await startPush()
    const status = async (query: string) => {
      const res = await httpGet(`${s.base}/v1/changes?${query}`)
      expect(res.headers['content-type']).toMatch(/json/)
      return [res.status, res.body.code]
    }
    expect(await status('api_token=all-key&limit=0')).toEqual([400, 'invalid_request'])
    expect(await status('api_token=all-key&limit=1001')).toEqual([400, 'invalid_request'])
    expect(await status('api_token=all-key&leagues=-1')).toEqual([400, 'invalid_request'])
    expect(await status('api_token=nope')).toEqual([401, 'unauthorized'])
    expect(await status('leagues=271')).toEqual([401, 'unauthorized'])
    expect(await status('api_token=scoped-key&leagues=271,501')).toEqual([403, 'forbidden'])
  })
})

describe('the client key in the Authorization header', () => {
  it('is read bare or as a Bearer token where no api_token is given, with the key\'s scope, and an unknown one is a 401', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    await s.apply(2, 501)
    const ids = async (path: string, authorization: string): Promise<[number, unknown]> => {
      const res = await httpGet(`${s.base}${path}`, { authorization })
      return [res.status, res.status === 200 ? (res.body.data as Array<{ id?: number, fixture_id?: number }>).map((f) => f.id ?? f.fixture_id) : res.body.code]
    }
    expect(await ids('/v1/fixtures/live', 'all-key')).toEqual([200, [1, 2]])
    expect(await ids('/v1/fixtures/live', 'Bearer scoped-key')).toEqual([200, [1]])
    expect(await ids('/v1/changes', 'bearer all-key')).toEqual([200, [1, 2]])
    expect(await ids('/v1/fixtures/live', 'Bearer nope')).toEqual([401, 'unauthorized'])
    // The query's key wins when both are given: a header cannot widen what the URL's key may see.
    const both = await httpGet(`${s.base}/v1/fixtures/live?api_token=scoped-key`, { authorization: 'Bearer all-key' })
    expect(both.body.data.map((f: { id: number }) => f.id)).toEqual([1])
  })
})

describe('GET /v1/fixtures/live', () => {
  it('returns the live snapshot from the store, within the key scope', async () => {
    const s = await startPush()
    await s.apply(2, 501)
    await s.apply(1, 271)
    await s.store.apply({ fixture: fixture(3, 271), changes: [], expectedVersion: 0, live: false, at: AT })
    const get = async (query: string) => await httpGet(`${s.base}/v1/fixtures/live?${query}`)
    const all = await get('api_token=all-key')
    expect(all.body.data.map((f: { id: number }) => f.id)).toEqual([1, 2])
    expect(all.body.data[0]).toMatchObject({ id: 1, league_id: 271, version: 1, state: { phase: 'live' } })
    expect((await get('api_token=all-key&leagues=501')).body.data.map((f: { id: number }) => f.id)).toEqual([2])
    expect((await get('api_token=scoped-key')).body.data.map((f: { id: number }) => f.id)).toEqual([1])
    expect((await get('api_token=scoped-key&leagues=501')).status).toBe(403)
    expect((await get('api_token=')).status).toBe(401)
  })

  it('shows the minute each running clock shows now, not the minute of the last change', async () => {
    const s = await startPush()
    const now = Date.now()
    // Stored at minute 10, with a clock that started its period 23.5 minutes ago: it shows 23 now.
    const clock = { period_started_at: new Date(now - 23.5 * 60_000).toISOString(), counts_from: 0, length: 45, added: null, rate: 1, ticking: true }
    await s.apply(1, 271, { minute: 10, clock })
    await s.apply(2, 271, { minute: 10, clock: { ...clock, ticking: false } })
    const live = await httpGet(`${s.base}/v1/fixtures/live?api_token=all-key`)
    expect(live.body.data.map((f: { id: number, minute: number }) => [f.id, f.minute])).toEqual([[1, 23], [2, 10]])
    expect(live.body.data[0]).toMatchObject({ version: 1, clock })
    // Subscribers get the stored fixture: the deltas that follow apply to it.
    const ws = await WsTestClient.connect(s.wsUrl())
    await ws.take('hello')
    expect(await ws.request({ op: 'subscribe', ref: 's', fixtures: [1] })).toMatchObject({ type: 'subscribed' })
    expect((await ws.take('snapshot')).fixtures[0]).toMatchObject({ id: 1, minute: 10 })
    ws.ws.close()
  })
})
