/**
 * `touchline serve --workers 2` as real processes: a primary and two workers on one port, over a private Redis,
 * in front of a provider this test runs (its clock frozen at the end, to compare with the truth). Clients
 * reach both workers; exactly one polls, and the poller lease never changes hands while the other worker is
 * killed with SIGKILL; that worker is started again and its WebSocket clients resume from their cursors with
 * no gap and no repeat; SIGHUP reloads the keys in both workers; SIGTERM to the primary ends every process
 * with exit 0. And the refusals: the memory store, a value that is not a count, Redis unreachable at start,
 * workers that keep dying at start.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createStore, type LiveStore } from '../../../src/store/index.ts'
import { lastFixtureCursor } from '../../helpers/log.ts'
import { freePort, startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { waitFor } from '../../helpers/wait.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { expectContiguous, expectEqualToTruth, startUpstream, wsSubscriber, type Subscriber, type Upstream } from '../resilience/harness.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
/** Starting three Node processes that load the TypeScript sources takes a while on a loaded machine. */
const START_MS = 150_000

interface Cluster { child: ChildProcess, url: string, stdout: () => string, stderr: () => string, exited: Promise<number | null> }

interface Status {
  process: { host: string, pid: number, worker: number | null }
  poller: { running: boolean, last_reconcile_at: string | null, pending_final: number } | null
  /** Every worker reports the poller of the one that polls; `here` on that one. */
  polled_by: { host: string, pid: number, worker: number | null, here: boolean } | null
  /** Fixtures in play in the store's live set (as the Live tab counts them), and the whole live set. */
  live_fixtures: number | null
  live_set: { total: number } | null
  connections: { ws: number }
}

/** The phases the scoreboard's Live tab counts, as `live_fixtures` does. */
const IN_PLAY = new Set(['live', 'break', 'suspended', 'unknown'])

function spawnServe (args: string[], env: Record<string, string>): Omit<Cluster, 'url'> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, NODE_ENV: 'test', TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { err += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, stdout: () => out, stderr: () => err, exited }
}

async function startCluster (env: Record<string, string>): Promise<Cluster> {
  const c = spawnServe(['--workers', '2'], env)
  const url = await waitFor(() => `the banner:\n${c.stdout()}${c.stderr()}`, () => {
    if (c.child.exitCode !== null) throw new Error(`exited ${c.child.exitCode}:\n${c.stdout()}${c.stderr()}`)
    return /touchline gateway\s+(http:\/\/\S+)/.exec(c.stdout())?.[1]
  }, START_MS, 100)
  return { ...c, url }
}

/** A command that must end by itself: its exit code and output. */
async function runToEnd (args: string[], env: Record<string, string>, ms = 90_000): Promise<{ code: number | null, stdout: string, stderr: string }> {
  const c = spawnServe(args, env)
  const timer = setTimeout(() => c.child.kill('SIGKILL'), ms)
  const code = await c.exited
  clearTimeout(timer)
  return { code, stdout: c.stdout(), stderr: c.stderr() }
}

/** `/v1/status` over a connection of its own, so the primary hands it to the next worker in turn. */
async function status (url: string): Promise<Status | undefined> {
  return await new Promise((resolve) => {
    const req = get(`${url}/v1/status`, { agent: false, timeout: 3000 }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => { body += d.toString() })
      res.on('end', () => {
        try { resolve(res.statusCode === 200 ? JSON.parse(body) as Status : undefined) } catch { resolve(undefined) }
      })
      res.on('error', () => resolve(undefined))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
  })
}

/** The latest status of every worker that answers, by pid, asking until `want` pids answered (or 40 tries). */
async function statuses (url: string, want = 2): Promise<Map<number, Status>> {
  const seen = new Map<number, Status>()
  for (let i = 0; i < 40 && seen.size < want; i++) {
    const s = await status(url)
    if (s !== undefined) seen.set(s.process.pid, s)
  }
  return seen
}

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true } catch { return false } }

/** The log as the workers wrote it, read over the same Redis. */
async function withStore<T> (redisUrl: string, fn: (store: LiveStore) => Promise<T>): Promise<T> {
  const connection = new Redis(redisUrl)
  try {
    return await fn(createStore({ kind: 'redis', redis: connection }))
  } finally {
    connection.disconnect()
  }
}

describe('serve --workers 2 over a private Redis', () => {
  let redis: PrivateRedis
  let up: Upstream
  let cluster: Cluster
  let keysFile: string
  const subscribers: Array<Subscriber & { client: WsTestClient }> = []

  beforeAll(async () => {
    redis = await startPrivateRedis()
    up = await startUpstream()
    keysFile = join(mkdtempSync(join(tmpdir(), 'touchline-workers-')), 'keys.json')
    writeFileSync(keysFile, JSON.stringify([{ key: 'demo', name: 'demo' }]))
    cluster = await startCluster({
      TOUCHLINE_UPSTREAM_URL: up.provider.baseUrl,
      TOUCHLINE_REDIS_URL: redis.url,
      TOUCHLINE_KEYS_FILE: keysFile,
      TOUCHLINE_LOG_LEVEL: 'info',
      TOUCHLINE_POLL_FLOOR_MS: '200',
      TOUCHLINE_RECONCILE_INTERVAL_MS: '2000'
    })
  }, START_MS + 30_000)

  afterAll(async () => {
    for (const s of subscribers) s.close()
    if (cluster?.child.exitCode === null) cluster.child.kill('SIGKILL')
    await up?.provider.close()
    await redis?.close()
  })

  it('clients reach both workers, and exactly one of them polls', async () => {
    for (let i = 0; i < 6; i++) subscribers.push(await wsSubscriber(cluster.url, up.leagues))
    const seen = await waitFor('both workers answer, holding all six connections', async () => {
      const s = await statuses(cluster.url)
      const total = [...s.values()].reduce((sum, x) => sum + x.connections.ws, 0)
      return s.size === 2 && total === 6 ? s : undefined
    }, 20_000, 200)
    const workers = [...seen.values()]
    expect(workers.map((w) => w.process.worker).sort()).toEqual([1, 2])
    for (const w of workers) expect(w.connections.ws, `worker ${String(w.process.worker)} serves some of the clients`).toBeGreaterThan(0)
    await waitFor('one worker polls', async () => [...(await statuses(cluster.url)).values()].filter((w) => w.polled_by?.here === true).length === 1, 20_000, 200)
    await waitFor('changes reach every client', () => subscribers.every((s) => s.mirror.changesSince(0).length >= 3), 30_000, 100)
  }, 90_000)

  it('every worker\'s /v1/status reports the live fixtures of the store and the one poller, naming the worker that polls', async () => {
    // Both workers asked, each on a connection of its own, until they agree with each other and with the
    // store. Before, the worker that does not poll said 0 live fixtures and a poller that did not run.
    let last = ''
    const seen = await waitFor(() => `both workers agree with the store: ${last}`, async () => {
      const s = await statuses(cluster.url)
      const live = await withStore(redis.url, async (store) => await store.liveFixtures())
      const inStore = live.length
      const inPlay = live.filter((f) => IN_PLAY.has(f.state.phase)).length
      const answers = [...s.values()]
      last = JSON.stringify({ inStore, inPlay, answers: answers.map((w) => ({ worker: w.process.worker, live: w.live_fixtures, set: w.live_set?.total, polledBy: w.polled_by, running: w.poller?.running })) })
      const agree = answers.length === 2 && inStore > 0 &&
        answers.every((w) => w.live_set?.total === inStore && w.live_fixtures === inPlay && w.poller?.running === true && w.polled_by !== null && w.polled_by.pid === answers[0]?.polled_by?.pid)
      return agree ? answers : undefined
    }, 20_000, 200)
    expect(seen.map((w) => w.process.worker).sort(), 'both workers answered').toEqual([1, 2])
    const leader = seen.find((w) => w.polled_by?.here === true)
    const follower = seen.find((w) => w.polled_by?.here === false)
    expect(leader, 'the worker that polls says so').toBeDefined()
    expect(follower, 'the other says another polls').toBeDefined()
    // What docs/operations.md says of a follower: the leader's poller as it published it, the leader named.
    const { host, pid, worker } = leader?.process ?? {}
    expect(follower?.polled_by).toMatchObject({ host, pid, worker, here: false })
    expect(leader?.polled_by).toMatchObject({ host, pid, worker, here: true })
    expect(follower?.poller).toMatchObject({ running: true })
  }, 60_000)

  it('/metrics, from whichever worker answers, is every worker\'s aggregated', async () => {
    expect((await statuses(cluster.url)).size).toBe(2)
    const metrics = async (): Promise<string> => await new Promise<string>((resolve, reject) => {
      get(`${cluster.url}/metrics`, { agent: false }, (res) => {
        let body = ''
        res.on('data', (d: Buffer) => { body += d.toString() })
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
    // The poller's first successful poll, awaited: on a loaded machine it may come after the tests before.
    await waitFor('a successful poll', async () => /^touchline_polls_total\{kind="latest",outcome="ok"\} [1-9]/m.test(await metrics()), 20_000)
    // Twice, on connections of their own: once from each worker, the same sums.
    for (let i = 0; i < 2; i++) {
      const text = await metrics()
      expect(text).toMatch(/^touchline_workers 2$/m)
      // Six WebSocket connections over the two workers: the sum, not one worker's share.
      expect(text).toMatch(/^touchline_connections\{transport="ws"\} 6$/m)
      // The poller's counters are there although one worker polls.
      expect(text).toMatch(/^touchline_polls_total\{kind="latest",outcome="ok"\} [1-9]/m)
    }
  }, 30_000)

  it('SIGHUP to the primary reloads the keys in every worker', async () => {
    writeFileSync(keysFile, JSON.stringify([{ key: 'demo', name: 'demo' }, { key: 'k_added_by_reload', name: 'added' }]))
    const before = cluster.stdout().length
    cluster.child.kill('SIGHUP')
    await waitFor('both workers log the reload', () => {
      const reloaded = cluster.stdout().slice(before).split('\n').filter((l) => l.includes('client keys reloaded'))
      return new Set(reloaded.map((l) => (JSON.parse(l) as { pid: number }).pid)).size === 2
    }, 20_000, 100)
    // Each request on a connection of its own: the primary hands them to both workers in turn.
    for (let i = 0; i < 4; i++) {
      const code = await new Promise<number | undefined>((resolve) => {
        get(`${cluster.url}/v1/changes?api_token=k_added_by_reload&limit=1`, { agent: false }, (res) => { res.resume(); resolve(res.statusCode) }).on('error', () => resolve(undefined))
      })
      expect(code, `request ${i} with the new key`).toBe(200)
    }
  }, 60_000)

  it('a worker killed with SIGKILL is started again; its clients resume with no gap and no repeat; the poller never changes', async () => {
    const before = await statuses(cluster.url)
    const poller = [...before.values()].find((w) => w.polled_by?.here === true) as Status
    const victim = [...before.values()].find((w) => w !== poller) as Status
    expect(poller, 'one worker polls').toBeDefined()
    expect(victim, 'the other worker').toBeDefined()

    // The poller lease, sampled until the end: always held, always by the same holder.
    const leaseKey = 'tl:lease:poller'
    const probe = redis.connect()
    const holders = new Set<string | null>()
    const sampling = { on: true }
    const sampler = (async () => {
      while (sampling.on) {
        holders.add(await probe.get(leaseKey))
        await sleep(100)
      }
    })()
    // Awaited below; if the test fails first, it stops here, and its Redis going away is no unhandled error.
    sampler.catch(() => {})
    onTestFinished(() => { sampling.on = false; probe.disconnect() })

    const dropped: Array<Subscriber & { client: WsTestClient }> = []
    for (const s of subscribers) s.client.closed.then(() => dropped.push(s), () => {})
    process.kill(victim.process.pid, 'SIGKILL')
    await waitFor('the killed worker\'s clients are dropped', () => dropped.length === victim.connections.ws, 10_000, 50)
    const kept = subscribers.filter((s) => !dropped.includes(s))
    expect(dropped.length).toBeGreaterThan(0)

    // Each dropped client comes back on a new connection and resumes from the last change it had.
    const resumed: Subscriber[] = []
    for (const s of dropped) resumed.push(await resume(cluster.url, s, up.leagues))

    const restarted = await waitFor('a worker started in place of the killed one', async () => {
      const now = await statuses(cluster.url)
      return [...now.values()].find((w) => w.process.pid !== poller.process.pid && w.process.pid !== victim.process.pid)
    }, START_MS, 500)
    expect(alive(victim.process.pid)).toBe(false)
    expect(restarted.process.worker).toBe(3)

    // Settle: the provider's clock stops; the poller reconciles; every client has the log's last record.
    up.freeze()
    const frozenAt = Date.now()
    await waitFor('a reconcile after the freeze, nothing pending', async () => {
      const p = (await statuses(cluster.url)).get(poller.process.pid)?.poller
      return p != null && Date.parse(p.last_reconcile_at ?? '') > frozenAt + 200 && p.pending_final === 0
    }, 30_000, 200)
    const head = await withStore(redis.url, lastFixtureCursor)
    const everyone = [...kept, ...resumed]
    for (const s of everyone) await waitFor(`${s.name} caught up with ${head}`, () => s.mirror.lastCursor === head, 15_000)
    sampling.on = false
    await sampler

    expect([...holders], 'one poller throughout: the lease always held, never by another').toHaveLength(1)
    expect([...holders][0]).not.toBeNull()
    for (const s of everyone) await withStore(redis.url, async (store) => { await expectContiguous(store, s) })
    await expectEqualToTruth(up, everyone)
    for (const s of resumed) s.close()
  }, START_MS + 90_000)

  it('SIGTERM to the primary: every worker shuts down gracefully and the primary exits 0', async () => {
    const pids = [...(await statuses(cluster.url)).keys()]
    expect(pids).toHaveLength(2)
    const closes = subscribers.filter((s) => s.client.ws.readyState === s.client.ws.OPEN).map(async (s) => await s.client.closed)
    const sentAt = Date.now()
    cluster.child.kill('SIGTERM')
    expect(await cluster.exited).toBe(0)
    expect(Date.now() - sentAt).toBeLessThan(12_000)
    for (const pid of pids) expect(alive(pid), `worker ${pid} ended`).toBe(false)
    // Clients are told: 1001 with the cursor to resume from.
    for (const closed of await Promise.all(closes)) expect(closed.code).toBe(1001)
  }, 30_000)
})

/** Moves a dropped subscriber to a new connection, resuming from its last cursor: it must be recovered. */
async function resume (url: string, from: Subscriber, leagues: number[]): Promise<Subscriber> {
  const client = await WsTestClient.connect(`${url.replace('http', 'ws')}/v1/live?api_token=demo`)
  const mirror = from.mirror
  client.ws.on('message', (data) => mirror.take(JSON.parse(data.toString()) as Frame))
  client.send({ op: 'subscribe', ref: 'resume', leagues, since: mirror.lastCursor, snapshot: false })
  const replay = await client.take('replay', 10_000)
  expect(replay.recovered, 'the cursor resumes on whichever worker took the new connection').toBe(true)
  return { name: `${from.name} resumed`, mirror, close: () => client.ws.terminate() }
}

describe('serve --workers refusals', () => {
  it('the memory store: exit 2, saying why', async () => {
    const flag = await runToEnd(['--workers', '2'], {})
    expect({ code: flag.code, listened: flag.stdout.includes('touchline gateway') }).toEqual({ code: 2, listened: false })
    expect(flag.stderr.trim()).toMatch(/^touchline: --workers: needs TOUCHLINE_REDIS_URL: the workers are processes of their own/)
    const setting = await runToEnd([], { TOUCHLINE_WORKERS: '2' })
    expect(setting.code).toBe(2)
    expect(setting.stderr).toMatch(/TOUCHLINE_WORKERS: needs TOUCHLINE_REDIS_URL/)
  }, 120_000)

  it('a value that is not a count: exit 2 naming it', async () => {
    for (const value of ['0', 'lots']) {
      const r = await runToEnd(['--workers', value], { TOUCHLINE_REDIS_URL: 'redis://127.0.0.1:6379' })
      expect({ value, code: r.code }).toEqual({ value, code: 2 })
      expect(r.stderr).toContain(`touchline: --workers: must be auto (one per core) or a whole number from 1 to 256, not "${value}"`)
    }
    const setting = await runToEnd([], { TOUCHLINE_WORKERS: 'many', TOUCHLINE_REDIS_URL: 'redis://127.0.0.1:6379' })
    expect(setting.code).toBe(2)
    expect(setting.stderr).toContain('TOUCHLINE_WORKERS: must be auto')
  }, 240_000)

  it('Redis unreachable at start: exit 2, one line naming the setting, as one process would', async () => {
    const port = await freePort()
    const r = await runToEnd(['--workers', '2'], { TOUCHLINE_REDIS_URL: `redis://127.0.0.1:${port}`, TOUCHLINE_LOG_LEVEL: 'warn' })
    expect({ code: r.code, listened: r.stdout.includes('touchline gateway'), stderr: r.stderr.trim().split('\n').length }, r.stdout + r.stderr)
      .toEqual({ code: 2, listened: false, stderr: 1 })
    expect(r.stderr).toMatch(new RegExp(`^touchline: TOUCHLINE_REDIS_URL: cannot connect to redis://127\\.0\\.0\\.1:${port}`))
  }, START_MS)

  it('workers that keep dying at start (Redis gone after the start): the primary gives up, exit 1, one line', async () => {
    const redis = await startPrivateRedis()
    try {
      const c = await startCluster({ TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_LOG_LEVEL: 'warn' })
      const pids = [...(await statuses(c.url)).keys()]
      expect(pids).toHaveLength(2)
      await redis.stop()
      process.kill(pids[0] as number, 'SIGKILL')
      const code = await c.exited
      expect(code, c.stdout() + c.stderr()).toBe(1)
      expect(c.stderr().trim().split('\n'), c.stderr()).toHaveLength(1)
      expect(c.stderr()).toMatch(/^touchline: workers keep failing at start \(5 in a row\); the last: TOUCHLINE_REDIS_URL: cannot connect/)
      for (const pid of pids) expect(alive(pid)).toBe(false)
    } finally {
      await redis.close()
    }
  }, START_MS + 300_000)
})
