/**
 * Redis as production runs it, in private processes: a primary, a replica and three sentinels (Debian's
 * `redis-server`, the sentinels as `redis-server <conf> --sentinel`), on free ports, without persistence.
 * The sentinels decide fast (down after 1 s without an answer, a failover timeout of 4 s), so a failover
 * completes in a few seconds. The replica replicates through a TCP proxy, which a test freezes to hold the
 * replication stream back: the writes the primary acknowledges meanwhile never reach the replica, as with a
 * replica lagging when its primary dies.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freePort } from './redis-server.ts'
import { waitFor } from './wait.ts'

export const MASTER_NAME = 'mymaster'

export interface RedisNode {
  port: number
  /** A command connection to this node alone (not through the sentinels); closed by the group's `close`. */
  conn: Redis
  /** SIGKILL: no goodbye to anyone, its data gone. */
  kill: () => Promise<void>
  alive: () => boolean
}

export interface SentinelGroup {
  /** TOUCHLINE_REDIS_URL in the Sentinel form: `redis+sentinel://127.0.0.1:<s1>,.../mymaster`. */
  url: string
  primary: RedisNode
  replica: RedisNode
  sentinelPorts: number[]
  /**
   * Holds back the primary's replication link to the replica (the proxy stops forwarding it), so the
   * primary's next writes never reach the replica; `dropHeld` closes it for good (after the kill).
   */
  holdBackReplica: () => Promise<void>
  dropHeld: () => void
  /** The port every sentinel names as the master now (undefined while they disagree). */
  masterPort: () => Promise<number | undefined>
  /** Waits until every sentinel names `port` as the master and that node says it is one. */
  waitForMaster: (port: number, timeoutMs?: number) => Promise<void>
  close: () => Promise<void>
}

const started: ChildProcess[] = []

function run (args: string[]): ChildProcess {
  const proc = spawn('redis-server', args, { stdio: 'ignore' })
  started.push(proc)
  return proc
}

function connection (port: number): Redis {
  const conn = new Redis({ port, host: '127.0.0.1', lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: () => 200, enableOfflineQueue: true })
  conn.on('error', () => {})
  return conn
}

async function startNode (dir: string, replicaOf?: number): Promise<RedisNode> {
  const port = await freePort()
  const proc = run([
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    '--enable-debug-command', 'local', '--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0',
    ...(replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)])
  ])
  let alive = true
  proc.once('exit', () => { alive = false })
  const conn = connection(port)
  await waitFor(`redis-server on ${port} answering`, async () => await conn.ping().then(() => true, () => false), 10_000, 50)
  return {
    port,
    conn,
    alive: () => alive,
    async kill () {
      if (!alive) return
      const exited = once(proc, 'exit')
      proc.kill('SIGKILL')
      await exited
    }
  }
}

async function startSentinel (dir: string, masterPort: number): Promise<{ port: number, conn: Redis }> {
  const port = await freePort()
  const conf = join(dir, `sentinel-${port}.conf`)
  writeFileSync(conf, [
    `port ${port}`, 'bind 127.0.0.1', `dir ${dir}`,
    `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
    `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
    `sentinel failover-timeout ${MASTER_NAME} 4000`,
    `sentinel parallel-syncs ${MASTER_NAME} 1`, ''
  ].join('\n'))
  run([conf, '--sentinel'])
  const conn = connection(port)
  await waitFor(`sentinel on ${port} answering`, async () => await conn.ping().then(() => true, () => false), 10_000, 50)
  return { port, conn }
}

/** Fields of `SENTINEL MASTER <name>` as an object. */
async function masterInfo (conn: Redis): Promise<Record<string, string>> {
  const flat = await conn.call('SENTINEL', 'MASTER', MASTER_NAME) as string[]
  const out: Record<string, string> = {}
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string
  return out
}

/**
 * The proxy's code, run in a process of its own: in the test's process, a busy event loop (hundreds of
 * clients) would delay the sentinels' pings through it past their 1 s and start a failover of its own.
 * It prints its port, then takes `{hold: port}` (hold back the link that reaches the target from `port`,
 * answering `{held}`) and `{drop: true}` (close the held links) over IPC.
 */
const PROXY = `
const net = require('node:net')
const target = Number(process.argv[1])
const pairs = new Set()
const server = net.createServer((client) => {
  const upstream = net.connect(target, '127.0.0.1')
  const pair = { client, upstream, held: false }
  pairs.add(pair)
  for (const sock of [client, upstream]) {
    sock.on('error', () => {})
    sock.on('close', () => { pairs.delete(pair); client.destroy(); upstream.destroy() })
  }
  client.pipe(upstream).pipe(client)
})
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (m) => {
  if (m.hold !== undefined) {
    const pair = [...pairs].find((p) => p.upstream.localPort === m.hold)
    if (pair) { pair.held = true; pair.upstream.unpipe(pair.client); pair.upstream.pause() }
    process.send({ held: pair !== undefined })
  }
  if (m.drop) for (const p of pairs) if (p.held) { p.client.destroy(); p.upstream.destroy() }
})
process.on('disconnect', () => process.exit(0))
`

interface Proxy { port: number, hold: (fromPort: number) => Promise<boolean>, dropHeld: () => void }

async function startProxy (target: number): Promise<Proxy> {
  const proc = spawn(process.execPath, ['-e', PROXY, String(target)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  started.push(proc)
  const [first] = await once(proc, 'message') as [{ port: number }]
  return {
    port: first.port,
    async hold (fromPort) {
      const answer = once(proc, 'message') as Promise<[{ held: boolean }]>
      proc.send({ hold: fromPort })
      return (await answer)[0].held
    },
    dropHeld: () => { proc.send({ drop: true }) }
  }
}

export async function startSentinelGroup (): Promise<SentinelGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-sentinel-'))
  const primary = await startNode(dir)
  // The first primary is reached through the proxy by everyone: the sentinels, the replica, the gateways.
  const proxy = await startProxy(primary.port)
  const replica = await startNode(dir, proxy.port)
  await waitFor('the replica in sync', async () => /master_link_status:up/.test(await replica.conn.info('replication')), 10_000, 50)
  const sentinels = [await startSentinel(dir, proxy.port), await startSentinel(dir, proxy.port), await startSentinel(dir, proxy.port)]
  // Sentinels find each other and the replica through the primary (hello messages every 2 s).
  await waitFor('every sentinel knowing the two others and the replica', async () => {
    for (const s of sentinels) {
      const info = await masterInfo(s.conn).catch(() => ({} as Record<string, string>))
      if (info['num-other-sentinels'] !== '2' || info['num-slaves'] !== '1') return false
    }
    return true
  }, 20_000, 200)

  const masterPort = async (): Promise<number | undefined> => {
    const named = await Promise.all(sentinels.map(async (s) =>
      await (s.conn.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME) as Promise<[string, string] | null>).catch(() => null)))
    const ports = new Set(named.map((n) => n?.[1]))
    return ports.size === 1 && named[0] != null ? Number(named[0][1]) : undefined
  }

  return {
    url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${MASTER_NAME}`,
    primary,
    replica,
    sentinelPorts: sentinels.map((s) => s.port),
    async holdBackReplica () {
      // The replica's link as the primary sees it: from the proxy's side of the pair.
      const list = await primary.conn.call('CLIENT', 'LIST') as string
      const fromPort = Number(/addr=[\d.]+:(\d+) .* flags=S /.exec(list)?.[1])
      if (!await proxy.hold(fromPort)) throw new Error(`no replication link through the proxy (${list.trim()})`)
    },
    dropHeld: () => proxy.dropHeld(),
    masterPort,
    async waitForMaster (port, timeoutMs = 30_000) {
      const node = port === replica.port ? replica : primary
      await waitFor(`every sentinel naming ${port} the master, and it one`, async () =>
        await masterPort() === port && /role:master/.test(await node.conn.info('replication').catch(() => '')), timeoutMs, 50)
    },
    async close () {
      for (const c of [primary.conn, replica.conn, ...sentinels.map((s) => s.conn)]) c.disconnect()
      const procs = started.splice(0)
      await Promise.all(procs.map(async (p) => {
        if (p.exitCode !== null || p.signalCode !== null) return
        const exited = once(p, 'exit')
        p.kill('SIGKILL')
        await exited
      }))
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
