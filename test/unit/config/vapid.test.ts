import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config.ts'
import { newVapidKeys, pushKeysText } from '../../../src/webpush/vapid.ts'

const refused = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err.variables
    throw err
  }
  return []
}

describe('the VAPID settings', () => {
  it('takes what `touchline push-keys` prints, as it prints it', () => {
    const env = Object.fromEntries(pushKeysText().split('\n').filter((l) => l.startsWith('TOUCHLINE_')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
    const cfg = loadConfig(env)
    expect(cfg.TOUCHLINE_VAPID_SUBJECT).toBe('mailto:you@example.org')
    expect(Buffer.from(cfg.TOUCHLINE_VAPID_PUBLIC_KEY ?? '', 'base64url')).toHaveLength(65)
    expect(Buffer.from(cfg.TOUCHLINE_VAPID_PRIVATE_KEY ?? '', 'base64url')).toHaveLength(32)
  })

  it('refuses, naming the variable: one key alone, keys of two pairs, no subject, a malformed key or subject', () => {
    const [a, b] = [newVapidKeys(), newVapidKeys()]
    const subject = { TOUCHLINE_VAPID_SUBJECT: 'mailto:ops@example.org' }
    expect(refused({ TOUCHLINE_VAPID_PUBLIC_KEY: a.publicKey, ...subject })).toEqual(['TOUCHLINE_VAPID_PRIVATE_KEY'])
    expect(refused({ TOUCHLINE_VAPID_PRIVATE_KEY: a.privateKey, ...subject })).toEqual(['TOUCHLINE_VAPID_PUBLIC_KEY'])
    expect(refused({ TOUCHLINE_VAPID_PUBLIC_KEY: a.publicKey, TOUCHLINE_VAPID_PRIVATE_KEY: b.privateKey, ...subject })).toEqual(['TOUCHLINE_VAPID_PRIVATE_KEY'])
    expect(refused({ TOUCHLINE_VAPID_PUBLIC_KEY: a.publicKey, TOUCHLINE_VAPID_PRIVATE_KEY: a.privateKey })).toEqual(['TOUCHLINE_VAPID_SUBJECT'])
    expect(refused({ TOUCHLINE_VAPID_PUBLIC_KEY: 'not-a-key', TOUCHLINE_VAPID_PRIVATE_KEY: a.privateKey, ...subject })).toContain('TOUCHLINE_VAPID_PUBLIC_KEY')
    expect(refused({ TOUCHLINE_VAPID_PUBLIC_KEY: a.publicKey, TOUCHLINE_VAPID_PRIVATE_KEY: a.privateKey, TOUCHLINE_VAPID_SUBJECT: 'ops@example.org' })).toEqual(['TOUCHLINE_VAPID_SUBJECT'])
    expect(refused({ TOUCHLINE_PUSH_ALLOW_LOCAL: 'yes' })).toEqual(['TOUCHLINE_PUSH_ALLOW_LOCAL'])
    expect(refused({ TOUCHLINE_PUSH_SHARDS: '0' })).toEqual(['TOUCHLINE_PUSH_SHARDS'])
  })
})
