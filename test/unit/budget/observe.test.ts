/** Reading a bucket report from an upstream response: body first, headers as fallback (docs/upstream.md, "Rate limits"). */
import { describe, expect, it } from 'vitest'
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import { observeResponse } from '../../../src/budget/observe.ts'

const NOW = 1_700_000_000_000
const rl = (remaining: number, extra: Record<string, unknown> = {}) =>
  ({ rate_limit: { remaining, resets_in_seconds: 1200, requested_entity: 'Fixture', ...extra } })

describe('observeResponse', () => {
  it('takes the body object over the headers, and the header limit', async () => {
    const snap = await observeResponse({
      status: 200, json: rl(100), headers: { 'x-ratelimit-remaining': '50', 'x-ratelimit-limit': '3000' }, nowMs: NOW
    })
    expect(snap).toEqual({ entity: 'Fixture', remaining: 100, resetsInSeconds: 1200, limit: 3000 })
  })

  it('reads the real block, which has no total, as one counted call without a limit', async () => {
    const snap = await observeResponse({ status: 200, json: rl(119), headers: {}, nowMs: NOW })
    expect(snap).toEqual({ entity: 'Fixture', remaining: 119, resetsInSeconds: 1200 })
  })

  it('prefers a 429 body total over the header limit', async () => {
    const snap = await observeResponse({ status: 429, json: rl(0, { total: 20 }), headers: { 'x-ratelimit-limit': '500' }, nowMs: NOW })
    expect(snap).toEqual({ entity: 'Fixture', remaining: 0, resetsInSeconds: 1200, limit: 20, calls: 0 })
  })

  it('never takes a limit of 0 (a 429 saying "none left of none"): it would refuse every window after it', async () => {
    const snap = await observeResponse({ status: 429, json: rl(0, { total: 0 }), headers: { 'x-ratelimit-limit': '0' }, nowMs: NOW })
    expect(snap).toEqual({ entity: 'Fixture', remaining: 0, resetsInSeconds: 1200, calls: 0 })
    let t = NOW
    const ledger = createMemoryLedger({ now: () => t })
    await ledger.record('Fixture', { remaining: 0, resetsInSeconds: 1200, calls: 0, limit: 3000 }, t)
    await ledger.record('Fixture', snap!, t)
    t += 1_300_000
    expect(await ledger.reserve('Fixture', 1, { floor: 0 }), 'the window after the 429 opens with the limit known before').toBe(true)
  })

  it('drops a header limit below the remaining count (a global counter, not the entity bucket)', async () => {
    const snap = await observeResponse({ status: 200, json: rl(2900), headers: { 'x-ratelimit-limit': '500' }, nowMs: NOW })
    expect(snap).not.toHaveProperty('limit')
  })

  it('reads a bare 429 as 0 left, with the retry delay as the reset, for the endpoint entity', async () => {
    const snap = await observeResponse({
      status: 429, json: { message: 'Too Many Attempts.' }, headers: {}, entityHint: 'Fixture', retryAfterSeconds: 90, nowMs: NOW
    })
    expect(snap).toEqual({ entity: 'Fixture', remaining: 0, resetsInSeconds: 90, calls: 0 })
  })

  it('takes the reset from the ledger when a response gives only the header count, and skips it otherwise', async () => {
    const ledger = createMemoryLedger({ now: () => NOW })
    const headersOnly = { status: 200, json: { data: [] }, headers: { 'x-ratelimit-remaining': '41' }, entityHint: 'Fixture', nowMs: NOW, ledger }
    expect(await observeResponse(headersOnly)).toBeUndefined()
    await ledger.record('Fixture', { remaining: 42, resetsInSeconds: 600 }, NOW)
    expect(await observeResponse(headersOnly)).toEqual({ entity: 'Fixture', remaining: 41, resetsInSeconds: 600 })
  })

  it('returns nothing for a validation error without any bucket report', async () => {
    expect(await observeResponse({ status: 400, json: { message: 'bad', code: 5001 }, headers: {}, entityHint: 'Fixture', nowMs: NOW })).toBeUndefined()
    expect(await observeResponse({ status: 200, json: undefined, headers: { 'x-ratelimit-remaining': '3' }, nowMs: NOW })).toBeUndefined()
  })
})
