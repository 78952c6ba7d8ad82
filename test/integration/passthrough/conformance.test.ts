/**
 * The upstream API's conformance suite (test/conformance), pointed at the gateway's REST passthrough with
 * gateway client keys instead of upstream tokens: the passthrough is a drop-in for the upstream
 * (docs/passthrough.md). One key per plan-like scope: `free` sees leagues 271 and 501, every key's hourly
 * quota and features are its plan's (xg from Pro, odds from Growth, predictions with Enterprise), and a
 * `limited` key has 20 so that 429 is reachable.
 *
 * Left out by design, with the reason:
 * - the Enterprise plan's burst buffer: client keys have a hard hourly quota (`burst` not declared).
 * - the 500 body check: an upstream 500 reaches clients as 502 Bad Gateway with the upstream's 500 body
 *   shape (`failing` not declared); failures.test.ts checks those bodies.
 * Revoked, regenerated, expired and other-environment tokens are simply keys the gateway does not hold,
 * and the upstream's own token is one of them: it is refused like any unknown key.
 *
 * Every response the suite receives is checked for the upstream token, and so is every log line.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { describeConformance } from '../../conformance/suite.ts'
import type { ConformanceTarget } from '../../conformance/target.ts'
import { startPassthroughGateway, UPSTREAM_TOKEN, type TestGateway } from './harness.ts'

const seen = vi.hoisted(() => ({ responses: 0, leaks: [] as string[] }))

vi.mock(import('../../helpers/http.ts'), async (importOriginal) => {
  const mod = await importOriginal()
  return {
    ...mod,
    httpGet: async (url: string, headers?: Record<string, string>) => {
      const res = await mod.httpGet(url, headers)
      seen.responses++
      const inHeaders = Object.entries(res.headers).some(([n, v]) => `${n}: ${v}`.includes('demo-enterprise'))
      if (inHeaders || res.text.includes('demo-enterprise')) seen.leaks.push(url.replace(/api_token=[^&]*/g, 'api_token=***'))
      return res
    }
  }
})

const LIMITED = 20
const PLAN_QUOTAS = { free: 3000, starter: 2000, growth: 2500, pro: 3000, enterprise: 5000 } as const
const KEYS = [
  { key: 'tl-free-key', name: 'free', leagues: [271, 501], hourly_quota: PLAN_QUOTAS.free, features: [] },
  { key: 'tl-starter-key', name: 'starter', hourly_quota: PLAN_QUOTAS.starter, features: [] },
  { key: 'tl-growth-key', name: 'growth', hourly_quota: PLAN_QUOTAS.growth, features: ['odds'] },
  { key: 'tl-pro-key', name: 'pro', hourly_quota: PLAN_QUOTAS.pro, features: ['xg', 'odds'] },
  { key: 'tl-enterprise-key', name: 'enterprise', hourly_quota: PLAN_QUOTAS.enterprise },
  { key: 'tl-limited-key', name: 'limited', hourly_quota: LIMITED }
]

/** Real time plus an offset the 8.2.3 tests move: the provider's clock and the passthrough's quota clock. */
let offsetMs = 0
const now = (): number => Date.now() + offsetMs

let t: TestGateway | undefined
let target: ConformanceTarget | undefined

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { provider: { now }, passthrough: { now } } })
  target = {
    name: 'gateway REST passthrough',
    baseUrl: t.base,
    tokens: {
      free: 'tl-free-key',
      starter: 'tl-starter-key',
      growth: 'tl-growth-key',
      pro: 'tl-pro-key',
      enterprise: 'tl-enterprise-key',
      revoked: 'tl-revoked-key',
      regenerated: 'tl-pro-key-before-rotation',
      expired: 'tl-expired-key',
      // A token of the upstream itself is no gateway key.
      otherEnvironment: 'demo-pro'
    },
    planLimits: PLAN_QUOTAS,
    limited: { token: 'tl-limited-key', limit: LIMITED },
    advanceClock: (ms) => { offsetMs += ms }
  }
})

afterAll(async () => {
  await t?.close()
})

describe('conformance: gateway REST passthrough', () => {
  describeConformance(() => {
    if (target === undefined) throw new Error('the gateway did not start')
    return target
  })

  describe('secrets', () => {
    it('no response of the suite carries the upstream token, in its body or its headers', () => {
      expect(seen.responses).toBeGreaterThan(300)
      expect(seen.leaks).toEqual([])
    })

    it('no log line carries the upstream token', () => {
      const lines = t?.lines ?? []
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.filter((l) => l.includes(UPSTREAM_TOKEN))).toEqual([])
    })
  })
})
