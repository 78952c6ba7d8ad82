import { describe, expect, it } from 'vitest'
import { applyDelta } from '../../../src/live/delta.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse, startPush, type SseStream } from './harness.ts'

async function waitEvents (stream: SseStream, n: number): Promise<void> {
  for (let i = 0; i < 250 && stream.events.length < n; i++) await new Promise((resolve) => setTimeout(resolve, 20))
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
    expect(got.changes[0]).toEqual({ kind: 'clock', minute: delta.fixture.minute, previous: (delta.fixture.minute ?? 0) - 1 })
    await ws.request({ op: 'subscribe', ref: 'f', leagues: [271], format: 'full', snapshot: false })
    const full = await s.apply(1, 271)
    expect(await ws.take('change')).toEqual({ type: 'change', ...full })
    ws.ws.close()
  })
})
