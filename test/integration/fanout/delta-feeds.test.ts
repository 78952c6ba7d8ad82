import { describe, expect, it } from 'vitest'
import { applyDelta } from '@touchline/client'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse, startPush, type SseStream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

async function waitEvents (stream: SseStream, n: number): Promise<void> {
  await waitFor(`${n} SSE events`, () => stream.events.length >= n)
}

describe('format=delta on the HTTP feeds and the subscribe frame', () => {
  it('/v1/changes: a fixture\'s first change of the page is full, the next ones are deltas on it', async () => {
    const s = await startPush()
    const a = await s.apply(1, 271)
    const b = await s.apply(1, 271, { minute: 60, period: '2nd-half' })
    const res = await fetch(`${s.base}/v1/changes?api_token=all-key&format=delta`)
    expect(res.status).toBe(200)
    const body = await res.json() as { data: any[] }
    expect(body.data[0]).toEqual({ type: 'change', ...a })
    const delta = body.data[1]
    expect(delta).not.toHaveProperty('fixture')
    expect(delta).toMatchObject({ type: 'change', cursor: b.cursor, fixture_id: 1, league_id: 271, version: 2, at: b.at })
    expect(applyDelta(a.fixture, delta)).toEqual(b.fixture)
    const full = await (await fetch(`${s.base}/v1/changes?api_token=all-key`)).json() as { data: any[] }
    expect(full.data[1]).toEqual({ type: 'change', ...b })
    expect((await fetch(`${s.base}/v1/changes?api_token=all-key&format=tiny`)).status).toBe(400)
  })

  it('/v1/sse: live changes come as deltas, the snapshot stays full', async () => {
    const s = await startPush()
    const first = await s.apply(1, 271)
    const stream = await openSse(`${s.base}/v1/sse?api_token=all-key&leagues=271&format=delta`)
    await waitEvents(stream, 1)
    expect(stream.events[0]?.data.fixtures).toEqual([first.fixture])
    const next = await s.apply(1, 271)
    await waitEvents(stream, 2)
    expect(stream.events[1]).toMatchObject({ event: 'change', id: next.cursor, data: { version: 2 } })
    expect(stream.events[1]?.data).not.toHaveProperty('fixture')
    expect(applyDelta(first.fixture, stream.events[1]?.data)).toEqual(next.fixture)
    stream.close()
  })

  it('WebSocket: format is validated, and a subscribe that names it switches the connection', async () => {
    const s = await startPush()
    await s.apply(1, 271)
    const ws = await WsTestClient.connect(s.wsUrl())
    await ws.take('hello')
    expect(await ws.request({ op: 'subscribe', ref: 'bad', leagues: [271], format: 'compact' })).toMatchObject({ type: 'error', code: 'invalid_message' })
    await ws.request({ op: 'subscribe', ref: 'd', leagues: [271], format: 'delta', snapshot: false })
    const delta = await s.apply(1, 271)
    const got = await ws.take('change')
    expect(got).toMatchObject({ cursor: delta.cursor, version: 2 })
    expect(got).not.toHaveProperty('fixture')
    // No running clock to work the minute out from: it is given; a delta carries no `previous` minute.
    expect(got.changes[0]).toEqual({ kind: 'clock', minute: delta.fixture.minute })
    await ws.request({ op: 'subscribe', ref: 'f', leagues: [271], format: 'full', snapshot: false })
    const full = await s.apply(1, 271)
    expect(await ws.take('change')).toEqual({ type: 'change', ...full })
    ws.ws.close()
  })

  it('kinds and format delta are refused together: a change kinds drops would look like a lost frame', async () => {
    const s = await startPush()
    const ws = await WsTestClient.connect(s.wsUrl())
    await ws.take('hello')
    // Both in one subscribe: refused, nothing subscribed.
    expect(await ws.request({ op: 'subscribe', ref: 'both', leagues: [271], kinds: ['score_changed'], format: 'delta' }))
      .toMatchObject({ type: 'error', ref: 'both', code: 'invalid_message', message: expect.stringContaining('kinds') })
    expect(await ws.request({ op: 'unsubscribe', ref: 'state', fixtures: [999] })).toEqual({ type: 'unsubscribed', ref: 'state', leagues: [], fixtures: [], teams: [] })
    // A kinds filter already set, then delta.
    await ws.request({ op: 'subscribe', ref: 'k', leagues: [271], kinds: ['score_changed'], snapshot: false })
    expect(await ws.request({ op: 'subscribe', ref: 'd', fixtures: [1], format: 'delta', snapshot: false })).toMatchObject({ type: 'error', code: 'invalid_message' })
    // Without kinds (an unsubscribe of everything resets them), delta is accepted; then kinds are refused, by
    // subscribe and by unsubscribe, until a subscribe names both kinds and format full.
    await ws.request({ op: 'unsubscribe', ref: 'all' })
    expect(await ws.request({ op: 'subscribe', ref: 'd2', leagues: [271], format: 'delta', snapshot: false })).toMatchObject({ type: 'subscribed', leagues: [271] })
    expect(await ws.request({ op: 'subscribe', ref: 'k2', fixtures: [1], kinds: ['clock'], snapshot: false })).toMatchObject({ type: 'error', code: 'invalid_message' })
    expect(await ws.request({ op: 'unsubscribe', ref: 'k3', kinds: ['clock'] })).toMatchObject({ type: 'error', code: 'invalid_message' })
    expect(await ws.request({ op: 'subscribe', ref: 'f', leagues: [271], kinds: ['clock'], format: 'full', snapshot: false }))
      .toMatchObject({ type: 'subscribed', leagues: [271], kinds: ['clock'] })
    const full = await s.apply(1, 271)
    expect(await ws.take('change')).toMatchObject({ cursor: full.cursor, fixture: full.fixture })
    ws.ws.close()

    for (const path of ['/v1/changes', '/v1/sse']) {
      const refused = await fetch(`${s.base}${path}?api_token=all-key&kinds=clock&format=delta`)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('kinds') })
    }
    expect((await fetch(`${s.base}/v1/changes?api_token=all-key&kinds=clock&format=full`)).status).toBe(200)
  })
})
