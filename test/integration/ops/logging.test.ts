/**
 * Log output of a real `touchline serve` on a terminal: pretty through pino-pretty when it is installed,
 * JSON lines when it is not (the production image prunes devDependencies), never a crash at start.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { spawnGateway } from './gateway-process.ts'

const TTY_PRELOAD = fileURLToPath(new URL('./fixtures/tty-preload.cjs', import.meta.url))

describe('logging on a terminal', () => {
  for (const installed of [false, true]) {
    it(installed ? 'is pretty when pino-pretty is installed' : 'falls back to JSON lines when pino-pretty is not installed', async () => {
      const gw = await spawnGateway({
        nodeArgs: ['--require', TTY_PRELOAD],
        env: { NODE_ENV: 'production', TL_HIDE_PINO_PRETTY: installed ? '0' : '1' }
      })
      expect((await fetch(`${gw.url}/healthz`)).status).toBe(200)
      gw.child.kill('SIGTERM')
      expect(await gw.exited).toBe(0)
      const listening = gw.output().split('\n').filter((l) => l.includes('Server listening at'))
      expect(listening.length).toBeGreaterThan(0)
      if (installed) expect(listening.every((l) => / INFO: /.test(l) && !l.startsWith('{'))).toBe(true)
      else expect(gw.logs().some((l) => l.level === 30 && l.msg.startsWith('Server listening at'))).toBe(true)
      expect(gw.output()).not.toMatch(/unable to determine transport target|Cannot find module/)
    }, 60_000)
  }
})
