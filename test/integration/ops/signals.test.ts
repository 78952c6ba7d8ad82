/**
 * Signals (docs/settings.md, "Signals") on a real `touchline serve` process: SIGHUP reloads the keys and does nothing else,
 * SIGTERM and SIGINT shut down gracefully (sockets closed with 1001, exit 0), a second SIGTERM during the
 * shutdown ends the process at once. Plus the log lines a hostile client can cause.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import WebSocket from 'ws'
import { openTestRedis } from '../../helpers/redis.ts'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { openSse } from '../fanout/harness.ts'
import { spawnGateway, type GatewayProcess } from './gateway-process.ts'
import { waitFor } from '../../helpers/wait.ts'

const KEYS = [
  { key: 'club-key-7f3a', name: 'club', leagues: [271, 501] },
  { key: 'other-key-91c2', name: 'other' }
]

function keysFile (keys: unknown): { path: string, write: (text: string) => void } {
  const path = join(mkdtempSync(join(tmpdir(), 'tl-signals-')), 'keys.json')
  const write = (text: string): void => { writeFileSync(path, text) }
  write(JSON.stringify(keys))
  return { path, write }
}

const wsUrl = (gw: GatewayProcess, key: string): string => `${gw.url.replace('http', 'ws')}/v1/live?api_token=${key}`

async function subscribed (gw: GatewayProcess, key: string, leagues: number[]): Promise<WsTestClient> {
  const ws = await WsTestClient.connect(wsUrl(gw, key))
  await ws.take('hello')
  expect(await ws.request({ op: 'subscribe', ref: 's', leagues, snapshot: false })).toMatchObject({ type: 'subscribed', leagues })
  return ws
}

/** Opens a socket, sends one raw text frame, resolves with the close code. */
async function sendRaw (gw: GatewayProcess, payload: Buffer): Promise<number> {
  const ws = new WebSocket(wsUrl(gw, 'other-key-91c2'), { perMessageDeflate: false })
  ws.on('error', () => {})
  await new Promise((resolve) => ws.once('open', resolve))
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  ws.send(payload, { binary: false })
  return await closed
}

describe('touchline serve and signals', () => {
  it('SIGHUP keeps serving and applies the new keys to open sockets; an invalid file keeps the old keys; SIGTERM closes with 1001 and exits 0', async () => {
    const file = keysFile(KEYS)
    const gw = await spawnGateway({ env: { TOUCHLINE_KEYS_FILE: file.path } })
    const ws = await subscribed(gw, 'club-key-7f3a', [271, 501])
    const sse501 = await openSse(`${gw.url}/v1/sse?api_token=club-key-7f3a&leagues=501`)
    await waitFor('SSE snapshot', () => sse501.events.length > 0, 10_000)

    file.write(JSON.stringify([{ ...KEYS[0], leagues: [271] }, KEYS[1]]))
    gw.child.kill('SIGHUP')
    expect(await ws.take('error', 10_000)).toMatchObject({ code: 'forbidden', leagues: [501] })
    await sse501.ended
    expect(sse501.events.at(-1)).toMatchObject({ event: 'error', data: { code: 'forbidden', leagues: [501] } })
    expect(await gw.waitForLog((l) => l.msg === 'client keys reloaded')).toMatchObject({ level: 30, narrowed: 1, ended: 1, revoked: 0 })
    expect(await ws.request({ op: 'ping', ref: 'p' })).toEqual({ type: 'pong', ref: 'p' })
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=club-key-7f3a&leagues=501`)).status).toBe(403)

    // An invalid file: the previous (narrowed) keys stay in force, the log says why and quotes no key.
    file.write('[{"key": "new-secret-5d1e", "name": "new", "leagues": [271, 501]}, {"key": unquoted-secret-0b9f}]')
    gw.child.kill('SIGHUP')
    const refused = await gw.waitForLog((l) => l.msg.startsWith('client keys not reloaded'))
    expect(refused.level).toBe(50)
    expect(String(refused.reason)).toMatch(/TOUCHLINE_KEYS_FILE: .* is not valid JSON/)
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=club-key-7f3a&leagues=271`)).status).toBe(200)
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=club-key-7f3a&leagues=501`)).status).toBe(403)
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=new-secret-5d1e`)).status).toBe(401)
    expect(await ws.request({ op: 'ping', ref: 'p2' })).toEqual({ type: 'pong', ref: 'p2' })
    for (const secret of ['club-key-7f3a', 'other-key-91c2', 'new-secret-5d1e', 'unquoted-secret-0b9f']) expect(gw.output()).not.toContain(secret)

    gw.child.kill('SIGTERM')
    expect((await ws.closed).code).toBe(1001)
    expect(await gw.exited).toBe(0)
    expect(gw.logs().filter((l) => l.msg === 'shutting down')).toEqual([expect.objectContaining({ signal: 'SIGTERM' })])
  }, 60_000)

  it('a SIGHUP while the gateway starts neither stops it nor is lost: the keys are reloaded once it is up', async () => {
    // The start is held at its Redis connection (a gate in front of the real Redis), so the signal lands
    // inside it every time.
    const redis = openTestRedis()
    const target = new URL(redis.url)
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => { release = resolve })
    let reached: () => void = () => {}
    const reachedRedis = new Promise<void>((resolve) => { reached = resolve })
    const gate = createServer((client) => {
      reached()
      client.on('error', () => {})
      released.then(() => {
        const upstream = connect(Number(target.port || 6379), target.hostname)
        upstream.on('error', () => client.destroy())
        client.on('close', () => upstream.destroy())
        client.pipe(upstream).pipe(client)
      }, () => {})
    })
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve))
    onTestFinished(async () => {
      gate.close()
      await redis.close()
    })
    const address = gate.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const file = keysFile(KEYS)
    let child: ChildProcess | undefined
    const starting = spawnGateway({
      env: { TOUCHLINE_KEYS_FILE: file.path, TOUCHLINE_REDIS_URL: `redis://127.0.0.1:${port}`, TOUCHLINE_REDIS_PREFIX: redis.prefix },
      onSpawn: (c) => { child = c }
    })
    await reachedRedis
    file.write(JSON.stringify([KEYS[1], { key: 'added-key-44aa', name: 'added' }]))
    child?.kill('SIGHUP')
    // Give the signal time to arrive before the start goes on.
    await new Promise((resolve) => setTimeout(resolve, 300))
    release()
    const gw = await starting
    expect(await gw.waitForLog((l) => l.msg === 'client keys reloaded')).toMatchObject({ removed: ['club'] })
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=added-key-44aa`)).status).toBe(200)
    expect((await fetch(`${gw.url}/v1/fixtures/live?api_token=club-key-7f3a`)).status).toBe(401)
    gw.child.kill('SIGTERM')
    expect(await gw.exited).toBe(0)
  }, 60_000)

  it('SIGINT shuts down the same way: sockets closed with 1001, exit code 0', async () => {
    const gw = await spawnGateway()
    const ws = await subscribed(gw, 'demo', [271])
    gw.child.kill('SIGINT')
    expect((await ws.closed).code).toBe(1001)
    expect(await gw.exited).toBe(0)
  }, 60_000)

  it('a second SIGTERM during a slow shutdown ends the process at once', async () => {
    const gw = await spawnGateway()
    const ws = await subscribed(gw, 'demo', [271])
    // A client that stops reading never answers the close handshake: the shutdown waits for it (2 s grace).
    ws.ws.pause()
    gw.child.kill('SIGTERM')
    await gw.waitForLog((l) => l.msg === 'shutting down')
    const second = Date.now()
    gw.child.kill('SIGTERM')
    expect(await gw.exited).toBe(1)
    expect(Date.now() - second).toBeLessThan(1500)
    ws.close()
  }, 60_000)

  it('1 MB frames and invalid UTF-8 from clients make at most a few warn lines, without stack, and no error line', async () => {
    const file = keysFile(KEYS)
    const gw = await spawnGateway({ env: { TOUCHLINE_KEYS_FILE: file.path } })
    const before = gw.logs().length
    const oneMb = Buffer.alloc(1024 * 1024, 'a')
    const invalidUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])
    const codes: number[] = []
    for (let i = 0; i < 10; i++) codes.push(await sendRaw(gw, oneMb), await sendRaw(gw, invalidUtf8))
    // ws closes with 1009 (message too big) and 1007 (invalid payload data).
    expect(new Set(codes)).toEqual(new Set([1009, 1007]))
    await new Promise((resolve) => setTimeout(resolve, 500))
    const lines = gw.logs().slice(before)
    const warns = lines.filter((l) => l.level === 40)
    expect(warns.length).toBeGreaterThan(0)
    expect(warns.length).toBeLessThanOrEqual(5)
    expect(warns.every((l) => l.msg === 'client protocol violation; connection closed' && l.err === undefined)).toBe(true)
    expect(lines.filter((l) => l.level >= 50)).toEqual([])
    expect(gw.output().slice(gw.output().indexOf('touchline gateway'))).not.toMatch(/\n\s+at /)
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200)
    gw.child.kill('SIGTERM')
    expect(await gw.exited).toBe(0)
  }, 60_000)
})
