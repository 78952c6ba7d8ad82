/**
 * The real-like upstream (test/helpers/real-upstream.ts) behaves as documented at its top, and our client
 * copes with each of its answers: what other tests rely on when they extend it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { request } from 'undici'
import { createUpstreamClient } from '../../../src/upstream/client.ts'
import { UpstreamError } from '../../../src/upstream/upstream-errors.ts'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import { NO_RESULTS, SHOOTOUT_FIXTURE_ID, startRealUpstream, type RealUpstream } from '../../helpers/real-upstream.ts'

let server: RealUpstream | undefined
afterEach(async () => { await server?.close(); server = undefined })

async function raw (url: string): Promise<{ status: number, headers: Record<string, unknown>, body: any }> {
  const res = await request(url)
  return { status: res.statusCode, headers: res.headers, body: await res.body.json() }
}

describe('real-like upstream', () => {
  it('answers livescores with the 2023 capture and the live shoot-out, only the requested includes, lower-cased', async () => {
    server = await startRealUpstream({ token: 't0k' })
    const { status, headers, body } = await raw(`${server.baseUrl}/football/livescores?api_token=t0k&include=participants;detailedPeriods;currentPeriod`)
    expect(status).toBe(200)
    expect(Object.keys(headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([])
    expect(body.rate_limit).toEqual({ resets_in_seconds: 3600, remaining: 39, requested_entity: 'Fixture' })
    const shootout = body.data.find((f: { id: number }) => f.id === SHOOTOUT_FIXTURE_ID)
    expect(Object.keys(shootout).filter((k) => typeof shootout[k] === 'object' && shootout[k] !== null).sort()).toEqual(['currentperiod', 'detailedperiods', 'participants'])
    expect(shootout.currentperiod).toMatchObject({ description: 'penalties', period_length: null, started: null, time_added: null })
    expect(body.data.find((f: { id: number }) => f.id !== SHOOTOUT_FIXTURE_ID)).toMatchObject({ name: 'Rangers vs Celtic', home_score: 0, away_score: 1 })
  })

  it('answers latest with the 200 "No result(s)" body, and counts it', async () => {
    server = await startRealUpstream({ token: 't0k', remaining: 10 })
    const { status, body } = await raw(`${server.baseUrl}/football/livescores/latest?api_token=t0k`)
    expect(status).toBe(200)
    expect(body).not.toHaveProperty('data')
    expect(body.message).toBe(NO_RESULTS)
    expect(server.remaining('Fixture')).toBe(9)
  })

  it('answers 401 for a wrong token and 429 once the bucket is empty, without counting either', async () => {
    server = await startRealUpstream({ token: 't0k', remaining: 1 })
    expect(await raw(`${server.baseUrl}/football/states?api_token=nope`)).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } })
    expect((await raw(`${server.baseUrl}/football/states?api_token=t0k`)).body.rate_limit).toMatchObject({ remaining: 0, requested_entity: 'State' })
    expect(await raw(`${server.baseUrl}/football/states?api_token=t0k`)).toMatchObject({ status: 429, body: { message: 'Too Many Attempts.' } })
    expect(server.remaining('Fixture')).toBe(1)
    expect(server.requests.map((r) => r.query.get('api_token'))).toEqual(['nope', 't0k', 't0k'])
  })

  it('serves fixtures/multi by id and lets a test replace or add a route', async () => {
    server = await startRealUpstream({ token: 't0k' })
    const multi = await raw(`${server.baseUrl}/football/fixtures/multi/18528484,${SHOOTOUT_FIXTURE_ID}?api_token=t0k`)
    expect(multi.body.data.map((f: { id: number }) => f.id).sort()).toEqual([18528484, SHOOTOUT_FIXTURE_ID])
    server.respond('/football/livescores/latest', { status: 503, body: { message: 'down' } })
    server.set('/football/teams/{id}', { entity: 'Team', handler: (req) => ({ body: { data: { id: Number(req.params.id) } } }) })
    expect((await raw(`${server.baseUrl}/football/livescores/latest?api_token=t0k`)).status).toBe(503)
    expect((await raw(`${server.baseUrl}/football/teams/7?api_token=t0k`)).body).toMatchObject({ data: { id: 7 }, rate_limit: { requested_entity: 'Team' } })
  })

  it('is read by our client: fixtures parsed, No result(s) empty, 401 typed without the token', async () => {
    server = await startRealUpstream({ token: 'client-secret' })
    const client = createUpstreamClient({ baseUrl: server.baseUrl, token: 'client-secret', retries: 0 })
    const wrong = createUpstreamClient({ baseUrl: server.baseUrl, token: 'wrong-secret', retries: 0 })
    try {
      const live = await client.get('/football/livescores', { include: 'participants;scores;events;periods;state' })
      expect(parseFixtures(live.envelope).map((f) => f.id)).toContain(SHOOTOUT_FIXTURE_ID)
      expect(live.rateLimit).toMatchObject({ entity: 'Fixture', remaining: 39 })
      expect((await client.get('/football/livescores/latest')).data).toEqual([])
      const err = await wrong.get('/football/livescores').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(UpstreamError)
      expect((err as UpstreamError).status).toBe(401)
      expect(JSON.stringify(err) + String((err as Error).message) + String((err as Error).stack)).not.toContain('wrong-secret')
    } finally {
      await client.close()
      await wrong.close()
    }
  })
})
