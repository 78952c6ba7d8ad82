import { tmpdir } from 'node:os'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'

function errorOf (env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error('expected a ConfigError')
}

describe('config', () => {
  it('uses the documented defaults (docs/settings.md) when nothing is set', () => {
    const cfg = loadConfig({})
    expect(cfg).toMatchObject({
      TOUCHLINE_HOST: '0.0.0.0',
      TOUCHLINE_PORT: 8080,
      TOUCHLINE_PROVIDER_PORT: 8081,
      TOUCHLINE_SIM_SPEED: 60,
      TOUCHLINE_LOG_LEVEL: 'info',
      TOUCHLINE_POLL_RESERVE: 0.2
    })
    expect(cfg.TOUCHLINE_UPSTREAM_URL).toBeUndefined()
    expect(cfg.TOUCHLINE_REDIS_URL).toBeUndefined()
  })

  it('coerces numbers and keeps urls', () => {
    const cfg = loadConfig({ TOUCHLINE_PORT: '9000', TOUCHLINE_SIM_SPEED: '1', TOUCHLINE_REDIS_URL: 'redis://127.0.0.1:6379/2', TOUCHLINE_UPSTREAM_URL: 'https://api.example.com/v3' })
    expect(cfg.TOUCHLINE_PORT).toBe(9000)
    expect(cfg.TOUCHLINE_SIM_SPEED).toBe(1)
    expect(cfg.TOUCHLINE_REDIS_URL).toBe('redis://127.0.0.1:6379/2')
  })

  it('names an invalid variable', () => {
    const err = errorOf({ TOUCHLINE_PORT: 'eighty' })
    expect(err.variables).toEqual(['TOUCHLINE_PORT'])
    expect(err.message).toContain('TOUCHLINE_PORT')
  })

  it('rejects an unknown TOUCHLINE_ variable (a typo) by name', () => {
    const err = errorOf({ TOUCHLINE_PROT: '8080' })
    expect(err.variables).toEqual(['TOUCHLINE_PROT'])
    expect(err.message).toMatch(/TOUCHLINE_PROT: unknown setting/)
  })

  it('reports every problem at once', () => {
    const err = errorOf({ TOUCHLINE_LOG_LEVEL: 'loud', TOUCHLINE_REDIS_URL: 'http://x', TOUCHLINE_POLL_RESERVE: '2' })
    expect(err.variables.sort()).toEqual(['TOUCHLINE_LOG_LEVEL', 'TOUCHLINE_POLL_RESERVE', 'TOUCHLINE_REDIS_URL'])
  })

  it('ignores other variables and treats empty values as unset', () => {
    const cfg = loadConfig({ PATH: '/bin', TOUCHLINE_PORT: '', HOME: '/root' })
    expect(cfg.TOUCHLINE_PORT).toBe(8080)
  })

  it('refuses an upstream token with spaces without echoing it', () => {
    const err = errorOf({ TOUCHLINE_UPSTREAM_TOKEN: 'abc def-secret' })
    expect(err.variables).toEqual(['TOUCHLINE_UPSTREAM_TOKEN'])
    expect(err.message).not.toContain('def-secret')
  })
  it('reads the round-two settings: public URL, trusted proxies, hourly limit, record dir', () => {
    const cfg = loadConfig({
      TOUCHLINE_PUBLIC_URL: 'https://live.example.com/',
      TOUCHLINE_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      TOUCHLINE_UPSTREAM_HOURLY_LIMIT: '3000',
      // An existing directory: one that is not is refused (settings-checks.test.ts).
      TOUCHLINE_RECORD_DIR: tmpdir()
    })
    expect(cfg.TOUCHLINE_PUBLIC_URL).toBe('https://live.example.com')
    expect(cfg.TOUCHLINE_TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1'])
    expect(cfg.TOUCHLINE_UPSTREAM_HOURLY_LIMIT).toBe(3000)
    expect(cfg.TOUCHLINE_RECORD_DIR).toBe(tmpdir())
    expect(loadConfig({ TOUCHLINE_TRUST_PROXY: 'true' }).TOUCHLINE_TRUST_PROXY).toBe(true)
    expect(loadConfig({ TOUCHLINE_TRUST_PROXY: '2' }).TOUCHLINE_TRUST_PROXY).toBe(2)
  })

  it('takes every address and CIDR of TOUCHLINE_TRUST_PROXY that fastify takes', () => {
    const list = ['127.0.0.1', '10.0.0.0/8', '192.168.1.0/24', '::1', '2001:db8::/32', '::ffff:10.0.0.1', 'fe80::/10', '10.1.2.3/32', '::/1']
    const cfg = loadConfig({ TOUCHLINE_TRUST_PROXY: list.join(',') })
    expect(cfg.TOUCHLINE_TRUST_PROXY).toEqual(list)
    // What the app hands fastify: it compiles the list at once and throws on an entry it cannot read.
    expect(() => Fastify({ trustProxy: cfg.TOUCHLINE_TRUST_PROXY as string[] })).not.toThrow()
  })

  it('refuses a TOUCHLINE_TRUST_PROXY entry that is not an address or CIDR, naming the entry, as fastify would', () => {
    for (const bad of ['999.1.1.1/99', '999.1.1.1', '10.0.0.0/0', '10.0.0.1/33', '::1/129', '::1/0', '1.2.3', '01.2.3.4', 'fe80::1::2', '10.0.0.0/', '10.0.0.0/08x']) {
      const err = errorOf({ TOUCHLINE_TRUST_PROXY: bad })
      expect(err.variables, bad).toEqual(['TOUCHLINE_TRUST_PROXY'])
      expect(err.message, bad).toContain('TOUCHLINE_TRUST_PROXY')
    }
    expect(errorOf({ TOUCHLINE_TRUST_PROXY: '10.0.0.0/8, 999.1.1.1/99' }).message).toContain('999.1.1.1/99')
  })

  it('names the round-two settings when they are invalid', () => {
    const err = errorOf({ TOUCHLINE_PUBLIC_URL: 'ftp://x', TOUCHLINE_TRUST_PROXY: 'evil proxy', TOUCHLINE_UPSTREAM_HOURLY_LIMIT: '0' })
    expect(err.variables.sort()).toEqual(['TOUCHLINE_PUBLIC_URL', 'TOUCHLINE_TRUST_PROXY', 'TOUCHLINE_UPSTREAM_HOURLY_LIMIT'])
  })

  it('reads the clock rate of an external upstream: 1 (the real API\'s) unless set, a positive number when set', () => {
    expect(loadConfig({}).TOUCHLINE_UPSTREAM_CLOCK_RATE).toBe(1)
    expect(loadConfig({ TOUCHLINE_UPSTREAM_CLOCK_RATE: '60' }).TOUCHLINE_UPSTREAM_CLOCK_RATE).toBe(60)
    for (const bad of ['0', '-1', 'fast', '3601']) expect(errorOf({ TOUCHLINE_UPSTREAM_CLOCK_RATE: bad }).variables).toEqual(['TOUCHLINE_UPSTREAM_CLOCK_RATE'])
  })

  it('reads the league priority of the scoreboard: ids separated by commas, each once; anything else is named', () => {
    expect(loadConfig({}).TOUCHLINE_LEAGUE_PRIORITY).toBeUndefined()
    expect(loadConfig({ TOUCHLINE_LEAGUE_PRIORITY: '8, 2,564,8' }).TOUCHLINE_LEAGUE_PRIORITY).toEqual([8, 2, 564])
    for (const bad of ['premier', '8,,2', '0', '-8', '8;2', '1.5']) expect(errorOf({ TOUCHLINE_LEAGUE_PRIORITY: bad }).variables, bad).toEqual(['TOUCHLINE_LEAGUE_PRIORITY'])
  })

  it('reads the shutdown timings: no drain and a 10 s deadline unless set; out-of-range values are named', () => {
    expect(loadConfig({})).toMatchObject({ TOUCHLINE_DRAIN_DELAY_MS: 0, TOUCHLINE_SHUTDOWN_TIMEOUT_MS: 10_000 })
    expect(loadConfig({ TOUCHLINE_DRAIN_DELAY_MS: '3000', TOUCHLINE_SHUTDOWN_TIMEOUT_MS: '15000' })).toMatchObject({ TOUCHLINE_DRAIN_DELAY_MS: 3000, TOUCHLINE_SHUTDOWN_TIMEOUT_MS: 15_000 })
    for (const bad of ['-1', '1.5', 'soon', '120001']) expect(errorOf({ TOUCHLINE_DRAIN_DELAY_MS: bad }).variables, bad).toEqual(['TOUCHLINE_DRAIN_DELAY_MS'])
    for (const bad of ['0', '999', '120001']) expect(errorOf({ TOUCHLINE_SHUTDOWN_TIMEOUT_MS: bad }).variables, bad).toEqual(['TOUCHLINE_SHUTDOWN_TIMEOUT_MS'])
  })
})
