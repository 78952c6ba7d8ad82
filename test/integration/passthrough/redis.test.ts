/**
 * Two gateway instances over one Redis (docs/operations.md, several instances) in front of one provider: they share the response cache,
 * each client key's quota and the upstream budget, so a client sees one gateway whichever instance it hits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'
import { useRedis } from '../../helpers/redis.ts'

const KEYS = [{ key: 'tl-shared-key', name: 'shared', hourly_quota: 5 }]

let provider: RunningProvider
let calls: RequestCounter
let a: TestGateway
let b: TestGateway
const shared = useRedis()

beforeEach(async () => {
  provider = await startProvider({ port: 0 })
  calls = countRequests(provider.app.server)
  const opts = { keys: KEYS, redis: { url: shared.url, prefix: shared.prefix }, upstreamUrl: provider.baseUrl, overrides: { poll: false } }
  a = await startPassthroughGateway(opts)
  b = await startPassthroughGateway(opts)
})
afterEach(async () => {
  calls.stop()
  await Promise.all([a.close(), b.close()])
  await provider.close()
  expectNoLeaks()
})

const url = (t: TestGateway, path: string): string => `${t.base}${path}?api_token=tl-shared-key`

describe('passthrough over Redis', () => {
  it('shares cached answers between instances', async () => {
    const first = await get(url(a, '/core/continents'))
    const second = await get(url(b, '/core/continents'))
    expect(first.headers['x-cache']).toBe('miss')
    expect(second.headers['x-cache']).toBe('hit')
    expect(second.body.data).toEqual(first.body.data)
    expect(calls.count('/core/continents')).toBe(1)
  })

  it('shares each key\'s quota between instances', async () => {
    const remaining: number[] = []
    for (const t of [a, b, a, b, a]) remaining.push((await get(url(t, '/football/teams'))).body.rate_limit.remaining)
    expect(remaining).toEqual([4, 3, 2, 1, 0])
    const over = await get(url(b, '/football/teams'))
    expect(over.status).toBe(429)
    expect(over.body.rate_limit).toMatchObject({ remaining: 0, total: 5, requested_entity: 'Team' })
    const usage = await get(url(a, '/my/usage'))
    expect((usage.body.data as any[]).find((r) => r.entity === 'Team')).toMatchObject({ requests_made: 5, remaining_requests: 0 })
  })

  it('shares the upstream budget: what one instance learns, the other respects', async () => {
    await get(url(a, '/football/fixtures/date/2026-01-10'))
    const bucket = await b.gw.ledger.get('Fixture')
    expect(bucket?.limit).toBe(5000)
    const resetsIn = Math.round(((bucket?.resetsAt ?? 0) - Date.now()) / 1000)
    // The poller of a (it polls not here: the claim a polling instance makes) needs more than is left.
    await a.gw.ledger.claim('Fixture', 'poller', { perHour: 450, reserve: 0.2, lumps: 0, ttlMs: 3_600_000 })
    await a.gw.ledger.record('Fixture', { remaining: 3, resetsInSeconds: resetsIn, limit: 5000 })
    const refused = await get(url(b, '/football/fixtures/date/2026-01-12'))
    expect(refused.status).toBe(429)
    expect(calls.count('/football/fixtures/date/2026-01-12')).toBe(0)
  })
})
