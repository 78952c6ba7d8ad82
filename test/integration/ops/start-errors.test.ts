/**
 * A start that cannot succeed ends with exit code 2, before listening, naming the setting at fault:
 * TOUCHLINE_REDIS_URL where nothing listens, a TOUCHLINE_PORT already taken, a TOUCHLINE_HOST that does not resolve.
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

describe('a start that cannot succeed', () => {
  it('TOUCHLINE_REDIS_URL where nothing listens: exits non-zero, never listens, names the setting', async () => {
    const port = await freePort()
    const r = await run({ TOUCHLINE_REDIS_URL: `redis://127.0.0.1:${port}` })
    expect({ timedOut: r.timedOut, nonZero: r.code !== 0 && r.code !== null, listened: r.output.includes('touchline gateway'), named: r.output.includes('TOUCHLINE_REDIS_URL') })
      .toEqual({ timedOut: false, nonZero: true, listened: false, named: true })
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
