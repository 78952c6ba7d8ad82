/**
 * The snapshot of a busy day (docs/protocol.md, "Days"), on the memory store and on Redis: a subscriber of a
 * day of a few hundred fixtures, with their line-ups and statistics, gets them all in its first frame,
 * over WebSocket and over Server-Sent Events, and stays connected. That snapshot is bigger than the bytes
 * the gateway lets one client have queued (1 MiB, docs/protocol.md "Limits"), so a snapshot counted against
 * that limit drops the subscriber as a slow consumer the moment it subscribes (WebSocket close 4008, the
 * SSE stream cut) whenever the kernel does not take the whole write at once.
 *
 * The gateway reads the days once (the stepped poller's second step) and the clock then stands still, so
 * the day does not change while the subscribers read it.
 */
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { waitFor } from '../../helpers/wait.ts'
import { openSse } from '../fanout/harness.ts'
import { dayOf, ENGINES, startSteppedGateway, type SteppedRig } from './harness.ts'

const DAY_MS = 86_400_000
/** What one client may have queued before it is dropped (src/fanout/limits.ts maxBufferedBytes). */
const CLIENT_BUFFER = 1024 * 1024

describe.each(ENGINES)('the snapshot of a busy day on the %s store', (engine) => {
  let rig: SteppedRig
  let date: string
  let ids: number[]

  beforeAll(async () => {
    rig = await startSteppedGateway(engine)
    await rig.step() // the reconcile at start
    await rig.step() // a `latest` poll, then the read of the days around today
    // The day with the most fixtures and bytes of today and tomorrow (at 60x the rolling schedule fills one of them).
    const days = await Promise.all([0, 1].map(async (i) => {
      const d = dayOf(rig.clock.now + i * DAY_MS)
      const res = await request(`${rig.gw.url}/v1/fixtures?date=${d}&api_token=demo`, { headers: { 'accept-encoding': 'identity' } })
      const text = await res.body.text()
      return { d, bytes: Buffer.byteLength(text), ids: (JSON.parse(text) as { data: LiveFixture[] }).data.map((f) => f.id).sort((a, b) => a - b) }
    }))
    const biggest = days.sort((a, b) => b.bytes - a.bytes)[0]!
    // What this file is about: a day whose fixtures alone are more than one client's buffer.
    expect(biggest.bytes).toBeGreaterThan(CLIENT_BUFFER)
    expect(biggest.ids.length).toBeGreaterThanOrEqual(100)
    date = biggest.d
    ids = biggest.ids
  }, 120_000)
  afterAll(async () => { await rig?.close() })

  it('reaches a WebSocket subscriber whole, and the connection stays up', async () => {
    const ws = await WsTestClient.connect(rig.wsUrl)
    try {
      ws.send({ op: 'subscribe', ref: 'day', dates: [date], tz: 'UTC' })
      const snapshot = await ws.take('snapshot', 20_000)
      expect((snapshot.fixtures as LiveFixture[]).map((f) => f.id).sort((a, b) => a - b)).toEqual(ids)
      // Still connected: a ping after the snapshot is answered.
      expect(await ws.request({ op: 'ping', ref: 'after' })).toMatchObject({ type: 'pong', ref: 'after' })
    } finally {
      ws.close()
    }
  })

  it('reaches a Server-Sent Events subscriber whole, and the stream stays open', async () => {
    const sse = await openSse(`${rig.gw.url}/v1/sse?api_token=demo&dates=${date}&tz=UTC`)
    try {
      expect(sse.status).toBe(200)
      const snapshot = await waitFor('the snapshot event', () => sse.events.find((e) => e.event === 'snapshot'), 20_000)
      expect((snapshot.data.fixtures as LiveFixture[]).map((f) => f.id).sort((a, b) => a - b)).toEqual(ids)
      // Still open: the heartbeat comment comes on the same stream (every 15 s).
      await waitFor('a heartbeat on the open stream', () => sse.comments.includes('ping'), 20_000)
    } finally {
      sse.close()
    }
  })
})
