/**
 * An upstream 429 as the real API may send it, relayed by the passthrough with the wait it stands for: a
 * `Retry-After` given as an HTTP date (RFC 9110 allows it) as the seconds to that date, and the real API's
 * bare `{"message":"Too Many Attempts."}` (no header, no `retry_after`) as the reset of the window the ledger
 * learnt from the entity's last answer, not a flat minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'undici'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { startRealUpstream, type RealUpstream } from '../../helpers/real-upstream.ts'
import { captureLogger } from '../passthrough/harness.ts'

let upstream: RealUpstream
let gw: Gateway

async function get (path: string): Promise<{ status: number, retryAfter: number, body: any }> {
  const res = await request(`${gw.url}/v3${path}${path.includes('?') ? '&' : '?'}api_token=demo`)
  return { status: res.statusCode, retryAfter: Number(res.headers['retry-after']), body: await res.body.json() }
}

beforeAll(async () => {
  upstream = await startRealUpstream({ remaining: 1000 })
  gw = await startTestGateway({
    env: { TOUCHLINE_UPSTREAM_URL: upstream.baseUrl, TOUCHLINE_UPSTREAM_TOKEN: upstream.token },
    log: captureLogger().log,
    overrides: { poll: false }
  })
})

afterAll(async () => {
  await gw?.close()
  await upstream?.close()
})

describe('an upstream 429, relayed', () => {
  it('turns a Retry-After HTTP date into the seconds until it', async () => {
    const at = new Date(Date.now() + 1800_000)
    upstream.respond('/football/tv-stations/fixtures/{fixtureId}', { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': at.toUTCString() }, entity: 'TvStation' })
    const res = await get('/football/tv-stations/fixtures/1')
    expect(res.status).toBe(429)
    // toUTCString drops the milliseconds: up to a second early.
    expect(res.retryAfter).toBeGreaterThanOrEqual(1795)
    expect(res.retryAfter).toBeLessThanOrEqual(1800)
    expect(res.body.retry_after).toBe(res.retryAfter)
  })

  it('answers a bare 429 with the reset of the window the ledger knows', async () => {
    // An answer of the entity first: its rate_limit says when the window resets (an hour after its first call).
    expect((await get('/football/transfers')).status).toBe(200)
    const bucket = await gw.ledger.get('Transfer')
    expect(bucket).toBeDefined()
    const resetsIn = Math.ceil(((bucket?.resetsAt ?? 0) - Date.now()) / 1000)
    expect(resetsIn).toBeGreaterThan(3000)
    upstream.respond('/football/transfers/latest', { status: 429, body: { message: 'Too Many Attempts.' }, entity: 'Transfer' })
    const res = await get('/football/transfers/latest')
    expect(res.status).toBe(429)
    expect(Math.abs(res.retryAfter - resetsIn)).toBeLessThanOrEqual(2)
  })
})
