/**
 * Once the gateway's upstream budget for an entity is spent, passthrough requests are refused (429) and the
 * key's quota given back: such refusals cost a client nothing, so they must not write a warn line each
 * (one per entity and window is logged), or a client could flood the logs as fast as it can ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, startPassthroughGateway, type TestGateway } from './harness.ts'

const KEYS = [{ key: 'tl-rv-budget-key', name: 'budget', hourly_quota: 1000 }]
let t: TestGateway
const url = (path: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=tl-rv-budget-key`
const warnLines = (): string[] => t.lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40)

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, provider: { hourlyLimits: { Enterprise: 3 }, burstBuffer: 0 } } })
})
afterAll(async () => { await t?.close() })

describe('budget refusals', () => {
  it('does not let a client write one warn line per refused request for free', async () => {
    // Spend the gateway's League budget (the upstream plan allows 3 an hour).
    for (let i = 1; i <= 5; i++) await get(url(`/football/leagues?page=${i}`))
    expect((await get(`${t.gw.url}/v1/status`)).body.budget.find((b: any) => b.entity === 'League').remaining).toBe(0)
    const before = warnLines().length
    const N = 200
    let last: any
    for (let i = 0; i < N; i++) {
      // The same URL every time: a refusal is not cached, so each one is a fresh refusal.
      last = await get(url('/football/leagues/1000'))
      expect(last.status).toBe(429)
    }
    const lines = warnLines().length - before
    // The key paid nothing for these N requests...
    expect(last.body.rate_limit?.remaining ?? last.headers['x-ratelimit-remaining']).toBeDefined()
    const remaining = Number(last.headers['x-ratelimit-remaining'] ?? last.body.rate_limit.remaining)
    expect(remaining).toBeGreaterThanOrEqual(1000 - 10)
    // ...and wrote (almost) no warn line for them.
    expect(lines, 'warn lines written by free, refused requests').toBeLessThan(N / 10)
  })
})
