/**
 * A start that cannot succeed ends with exit code 2, before listening, naming the setting at fault:
 * TOUCHLINE_REDIS_URL where nothing listens, a TOUCHLINE_PORT already taken, a TOUCHLINE_HOST that does not
 * resolve, a TOUCHLINE_TRUST_PROXY that is not an address. What the operator reads is one line naming the
 * setting: no stack, no log line of the failed connection before it.
 */
import { spawn } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../helpers/redis-server.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))

async function run (env: Record<string, string>, ms = 20_000): Promise<{ code: number | null, output: string, timedOut: boolean }> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, NODE_ENV: 'test', TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr.on('data', (d: Buffer) => { output += d.toString() })
  let timedOut = false
  const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, ms)
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
  clearTimeout(timer)
  return { code, output, timedOut }
}

/** Whether the output shows a stack trace (a line of it, or a logged error's `stack` field). */
const hasStack = (output: string): boolean => /^\s+at /m.test(output) || output.includes('"stack"')

describe('a start that cannot succeed', () => {
  it('TOUCHLINE_REDIS_URL where nothing listens: exit 2, never listens, one line naming the setting, no stack', async () => {
    const port = await freePort()
    const r = await run({ TOUCHLINE_REDIS_URL: `redis://127.0.0.1:${port}` })
    const lines = r.output.trim().split('\n')
    expect({ timedOut: r.timedOut, code: r.code, listened: r.output.includes('touchline gateway'), lines: lines.length, stack: hasStack(r.output) }, r.output)
      .toEqual({ timedOut: false, code: 2, listened: false, lines: 1, stack: false })
    expect(lines[0]).toMatch(new RegExp(`^touchline: TOUCHLINE_REDIS_URL: cannot connect to redis://127\\.0\\.0\\.1:${port}`))
  }, 30_000)

  // Shaped like an address list, so it passed the first check, and only fastify's proxy library refused it.
  // The other malformed lists are in the settings' unit tests.
  it('TOUCHLINE_TRUST_PROXY=999.1.1.1/99: exit 2 naming the setting, no stack', async () => {
    const r = await run({ TOUCHLINE_TRUST_PROXY: '999.1.1.1/99' })
    expect({ timedOut: r.timedOut, code: r.code, listened: r.output.includes('touchline gateway'), named: r.output.includes('TOUCHLINE_TRUST_PROXY'), stack: hasStack(r.output) }, r.output)
      .toEqual({ timedOut: false, code: 2, listened: false, named: true, stack: false })
  }, 30_000)

  it('TOUCHLINE_PORT already taken: exits 2, names the setting', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const r = await run({ TOUCHLINE_PORT: String((taken.address() as AddressInfo).port) })
      expect({ timedOut: r.timedOut, code: r.code, named: r.output.includes('TOUCHLINE_PORT: cannot listen') }).toEqual({ timedOut: false, code: 2, named: true })
    } finally {
      taken.close()
    }
  }, 30_000)

  it('TOUCHLINE_HOST that does not resolve: exits non-zero, names the setting', async () => {
    const r = await run({ TOUCHLINE_HOST: 'no-such-host.invalid' })
    expect({ timedOut: r.timedOut, nonZero: r.code !== 0 && r.code !== null, named: r.output.includes('TOUCHLINE_HOST') })
      .toEqual({ timedOut: false, nonZero: true, named: true })
  }, 30_000)
})
