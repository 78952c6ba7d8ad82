/**
 * Leadership when the leader process dies: three `touchline serve` processes share a
 * private Redis; the one that polls is killed with SIGKILL (no release of its lease). Exactly one of the
 * other two must poll within the lease time (10 s, the default) plus 2 s, never two at once, and
 * subscribers must see no gap: one on a surviving instance all along, and one of the killed instance that
 * resumes on a survivor from its last cursor.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { lastFixtureCursor } from '../../helpers/log.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { expectContiguous, expectEqualToTruth, startUpstream, wsSubscriber, type Subscriber, type Upstream } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
/** The gateway's default lease (src/gateway.ts): these processes run with the production setting. */
const LEASE_TTL_MS = 10_000

interface Instance { child: ChildProcess, url: string, output: () => string }

interface StatusBody {
  cursor: string
  poller: { running: boolean, last_reconcile_at: string | null, pending_final: number } | null
  /** `here`: this instance polls (every instance reports the poller, as its polling instance published it). */
  polled_by: { here: boolean } | null
}

let redis: PrivateRedis
let up: Upstream
const instances: Instance[] = []

async function startInstance (): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TOUCHLINE_PORT: '0',
      TOUCHLINE_HOST: '127.0.0.1',
      TOUCHLINE_UPSTREAM_URL: up.provider.baseUrl,
      TOUCHLINE_REDIS_URL: redis.url,
      TOUCHLINE_LOG_LEVEL: 'warn',
      TOUCHLINE_POLL_FLOOR_MS: '200',
      TOUCHLINE_RECONCILE_INTERVAL_MS: '2000'
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  await waitFor('the gateway prints its URL', () => /touchline gateway\s+http:\/\//.test(out) || child.exitCode !== null, 30_000)
  const url = /touchline gateway\s+(http:\/\/\S+)/.exec(out)?.[1]
  if (url === undefined) throw new Error(`gateway did not start:\n${out}`)
  return { child, url, output: () => out }
}

async function status (i: Instance): Promise<StatusBody | undefined> {
  try {
    const res = await fetch(`${i.url}/v1/status`, { signal: AbortSignal.timeout(2000) })
    return res.status === 200 ? await res.json() as StatusBody : undefined
  } catch {
    return undefined
  }
}

async function pollers (among: Instance[]): Promise<Instance[]> {
  const states = await Promise.all(among.map(async (i) => (await status(i))?.polled_by?.here === true))
  return among.filter((_, k) => states[k])
}

beforeAll(async () => {
  redis = await startPrivateRedis()
  up = await startUpstream()
  for (let k = 0; k < 3; k++) instances.push(await startInstance())
}, 120_000)

afterAll(async () => {
  for (const i of instances) i.child.kill('SIGKILL')
  await up?.provider.close()
  await redis?.close()
})

it('SIGKILL of the polling process: exactly one other polls within the lease time + 2 s, and subscribers see no gap', async () => {
  await waitFor('one instance polls', async () => (await pollers(instances)).length === 1, 15_000)
  const [leader] = await pollers(instances) as [Instance]
  const survivors = instances.filter((i) => i !== leader)
  const steady = await wsSubscriber(survivors[0]?.url as string, up.leagues)
  const moving = await wsSubscriber(leader.url, up.leagues)
  await waitFor('changes flowing', () => steady.mirror.changesSince(0).length >= 5 && moving.mirror.changesSince(0).length >= 5, 20_000)

  // Never two pollers, sampled until the end of the test.
  const overlaps: string[] = []
  const sampling = { on: true }
  const sampler = (async () => {
    while (sampling.on) {
      const running = await pollers(survivors)
      if (running.length > 1) overlaps.push(`${running.length} pollers at ${Date.now()}`)
      await sleep(100)
    }
  })()

  const killedAt = Date.now()
  leader.child.kill('SIGKILL')
  await waitFor('one survivor polls', async () => (await pollers(survivors)).length === 1, LEASE_TTL_MS + 2000)
  const tookOver = Date.now() - killedAt
  expect(tookOver).toBeLessThanOrEqual(LEASE_TTL_MS + 2000)
  console.info(`leader SIGKILL (lease ${LEASE_TTL_MS} ms): a survivor polled after ${tookOver} ms`)

  // The killed instance's subscriber resumes on a survivor from the last change it got.
  const resumed = await resume(survivors[1] as Instance, moving)
  const atTakeover = steady.mirror.lastCursor
  await waitFor('changes from the new poller', () => steady.mirror.lastCursor !== atTakeover, 10_000)
  await sleep(3000)
  sampling.on = false
  await sampler
  expect(overlaps, 'two pollers at once').toEqual([])
  expect(await pollers(survivors)).toHaveLength(1)

  for (const s of [steady, resumed]) await withStore(async (store) => { await expectContiguous(store, s) })
  const newLeader = (await pollers(survivors))[0] as Instance
  await settleOver(newLeader, [steady, resumed])
  await expectEqualToTruth(up, [steady, resumed])
  steady.close()
  resumed.close()
}, 120_000)

/** Moves a subscriber of a dead instance to `to`, resuming with `since`: it must be recovered. */
async function resume (to: Instance, from: Subscriber): Promise<Subscriber> {
  const client = await WsTestClient.connect(`${to.url.replace('http', 'ws')}/v1/live?api_token=demo`)
  const mirror = from.mirror
  client.ws.on('message', (data) => mirror.take(JSON.parse(data.toString()) as Frame))
  client.send({ op: 'subscribe', ref: 'resume', leagues: up.leagues, since: mirror.lastCursor, snapshot: false })
  const replay = await client.take('replay', 10_000)
  expect(replay.recovered, 'the cursor of the killed instance resumes on a survivor').toBe(true)
  return { name: 'resumed', mirror, close: () => client.ws.terminate() }
}

/** Runs `fn` with a store over the instances' Redis (to read their log). */
async function withStore<T> (fn: (store: LiveStore) => Promise<T>): Promise<T> {
  const connection = new Redis(redis.url)
  try {
    return await fn(createStore({ kind: 'redis', redis: connection }))
  } finally {
    connection.disconnect()
  }
}

/** settle() for a poller in another process: freeze, then wait on its /v1/status. */
async function settleOver (poller: Instance, subscribers: Subscriber[]): Promise<void> {
  up.freeze()
  const frozenAt = Date.now()
  await waitFor('a reconcile after the freeze, nothing pending', async () => {
    const p = (await status(poller))?.poller
    return p != null && Date.parse(p.last_reconcile_at ?? '') > frozenAt + 200 && p.pending_final === 0
  }, 20_000)
  // The last record a subscriber without odds gets (the odds poller appends its records to the same log).
  const head = await withStore(lastFixtureCursor)
  for (const s of subscribers) await waitFor(`${s.name} caught up with ${head}`, () => s.mirror.lastCursor === head, 10_000)
}
