/**
 * Snapshots compressed on the wire (docs/protocol.md, "Connecting"; src/fanout/deflate.ts): a client that
 * offers permessage-deflate gets a day's snapshot compressed, equal once read to what a client without the
 * extension gets, in a fraction of the bytes; change frames go uncompressed to both; a client that
 * compresses its own operations (as browsers do) is understood, many times over on one connection.
 *
 * Real parts: a gateway over the embedded provider with the week's days seeded into its store, `ws` clients
 * through a TCP proxy that counts the bytes the gateway sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { startUiGateway, type UiGateway } from '../browser/harness.ts'
import { seedDays } from '../browser/seed-days.ts'

type Frame = Record<string, unknown> & { type: string }

/** A client through its own proxy, so the bytes it received can be told apart. */
async function client (gw: UiGateway, deflate: WebSocket.ClientOptions['perMessageDeflate']): Promise<{ ws: WebSocket, proxy: TcpProxy, frames: Frame[], next: (type: string, ref?: string) => Promise<Frame> }> {
  const proxy = await startTcpProxy(Number(new URL(gw.url).port))
  const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/live?api_token=demo`, { perMessageDeflate: deflate })
  const frames: Frame[] = []
  const waiting: Array<{ type: string, ref?: string, resolve: (f: Frame) => void }> = []
  ws.on('message', (data) => {
    const f = JSON.parse(String(data)) as Frame
    frames.push(f)
    for (const w of [...waiting]) if (w.type === f.type && (w.ref === undefined || w.ref === f.ref)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(f) }
  })
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
  const next = async (type: string, ref?: string): Promise<Frame> => {
    const seen = frames.find((f) => f.type === type && (ref === undefined || f.ref === ref))
    return seen ?? await new Promise((resolve) => waiting.push({ type, ref, resolve }))
  }
  return { ws, proxy, frames, next }
}

describe('snapshots compressed for clients that offer permessage-deflate', () => {
  let gw: UiGateway
  const today = new Date().toISOString().slice(0, 10)

  beforeAll(async () => {
    gw = await startUiGateway()
    await seedDays(gw.gw)
  }, 60_000)
  afterAll(async () => { await gw?.close() })

  it('sends a day\'s snapshot compressed, equal once read to the plain one, in under a fifth of the bytes', async () => {
    const plain = await client(gw, false)
    // Compressing every message it sends, as a browser does.
    const packed = await client(gw, { threshold: 0 })
    try {
      for (const c of [plain, packed]) await c.next('hello')
      const before = [plain.proxy.bytesDown(), packed.proxy.bytesDown()]
      for (const c of [plain, packed]) c.ws.send(JSON.stringify({ op: 'subscribe', ref: 'day', dates: [today], tz: 'UTC' }))
      const [a, b] = await Promise.all([plain.next('snapshot', 'day'), packed.next('snapshot', 'day')])
      expect((a?.fixtures as unknown[]).length).toBeGreaterThan(100)
      expect(b).toEqual(a)
      const sent = [plain.proxy.bytesDown() - (before[0] as number), packed.proxy.bytesDown() - (before[1] as number)] as const
      process.stdout.write(`a day of ${(a?.fixtures as unknown[]).length} fixtures: ${sent[0]} bytes plain, ${sent[1]} compressed\n`)
      expect(sent[1]).toBeLessThan(sent[0] / 5)
      // Its operations, compressed, are read every time (the inflater let go after each is made anew).
      for (let i = 0; i < 5; i++) {
        packed.ws.send(JSON.stringify({ op: 'ping', ref: `p${i}` }))
        expect((await packed.next('pong', `p${i}`)).ref).toBe(`p${i}`)
      }
    } finally {
      for (const c of [plain, packed]) { c.ws.close(); await c.proxy.close() }
    }
  })

  it('sends change frames as they are to a client that offered it, the same as to one that did not', async () => {
    const plain = await client(gw, false)
    const packed = await client(gw, { threshold: 0 })
    try {
      for (const c of [plain, packed]) {
        await c.next('hello')
        c.ws.send(JSON.stringify({ op: 'subscribe', ref: 's', leagues: '*', snapshot: false }))
        await c.next('subscribed', 's')
      }
      const before = [plain.proxy.bytesDown(), packed.proxy.bytesDown()]
      const match = await gw.matches.start(9_990_001, 8, 'Compressed Home', 'Compressed Away', 10)
      const goal = await match.goal('home', 'Somebody', 11)
      const frames = await Promise.all([plain, packed].map(async (c) => {
        await c.next('change')
        await expect.poll(() => c.frames.some((f) => f.cursor === goal.cursor)).toBe(true)
        return c.frames.filter((f) => f.type === 'change')
      }))
      expect(frames[1]).toEqual(frames[0])
      // The same bytes on the wire for the same frames (a heartbeat's ping apart): nothing was compressed.
      const sent = [plain.proxy.bytesDown() - (before[0] as number), packed.proxy.bytesDown() - (before[1] as number)]
      expect(Math.abs((sent[1] as number) - (sent[0] as number))).toBeLessThanOrEqual(16)
    } finally {
      for (const c of [plain, packed]) { c.ws.close(); await c.proxy.close() }
    }
  })
})
