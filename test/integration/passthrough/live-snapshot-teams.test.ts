/**
 * `GET /v1/fixtures/live?teams=...` costs no quota, and the store cannot filter by team: each team filter is
 * cut from the key's whole live scope, read once and shared by every team filter while nothing changes
 * (snapshot-cache.ts), so a client that varies `teams=` on every request does not make each one a read of
 * the whole live store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StoreFilter } from '../../../src/store/types.ts'
import { waitFor } from '../../helpers/wait.ts'
import { get, startPassthroughGateway, type TestGateway } from './harness.ts'

const KEYS = [{ key: 'tl-rv-live-key', name: 'live' }]
let t: TestGateway
const wholeReads: number[] = []

beforeAll(async () => {
  t = await startPassthroughGateway({ keys: KEYS, overrides: { provider: { liveTarget: 12 } } })
  const store = t.gw.store as { liveFixtures: (filter?: StoreFilter) => Promise<unknown[]> }
  const original = store.liveFixtures.bind(store)
  // Only the shared snapshot's reads are counted (the pollers and other readers also read the whole store).
  store.liveFixtures = async (filter) => {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 50
    const stack = new Error('whole-store read').stack ?? ''
    Error.stackTraceLimit = limit
    const out = await original(filter)
    if (filter === undefined && stack.includes('snapshot-cache.ts')) wholeReads.push(out.length)
    return out
  }
  const deadline = Date.now() + 10_000
  // Until a whole-store read finds live fixtures (the first ones may find none: the poller is still starting).
  while (!wholeReads.some((n) => n > 0) && Date.now() < deadline) {
    await get(`${t.gw.url}/v1/fixtures/live?api_token=tl-rv-live-key`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
})
afterAll(async () => { await t?.close() })

describe('live snapshot reads', () => {
  it('does not read the whole live store once per request when a client varies teams=', async () => {
    const N = 200
    // The pollers stopped (the live one and the tables'): a record routed empties the shared snapshot
    // (rightly), and on a busy machine the loop would last long enough for one between most requests. What
    // is left is the cache's age limit.
    await t.gw.poller.stop()
    await t.gw.standings.stop()
    // And the hub has routed everything the log holds: on a busy machine its tail may still be catching up
    // on records written before the stop, each of which would empty the shared snapshot during the loop.
    const written = await t.gw.store.head()
    await waitFor('the hub routed the log\'s head', () => t.gw.hub.head() === written, 20_000)
    const start = wholeReads.length
    const startedAt = Date.now()
    // A record routed meanwhile (whatever still writes: the odds, a late day read) empties the shared
    // snapshot, rightly: each such head is allowed a read of its own.
    const heads = new Set<string>([t.gw.hub.head()])
    for (let i = 0; i < N; i++) {
      const res = await get(`${t.gw.url}/v1/fixtures/live?api_token=tl-rv-live-key&teams=${i + 1}`)
      expect(res.status).toBe(200)
      heads.add(t.gw.hub.head())
    }
    const reads = wholeReads.length - start
    const fixturesRead = wholeReads.slice(start).reduce((a, b) => a + b, 0)
    // The hook sees the whole-store reads, and they hold live fixtures (a warm cache may need none during the
    // loop: nothing changed meanwhile).
    expect(wholeReads.some((n) => n > 0)).toBe(true)
    // Same answer source for all of them (every live fixture, filtered by team): a handful of reads would do.
    // At most one read per age of the shared snapshot (1 s) and a couple more: however long the loop took,
    // not one per request.
    const elapsed = Date.now() - startedAt
    const what = `whole-store reads (${fixturesRead} fixtures) for ${N} requests in ${elapsed} ms, ${heads.size - 1} records routed meanwhile`
    expect(reads, what).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 2 + (heads.size - 1))
    expect(reads, what).toBeLessThan(N / 2)
  })
})
