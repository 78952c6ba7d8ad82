/**
 * The leader's lease lost with Redis's data: after FLUSHALL or a restart without
 * persistence the lease key is simply gone, taken by nobody. The leader takes it again at its next renewal
 * and keeps polling (stopping, then campaigning, would cost every subscriber seconds of silence for
 * nothing), and reconciles at once into the new log, which would otherwise hold only the fixtures that
 * happen to change. Reconciles are ten minutes apart here and the matches run in real time (a `latest`
 * poll lists next to nothing), so only that forced reconcile can fill the new log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { gatewayEnv, inPlay, startUpstream, type Upstream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

const PREFIX = 'tl-lease-loss:'
let redis: PrivateRedis
let up: Upstream
let gateway: Gateway
/** Samples of the poller's state every 10 ms, from the loss on. */
let stoppedSamples = 0
let sampler: NodeJS.Timeout | undefined

beforeEach(async () => {
  redis = await startPrivateRedis()
  up = await startUpstream({ simSpeed: 1 })
  // The default lease (10 s, renewed every 3.3 s): a short one could lapse on a loaded machine by itself.
  gateway = await startTestGateway({ env: gatewayEnv(up.provider.baseUrl, redis.url, { TOUCHLINE_RECONCILE_INTERVAL_MS: '600000', TOUCHLINE_REDIS_PREFIX: PREFIX }) })
  await waitFor('an elected poller with live fixtures stored', async () =>
    gateway.poller.status().running && (await gateway.store.liveFixtures()).length > 0, 15_000)
  stoppedSamples = 0
})

afterEach(async () => {
  clearInterval(sampler)
  await gateway?.close()
  await up?.provider.close()
  await redis?.close()
})

function watchPoller (): void {
  sampler = setInterval(() => { if (!gateway.poller.status().running || !gateway.isLeader()) stoppedSamples++ }, 10)
}

async function leaseHolder (): Promise<string | null> {
  const conn = redis.connect({ maxRetriesPerRequest: 1 })
  try {
    return await conn.get(`${PREFIX}lease:poller`)
  } finally {
    conn.disconnect()
  }
}

/** The lease held again, every fixture in play back in the store, and the poller never stopped meanwhile. */
async function expectBackWithoutStopping (): Promise<void> {
  await waitFor('the lease held again', async () => await leaseHolder() !== null, 10_000)
  const live = (await inPlay(up)).map((f) => f.id)
  expect(live.length).toBeGreaterThan(0)
  await waitFor('every fixture in play in the new log', async () => {
    const stored = new Set((await gateway.store.liveFixtures()).map((f) => f.id))
    return live.every((id) => stored.has(id))
  }, 10_000)
  clearInterval(sampler)
  expect(stoppedSamples, 'samples with the poller stopped or not leading').toBe(0)
}

describe('the leader when Redis loses its lease', () => {
  it('FLUSHALL: takes the lease again without stopping and reconciles at once', async () => {
    watchPoller()
    await redis.flush()
    await expectBackWithoutStopping()
  }, 40_000)

  it('restart without persistence: keeps polling through it and reconciles into the new log', async () => {
    watchPoller()
    await redis.stop()
    await redis.start()
    await expectBackWithoutStopping()
  }, 40_000)
})
