/**
 * A recording directory that stops being writable while the gateway runs (it was one at the start: the
 * settings refuse one that is not) does not stop the gateway: polls go on, one warning is logged.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.ts'
import { startGateway } from '../../../src/gateway.ts'

describe('TOUCHLINE_RECORD_DIR that cannot be written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-unwritable-'))
  afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

  it('leaves the poller polling and the store filling, with one warning', async () => {
    const blocked = join(dir, 'recorded')
    mkdirSync(blocked)
    const cfg = loadConfig({
      TOUCHLINE_HOST: '127.0.0.1',
      TOUCHLINE_PORT: '0',
      TOUCHLINE_PROVIDER_PORT: '0',
      TOUCHLINE_SIM_SPEED: '600',
      TOUCHLINE_POLL_FLOOR_MS: '100',
      TOUCHLINE_RECORD_DIR: blocked
    })
    // Taken away once the settings are read, before the first poll: a file where the recordings should go.
    rmSync(blocked, { recursive: true })
    writeFileSync(blocked, 'a file where the recordings should go')
    const lines: string[] = []
    const log = pino({ level: 'warn' }, { write: (line: string) => { lines.push(line) } })
    const gw = await startGateway(cfg, log, { provider: { hourlyLimits: { Enterprise: 100_000 } } })
    try {
      const deadline = Date.now() + 15_000
      while ((gw.poller.status().lastPollAt ?? 0) === 0 || (await gw.store.liveFixtures()).length === 0) {
        if (Date.now() > deadline) throw new Error('the poller did not fill the store')
        await sleep(100)
      }
      await sleep(1500)
      expect(gw.poller.status().consecutiveFailures).toBe(0)
      expect((await gw.store.liveFixtures()).length).toBeGreaterThan(0)
      expect(lines.filter((l) => l.includes('recording failed'))).toHaveLength(1)
      expect(lines.join('')).not.toContain('demo-enterprise')
    } finally {
      await gw.close()
    }
  }, 30_000)
})
