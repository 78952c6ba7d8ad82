/**
 * Two gateways on one Redis share the push shards (a lease each): every follower gets every alert exactly
 * once, while both send and after one of them stops and the other takes its shards over.
 */
import { expect, it, onTestFinished } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import { matches } from '../../helpers/matches.ts'
import { startPushService } from '../../helpers/push-service.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, startPushGateway } from './harness.ts'

const redis = useRedis()

it('two instances on one Redis send each alert once, and one takes over the other\'s shards', async () => {
  const service = await startPushService()
  const env = { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix, TOUCHLINE_PUSH_LEASE_TTL_MS: '1000', TOUCHLINE_PUSH_SHARDS: '4' }
  const a = await startPushGateway(env)
  const b = await startPushGateway(env)
  const store = createStore({ kind: 'redis', redis: redis.connect(), prefix: redis.prefix })
  onTestFinished(async () => { await store.close() })
  const match = await matches(store).start(8201, 501, 'Hearts', 'Hibernian')
  const devices = Array.from({ length: 12 }, () => service.newDevice())
  for (const [i, d] of devices.entries()) expect((await follow(i % 2 === 0 ? a : b, ALL_KEY.key, d.subscription, { fixtures: [8201] })).status).toBe(201)
  await waitFor('both instances hold shards', async () => {
    const [sa, sb] = [await a.push?.summary(), await b.push?.summary()]
    return sa !== undefined && sb !== undefined && sa.sending_here > 0 && sb.sending_here > 0 && sa.sending_here + sb.sending_here === 4
  }, 15_000)

  for (let minute = 1; minute <= 5; minute++) await match.goal(minute % 2 === 0 ? 'home' : 'away', `Scorer${minute}`, minute * 10)
  const idsOf = (device: string): string[] => service.messages.filter((m) => m.device === device).map((m) => m.payload?.id ?? '?')
  await waitFor('five goals to every device', () => devices.every((d) => idsOf(d.id).length >= 5), 15_000)

  // One instance stops: its shards move to the other, which goes on from their cursors.
  await a.close()
  await waitFor('the other instance sends every shard', async () => (await b.push?.summary())?.sending_here === 4, 15_000)
  for (let minute = 6; minute <= 8; minute++) await match.goal('home', `Scorer${minute}`, minute * 10)
  await match.card('away', 'Late', 88, 'REDCARD')
  await waitFor('every alert to every device', () => devices.every((d) => idsOf(d.id).length >= 9), 15_000)
  await new Promise((resolve) => setTimeout(resolve, 1500))

  const expected = match.fixture.events.map((e) => `f8201:${e.type === 'REDCARD' ? 'red_card' : 'goal'}:e${e.id}`)
  for (const d of devices) expect(idsOf(d.id)).toEqual(expected)
}, 90_000)
