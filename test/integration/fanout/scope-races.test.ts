/**
 * The live protocol where a client's operations race the hub: a keys reload that narrows the key while a
 * subscribe waits on the store (the team or fixture check, the snapshot read) leaves nothing of the removed league to
 * the client, and a connection the hub has let go of (revoked, slow consumer) cannot link itself back into
 * the routing index with the frames ws still reads while it says goodbye. Real sockets, real gateway.
 */
import type { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { ClientKey } from '../../../src/client-keys.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore, StoreFilter } from '../../../src/store/types.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { clientKey, startPush } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms))

/** A memory store whose next `liveFixtures` or `getFixtures` read (once armed) waits until released. */
function gatedStore (): { store: LiveStore, arm: () => void, entered: () => boolean, release: () => void } {
  const base = createStore({ kind: 'memory' })
  let armed = false
  let inside = false
  let open: () => void = () => {}
  const gate = new Promise<void>((resolve) => { open = resolve })
  const store: LiveStore = {
    ...base,
    liveFixtures: async (filter?: StoreFilter): Promise<LiveFixture[]> => {
      if (armed) {
        armed = false
        inside = true
        await gate
      }
      return await base.liveFixtures(filter)
    },
    getFixtures: async (ids: readonly number[]): Promise<LiveFixture[]> => {
      if (armed) {
        armed = false
        inside = true
        await gate
      }
      return await base.getFixtures(ids)
    }
  }
  return { store, arm: () => { armed = true }, entered: () => inside, release: () => open() }
}

const MULTI: ClientKey = clientKey('multi', { leagues: [271, 501] })
const narrowMulti = (old: ClientKey): ClientKey => old.name === 'multi' ? { ...old, leagues: [271] } : old

describe('a keys reload racing a subscribe', () => {
  it('never delivers live changes of a league the reload removed while the subscribe awaited the team check', async () => {
    const g = gatedStore()
    const s = await startPush({ store: g.store, keys: [MULTI] })
    // Team 7 plays in league 271 today, so the scoped key may follow it (the check reads live fixtures).
    await s.apply(1, 271, { home: { id: 7, name: 'T7', short_code: null, image_path: null, score: 0 } })
    const c = await WsTestClient.connect(s.wsUrl('multi-key'))
    await c.take('hello')
    g.arm()
    c.send({ op: 'subscribe', ref: 's', leagues: [501], teams: [7], snapshot: false })
    await waitFor('the team scope check to read the store', g.entered, 5000)
    // The operator narrows the key to 271 while admitTeams awaits the store.
    await s.hub.applyKeys(narrowMulti)
    g.release()
    // Admitted again after the wait, against the narrowed key: refused as any subscribe to 501 now is.
    expect(await c.take((f) => f.ref === 's' && (f.type === 'subscribed' || f.type === 'error'))).toMatchObject({ type: 'error', code: 'forbidden', leagues: [501] })
    // A change in league 501, which this key no longer covers.
    const leaked = await s.apply(2, 501)
    await s.apply(3, 271)
    await c.request({ op: 'ping', ref: 'p' })
    await sleep(100)
    expect(c.changes().filter((f) => f.league_id === 501).map((f) => f.cursor)).not.toContain(leaked.cursor)
    c.close()
  })

  it('refuses a fixture of a league the reload removed while the subscribe awaited the fixture check, and never delivers its changes', async () => {
    const g = gatedStore()
    const s = await startPush({ store: g.store, keys: [MULTI] })
    // Fixture 2 is of league 501, which the key covers when the subscribe arrives.
    await s.apply(2, 501)
    const c = await WsTestClient.connect(s.wsUrl('multi-key'))
    await c.take('hello')
    g.arm()
    c.send({ op: 'subscribe', ref: 's', fixtures: [2], snapshot: false })
    await waitFor('the fixture scope check to read the store', g.entered, 5000)
    // The operator narrows the key to 271 while the subscribe awaits the fixture's league.
    await s.hub.applyKeys(narrowMulti)
    g.release()
    // Checked against the key as it is after the read: refused, nothing linked.
    expect(await c.take((f) => f.ref === 's' && (f.type === 'subscribed' || f.type === 'error'))).toMatchObject({ type: 'error', code: 'forbidden', fixtures: [2] })
    expect(s.hub.stats().subscriptions).toBe(0)
    const leaked = await s.apply(2, 501)
    await c.request({ op: 'ping', ref: 'p' })
    await sleep(100)
    expect(c.changes().map((f) => f.cursor)).not.toContain(leaked.cursor)
    c.close()
  })

  it('sends no replayed change of a league the reload removed while the snapshot was read', async () => {
    const g = gatedStore()
    const s = await startPush({ store: g.store, keys: [MULTI] })
    const start = await s.apply(1, 271)
    await s.apply(2, 501)
    await s.apply(1, 271)
    const c = await WsTestClient.connect(s.wsUrl('multi-key'))
    await c.take('hello')
    g.arm()
    // since + snapshot: the replay is read first, then the snapshot (which the gate holds).
    c.send({ op: 'subscribe', ref: 's', leagues: [271, 501], since: start.cursor, snapshot: true })
    await waitFor('the snapshot read', g.entered, 5000)
    await s.hub.applyKeys(narrowMulti)
    g.release()
    const replay = await c.take('replay')
    expect(replay.recovered).toBe(true)
    await c.request({ op: 'ping', ref: 'p' })
    // The reload told the client 501 is gone ...
    expect(c.frames.find((f) => f.type === 'error')).toMatchObject({ code: 'forbidden', leagues: [501] })
    // ... and the replay, read before the reload, carries none of its changes.
    expect(c.changes().filter((f) => f.league_id === 501)).toEqual([])
    c.close()
  })
})

describe('frames after the hub let go of a connection', () => {
  it('does not re-link a revoked connection that keeps sending subscribes (index leak)', async () => {
    const s = await startPush()
    const c = await WsTestClient.connect(s.wsUrl())
    await c.take('hello')
    // The client stops reading: it never sees the close frame, so the socket stays open while it is CLOSING.
    ;((c.ws as unknown as { _socket: Socket })._socket).pause()
    expect(s.hub.revokeKey('all')).toBe(1)
    expect(s.hub.stats()).toMatchObject({ connections: 0, subscriptions: 0 })
    c.send({ op: 'subscribe', ref: 'x', leagues: [271, 501], fixtures: [9], snapshot: false })
    await sleep(200)
    // The hub forgot the connection; the subscribe it still sent links nothing.
    expect(s.hub.stats()).toMatchObject({ connections: 0, subscriptions: 0 })
    c.close()
  })

  it('forgets the subscriptions of a slow consumer that keeps subscribing after its 4008', async () => {
    const s = await startPush()
    const c = await WsTestClient.connect(s.wsUrl())
    await c.take('hello')
    await c.request({ op: 'subscribe', ref: 'a', leagues: [271], snapshot: false })
    ;((c.ws as unknown as { _socket: Socket })._socket).pause()
    const big = { name: 'x'.repeat(64 * 1024) }
    for (let i = 0; i < 600 && s.hub.stats().connections > 0; i++) {
      await s.apply(1 + (i % 4), 271, big)
      if (i % 8 === 0) await sleep(1)
    }
    expect(s.hub.stats().connections).toBe(0)
    c.send({ op: 'subscribe', ref: 'b', fixtures: [1, 2, 3], snapshot: false })
    await sleep(200)
    c.close()
    await sleep(100)
    expect(s.hub.stats()).toMatchObject({ connections: 0, subscriptions: 0 })
  })
})
