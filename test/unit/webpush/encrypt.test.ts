import { createECDH, randomBytes } from 'node:crypto'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createEncryptor, type Encryptor } from '../../../src/webpush/encrypt.ts'
import { decryptAes128gcm } from '../../helpers/push-service.ts'

const device = (): { ecdh: ReturnType<typeof createECDH>, publicKey: Buffer, auth: Buffer, keys: { p256dh: string, auth: string } } => {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return { ecdh, publicKey: ecdh.getPublicKey(), auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }
}

const warnings: string[] = []
const log = pino({ level: 'warn' }, { write: (line: string) => { warnings.push(line) } })
let encryptor: Encryptor | undefined
afterEach(async () => { await encryptor?.close(); encryptor = undefined; warnings.length = 0 })

describe('push payload encryption', () => {
  for (const threads of [0, 2]) {
    it(`with ${threads} worker thread(s), encrypts a batch for each of its devices (RFC 8291), in order, a fresh key each`, async () => {
      encryptor = await createEncryptor(threads, log)
      expect(encryptor.threads).toBe(threads)
      const devices = Array.from({ length: 20 }, device)
      const payload = JSON.stringify({ title: 'GOAL! Celtic 2-1 Rangers', body: "67' Furuhashi" })
      const bodies = await encryptor.encrypt(payload, devices.map((d) => d.keys))
      expect(bodies).toHaveLength(20)
      bodies.forEach((body, i) => {
        expect(body).not.toBeNull()
        expect(decryptAes128gcm(body as Buffer, devices[i] as ReturnType<typeof device>).toString('utf8')).toBe(payload)
      })
      // Each body carries its own ephemeral public key (bytes 21-85 of the aes128gcm header).
      expect(new Set(bodies.map((b) => (b as Buffer).subarray(21, 86).toString('hex'))).size).toBe(20)
    })
  }

  it('gives null for a device whose keys cannot be used, and encrypts the others of its batch', async () => {
    encryptor = await createEncryptor(1, log)
    const [a, b] = [device(), device()]
    const bodies = await encryptor.encrypt('{"x":1}', [a.keys, { p256dh: 'AAAA', auth: a.keys.auth }, b.keys])
    expect(bodies[1]).toBeNull()
    expect(decryptAes128gcm(bodies[0] as Buffer, a).toString()).toBe('{"x":1}')
    expect(decryptAes128gcm(bodies[2] as Buffer, b).toString()).toBe('{"x":1}')
  })

  it('encrypts a batch on the event loop when its worker thread dies, and says so', async () => {
    encryptor = await createEncryptor(1, log, { worker: new URL('../../helpers/failing-encrypt-worker.mjs', import.meta.url) })
    const d = device()
    const [body] = await encryptor.encrypt('{"goal":true}', [d.keys])
    expect(decryptAes128gcm(body as Buffer, d).toString()).toBe('{"goal":true}')
    expect(warnings.join('')).toContain('encrypting it on the event loop')
  })

  it('encrypts on the event loop, after its deadline, a batch whose thread cannot even load; the process goes on', async () => {
    encryptor = await createEncryptor(1, log, { worker: new URL('../../helpers/unloadable-encrypt-worker.mjs', import.meta.url), deadlineMs: 300 })
    // The thread fails while it has no task: an 'error' of the pool nobody listened to would end the process.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(warnings.join('')).toContain('an encrypting thread failed')
    const d = device()
    const [body] = await encryptor.encrypt('{"goal":2}', [d.keys])
    expect(decryptAes128gcm(body as Buffer, d).toString()).toBe('{"goal":2}')
    expect(warnings.join('')).toContain('encrypting it on the event loop')
  })
})
