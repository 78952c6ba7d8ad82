/**
 * A URL that reaches the gateway itself is refused (state `refused`, never POSTed to), whatever the spelling
 * of its address: an IPv4-mapped IPv6 address, 0.0.0.0 (which a connect on Linux takes for this machine),
 * or 127.0.0.1 when TOUCHLINE_HOST is the name `localhost`. A POST to itself would show as an HTTP status.
 */
import { expect, it } from 'vitest'
import { freePort } from '../../helpers/redis-server.ts'
import { applier } from '../fanout/harness.ts'
import { hookKey, SECRET, startHookGateway, writeKeys } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

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

/** [what the test shows, TOUCHLINE_HOST, the webhook URL at the gateway's port] */
const SPELLINGS: Array<[string, string, (port: number) => string]> = [
  ['the gateway\'s own listener spelled as an IPv4-mapped IPv6 address ([::ffff:127.0.0.1])', '127.0.0.1', (port) => `http://[::ffff:127.0.0.1]:${port}/v1/changes`],
  ['the gateway\'s own listener spelled 0.0.0.0 (connects to the local host on Linux)', '127.0.0.1', (port) => `http://0.0.0.0:${port}/v1/changes`],
  ['http://127.0.0.1:<port> when TOUCHLINE_HOST is the name "localhost"', 'localhost', (port) => `http://127.0.0.1:${port}/v1/changes`],
  ['http://127.0.0.1:<port> when TOUCHLINE_HOST is 127.0.0.1', '127.0.0.1', (port) => `http://127.0.0.1:${port}/v1/changes`]
]

for (const [what, host, url] of SPELLINGS) {
  it(`refuses ${what}`, async () => {
    expect(await selfHookOutcome(host, url)).toMatchObject({ state: 'refused', last_status: null })
  }, 20_000)
}
