/**
 * Signed connection tokens on the transports (docs/tokens.md): a gateway whose key takes HS256 tokens,
 * connected to with a token instead of the key: the WebSocket (`Authorization: Bearer`), SSE (`access_token`
 * in the query, as EventSource needs) and `/v1/changes` (Bearer). The token's leagues narrow what the
 * connection may follow; a refused token says why (expired, wider than its key, a bad signature); a fan over
 * its `max_connections_per_fan` is refused; a connection whose token expires is closed with 4401; no token
 * is ever in a log line.
 */
import { writeFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { writeKeys } from '../webhooks/harness.ts'
import { mintToken } from '../../helpers/tokens.ts'

const SECRET = 'the-sites-backend-secret-of-32-characters!'

async function token (claims: Record<string, unknown> = {}, opts: { sub?: string, ttlS?: number, secret?: string } = {}): Promise<string> {
  return await mintToken({ iss: 'site', sub: opts.sub ?? 'fan-1', claims, ...opts, secret: opts.secret ?? SECRET })
}

const KEYS = [{ key: 'site-key-never-in-the-page', name: 'site', leagues: [8, 271, 501], tokens: { secrets: [SECRET], max_connections_per_fan: 2, expiry_grace_s: 0 } }]

describe('signed connection tokens on every transport', () => {
  let gw: Gateway
  let keysFile: string
  const logged: string[] = []
  const issued: string[] = []

  beforeAll(async () => {
    keysFile = writeKeys(KEYS)
    const log = pino({ level: 'debug' }, new Writable({ write (chunk, _enc, done) { logged.push(String(chunk)); done() } }))
    gw = await startTestGateway({ env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3', TOUCHLINE_KEYS_FILE: keysFile }, log, overrides: { poll: false } })
  }, 30_000)
  afterAll(async () => {
    await gw?.close()
    // No token ever reached a log line, whole or in part (its signature).
    expect(logged.length).toBeGreaterThan(0)
    for (const t of issued) for (const line of logged) expect(line).not.toContain(t.split('.')[2])
  })

  const mint = async (...args: Parameters<typeof token>): Promise<string> => {
    const t = await token(...args)
    issued.push(t)
    return t
  }

  /** A WebSocket with a token in its Authorization header; resolves once hello came, or to the refusal's status. */
  async function open (t: string): Promise<{ ws: WebSocket, frames: Array<Record<string, unknown>> } | number> {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/live`, { headers: { authorization: `Bearer ${t}` } })
    const frames: Array<Record<string, unknown>> = []
    ws.on('error', () => {})
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Record<string, unknown>))
    return await new Promise((resolve) => {
      ws.once('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate() })
      // Its first frame is hello (the frame listener above has taken it by then).
      ws.once('message', () => resolve({ ws, frames }))
    })
  }

  const reply = async (c: { ws: WebSocket, frames: Array<Record<string, unknown>> }, frame: Record<string, unknown>): Promise<Record<string, unknown>> => {
    c.ws.send(JSON.stringify(frame))
    await expect.poll(() => c.frames.some((f) => f.ref === frame.ref)).toBe(true)
    return c.frames.find((f) => f.ref === frame.ref) as Record<string, unknown>
  }

  it('connects a WebSocket with a token, whose leagues narrow what it may follow', async () => {
    const c = await open(await mint({ leagues: [271] }))
    if (typeof c === 'number') throw new Error(`refused with ${c}`)
    try {
      expect(c.frames[0]).toMatchObject({ type: 'hello' })
      expect(await reply(c, { op: 'subscribe', ref: 'ok', leagues: [271] })).toMatchObject({ type: 'subscribed', leagues: [271] })
      // League 8 is the key's, not the token's.
      expect(await reply(c, { op: 'subscribe', ref: 'no', leagues: [8] })).toMatchObject({ type: 'error', code: 'forbidden' })
    } finally {
      c.ws.close()
    }
  })

  it('serves SSE with access_token in the query and /v1/changes with a Bearer token', async () => {
    const t = await mint()
    const controller = new AbortController()
    const sse = await fetch(`${gw.url}/v1/sse?access_token=${t}&leagues=271`, { signal: controller.signal })
    expect(sse.status).toBe(200)
    expect(sse.headers.get('content-type')).toContain('text/event-stream')
    controller.abort()
    const changes = await fetch(`${gw.url}/v1/changes?leagues=271`, { headers: { authorization: `Bearer ${t}` } })
    expect(changes.status).toBe(200)
    expect(await changes.json()).toMatchObject({ cursor: expect.any(String) })
  })

  it('refuses an expired token, one wider than its key and a bad signature, saying which', async () => {
    const cases = [
      [await mint({}, { ttlS: -60 }), 'expired'],
      [await mint({ leagues: [2] }), 'wider_than_key'],
      [await mint({}, { secret: 'somebody-elses-secret-of-32-characters' }), 'invalid']
    ] as const
    for (const [t, reason] of cases) {
      const res = await fetch(`${gw.url}/v1/changes`, { headers: { authorization: `Bearer ${t}` } })
      expect(res.status).toBe(401)
      expect((await res.json() as { message: string }).message).toContain(`token refused: ${reason}`)
      expect(await open(t)).toBe(401)
    }
  })

  it('keeps a fan\'s token off the key holder\'s routes: the webhooks answer 401', async () => {
    const t = await mint()
    for (const [method, path] of [['GET', '/v1/webhooks'], ['POST', '/v1/webhooks/any/resume']]) {
      const res = await fetch(`${gw.url}${path as string}`, { method, headers: { authorization: `Bearer ${t}` } })
      expect(res.status, path).toBe(401)
      expect((await res.json() as { message: string }).message).toContain('takes the client key')
    }
  })

  it('keeps a token connection narrowed across a keys reload that widens its key, and ends it when the key stops taking tokens', async () => {
    const c = await open(await mint({ leagues: [271] }, { sub: 'reloaded-fan' }))
    if (typeof c === 'number') throw new Error(`refused with ${c}`)
    try {
      writeFileSync(keysFile, JSON.stringify([{ key: 'site-key-never-in-the-page', name: 'site', leagues: '*', tokens: { secrets: [SECRET], max_connections_per_fan: 2 } }]))
      await gw.reloadKeys()
      expect(await reply(c, { op: 'subscribe', ref: 'after-reload', leagues: [8] })).toMatchObject({ type: 'error', code: 'forbidden' })
      const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)))
      writeFileSync(keysFile, JSON.stringify([{ key: 'site-key-never-in-the-page', name: 'site', leagues: '*' }]))
      await gw.reloadKeys()
      expect(await closed).toBe(4001)
    } finally {
      c.ws.close()
      writeFileSync(keysFile, JSON.stringify(KEYS))
      await gw.reloadKeys()
    }
  })

  it('closes the connections of tokens issued before a not_before that a keys reload sets (4001), and refuses such tokens after', async () => {
    const t = await mint({}, { sub: 'revoked-fan' })
    const c = await open(t)
    if (typeof c === 'number') throw new Error(`refused with ${c}`)
    try {
      const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)))
      // Every token issued until now is revoked (a second ahead: tokens carry whole seconds).
      writeFileSync(keysFile, JSON.stringify([{ ...KEYS[0], tokens: { ...KEYS[0]!.tokens, not_before: new Date(Date.now() + 1000).toISOString() } }]))
      await gw.reloadKeys()
      expect(await closed).toBe(4001)
      const res = await fetch(`${gw.url}/v1/changes`, { headers: { authorization: `Bearer ${t}` } })
      expect((await res.json() as { message: string }).message).toContain('token refused: revoked')
    } finally {
      c.ws.close()
      writeFileSync(keysFile, JSON.stringify(KEYS))
      await gw.reloadKeys()
    }
  })

  it('takes both secrets during a rotation; the reload that removes the old one ends its connections and refuses its tokens, and removing the key ends them all', async () => {
    const OLD = 'the-secret-being-rotated-out-of-32-chars!'
    writeFileSync(keysFile, JSON.stringify([{ ...KEYS[0], tokens: { ...KEYS[0]!.tokens, secrets: [SECRET, OLD] } }]))
    await gw.reloadKeys()
    const byOld = await open(await mint({}, { sub: 'old-fan', secret: OLD }))
    const byNew = await open(await mint({}, { sub: 'new-fan' }))
    if (typeof byOld === 'number' || typeof byNew === 'number') throw new Error('refused during the rotation')
    try {
      const oldClosed = new Promise<number>((resolve) => byOld.ws.once('close', (code) => resolve(code)))
      writeFileSync(keysFile, JSON.stringify(KEYS))
      await gw.reloadKeys()
      expect(await oldClosed).toBe(4001)
      expect(await reply(byNew, { op: 'ping', ref: 'still-here' })).toMatchObject({ type: 'pong' })
      expect(await open(await mint({}, { sub: 'old-fan', secret: OLD }))).toBe(401)

      const newClosed = new Promise<number>((resolve) => byNew.ws.once('close', (code) => resolve(code)))
      writeFileSync(keysFile, JSON.stringify([{ key: 'another-key', name: 'another' }]))
      await gw.reloadKeys()
      expect(await newClosed).toBe(4001)
      expect(await open(await mint({}, { sub: 'new-fan' }))).toBe(401)
    } finally {
      for (const c of [byOld, byNew]) c.ws.close()
      writeFileSync(keysFile, JSON.stringify(KEYS))
      await gw.reloadKeys()
    }
  })

  it('refuses a fan over its max_connections_per_fan, and lets another fan in', async () => {
    const first = await open(await mint({}, { sub: 'busy-fan' }))
    const second = await open(await mint({}, { sub: 'busy-fan' }))
    try {
      expect(typeof first).toBe('object')
      expect(typeof second).toBe('object')
      expect(await open(await mint({}, { sub: 'busy-fan' }))).toBe(429)
      const other = await open(await mint({}, { sub: 'another-fan' }))
      expect(typeof other).toBe('object')
      if (typeof other === 'object') other.ws.close()
    } finally {
      for (const c of [first, second]) if (typeof c === 'object') c.ws.close()
    }
  })

  it('closes a WebSocket whose token expires with 4401, and an SSE stream too', async () => {
    const c = await open(await mint({}, { sub: 'short-lived', ttlS: 2 }))
    if (typeof c === 'number') throw new Error(`refused with ${c}`)
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)))
    expect(await closed).toBe(4401)
    const res = await fetch(`${gw.url}/v1/sse?access_token=${await mint({}, { sub: 'short-sse', ttlS: 2 })}&leagues=271`)
    expect(res.status).toBe(200)
    // The stream ends: reading it to its end returns.
    await res.text()
  }, 15_000)
})
