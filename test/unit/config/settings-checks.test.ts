/**
 * Settings that used to pass the parse and fail later, or never: each is refused at parse time now, named,
 * with what is wrong (docs/settings.md). A Redis key prefix with braces (a hash tag) or glob characters, an
 * upstream URL without the API's version `/v3` (every call would answer 404), a recording directory that
 * does not exist or is a file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'

function problem (env: Record<string, string>): { variables: string[], message: string } | undefined {
  try {
    loadConfig(env)
    return undefined
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return { variables: err.variables, message: err.message }
  }
}

describe('TOUCHLINE_REDIS_PREFIX', () => {
  it.each(['x{y}:', '{tl}:', 'tl}', 'tl*:', 'a?b', 'a[1]', 'a\\b'])('refuses %j, named, without Redis', (prefix) => {
    const p = problem({ TOUCHLINE_REDIS_PREFIX: prefix })
    expect(p?.variables).toEqual(['TOUCHLINE_REDIS_PREFIX'])
    expect(p?.message).toMatch(/TOUCHLINE_REDIS_PREFIX: must not contain braces/)
  })

  it.each(['tl:', 'tl-test-0b9f:', 'app.live/', 'x'])('takes %j', (prefix) => {
    expect(loadConfig({ TOUCHLINE_REDIS_PREFIX: prefix }).TOUCHLINE_REDIS_PREFIX).toBe(prefix)
  })
})

describe('TOUCHLINE_UPSTREAM_URL', () => {
  it.each([
    ['https://api.sportmonks.com', /must include the API's version, \/v3/],
    ['https://api.sportmonks.com/', /must include the API's version, \/v3/],
    ['https://api.sportmonks.com/v2', /must include the API's version, \/v3/],
    ['https://api.sportmonks.com/v3/football', /must include the API's version, \/v3/],
    ['https://api.sportmonks.com/v3?api_token=x', /must not have a query or a fragment/],
    ['https://api.sportmonks.com/v3#top', /must not have a query or a fragment/],
    ['ftp://api.sportmonks.com/v3', /TOUCHLINE_UPSTREAM_URL: /],
    ['not a url', /TOUCHLINE_UPSTREAM_URL: /]
  ])('refuses %j, named', (value, why) => {
    const p = problem({ TOUCHLINE_UPSTREAM_URL: value })
    expect(p?.variables).toEqual(['TOUCHLINE_UPSTREAM_URL'])
    expect(p?.message).toMatch(why)
  })

  it('never echoes a query that may hold a token', () => {
    expect(problem({ TOUCHLINE_UPSTREAM_URL: 'https://api.sportmonks.com/v3?api_token=s3cret' })?.message).not.toContain('s3cret')
  })

  it.each(['https://api.sportmonks.com/v3', 'https://api.sportmonks.com/v3/', 'http://127.0.0.1:8081/v3', 'https://proxy.example.org/sportmonks/v3'])('takes %j', (value) => {
    expect(loadConfig({ TOUCHLINE_UPSTREAM_URL: value }).TOUCHLINE_UPSTREAM_URL).toBe(value)
  })
})

describe('TOUCHLINE_RECORD_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-record-dir-'))
  afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

  it('refuses a directory that does not exist, named', () => {
    const missing = join(dir, 'missing')
    const p = problem({ TOUCHLINE_RECORD_DIR: missing })
    expect(p).toEqual({ variables: ['TOUCHLINE_RECORD_DIR'], message: `invalid settings:\n  TOUCHLINE_RECORD_DIR: ${missing} does not exist (create it first)` })
  })

  it('refuses a file, named', () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    expect(problem({ TOUCHLINE_RECORD_DIR: file })?.message).toContain(`TOUCHLINE_RECORD_DIR: ${file} is not a directory`)
  })

  it('takes a directory it can write to', () => {
    expect(loadConfig({ TOUCHLINE_RECORD_DIR: dir }).TOUCHLINE_RECORD_DIR).toBe(dir)
  })
})
