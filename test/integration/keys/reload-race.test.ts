/**
 * A keys reload on a bad night. One landing while a subscribe reads its snapshot (the read is held open
 * by a gate, so it lands inside it every time): the snapshot, read for the old scope, must not carry the
 * leagues the reload removed, nor may the changes held meanwhile. One landing while the store is down:
 * the new keys still apply.
 */
import { describe, expect, it } from 'vitest'
import { createKeyRing } from '../../../src/client-keys.ts'
import { createStore } from '../../../src/store/index.ts'
import type { LiveStore } from '../../../src/store/types.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { applier, clientKey, startPush } from '../fanout/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

describe('a keys reload during a subscribe', () => {
  it('sends the snapshot within the new scope', async () => {
    const memory = createStore({ kind: 'memory' })
    let release: (() => void) | undefined
    let reads = 0
    const store: LiveStore = {
      ...memory,
      liveFixtures: async (filter) => {
        reads++
        if (release === undefined) await new Promise<void>((resolve) => { release = resolve })
        return await memory.liveFixtures(filter)
      }
    }
    const apply = applier(memory)
    await apply(1, 271)
    await apply(2, 501)
    const club = clientKey('club', { leagues: [271, 501] })
    const s = await startPush({ store, keys: [club] })
    const ws = await WsTestClient.connect(s.wsUrl('club-key'))
    await ws.take('hello')
    ws.send({ op: 'subscribe', ref: 's', leagues: [271, 501] })
    await ws.take('subscribed')
    await waitFor('the snapshot read to start', () => release !== undefined, 5000)
    // Changes routed meanwhile are held for after the snapshot, one of them in the league about to go.
    const held = await apply(2, 501)
    await waitFor('the change to be routed', () => s.hub.head() === held.cursor, 5000)

    const ring = createKeyRing([{ ...club, leagues: [271] }])
    expect(await s.hub.applyKeys((old) => ring.find(old.key))).toMatchObject({ narrowed: 1 })
    expect(await ws.take('error')).toMatchObject({ code: 'forbidden', leagues: [501] })
    release?.()
    const snapshot = await ws.take('snapshot')
    expect(snapshot.fixtures.map((f: { league_id: number }) => f.league_id)).toEqual([271])
    expect(reads).toBe(2)
    await apply(1, 271)
    await ws.take((f) => f.type === 'change' && f.fixture_id === 1)
    expect(ws.changes().map((f) => f.league_id)).toEqual([271])
    ws.close()
  })
  it('still applies the new keys when the store cannot be read for the fixtures\' leagues', async () => {
    const memory = createStore({ kind: 'memory' })
    const store: LiveStore = { ...memory, getFixtures: async () => { throw new Error('store down') } }
    const apply = applier(memory)
    await apply(1, 271)
    await apply(2, 501)
    const club = clientKey('club', { leagues: [271, 501] })
    const s = await startPush({ store, keys: [club] })
    const ws = await WsTestClient.connect(s.wsUrl('club-key'))
    await ws.take('hello')
    expect(await ws.request({ op: 'subscribe', ref: 's', leagues: [271, 501], fixtures: [2], snapshot: false })).toMatchObject({ type: 'subscribed' })
    const ring = createKeyRing([{ ...club, leagues: [271] }])
    expect(await s.hub.applyKeys((old) => ring.find(old.key))).toMatchObject({ narrowed: 1 })
    expect(await ws.take('error')).toMatchObject({ code: 'forbidden', leagues: [501], fixtures: [] })
    // The fixture subscription stays, but the key no longer sees its league.
    await apply(2, 501)
    await apply(1, 271)
    await ws.take((f) => f.type === 'change' && f.fixture_id === 1)
    expect(ws.changes().map((f) => f.fixture_id)).toEqual([1])
    ws.close()
  })
})
