/**
 * CORS preflights (`OPTIONS`) on the passthrough and the push feeds: 204 with the allow headers for an
 * origin the key allows, no `access-control-allow-origin` for one it does not.
 */
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPassthroughGateway, type TestGateway } from './harness.ts'

let t: TestGateway

beforeAll(async () => {
  t = await startPassthroughGateway({
    keys: [{ key: 'tl-web-key', name: 'web', allowed_origins: ['https://widgets.example'] }, { key: 'tl-server-key', name: 'server', allowed_origins: [] }],
    overrides: { poll: false }
  })
})
afterAll(async () => { await t.close() })

async function preflight (path: string, origin: string): Promise<{ status: number, headers: Record<string, string | string[] | undefined> }> {
  const res = await request(`${t.gw.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }
  })
  await res.body.dump()
  return { status: res.statusCode, headers: res.headers }
}

describe('OPTIONS preflight', () => {
  it('answers /v3 preflights for an origin the key allows', async () => {
    const res = await preflight('/v3/football/fixtures/1?api_token=tl-web-key', 'https://widgets.example')
    expect(res.status).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('https://widgets.example')
    expect(res.headers['access-control-allow-methods']).toContain('GET')
    expect(res.headers['access-control-allow-headers']).toContain('authorization')
    expect(res.headers.vary).toContain('Origin')
  })

  it('gives no allow-origin to an origin the key does not allow, or to an unknown key', async () => {
    for (const [path, origin] of [
      ['/v3/football/fixtures/1?api_token=tl-web-key', 'https://elsewhere.example'],
      ['/v3/football/fixtures/1?api_token=tl-server-key', 'https://widgets.example'],
      ['/v3/football/fixtures/1?api_token=nobody', 'https://widgets.example']
    ] as const) {
      const res = await preflight(path, origin)
      expect(res.status, path).toBe(204)
      expect(res.headers['access-control-allow-origin'], `${path} from ${origin}`).toBeUndefined()
    }
  })

  it('without a key in the URL (the key goes in Authorization), allows only origins some key allows', async () => {
    expect((await preflight('/v3/football/livescores', 'https://widgets.example')).headers['access-control-allow-origin']).toBe('https://widgets.example')
    expect((await preflight('/v3/football/livescores', 'https://elsewhere.example')).headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers /v1 feed preflights the same way', async () => {
    const ok = await preflight('/v1/changes?api_token=tl-web-key', 'https://widgets.example')
    expect(ok.status).toBe(204)
    expect(ok.headers['access-control-allow-origin']).toBe('https://widgets.example')
    const denied = await preflight('/v1/changes?api_token=tl-web-key', 'https://elsewhere.example')
    expect(denied.headers['access-control-allow-origin']).toBeUndefined()
  })
})
