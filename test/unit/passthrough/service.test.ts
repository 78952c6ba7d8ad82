/**
 * The passthrough service against a scripted upstream client (no network): what it does with upstream
 * answers the embedded provider never gives (its token echoed back, a 401 for the gateway's own token).
 */
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createKeyRing } from '../../../src/client-keys.ts'
import { createMemoryCache, createMemoryQuota, createPassthrough } from '../../../src/passthrough/index.ts'
import type { RawResponse, UpstreamClient } from '../../../src/upstream/index.ts'

const SECRET = 'upstream-secret-token'

function passthrough (answer: (path: string) => RawResponse) {
  const upstream = {
    getRaw: async (path: string) => answer(path),
    get: async () => { throw new Error('not used') },
    paginate: async function * () {},
    close: async () => {}
  } as unknown as UpstreamClient
  return createPassthrough({
    upstream,
    ledger: createMemoryLedger(),
    keys: createKeyRing([{ key: 'client-key', name: 'client', leagues: '*', hourly_quota: 100, max_connections: 1, allowed_origins: '*', features: [] }]),
    cache: createMemoryCache(),
    quota: createMemoryQuota(),
    log: pino({ level: 'silent' }),
    secrets: [SECRET]
  })
}

const json = (status: number, body: unknown): RawResponse => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) })
const request = (path: string) => ({ path, query: { api_token: 'client-key' }, baseUrl: 'http://gw.test' })

describe('passthrough service', () => {
  it('scrubs the upstream token from relayed bodies, and api_token values from error bodies', async () => {
    const pt = passthrough((path) => path.startsWith('/core/regions')
      ? json(200, { data: [{ id: 1, name: `echo ${SECRET}`, image_path: 'https://cdn.example/a.png?token=signed' }], timezone: 'UTC' })
      : json(400, { message: `bad request GET /v3/football/teams?api_token=${SECRET}&x=1`, errors: { date: ['no'] } }))
    const ok = await pt.handle(request('/core/regions/1'))
    expect(ok.status).toBe(200)
    expect(ok.body).not.toContain(SECRET)
    expect(ok.body, 'a signed URL in the data is left alone').toContain('?token=signed')
    const bad = await pt.handle(request('/football/fixtures/date/2026-02-31'))
    expect(bad.status).toBe(400)
    expect(bad.body).not.toContain(SECRET)
    expect(JSON.parse(bad.body).errors).toEqual({ date: ['no'] })
  })

  it('answers 502 when the upstream refuses the gateway\'s own token, never 401 to a valid client', async () => {
    const pt = passthrough(() => json(401, { error: 'Unauthorized', message: 'bad token' }))
    const res = await pt.handle(request('/core/continents'))
    expect(res.status).toBe(502)
    expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(['error', 'error_id', 'message'])
  })

  it('answers 502 for a 200 that is not an envelope', async () => {
    const pt = passthrough(() => ({ status: 200, headers: {}, body: Buffer.from('<html>maintenance</html>') }))
    expect((await pt.handle(request('/core/continents'))).status).toBe(502)
  })
})
