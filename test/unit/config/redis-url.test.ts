/**
 * TOUCHLINE_REDIS_URL's forms (src/util/redis-url.ts): one Redis, over TCP or TLS, and a primary under
 * Sentinel, mapped to ioredis' own options; the password never in a message.
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'
import { parseRedisUrl, redactRedisUrl, redisOptions } from '../../../src/util/redis-url.ts'

describe('TOUCHLINE_REDIS_URL forms', () => {
  it('redis:// and rediss:// stay URLs; rediss turns TLS on, with the CA when one is given', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379/2')).toEqual({ kind: 'direct', url: 'redis://127.0.0.1:6379/2', tls: false })
    const tls = parseRedisUrl('rediss://app:s3cret@redis.example:6380')
    expect(tls).toEqual({ kind: 'direct', url: 'rediss://app:s3cret@redis.example:6380', tls: true })
    expect(redisOptions(tls, { commandTimeout: 5 }, 'PEM')).toEqual({ url: 'rediss://app:s3cret@redis.example:6380', options: { commandTimeout: 5, tls: { ca: 'PEM' } } })
    expect(redisOptions(tls, {}).options.tls).toEqual({})
  })

  it('redis+sentinel:// names the sentinels (26379 by default), the master, the credentials and the sentinel options', () => {
    const t = parseRedisUrl('redis+sentinel://app:p%40ss@10.0.0.1:26380,sentinel-b,[::1]:26381/mymaster/3?sentinel_password=sp&sentinel_username=su')
    expect(t).toEqual({
      kind: 'sentinel',
      sentinels: [{ host: '10.0.0.1', port: 26380 }, { host: 'sentinel-b', port: 26379 }, { host: '::1', port: 26381 }],
      name: 'mymaster',
      tls: false,
      username: 'app',
      password: 'p@ss',
      db: 3,
      sentinelUsername: 'su',
      sentinelPassword: 'sp'
    })
    const { url, options } = redisOptions(t, { commandTimeout: 2000 })
    expect(url).toBeUndefined()
    expect(options).toMatchObject({
      commandTimeout: 2000,
      sentinels: t.kind === 'sentinel' ? t.sentinels : [],
      name: 'mymaster',
      role: 'master',
      username: 'app',
      password: 'p@ss',
      db: 3,
      sentinelUsername: 'su',
      sentinelPassword: 'sp'
    })
    expect(options.tls).toBeUndefined()
  })

  it('rediss+sentinel:// is TLS to the sentinels and to the primary, a password alone is the default user\'s', () => {
    const t = parseRedisUrl('rediss+sentinel://:pw@s1:1,s2:2/cache')
    expect(t).toMatchObject({ kind: 'sentinel', tls: true, password: 'pw', name: 'cache' })
    expect(t).not.toHaveProperty('username')
    expect(redisOptions(t, {}, 'CA').options).toMatchObject({ tls: { ca: 'CA' }, sentinelTLS: { ca: 'CA' }, enableTLSForSentinelMode: true })
  })

  it.each([
    ['http://127.0.0.1:6379', 'must be redis://'],
    ['redis+sentinel://s1:26379', 'must be redis://'],
    ['redis+sentinel://s1:99999/m', 'sentinel address'],
    ['redis+sentinel://s1/m?sentinel_pass=x', 'unknown option sentinel_pass']
  ])('%s is refused (%s), naming the variable, never the value', (value, message) => {
    let err: unknown
    try {
      loadConfig({ TOUCHLINE_REDIS_URL: value })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).variables).toEqual(['TOUCHLINE_REDIS_URL'])
    expect((err as ConfigError).message).toContain(message)
  })

  it('a password is never shown: masked in both forms, the sentinel password too', () => {
    expect(redactRedisUrl('rediss://app:s3cret@h:6380/0')).toBe('rediss://app:***@h:6380/0')
    const shown = redactRedisUrl('redis+sentinel://app:s3cret@a:1,b/mymaster?sentinel_password=t0p')
    expect(shown).toBe('redis+sentinel://app:***@a:1,b:26379/mymaster?sentinel_password=***')
    expect(redactRedisUrl('redis+sentinel://s3cret@@@')).not.toContain('s3cret')
  })

  it('loadConfig keeps the Sentinel form as given, with TOUCHLINE_REDIS_CA beside it', () => {
    const cfg = loadConfig({ TOUCHLINE_REDIS_URL: 'redis+sentinel://a:26379,b:26379/mymaster', TOUCHLINE_REDIS_CA: '/etc/ssl/redis-ca.pem' })
    expect(cfg.TOUCHLINE_REDIS_URL).toBe('redis+sentinel://a:26379,b:26379/mymaster')
    expect(cfg.TOUCHLINE_REDIS_CA).toBe('/etc/ssl/redis-ca.pem')
  })
})
