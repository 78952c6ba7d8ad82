/**
 * A key's hourly quota is per entity, and every request that reaches the upstream costs the key a call
 * (docs/passthrough.md): a percent-encoded spelling of a fixtures path (`%66ixtures`) draws on the key's Fixture quota,
 * as the plain path does, instead of an `Unknown` one that would give it a second hour of upstream calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countRequests, get, startPassthroughGateway, type RequestCounter, type TestGateway } from './harness.ts'

const KEYS = [
  { key: 'tl-all-key', name: 'all' },
  { key: 'tl-small-key', name: 'small', hourly_quota: 2 }
]

let t: TestGateway
let calls: RequestCounter
const url = (path: string, key: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, provider: { liveTarget: 30 } } })
  calls = countRequests(t.providerServer)
})
afterAll(async () => {
  calls.stop()
  await t.close()
})

describe('the Fixture quota of a key', () => {
  it('also bounds fixture requests whose path is percent-encoded', async () => {
    const live = await get(url('/football/livescores/inplay', 'tl-all-key'))
    const ids = (live.body.data as any[]).map((f) => f.id as number)
    expect(ids.length).toBeGreaterThanOrEqual(6)

    expect((await get(url(`/football/fixtures/${ids[0]}`, 'tl-small-key'))).status).toBe(200)
    expect((await get(url(`/football/fixtures/${ids[1]}`, 'tl-small-key'))).status).toBe(200)
    const spent = await get(url(`/football/fixtures/${ids[2]}`, 'tl-small-key'))
    expect(spent.status).toBe(429)
    expect(spent.body.rate_limit.requested_entity).toBe('Fixture')

    // Same upstream resource, same upstream bucket (Fixture): must be refused too, with no upstream call.
    const before = calls.count('/football/fixtures/')
    const statuses: number[] = []
    for (const id of ids.slice(2, 6)) statuses.push((await get(url(`/football/%66ixtures/${id}`, 'tl-small-key'))).status)
    expect({ statuses, upstreamFixtureCalls: calls.count('/football/fixtures/') - before })
      .toEqual({ statuses: [429, 429, 429, 429], upstreamFixtureCalls: 0 })
  })
})
