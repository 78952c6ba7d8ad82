/**
 * A gateway killed with SIGKILL in the middle of a send (a `touchline serve` process whose push request
 * the push service holds unanswered), and a second gateway on the same Redis that takes its shards over:
 * every follower gets every alert exactly once, the one in flight at the kill included (the push service
 * had it: it is not sent again), and the changes made while no sender ran are sent by the successor.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { createStore } from '../../../src/store/index.ts'
import { matches } from '../../helpers/matches.ts'
import { startPushService } from '../../helpers/push-service.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, pushEnv, startPushGateway } from './harness.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const redis = useRedis()

async function startChild (env: Record<string, string>): Promise<{ child: ChildProcess, url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, NODE_ENV: 'test', TOUCHLINE_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const url = await waitFor(() => `the gateway prints its URL:\n${out}`, () => {
    if (child.exitCode !== null) throw new Error(`gateway exited:\n${out}`)
    return /touchline gateway\s+(http:\/\/\S+)/.exec(out)?.[1]
  }, 30_000)
  return { child, url }
}

it('a gateway killed mid-send and its successor send every alert once, none lost', async () => {
  let held: (() => void) | undefined
  const service = await startPushService((n) => {
    if (n !== 0) return 201
    // The first push request is never answered: the sender is in the middle of it when it is killed.
    return new Promise<'hang'>((resolve) => { held = () => resolve('hang') })
  })
  const env = { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix, TOUCHLINE_PUSH_LEASE_TTL_MS: '1000', TOUCHLINE_PUSH_SHARDS: '2' }
  const store = createStore({ kind: 'redis', redis: redis.connect(), prefix: redis.prefix })
  const match = await matches(store).start(8101, 501, 'Celtic', 'Rangers')
  const { child, url } = await startChild(pushEnv(env))
  for (const d of [service.newDevice(), service.newDevice(), service.newDevice()]) {
    expect((await follow({ url }, ALL_KEY.key, d.subscription, { fixtures: [8101] })).status).toBe(201)
  }
  let killed = false
  try {
    await match.goal('home', 'Furuhashi', 12)
    await waitFor('the first push request, held', () => held !== undefined, 15_000)
    child.kill('SIGKILL')
    killed = true
    await new Promise((resolve) => child.once('exit', resolve))
    held?.()
    // Changes while no sender runs.
    await match.card('away', 'Goldson', 30, 'REDCARD')
    await match.goal('away', 'Dessers', 41)

    const successor = await startPushGateway(env)
    expect(successor.push).toBeDefined()
    const devices = [...new Set(service.messages.map((m) => m.device))]
    const idsOf = (device: string): string[] => service.messages.filter((m) => m.device === device).map((m) => m.payload?.id ?? '?')
    await waitFor(() => `three alerts each: ${JSON.stringify(devices.map(idsOf))}`, () => devices.length === 3 && devices.every((d) => idsOf(d).length >= 3), 20_000)
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const goal1 = service.messages[0]?.payload?.id
    expect(goal1).toMatch(/^f8101:goal:e\d+$/)
    for (const d of devices) {
      const ids = idsOf(d)
      expect(ids).toHaveLength(3)
      expect(ids[0]).toBe(goal1)
      expect(ids.slice(1).map((id) => id.replace(/:e\d+$/, ''))).toEqual(['f8101:red_card', 'f8101:goal'])
    }
    for (const m of service.messages) expect(m.decryptProblem).toBeUndefined()
  } finally {
    if (!killed) child.kill('SIGKILL')
    await store.close()
  }
}, 90_000)
