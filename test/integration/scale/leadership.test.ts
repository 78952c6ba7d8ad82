import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import type { StatusBody } from '../../../src/http/status.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'

describe('scale-out over Redis', () => {
  // Both gateways share one prefix, as the instances of one deployment do.
  const redis = useRedis({ per: 'file' })
  let provider: RunningProvider
  const gateways: Gateway[] = []

  beforeAll(async () => {
    provider = await startProvider({ port: 0, simSpeed: 300, hourlyLimits: { Enterprise: 100_000 } })
    const env = {
      TOUCHLINE_UPSTREAM_URL: provider.baseUrl,
      TOUCHLINE_REDIS_URL: redis.url,
      TOUCHLINE_REDIS_PREFIX: redis.prefix,
      TOUCHLINE_POLL_FLOOR_MS: '200'
    }
    // A 6 s lease, renewed every 2 s: a 1.5 s one lapsed by itself on a loaded machine (an event loop held up
    // for a quarter of a second made the leader step down). A stopped leader releases it: the takeover below
    // still comes within a second or so.
    for (let i = 0; i < 2; i++) gateways.push(await startTestGateway({ env, overrides: { leaseTtlMs: 6000 } }))
  })

  afterAll(async () => {
    for (const g of gateways) await g.close()
    await provider.close()
  })

  it('a cursor handed out by one instance resumes on the other', async () => {
    const [a, b] = gateways as [Gateway, Gateway]
    await waitFor('five records in the shared log', async () => (await a.store.readSince(undefined, { limit: 10 })).records.length >= 5, 10_000)
    const first = await (await fetch(`${a.url}/v1/changes?api_token=demo&limit=3`)).json() as { data: Array<{ cursor: string }>, cursor: string }
    expect(first.data).toHaveLength(3)
    const rest = await (await fetch(`${b.url}/v1/changes?api_token=demo&limit=2&since=${encodeURIComponent(first.cursor)}`)).json() as { data: Array<{ cursor: string }>, recovered: boolean }
    expect(rest.recovered).toBe(true)
    const all = await (await fetch(`${a.url}/v1/changes?api_token=demo&limit=5`)).json() as { data: Array<{ cursor: string }> }
    expect(rest.data.map((c) => c.cursor)).toEqual(all.data.slice(3, 5).map((c) => c.cursor))
  }, 30_000)

  it('both instances\' /v1/status report the store\'s live fixtures and the one poller, the follower naming the leader', async () => {
    await waitFor('one gateway leads', () => gateways.some((g) => g.isLeader()), 5000)
    const leader = gateways.find((g) => g.isLeader()) as Gateway
    const follower = gateways.find((g) => g !== leader) as Gateway
    const status = async (g: Gateway): Promise<StatusBody> => await (await fetch(`${g.url}/v1/status`)).json() as StatusBody
    let last = ''
    const [l, f] = await waitFor(() => `both agree with the store: ${last}`, async () => {
      const [answers, inStore] = await Promise.all([Promise.all([status(leader), status(follower)]), leader.store.liveFixtures()])
      // The whole live set, and those in play in it (as the scoreboard's Live tab counts them).
      const inPlay = inStore.filter((x) => ['live', 'break', 'suspended', 'unknown'].includes(x.state.phase)).length
      last = JSON.stringify({ inStore: inStore.length, inPlay, live: answers.map((a) => a.live_fixtures), set: answers.map((a) => a.live_set?.total), polledBy: answers.map((a) => a.polled_by) })
      const agree = inStore.length > 0 && answers.every((a) => a.live_set?.total === inStore.length && a.live_fixtures === inPlay && a.poller?.running === true)
      return agree ? answers : undefined
    }, 10_000, 100)
    // Both gateways run in this process: `here` is what tells them apart.
    expect(l.polled_by).toMatchObject({ host: l.process.host, pid: process.pid, worker: null, here: true })
    expect(f.polled_by).toMatchObject({ host: l.process.host, pid: process.pid, worker: null, here: false })
    // As published, before the follower answered; the odds poller with it.
    expect(Date.parse(f.polled_by?.published_at ?? '')).toBeLessThanOrEqual(Date.parse(f.now))
    expect(f.odds_poller?.running, 'the odds poller is published with it').toBe(l.odds_poller?.running)
  }, 30_000)

  it('exactly one instance polls, and another takes over within seconds when it stops', async () => {
    await waitFor('one gateway leads', () => gateways.some((g) => g.isLeader()), 5000)
    await sleep(1000)
    expect(gateways.filter((g) => g.isLeader())).toHaveLength(1)
    expect(gateways.filter((g) => g.poller.status().running)).toHaveLength(1)

    const leader = gateways.find((g) => g.isLeader()) as Gateway
    const follower = gateways.find((g) => g !== leader) as Gateway
    const before = (await follower.store.readSince(undefined, { limit: 1000 })).records.length
    expect(before).toBeGreaterThan(0)
    await leader.close()
    gateways.splice(gateways.indexOf(leader), 1)
    const closedAt = Date.now()
    await waitFor('the follower leads', () => follower.isLeader(), 6000)
    expect(Date.now() - closedAt).toBeLessThan(6000)
    expect(follower.poller.status().running).toBe(true)
    // The new leader keeps the shared log growing.
    const head = await follower.store.head()
    await waitFor('the log grows under the new leader', async () => (await follower.store.head()) !== head, 5000)
  }, 30_000)
})
