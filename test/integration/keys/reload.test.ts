import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { loadConfig } from '../../../src/config.ts'
import { startGateway, type Gateway } from '../../../src/gateway.ts'

const dir = mkdtempSync(join(tmpdir(), 'tl-reload-'))
const keysFile = join(dir, 'keys.json')
const write = (keys: unknown): void => { writeFileSync(keysFile, JSON.stringify(keys)) }

describe('reloading the keys file', () => {
  let gateway: Gateway
  beforeAll(async () => {
    write([{ key: 'kept-key', name: 'kept' }, { key: 'revoked-key', name: 'revoked' }])
    const cfg = loadConfig({ TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', TOUCHLINE_KEYS_FILE: keysFile })
    gateway = await startGateway(cfg, pino({ level: 'silent' }), { poll: false })
  })
  afterAll(async () => { await gateway.close() })

  const open = async (key: string): Promise<{ ws: WebSocket, closed: Promise<number> }> => {
    const ws = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/live?api_token=${key}`)
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
    await new Promise((resolve, reject) => { ws.once('message', resolve); ws.once('error', reject) })
    return { ws, closed }
  }

  it('closes the connections of a removed key with 4001, refuses it afterwards, and keeps the others', async () => {
    const revoked = await open('revoked-key')
    const kept = await open('kept-key')
    write([{ key: 'kept-key', name: 'kept' }, { key: 'added-key', name: 'added' }])
    expect(gateway.reloadKeys()).toEqual(['revoked'])
    expect(await revoked.closed).toBe(4001)
    expect(kept.ws.readyState).toBe(WebSocket.OPEN)
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=revoked-key`)).status).toBe(401)
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=added-key`)).status).toBe(200)
    kept.ws.close()
  })

  it('keeps the previous keys when the new file is invalid', async () => {
    writeFileSync(keysFile, '[{"key": "x y", "name": 1}]')
    expect(() => gateway.reloadKeys()).toThrow(/TOUCHLINE_KEYS_FILE/)
    expect((await fetch(`${gateway.url}/v1/fixtures/live?api_token=kept-key`)).status).toBe(200)
  })
})
