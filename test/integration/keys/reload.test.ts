/**
 * Reloading the keys file in place (gateway.reloadKeys, what SIGHUP runs): a real gateway on a real port,
 * real WebSocket and SSE clients, the store driven by hand so every change's league is known. The
 * signal itself, on a real process, is tested in test/integration/ops/signals.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { applier, openSse, type PushServer } from '../fanout/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const dir = mkdtempSync(join(tmpdir(), 'tl-reload-'))
const keysFile = join(dir, 'keys.json')
const write = (keys: unknown): void => { writeFileSync(keysFile, JSON.stringify(keys)) }

// Fixtures by league: 9001 and 9002 in league 501, 9003 and 9004 in league 271, 9005 in league 8.
const IN_501 = [9001, 9002]

describe('reloading the keys file', () => {
  let gateway: Gateway
  let apply: PushServer['apply']
  const base = [
    { key: 'kept-key', name: 'kept' },
    { key: 'revoked-key', name: 'revoked' },
    { key: 'club-key', name: 'club', leagues: [271, 501] },
    { key: 'wide-key', name: 'wide', leagues: [271] },
    { key: 'capped-key', name: 'capped', max_connections: 3 },
    { key: 'web-key', name: 'web', allowed_origins: ['https://a.example', 'https://b.example'] },
    { key: 'paid-key', name: 'paid', features: ['odds'] }
  ]
  beforeAll(async () => {
    write(base)
    gateway = await startTestGateway({ env: { TOUCHLINE_KEYS_FILE: keysFile }, overrides: { poll: false } })
    apply = applier(gateway.store)
    for (const id of IN_501) await apply(id, 501)
    await apply(9003, 271)
    await apply(9004, 271)
    await apply(9005, 8)
  })
  afterAll(async () => { await gateway.close() })

  const wsUrl = (key: string): string => `${gateway.url.replace('http', 'ws')}/v1/live?api_token=${key}`
  const open = async (key: string, origin?: string): Promise<WsTestClient> => {
    const client = await WsTestClient.connect(wsUrl(key), origin === undefined ? {} : { origin })
    await client.take('hello')
    return client
  }
  const subscribe = async (client: WsTestClient, leagues: number[], fixtures: number[] = []): Promise<void> => {
    expect(await client.request({ op: 'subscribe', ref: 's', leagues, fixtures, snapshot: false })).toMatchObject({ type: 'subscribed' })
  }
  /** Changes every fixture once, the 271 ones last: once 9004's change arrives, the others' would have. */
  const changeAll = async (): Promise<void> => {
    for (const id of [...IN_501, 9005, 9003, 9004]) await apply(id, id >= 9003 ? (id === 9005 ? 8 : 271) : 501)
  }
  const changedFixtures = (client: WsTestClient, from: number): number[] => client.changes().slice(from).map((f) => f.fixture_id as number)

  it('closes the connections of a removed key with 4001, refuses it afterwards, and keeps the others', async () => {
    const revoked = await open('revoked-key')
    const kept = await open('kept-key')
    write([...base.filter((k) => k.name !== 'revoked'), { key: 'added-key', name: 'added' }])
    expect(await gateway.reloadKeys()).toMatchObject({ removed: ['revoked'], revoked: 1 })
    expect((await revoked.closed).code).toBe(4001)
    expect(await kept.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=revoked-key`)).status).toBe(401)
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=added-key`)).status).toBe(200)
    kept.close()
    write(base)
    await gateway.reloadKeys()
  })

  it('keeps the previous keys when the new file is invalid, and names no key in the error', async () => {
    writeFileSync(keysFile, '[{"key": "x y", "name": 1}]')
    await expect(gateway.reloadKeys()).rejects.toThrow(/TOUCHLINE_KEYS_FILE/)
    writeFileSync(keysFile, '[{"key": not-quoted-secret-value}]')
    const err = await gateway.reloadKeys().then(() => undefined, (e: Error) => e)
    expect(err?.message).toMatch(/not valid JSON/)
    expect(err?.message).not.toContain('secret')
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=kept-key`)).status).toBe(200)
    write(base)
  })

  it('a narrowed `leagues` drops the removed leagues and their fixtures with one `forbidden` frame, and ends SSE streams outside it', async () => {
    const ws = await open('club-key')
    // 9006 is not known to the gateway yet: accepted (a known fixture of league 8 would be refused).
    await subscribe(ws, [271, 501], [9002, 9003, 9006])
    const sse501 = await openSse(`${gateway.url}/v1/sse?api_token=club-key&leagues=501`)
    const sse271 = await openSse(`${gateway.url}/v1/sse?api_token=club-key&leagues=271`)
    await waitFor('SSE snapshots', () => sse501.events.length > 0 && sse271.events.length > 0, 5000)
    const openBefore = gateway.hub.stats().connections
    // Before: the removed league reaches the socket.
    let from = ws.changes().length
    await changeAll()
    await waitFor('changes before the reload', () => changedFixtures(ws, from).includes(9004), 5000)
    expect(changedFixtures(ws, from)).toEqual(expect.arrayContaining([9001, 9002]))

    write(base.map((k) => k.name === 'club' ? { ...k, leagues: [271] } : k))
    expect(await gateway.reloadKeys()).toMatchObject({ removed: [], narrowed: 1, ended: 1 })
    // 9006 was accepted unknown, so the reload has no league to drop it for; 9002 is in 501.
    expect(await ws.take('error')).toMatchObject({ code: 'forbidden', leagues: [501], fixtures: [9002] })
    await sse501.ended
    expect(sse501.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'forbidden', leagues: [501] } })

    from = ws.changes().length
    const sseFrom = sse271.events.length
    await changeAll()
    await waitFor('changes after the reload', () => changedFixtures(ws, from).includes(9004), 5000)
    expect(changedFixtures(ws, from)).toEqual([9003, 9004])
    await waitFor('SSE change of league 271', () => sse271.events.slice(sseFrom).some((e) => e.data.fixture_id === 9004), 5000)
    expect(sse271.events.slice(sseFrom).map((e) => e.data.league_id)).toEqual([271, 271])
    expect(await ws.request({ op: 'unsubscribe', ref: 'u', leagues: [] })).toMatchObject({ leagues: [271], fixtures: [9003, 9006] })
    expect(await ws.request({ op: 'subscribe', ref: 'again', leagues: [501], snapshot: false })).toMatchObject({ type: 'error', code: 'forbidden', leagues: [501] })
    expect(gateway.hub.stats().connections).toBe(openBefore - 1)
    ws.close()
    sse271.close()
    write(base)
    await gateway.reloadKeys()
  })

  it('a widened key, or one changed to "*", keeps every subscription and gets no error', async () => {
    const ws = await open('wide-key')
    await subscribe(ws, [271])
    const sse = await openSse(`${gateway.url}/v1/sse?api_token=wide-key`)
    await waitFor('SSE snapshot', () => sse.events.length > 0, 5000)
    const openBefore = gateway.hub.stats().connections
    write(base.map((k) => k.name === 'wide' ? { ...k, leagues: '*' } : k))
    expect(await gateway.reloadKeys()).toMatchObject({ narrowed: 0, ended: 0, revoked: 0 })
    const from = ws.changes().length
    await changeAll()
    await waitFor('changes after widening', () => changedFixtures(ws, from).includes(9004), 5000)
    expect(ws.frames.some((f) => f.type === 'error')).toBe(false)
    // The socket may now subscribe to any league; the stream is still open.
    expect(await ws.request({ op: 'subscribe', ref: 'w', leagues: [501], snapshot: false })).toMatchObject({ type: 'subscribed', leagues: [271, 501] })
    expect(sse.events.some((e) => e.event === 'error')).toBe(false)
    expect(gateway.hub.stats().connections).toBe(openBefore)
    ws.close()
    sse.close()
    write(base)
    await gateway.reloadKeys()
  })

  it('a lowered `max_connections` closes the newest extra connections with 4029', async () => {
    const first = await open('capped-key')
    const second = await open('capped-key')
    const third = await open('capped-key')
    write(base.map((k) => k.name === 'capped' ? { ...k, max_connections: 1 } : k))
    expect(await gateway.reloadKeys()).toMatchObject({ overLimit: 2 })
    expect((await second.closed).code).toBe(4029)
    expect((await third.closed).code).toBe(4029)
    expect(await first.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    // And the new limit holds for new connections.
    const fourth = await WsTestClient.connect(wsUrl('capped-key'))
    expect((await fourth.closed).code).toBe(4029)
    first.close()
    write(base)
    await gateway.reloadKeys()
  })

  it('a narrowed `allowed_origins` closes the connections from an origin no longer allowed with 4001', async () => {
    const a = await open('web-key', 'https://a.example')
    const b = await open('web-key', 'https://b.example')
    const sseB = await openSse(`${gateway.url}/v1/sse?api_token=web-key`, { origin: 'https://b.example' })
    const server = await open('web-key')
    write(base.map((k) => k.name === 'web' ? { ...k, allowed_origins: ['https://a.example'] } : k))
    expect(await gateway.reloadKeys()).toMatchObject({ revoked: 2 })
    expect(await b.closed).toEqual({ code: 4001, reason: 'origin no longer allowed for this key' })
    await sseB.ended
    // Same origin still allowed; a client that sent no Origin (not a browser) is not an origin check.
    expect(await a.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    expect(await server.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    a.close()
    server.close()
    write(base)
    await gateway.reloadKeys()
  })

  it('narrowed features and a renamed key apply at once', async () => {
    const odds = `${gateway.url}/v3/football/odds/pre-match/fixtures/9003?api_token=paid-key`
    expect((await fetch(odds)).status).not.toBe(403)
    const ws = await open('paid-key')
    write(base.map((k) => k.name === 'paid' ? { ...k, name: 'paid-renamed', features: [], max_connections: 1 } : k))
    expect(await gateway.reloadKeys()).toMatchObject({ removed: [], revoked: 0, overLimit: 0 })
    expect((await fetch(odds)).status).toBe(403)
    // The open socket counts against the renamed key: it stays, and a second one is over the new limit.
    expect(await ws.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    const second = await WsTestClient.connect(wsUrl('paid-key'))
    expect((await second.closed).code).toBe(4029)
    ws.close()
    write(base)
    await gateway.reloadKeys()
  })
})
