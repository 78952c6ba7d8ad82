/**
 * The pure parts of webhook delivery: signatures (what a receiver checks), the retry schedule, refusing a
 * URL that reaches the gateway itself, the keys file's `webhooks` entries and the TOUCHLINE_WEBHOOK_* settings.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'
import { KeysFileSchema } from '../../../src/client-keys.ts'
import { loggerOptions } from '../../../src/logger.ts'
import { selfTarget } from '../../../src/webhooks/post.ts'
import { signWebhook, verifyWebhook } from '../../../src/webhooks/signature.ts'
import { backoffDelay } from '@touchline/core'

const SECRET = 'whsec-0123456789abcdef'
const NOW = Date.parse('2026-11-24T20:00:00Z')
const TS = String(NOW / 1000)

describe('signatures', () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256 as sha256=<hex>', () => {
    const body = '{"type":"changes","data":[]}'
    const hex = createHmac('sha256', SECRET).update(`${TS}.${body}`).digest('hex')
    expect(signWebhook(SECRET, TS, body)).toBe(`sha256=${hex}`)
  })

  it('verifies its own signature, and refuses another body, secret or timestamp', () => {
    const body = '{"a":1}'
    const signature = signWebhook(SECRET, TS, body)
    expect(verifyWebhook({ secret: SECRET, body, timestamp: TS, signature, now: NOW })).toBe(true)
    expect(verifyWebhook({ secret: SECRET, body: Buffer.from(body), timestamp: TS, signature, now: NOW })).toBe(true)
    expect(verifyWebhook({ secret: SECRET, body: '{"a":2}', timestamp: TS, signature, now: NOW })).toBe(false)
    expect(verifyWebhook({ secret: `${SECRET}x`, body, timestamp: TS, signature, now: NOW })).toBe(false)
    expect(verifyWebhook({ secret: SECRET, body, timestamp: String(NOW / 1000 + 1), signature, now: NOW })).toBe(false)
    expect(verifyWebhook({ secret: SECRET, body, timestamp: TS, signature: undefined, now: NOW })).toBe(false)
    expect(verifyWebhook({ secret: SECRET, body, timestamp: 'soon', signature, now: NOW })).toBe(false)
  })

  it('refuses a timestamp older than the tolerance (a replayed request), unless the check is off', () => {
    const old = String(NOW / 1000 - 301)
    const signature = signWebhook(SECRET, old, 'x')
    expect(verifyWebhook({ secret: SECRET, body: 'x', timestamp: old, signature, now: NOW })).toBe(false)
    expect(verifyWebhook({ secret: SECRET, body: 'x', timestamp: old, signature, now: NOW, toleranceS: 0 })).toBe(true)
  })
})

describe('retry schedule', () => {
  it('doubles per attempt up to the cap, with up to half of each delay random', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, { baseMs: 1000, capMs: 60_000, random: () => 1 }))).toEqual([1000, 2000, 4000, 8000])
    expect([1, 2, 3].map((n) => backoffDelay(n, { baseMs: 1000, capMs: 60_000, random: () => 0 }))).toEqual([500, 1000, 2000])
    expect(backoffDelay(20, { baseMs: 1000, capMs: 60_000, random: () => 1 })).toBe(60_000)
    expect(backoffDelay(1000, { baseMs: 1000, capMs: 60_000, random: () => 0.5 })).toBe(45_000)
  })
})

describe('a URL that reaches the gateway itself', () => {
  const none = async (): Promise<string[]> => []
  it('is refused at the public URL, whatever the path', async () => {
    const self = { host: '127.0.0.1', port: 8080, publicUrl: 'https://scores.example.com' }
    expect(await selfTarget('https://scores.example.com/v1/changes', self, none)).toMatch(/public URL/)
    expect(await selfTarget('https://SCORES.example.com:443/x', self, none)).toMatch(/public URL/)
    expect(await selfTarget('http://scores.example.com/x', self, none)).toBeUndefined()
  })

  it('is refused when its name resolves to the listener at its port', async () => {
    const wild = { host: '0.0.0.0', port: 8080 }
    expect(await selfTarget('http://127.0.0.1:8080/hook', wild)).toMatch(/own listener/)
    expect(await selfTarget('http://[::1]:8080/hook', wild)).toMatch(/own listener/)
    expect(await selfTarget('http://me.test:8080/hook', wild, async () => ['127.0.0.5'])).toMatch(/own listener/)
    expect(await selfTarget('http://me.test:8081/hook', wild, async () => ['127.0.0.1'])).toBeUndefined()
    expect(await selfTarget('http://203.0.113.9:8080/hook', wild)).toBeUndefined()
    const bound = { host: '127.0.0.1', port: 8080 }
    expect(await selfTarget('http://localhost:8080/hook', bound, async () => ['::1', '127.0.0.1'])).toMatch(/own listener/)
    expect(await selfTarget('http://10.1.2.3:8080/hook', bound)).toBeUndefined()
  })
})

describe('webhooks in the keys file', () => {
  const key = (webhooks: unknown[], extra: object = {}): unknown[] => [{ key: 'k-1234', name: 'k', webhooks, ...extra }]
  const problems = (json: unknown): string[] => {
    const r = KeysFileSchema.safeParse(json)
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
  }
  const hook = { id: 'h1', url: 'https://hooks.example.com/in', secret: SECRET }

  it('accepts an endpoint with filters, format full by default', () => {
    const r = KeysFileSchema.parse(key([{ ...hook, leagues: [271], teams: [85], kinds: ['score_changed'] }]))
    expect(r[0]?.webhooks?.[0]).toMatchObject({ id: 'h1', format: 'full', leagues: [271] })
  })

  it('refuses a non-http(s) URL, a short secret, duplicate ids, leagues outside the key, delta with kinds', () => {
    expect(problems(key([{ ...hook, url: 'ftp://x.example.com/' }]))).toEqual(['0.webhooks.0.url: must be an http(s) URL'])
    expect(problems(key([{ ...hook, secret: 'short' }]))).toEqual(['0.webhooks.0.secret: at least 16 characters'])
    expect(problems(key([hook, hook]))).toEqual(['0.webhooks.1.id: duplicate webhook id "h1"'])
    expect(problems(key([{ ...hook, leagues: [271, 501] }], { leagues: [271] }))).toEqual(['0.webhooks.0.leagues: leagues outside this key\'s scope: 501'])
    expect(problems(key([{ ...hook, format: 'delta', kinds: ['clock'] }]))[0]).toMatch(/^0\.webhooks\.0\.format: format "delta" needs every change/)
    expect(problems(key([{ ...hook, id: 'has space' }]))[0]).toMatch(/^0\.webhooks\.0\.id:/)
  })

  it('never shows a secret in an error', () => {
    expect(problems(key([{ ...hook, url: 'nope' }, hook])).join('\n')).not.toContain(SECRET)
  })

  it('redacts secrets from log lines', () => {
    const paths = (loggerOptions('info').redact as { paths: string[] }).paths
    expect(paths).toEqual(expect.arrayContaining(['secret', '*.secret', '*.webhooks[*].secret']))
  })
})

describe('TOUCHLINE_WEBHOOK_* settings', () => {
  it('defaults: 10 s timeout, batches of 100, retries from 1 s to 60 s, pause after 1 h, lease 10 s', () => {
    expect(loadConfig({})).toMatchObject({
      TOUCHLINE_WEBHOOK_TIMEOUT_MS: 10_000,
      TOUCHLINE_WEBHOOK_BATCH: 100,
      TOUCHLINE_WEBHOOK_RETRY_BASE_MS: 1000,
      TOUCHLINE_WEBHOOK_RETRY_MAX_MS: 60_000,
      TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS: 3_600_000,
      TOUCHLINE_WEBHOOK_LEASE_TTL_MS: 10_000
    })
  })

  it('an invalid one stops the start, naming the variable', () => {
    for (const [name, value] of [['TOUCHLINE_WEBHOOK_BATCH', '0'], ['TOUCHLINE_WEBHOOK_TIMEOUT_MS', 'soon'], ['TOUCHLINE_WEBHOOK_RETRY_MAX_MS', '500']] as const) {
      let err: unknown
      try { loadConfig({ [name]: value }) } catch (e) { err = e }
      expect(err, name).toBeInstanceOf(ConfigError)
      expect((err as ConfigError).variables).toContain(name)
    }
  })
})
