/**
 * Redis loses everything (a restart without persistence) while an endpoint is caught up: the endpoint gets a
 * `resync`, and the instance that takes its lease again keeps delivering what is appended after (a worker
 * whose write the lease refused waits for its leader rather than ending).
 */
import { expect, it } from 'vitest'
import { applier } from '../fanout/harness.ts'
import { hookKey, SECRET, startHookGateway, startReceiver, writeKeys } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'
import { useRedis } from '../../helpers/redis.ts'

const shared = useRedis()

it('after Redis loses its data, the instance that retakes the lease keeps delivering (worker not left stopped)', async () => {
  const receiver = await startReceiver()
  const keysFile = writeKeys([hookKey([{ id: 'x', url: receiver.url, secret: SECRET }])])
  const p = shared.prefix
  const gw = await startHookGateway(keysFile, { TOUCHLINE_REDIS_URL: shared.url, TOUCHLINE_REDIS_PREFIX: p, TOUCHLINE_WEBHOOK_LEASE_TTL_MS: '1000' })
  const key = gw.keys.all()[0]!
  await waitFor('started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  const head1 = await gw.store.head()
  await waitFor('first acked', async () => (await gw.webhooks.list(key))[0]?.cursor === head1, 5000)
  const before = receiver.requests.length

  await shared.wipe()
  const apply = applier(gw.store)
  for (let i = 0; i < 3; i++) await apply(8 + i, 271)
  await new Promise((resolve) => setTimeout(resolve, 4000))
  const got = receiver.requests.slice(before).filter((q) => q.answer === 200)
  const resync = got.some((q) => q.body.type === 'resync')
  const frames = got.flatMap((q) => q.body.data ?? []).map((f) => f.cursor)
  // Held up: the receiver was told (a resync, or the frames).
  expect(resync || frames.length >= 3).toBe(true)

  // The instance still holds the endpoint's lease (retaken after the loss): later changes must be delivered.
  const n = receiver.requests.length
  await apply(20, 271)
  await apply(21, 271)
  const head = await gw.store.head()
  await waitFor('changes after the loss delivered', async () => (await gw.webhooks.list(key))[0]?.cursor === head, 8000)
    .catch(async (err: unknown) => {
      const v = (await gw.webhooks.list(key))[0]
      const s = await gw.webhooks.summary()
      throw new Error(`${String(err)}; requests since=${receiver.requests.length - n} state=${v?.state} cursor=${v?.cursor} head=${head} delivering_here=${s.delivering_here} lease=${await shared.redis.keys(`${p}*lease*`)}`)
    })
}, 30_000)
