/** TOUCHLINE_WORKERS and `--workers` (src/cluster.ts): a count from 1 to 256 or `auto`, and only over Redis. */
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseWorkers } from '../../../src/config.ts'

const REDIS = { TOUCHLINE_REDIS_URL: 'redis://127.0.0.1:6379' }

describe('workers setting', () => {
  it('takes a whole number from 1 to 256, or auto', () => {
    expect(parseWorkers('1')).toBe(1)
    expect(parseWorkers('256')).toBe(256)
    expect(parseWorkers(' 4 ')).toBe(4)
    expect(parseWorkers('auto')).toBe('auto')
    for (const bad of ['0', '257', '1.5', '-2', 'two', '', 'AUTO', '0x10']) {
      expect(parseWorkers(bad), bad).toEqual({ problem: expect.stringContaining('must be auto (one per core) or a whole number from 1 to 256') })
    }
  })

  it('TOUCHLINE_WORKERS is unset by default (one process) and parsed when set over Redis', () => {
    expect(loadConfig({}).TOUCHLINE_WORKERS).toBeUndefined()
    expect(loadConfig({ ...REDIS, TOUCHLINE_WORKERS: '3' }).TOUCHLINE_WORKERS).toBe(3)
    expect(loadConfig({ ...REDIS, TOUCHLINE_WORKERS: 'auto' }).TOUCHLINE_WORKERS).toBe('auto')
  })

  it('refuses an invalid TOUCHLINE_WORKERS by name', () => {
    expect(() => loadConfig({ ...REDIS, TOUCHLINE_WORKERS: 'many' })).toThrow(ConfigError)
    expect(() => loadConfig({ ...REDIS, TOUCHLINE_WORKERS: 'many' })).toThrow(/TOUCHLINE_WORKERS: must be auto/)
  })

  it('refuses TOUCHLINE_WORKERS without TOUCHLINE_REDIS_URL, saying why', () => {
    try {
      loadConfig({ TOUCHLINE_WORKERS: '2' })
      expect.unreachable('accepted workers over the memory store')
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      expect((err as ConfigError).variables).toEqual(['TOUCHLINE_WORKERS'])
      expect((err as ConfigError).message).toMatch(/TOUCHLINE_WORKERS: needs TOUCHLINE_REDIS_URL: .*one event log, one poller/)
    }
  })
})
