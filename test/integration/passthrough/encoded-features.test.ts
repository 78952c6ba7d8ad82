/**
 * A key without a paid feature gets the upstream's 403 for that feature's endpoints however the path is spelled:
 * a percent-encoded family segment (`%6Fdds` for `odds`) is the same path to the upstream, so it is to the
 * gateway too (request.ts canonicalPath): routed, feature-checked, charged and cached as the plain path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, startPassthroughGateway, type TestGateway } from './harness.ts'

const KEYS = [
  { key: 'tl-all-key', name: 'all' },
  // Every league, but none of the paid features.
  { key: 'tl-basic-key', name: 'basic', features: [] }
] as any[]

let t: TestGateway
const url = (path: string, key: string): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { poll: false, provider: { liveTarget: 30 } } })
})
afterAll(async () => { await t.close() })

describe('paid features cannot be reached by spelling the path differently', () => {
  /** [resource of the 403, catalogue path, the same path with its family segment percent-encoded] */
  const cases = (fixtureId: number): Array<[string, string, string]> => [
    ['odds', `/football/odds/pre-match/fixtures/${fixtureId}`, `/football/%6Fdds/pre-match/fixtures/${fixtureId}`],
    ['predictions', `/football/predictions/probabilities/fixtures/${fixtureId}`, `/football/%70redictions/probabilities/fixtures/${fixtureId}`],
    ['xGFixture', '/football/expected/fixtures?per_page=5', '/football/%65xpected/fixtures?per_page=5']
  ]

  for (const [i, resource] of ['odds', 'predictions', 'xGFixture'].entries()) {
    it(`a key without ${resource} gets the 403 for the percent-encoded path as for the plain one`, async () => {
      const live = await get(url('/football/livescores/inplay', 'tl-all-key'))
      const fixtureId = (live.body.data as any[])[0].id as number
      const [, plain, encoded] = cases(fixtureId)[i] as [string, string, string]
      // The paid data exists (the entitled key gets rows).
      const entitled = await get(url(plain, 'tl-all-key'))
      expect(entitled.status).toBe(200)
      expect((entitled.body.data as unknown[]).length).toBeGreaterThan(0)

      const refused = await get(url(plain, 'tl-basic-key'))
      expect(refused.status).toBe(403)
      expect(refused.body.resource).toBe(resource)

      const sneaky = await get(url(encoded, 'tl-basic-key'))
      expect({ status: sneaky.status, rows: Array.isArray(sneaky.body?.data) ? sneaky.body.data.length : 0 }).toEqual({ status: 403, rows: 0 })
    })
  }
})
