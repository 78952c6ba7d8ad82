/**
 * A private `redis-server` for the tests that flush, restart or freeze Redis: never the shared one at 6379,
 * which every helper's tests use at once. It runs without persistence (`--save '' --appendonly no`), so a
 * restart loses every key, as a Redis restarted without persistence does in production.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { Redis, type RedisOptions } from 'ioredis'
import { waitFor } from './wait.ts'

export interface PrivateRedis {
  port: number
  /** redis://127.0.0.1:<port> */
  url: string
  /** A connection to it (errors while it is down are expected, so not reported); disconnected by `close`. */
  connect: (options?: RedisOptions) => Redis
  /** Drops every key (FLUSHALL): safe here, the server is this test's alone. */
  flush: () => Promise<void>
  /** Kills the server (SIGKILL: no goodbye to clients); its data is gone. */
  stop: () => Promise<void>
  /** Starts it again on the same port, empty, and waits until it answers PING. */
  start: () => Promise<void>
  /**
   * Freezes the server (SIGSTOP): its sockets stay open and accept nothing more, nothing is answered, no
   * error reaches its clients (a hung VM, a stalled disk). `thaw` (SIGCONT) lets it go on with its data.
   */
  freeze: () => void
  thaw: () => void
  /** Disconnects the connections opened by `connect` and stops the server for good (call in afterAll). */
  close: () => Promise<void>
}

/** A port nobody listens on right now: listen on 0, read the port, close. */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function waitForPing (url: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(`redis-server at ${url} answering PING`, async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 })
    probe.on('error', () => {})
    try {
      await probe.connect()
      return await probe.ping() === 'PONG'
    } catch {
      return false
    } finally {
      probe.disconnect()
    }
  }, timeoutMs, 50)
}

export async function startPrivateRedis (): Promise<PrivateRedis> {
  const port = await freePort()
  const url = `redis://127.0.0.1:${port}`
  let child: ChildProcess | undefined

  const start = async (): Promise<void> => {
    if (child !== undefined) return
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
    child = proc
    proc.once('exit', () => { if (child === proc) child = undefined })
    await waitForPing(url)
  }

  const stop = async (): Promise<void> => {
    const proc = child
    if (proc === undefined) return
    child = undefined
    const exited = once(proc, 'exit')
    // SIGKILL ends a frozen (SIGSTOPped) process too.
    proc.kill('SIGKILL')
    await exited
  }

  const conns: Redis[] = []
  const connect = (options: RedisOptions = {}): Redis => {
    const conn = new Redis(url, options)
    conn.on('error', () => {})
    conns.push(conn)
    return conn
  }

  await start()
  return {
    port,
    url,
    connect,
    async flush () {
      const redis = connect({ maxRetriesPerRequest: 1 })
      try {
        await redis.flushall()
      } finally {
        redis.disconnect()
      }
    },
    stop,
    start,
    freeze: () => { child?.kill('SIGSTOP') },
    thaw: () => { child?.kill('SIGCONT') },
    async close () {
      for (const c of conns.splice(0)) c.disconnect()
      await stop()
    }
  }
}
