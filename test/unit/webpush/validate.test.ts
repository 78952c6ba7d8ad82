import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isPublicAddress, reachable } from '../../../src/webpush/address.ts'
import { createLimiter } from '../../../src/webpush/limiter.ts'
import { createAlertLedger } from '../../../src/webpush/ledger.ts'
import { checkEndpoint, checkKeys } from '../../../src/webpush/validate.ts'
import { retryAfterMs } from '../../../src/webpush/send.ts'

const keys = (): { p256dh: string, auth: string } => {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }
}

describe('subscription checks', () => {
  it('takes a browser\'s keys and refuses others', () => {
    expect(checkKeys(keys())).toBeUndefined()
    const compressed = createECDH('prime256v1')
    compressed.generateKeys()
    expect(checkKeys({ ...keys(), p256dh: compressed.getPublicKey(undefined, 'compressed').toString('base64url') })?.field).toBe('subscription.keys.p256dh')
    expect(checkKeys({ ...keys(), auth: randomBytes(32).toString('base64url') })?.field).toBe('subscription.keys.auth')
  })

  it('takes https endpoints on public addresses; the loopback only with the test setting', () => {
    expect(checkEndpoint('https://fcm.googleapis.com/fcm/send/abc', false)).toBeUndefined()
    expect(checkEndpoint('https://updates.push.services.mozilla.com/wpush/v2/x', false)).toBeUndefined()
    for (const bad of ['http://fcm.googleapis.com/x', 'https://127.0.0.1/x', 'https://192.168.1.2/x', 'https://[::1]/x', 'https://localhost/x', 'https://printer.local/x', 'https://intranet/x', 'ftp://x.org/']) {
      expect(checkEndpoint(bad, false)?.field, bad).toBe('subscription.endpoint')
    }
    expect(checkEndpoint('http://127.0.0.1:9999/push/1', true)).toBeUndefined()
    expect(checkEndpoint('http://10.0.0.1/push/1', true)?.field).toBe('subscription.endpoint')
  })

  it('tells public addresses from private, loopback and reserved ones', () => {
    expect(['8.8.8.8', '2a00:1450:4001::1', '142.250.0.1'].map(isPublicAddress)).toEqual([true, true, true])
    expect(['10.1.1.1', '172.20.0.1', '100.64.1.1', '169.254.1.1', '::1', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '0.0.0.0'].map(isPublicAddress).every((p) => !p)).toBe(true)
    expect([reachable('127.0.0.1', true), reachable('::ffff:127.0.0.1', true), reachable('10.0.0.1', true), reachable('127.0.0.1', false)]).toEqual([true, true, false, false])
  })
})

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect([retryAfterMs(undefined), retryAfterMs('soon')]).toEqual([undefined, undefined])
  })
})

describe('the alert ledger (memory)', () => {
  it('claims an alert once per device, again only when it is to be retried', async () => {
    const ledger = createAlertLedger({ kind: 'memory' })
    expect(await ledger.claim('https://a/1', 'f1:goal:e1', 30, 0)).toBe('send')
    expect(await ledger.claim('https://a/1', 'f1:goal:e1', 30, 1)).toBe('done')
    expect(await ledger.claim('https://a/2', 'f1:goal:e1', 30, 1)).toBe('send')
    await ledger.mark('https://a/1', 'f1:goal:e1', 'r')
    expect(await ledger.claim('https://a/1', 'f1:goal:e1', 30, 2)).toBe('send')
    await ledger.mark('https://a/1', 'f1:goal:e1', 'd')
    expect(await ledger.claim('https://a/1', 'f1:goal:e1', 30, 3)).toBe('done')
  })

  it('drops alerts past their ceiling in the hour, and takes them again an hour on', async () => {
    const ledger = createAlertLedger({ kind: 'memory' })
    for (let i = 0; i < 3; i++) expect(await ledger.claim('https://a/1', `a${i}`, 3, i)).toBe('send')
    expect(await ledger.claim('https://a/1', 'ht', 2, 10)).toBe('capped')
    expect(await ledger.claim('https://a/1', 'ht', 30, 11)).toBe('done')
    expect(await ledger.claim('https://a/1', 'later', 3, 3600_000 + 5)).toBe('send')
  })
})

describe('the limiter', () => {
  it('runs at most `max` tasks at once, first come first served', async () => {
    const limiter = createLimiter(2)
    let running = 0
    let most = 0
    const order: number[] = []
    await Promise.all(Array.from({ length: 6 }, async (_, i) => await limiter.run(async () => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      order.push(i)
      running--
    })))
    expect(most).toBe(2)
    expect(order.sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect(limiter.pending).toBe(0)
  })
})
