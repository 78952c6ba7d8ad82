/**
 * Runs the conformance suite against the embedded provider, in process, on free ports, with one movable clock
 * shared by every instance. Rate-limit tests get their own instances so that their bucket state is theirs.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { startProvider } from '../../packages/provider/src/index.ts'
import type { RunningProvider } from '../../packages/provider/src/index.ts'
import { DEMO_TOKENS, REFUSED_TOKENS } from '../../packages/provider/src/plans.ts'
import { describeConformance } from './suite.ts'
import type { ConformanceTarget } from './target.ts'

/** Real time plus an offset that tests move forward; the simulator keeps running meanwhile. */
let offsetMs = 0
const now = (): number => Date.now() + offsetMs

/** Small limits so that 429 is reachable in a few requests. */
const LIMITED = 20
/** Enterprise limit and burst buffer, for the burst buffer tests. */
const BURST_LIMIT = 10
const BURST_BUFFER = 5

let main: RunningProvider | undefined
let limited: RunningProvider | undefined
let burst: RunningProvider | undefined
let failing: RunningProvider | undefined
let target: ConformanceTarget | undefined

beforeAll(async () => {
  [main, limited, burst, failing] = await Promise.all([
    startProvider({ port: 0, now }),
    startProvider({ port: 0, now, hourlyLimits: { Starter: LIMITED } }),
    startProvider({ port: 0, now, hourlyLimits: { Enterprise: BURST_LIMIT }, burstBuffer: BURST_BUFFER }),
    startProvider({ port: 0, now, faults: { errorRate: 1 } })
  ])
  target = {
    name: 'embedded provider',
    baseUrl: main.baseUrl,
    tokens: { ...DEMO_TOKENS, ...REFUSED_TOKENS },
    planLimits: { free: 3000, starter: 2000, growth: 2500, pro: 3000, enterprise: 5000 },
    limited: { token: DEMO_TOKENS.starter, limit: LIMITED, baseUrl: limited.baseUrl },
    burst: { token: DEMO_TOKENS.enterprise, limit: BURST_LIMIT, buffer: BURST_BUFFER, baseUrl: burst.baseUrl },
    failing: { token: DEMO_TOKENS.pro, baseUrl: failing.baseUrl },
    advanceClock: (ms) => { offsetMs += ms }
  }
})

afterAll(async () => {
  await Promise.all([main?.close(), limited?.close(), burst?.close(), failing?.close()])
})

describe('conformance: embedded provider', () => {
  describeConformance(() => {
    if (target === undefined) throw new Error('the provider did not start')
    return target
  })
})
