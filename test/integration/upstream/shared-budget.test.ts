/**
 * The client and the Redis ledger together, as two gateway instances would run them: both clients feed
 * one bucket from their responses, and reserving before each call keeps them inside the upstream's limit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRedisLedger } from '../../../src/budget/redis-ledger.ts'
import type { BudgetLedger } from '../../../src/budget/types.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/client.ts'
import { envelope, rateLimit, startServer, type TestServer } from '../../unit/upstream/client-server.ts'
import { useRedis } from '../../helpers/redis.ts'

const LIMIT = 20
const LATEST = '/football/livescores/latest'

const shared = useRedis()
let server: TestServer
let clients: UpstreamClient[]

/** One gateway instance: its own Redis connection, ledger and client. */
function instance (): { ledger: BudgetLedger, client: UpstreamClient } {
  const ledger = createRedisLedger({ redis: shared.connect(), prefix: shared.prefix })
  const client = createUpstreamClient({ baseUrl: server.baseUrl, token: 'tl-test-token', ledger, retries: 0 })
  clients.push(client)
  return { ledger, client }
}

beforeEach(async () => {
  server = await startServer()
  clients = []
  // An upstream bucket of LIMIT calls an hour: the n-th call leaves LIMIT - n, then 429.
  let used = 0
  server.on(LATEST, () => {
    used++
    if (used > LIMIT) return { status: 429, body: { message: 'Too Many Attempts.', rate_limit: { ...rateLimit(0), total: LIMIT } } }
    return { body: envelope([], { rate_limit: rateLimit(LIMIT - used) }), headers: { 'x-ratelimit-limit': String(LIMIT) } }
  })
})

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server.close()
})

describe('shared upstream budget over Redis', () => {
  it('keeps two instances within the upstream limit when each reserves before calling', async () => {
    const a = instance()
    const b = instance()
    // The first call teaches the ledger the bucket (an empty ledger never blocks).
    expect(await a.ledger.reserve('Fixture')).toBe(true)
    await a.client.get(LATEST)
    expect(await b.ledger.get('Fixture')).toMatchObject({ remaining: LIMIT - 1, limit: LIMIT })

    const attempts = Array.from({ length: 30 }, async (_, i) => {
      const { ledger, client } = i % 2 === 0 ? a : b
      if (!await ledger.reserve('Fixture')) return 'refused'
      await client.get(LATEST)
      return 'called'
    })
    const outcomes = await Promise.all(attempts)
    expect(outcomes.filter((o) => o === 'called')).toHaveLength(LIMIT - 1)
    expect(server.hits(LATEST)).toHaveLength(LIMIT)
    expect(await a.ledger.get('Fixture')).toMatchObject({ remaining: 0, limit: LIMIT })
  })

  it('records a 429 from one instance for the other to see', async () => {
    const a = instance()
    const b = instance()
    for (let i = 0; i < LIMIT; i++) await a.client.get(LATEST)
    await expect(b.client.get(LATEST)).rejects.toMatchObject({ code: 'TL_ERR_UPSTREAM_RATE_LIMITED', retryAfterSeconds: 1800 })
    expect(await a.ledger.reserve('Fixture')).toBe(false)
  })
})
