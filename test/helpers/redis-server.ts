/**
 * A private `redis-server` on a free port, for tests that must stop Redis: the shared one at 6379 is never
 * stopped, flushed or paused (HELPERS.md rule 2). No persistence: a stopped server keeps nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'

export interface OwnRedis {
  url: string
  /** Kills the server (SIGKILL) and waits until it is gone. Idempotent. */
  stop: () => Promise<void>
}

async function freePort (): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise((resolve) => server.close(resolve))
  return port
}

export async function startOwnRedis (): Promise<OwnRedis> {
  const port = await freePort()
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const url = `redis://127.0.0.1:${port}`
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  probe.on('error', () => {})
  try {
    for (let i = 0; ; i++) {
      try {
        await probe.connect()
        await probe.ping()
        break
      } catch (err) {
        if (i > 50) throw err
        probe.disconnect()
        await sleep(50)
      }
    }
  } finally {
    probe.disconnect()
  }
  let stopped = false
  return {
    url,
    async stop () {
      if (stopped) return
      stopped = true
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit')
        child.kill('SIGKILL')
        await exited
      }
    }
  }
}
