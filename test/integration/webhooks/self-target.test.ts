/**
 * A URL that reaches the gateway itself is refused (state `refused`, never POSTed to), whatever the spelling
 * of its address: an IPv4-mapped IPv6 address, 0.0.0.0 (which a connect on Linux takes for this machine),
 * or 127.0.0.1 when TOUCHLINE_HOST is the name `localhost`. A POST to itself would show as an HTTP status.
 */
import { createServer } from 'node:net'
import { expect, it } from 'vitest'
import { applier } from '../push/harness.ts'
import { hookKey, SECRET, startHookGateway, waitFor, writeKeys } from './harness.ts'

async function freePort (): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const addr = s.address()
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

async function selfHookOutcome (host: string, url: (port: number) => string): Promise<{ state: string, last_status: number | null, last_error: string | null }> {
  const port = await freePort()
  const keysFile = writeKeys([hookKey([{ id: 'loop', url: url(port), secret: SECRET }])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_HOST: host, TOUCHLINE_PORT: String(port) })
  const key = gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  await waitFor('an attempt', async () => (await gw.webhooks.list(key))[0]?.last_attempt_at !== null, 5000)
  const v = (await gw.webhooks.list(key))[0]!
  return { state: v.state, last_status: v.last_status, last_error: v.last_error }
}

it('refuses the gateway\'s own listener spelled as an IPv4-mapped IPv6 address ([::ffff:127.0.0.1])', async () => {
  const v = await selfHookOutcome('127.0.0.1', (port) => `http://[::ffff:127.0.0.1]:${port}/v1/changes`)
  expect(v).toMatchObject({ state: 'refused', last_status: null })
}, 20_000)

it('refuses the gateway\'s own listener spelled 0.0.0.0 (connects to the local host on Linux)', async () => {
  const v = await selfHookOutcome('127.0.0.1', (port) => `http://0.0.0.0:${port}/v1/changes`)
  expect(v).toMatchObject({ state: 'refused', last_status: null })
}, 20_000)

it('refuses http://127.0.0.1:<port> when TOUCHLINE_HOST is the name "localhost"', async () => {
  const v = await selfHookOutcome('localhost', (port) => `http://127.0.0.1:${port}/v1/changes`)
  expect(v).toMatchObject({ state: 'refused', last_status: null })
}, 20_000)

it('refuses http://127.0.0.1:<port> when TOUCHLINE_HOST is 127.0.0.1', async () => {
  const v = await selfHookOutcome('127.0.0.1', (port) => `http://127.0.0.1:${port}/v1/changes`)
  expect(v).toMatchObject({ state: 'refused', last_status: null })
}, 20_000)
