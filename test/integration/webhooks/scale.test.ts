/**
 * Webhooks over Redis with several instances: two gateways on one Redis never
 * deliver to an endpoint at the same time, and the survivor of a shutdown goes on from the stored cursor; a
 * gateway process killed with SIGKILL mid-delivery and started again resumes from the acknowledged cursor.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import { webhookKeys } from '../../../src/store/redis-keys.ts'
import { spawnGateway } from '../ops/gateway-process.ts'
import { applier } from '../fanout/harness.ts'
import { startUpstream } from '../resilience/harness.ts'
import { acknowledged, hookKey, SECRET, startHookGateway, startReceiver, wholeLog, writeKeys } from './harness.ts'
import { lastFixtureCursor } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'
import { useRedis } from '../../helpers/redis.ts'

const shared = useRedis()

/** The acknowledged frames' cursors with repeats (a redelivery after a takeover) removed, in order. */
const distinct = (cursors: string[]): string[] => [...new Set(cursors)]

it('two instances on one Redis: one delivers at a time, never two requests at once, and a takeover goes on from the stored cursor', async () => {
  const receiver = await startReceiver(async () => { await sleep(Math.random() * 15); return 200 })
  const keysFile = writeKeys([hookKey([{ id: 'shared', url: receiver.url, secret: SECRET }])])
  const env = { TOUCHLINE_REDIS_URL: shared.url, TOUCHLINE_REDIS_PREFIX: shared.prefix, TOUCHLINE_WEBHOOK_LEASE_TTL_MS: '1000', TOUCHLINE_WEBHOOK_BATCH: '3' }
  const a = await startHookGateway(keysFile, env)
  const b = await startHookGateway(keysFile, env)
  const key = a.keys.all()[0]!
  await waitFor('one instance delivers', async () => (await a.webhooks.summary()).delivering_here + (await b.webhooks.summary()).delivering_here === 1, 5000)
  await waitFor('endpoint started', async () => (await a.webhooks.list(key))[0]?.cursor !== null, 5000)
  const start = (await a.webhooks.list(key))[0]!.cursor!
  const apply = applier(a.store)
  for (let i = 0; i < 60; i++) {
    await apply(10 + (i % 5), 271)
    await sleep(5)
  }
  // Both instances keep running for a while: still only one delivers.
  expect((await a.webhooks.summary()).delivering_here + (await b.webhooks.summary()).delivering_here).toBe(1)
  const [holder, other] = (await a.webhooks.summary()).delivering_here === 1 ? [a, b] : [b, a]
  await holder.close()
  await waitFor('the other instance takes over', async () => (await other.webhooks.summary()).delivering_here === 1, 5000)
  const more = applier(other.store)
  for (let i = 0; i < 30; i++) await more(20 + (i % 3), 501)
  const head = await other.store.head()
  await waitFor('every change acknowledged', async () => (await other.webhooks.list(key))[0]?.cursor === head, 15_000)

  expect(receiver.maxInFlight).toBe(1)
  const log = await wholeLog(other.store, start)
  expect(distinct(acknowledged(receiver).map((f) => f.cursor))).toEqual(log.map((r) => r.cursor))
}, 60_000)

it('SIGKILL mid-delivery, then a restart on the same Redis: delivery resumes right after the acknowledged cursor', async () => {
  const up = await startUpstream({ simSpeed: 120, liveTarget: 8 })
  let pending = 0
  const receiver = await startReceiver(async () => { pending++; await sleep(150); pending--; return 200 })
  const p = shared.prefix
  const env = {
    TOUCHLINE_REDIS_URL: shared.url,
    TOUCHLINE_REDIS_PREFIX: p,
    TOUCHLINE_UPSTREAM_URL: up.provider.baseUrl,
    TOUCHLINE_KEYS_FILE: writeKeys([hookKey([{ id: 'killed', url: receiver.url, secret: SECRET }])]),
    TOUCHLINE_LOG_LEVEL: 'warn',
    TOUCHLINE_POLL_FLOOR_MS: '200',
    TOUCHLINE_WEBHOOK_LEASE_TTL_MS: '1000',
    TOUCHLINE_WEBHOOK_BATCH: '4'
  }
  const endpointKey = webhookKeys(p).endpoint('hooks', 'killed')
  const store = createStore({ kind: 'redis', redis: shared.redis, prefix: p })
  try {
    const first = await spawnGateway({ env })
    await waitFor('a few deliveries acknowledged, one in flight', () => acknowledged(receiver).length >= 12 && pending > 0, 60_000)
    first.child.kill('SIGKILL')
    await first.exited
    const acked = await shared.redis.hget(endpointKey, 'cursor') as string
    const killedAt = receiver.requests.length
    // The first fixture record after the stored cursor: where the next delivery must start (the endpoint
    // takes no odds, so an odds record the odds poller appended there is not delivered).
    const next = (await wholeLog(store, acked))[0]
    expect(next, 'records after the acknowledged cursor').toBeDefined()

    await spawnGateway({ env })
    await waitFor('a delivery after the restart', () => receiver.requests.length > killedAt, 20_000)
    const resumed = receiver.requests[killedAt]!
    expect(resumed.body.type).toBe('changes')
    expect(resumed.body.data?.[0]?.cursor).toBe(next?.cursor)
    // At the head or past it: the pollers may append records the endpoint does not take (a league's table).
    const head = await lastFixtureCursor(store)
    await waitFor('caught up with the log', async () => {
      const cursor = await shared.redis.hget(endpointKey, 'cursor')
      return cursor !== null && cursor.split(':')[0] === head.split(':')[0] && Number(cursor.split(':')[1]) >= Number(head.split(':')[1])
    }, 30_000)

    // Nothing lost: every change from the first delivered one on, in order; repeats only of the batch in
    // flight at the kill (acknowledged by the receiver, not yet stored by the gateway).
    const cursors = acknowledged(receiver).map((f) => f.cursor)
    const log = (await wholeLog(store)).map((r) => r.cursor)
    expect(distinct(cursors)).toEqual(log.slice(log.indexOf(cursors[0]!)))
    const repeats = cursors.length - distinct(cursors).length
    expect(repeats).toBeLessThanOrEqual(4) // at most one batch
  } finally {
    await store.close()
    await up.provider.close()
  }
}, 120_000)
