/**
 * The REST passthrough with a fan's signed token (docs/tokens.md): a page that holds no key reads what its
 * token allows (league names, a stage) with `Authorization: Bearer`, within the token's leagues, paid from
 * its key's quota; the token is never forwarded upstream; the account paths (`/v3/my/...`, the key's plan
 * and usage) stay the key holder's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { startProxy, type RunningProxy } from '../../helpers/http-proxy.ts'
import { mintToken } from '../../helpers/tokens.ts'

const SECRET = 'the-sites-backend-secret-of-32-characters!'
const KEYS = [{ key: 'site-key-for-reads', name: 'site', leagues: [8, 501], tokens: { secrets: [SECRET] } }]

async function token (claims: Record<string, unknown> = {}, secret = SECRET): Promise<string> {
  return await mintToken({ iss: 'site', secret, sub: 'reader', claims })
}

let gw: Gateway
let provider: RunningProvider
let proxy: RunningProxy
/** Every URL the upstream was asked for, through a proxy in front of the provider. */
const upstreamQueries: string[] = []
beforeAll(async () => {
  provider = await startProvider({ port: 0 })
  proxy = await startProxy(provider.baseUrl, { answer: (url) => { upstreamQueries.push(url); return undefined } })
  gw = await startTestGateway({
    env: { TOUCHLINE_UPSTREAM_URL: proxy.baseUrl, TOUCHLINE_UPSTREAM_TOKEN: 'demo-enterprise' },
    keys: KEYS,
    overrides: { poll: false }
  })
}, 30_000)
afterAll(async () => {
  await gw?.close()
  await proxy?.close()
  await provider?.close()
})

const read = async (path: string, t: string): Promise<{ status: number, body: { data?: { id?: number }, message?: string } }> => {
  const res = await fetch(`${gw.url}${path}`, { headers: { authorization: `Bearer ${t}` } })
  return { status: res.status, body: await res.json() as { data?: { id?: number }, message?: string } }
}

it('reads within the token\'s leagues with a Bearer token, never forwarding it, and refuses the rest', async () => {
  const t = await token({ leagues: [501] })
  expect(await read('/v3/football/leagues/501?select=name', t)).toMatchObject({ status: 200, body: { data: { id: 501 } } })
  // League 8 is the key's, not the token's.
  expect((await read('/v3/football/leagues/8?select=name', t)).status).toBe(403)
  // The same with access_token in the query: answered, and not passed on upstream.
  const res = await fetch(`${gw.url}/v3/football/leagues/501?select=name&access_token=${t}`)
  expect(res.status).toBe(200)
  expect(upstreamQueries.length).toBeGreaterThan(0)
  for (const url of upstreamQueries) expect(url).not.toContain(t.split('.')[2])
  expect(upstreamQueries.join('\n')).not.toContain('access_token')
})

it('keeps the account paths to the key, and says why a token is refused', async () => {
  expect(await read('/v3/my/usage', await token())).toMatchObject({ status: 401, body: { message: expect.stringContaining('takes the client key') } })
  expect(await read('/v3/football/leagues/501', await token({}, 'another-secret-of-at-least-32-characters'))).toMatchObject({ status: 401, body: { message: expect.stringContaining('token refused: invalid') } })
})
