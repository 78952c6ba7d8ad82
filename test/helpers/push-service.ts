/**
 * A push service for the tests (RFC 8030), on a real port: it gives out device endpoints with their keys,
 * as a browser's `pushManager.subscribe` does, and checks every push request the gateway sends as a real
 * push service and browser would:
 *  - the VAPID `Authorization: vapid t=<JWT>, k=<public key>` header (RFC 8292): an ES256 JWT signed by the
 *    key in `k`, whose `aud` is the endpoint's origin, `exp` in the future and within 24 hours, `sub` a
 *    mailto: or https: URL;
 *  - the `aes128gcm` body (RFC 8188, RFC 8291): decrypted with the device's private key and auth secret;
 *  - the TTL, Urgency and Topic headers, kept with each message.
 * What it answers is the test's to choose (a status with headers, or no answer at all).
 */
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { onTestFinished } from 'vitest'

export interface Device {
  id: string
  endpoint: string
  /** As `PushSubscription.toJSON()` gives them. */
  keys: { p256dh: string, auth: string }
  /** The subscription as a browser posts it. */
  subscription: { endpoint: string, expirationTime: null, keys: { p256dh: string, auth: string } }
}

export interface PushMessage {
  device: string
  headers: IncomingHttpHeaders
  ttl: number | undefined
  urgency: string | undefined
  topic: string | undefined
  /** What the VAPID check found wrong; undefined when the header is right. */
  vapidProblem: string | undefined
  /** The public key of the `k=` parameter. */
  vapidKey: string | undefined
  jwt: { aud?: string, exp?: number, sub?: string } | undefined
  /** The decrypted payload, parsed; undefined when it did not decrypt or parse. */
  payload: { id: string, kind: string, title: string, body: string, fixture_id: number, url: string, tag: string, sent_at: string } | undefined
  decryptProblem: string | undefined
  bodyBytes: number
  /** What the service answered: a status, or `hang`. */
  answer: number | 'hang'
}

export interface Answer { status: number, headers?: Record<string, string> }
export type PushRespond = (n: number, m: PushMessage) => Answer | number | 'hang' | Promise<Answer | number | 'hang'>

export interface PushService {
  url: string
  messages: PushMessage[]
  respond: PushRespond
  newDevice: () => Device
  /** Messages answered with a 2xx, each device's in order: what reached the browsers. */
  delivered: () => PushMessage[]
  close: () => Promise<void>
}

interface DeviceSecrets { ecdh: ReturnType<typeof createECDH>, publicKey: Buffer, auth: Buffer }

const hmac = (key: Buffer, data: Buffer): Buffer => createHmac('sha256', key).update(data).digest()

/** RFC 8291 section 3.4 and RFC 8188: the plaintext of an aes128gcm body for a device. */
export function decryptAes128gcm (body: Buffer, device: { ecdh: ReturnType<typeof createECDH>, publicKey: Buffer, auth: Buffer }): Buffer {
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idlen = body[20] as number
  const asPublic = body.subarray(21, 21 + idlen)
  const records = body.subarray(21 + idlen)
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes, not the 65 of a P-256 key`)
  if (records.length > rs) throw new Error('more than one record')
  const ecdhSecret = device.ecdh.computeSecret(asPublic)
  const prkKey = hmac(device.auth, ecdhSecret)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.publicKey, asPublic])
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]))
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12)
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(records.subarray(records.length - 16))
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('the last record does not end with the 0x02 delimiter')
  return padded.subarray(0, end)
}

/** RFC 8292: what is wrong with a VAPID Authorization header for `endpoint`, or undefined. */
export function checkVapid (authorization: string | undefined, endpoint: string, now = Date.now()): { problem?: string, key?: string, jwt?: PushMessage['jwt'] } {
  const m = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (m === null) return { problem: `not a vapid header: ${authorization ?? '(none)'}` }
  const [token, key] = [m[1] as string, m[2] as string]
  const [head, claims, sig] = token.split('.') as [string, string, string]
  const raw = Buffer.from(key, 'base64url')
  const jwt = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud?: string, exp?: number, sub?: string }
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string, typ?: string }
  if (header.alg !== 'ES256') return { problem: `alg ${header.alg ?? '(none)'}`, key, jwt }
  if (raw.length !== 65) return { problem: 'k is not a 65-byte P-256 key', key, jwt }
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' })
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))
  if (!signed) return { problem: 'the signature does not verify with k', key, jwt }
  if (jwt.aud !== new URL(endpoint).origin) return { problem: `aud ${jwt.aud ?? '(none)'} is not ${new URL(endpoint).origin}`, key, jwt }
  const exp = (jwt.exp ?? 0) * 1000
  if (exp <= now || exp > now + 24 * 3600_000) return { problem: `exp ${jwt.exp ?? '(none)'} not within the next 24 h`, key, jwt }
  if (jwt.sub === undefined || !/^(mailto:|https:)/.test(jwt.sub)) return { problem: `sub ${jwt.sub ?? '(none)'}`, key, jwt }
  return { key, jwt }
}

function readMessage (id: string, endpoint: string, headers: IncomingHttpHeaders, body: Buffer, secrets: DeviceSecrets | undefined): PushMessage {
  const vapid = checkVapid(headers.authorization, endpoint)
  let payload: PushMessage['payload']
  let decryptProblem: string | undefined
  try {
    if (secrets === undefined) throw new Error('unknown device')
    if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${String(headers['content-encoding'])}`)
    payload = JSON.parse(decryptAes128gcm(body, secrets).toString('utf8')) as PushMessage['payload']
  } catch (err) {
    decryptProblem = (err as Error).message
  }
  const ttl = headers.ttl === undefined ? undefined : Number(headers.ttl)
  return {
    device: id,
    headers,
    ttl,
    urgency: headers.urgency as string | undefined,
    topic: headers.topic as string | undefined,
    vapidProblem: vapid.problem,
    vapidKey: vapid.key,
    jwt: vapid.jwt,
    payload,
    decryptProblem,
    bodyBytes: body.length,
    answer: 201
  }
}

/** A push service, closed when the test ends (or by the caller with `closeWithTest` false). */
export async function startPushService (respond: PushRespond = () => 201, closeWithTest = true): Promise<PushService> {
  const devices = new Map<string, DeviceSecrets>()
  const s: PushService = { url: '', messages: [], respond, newDevice: () => { throw new Error('not started') }, delivered: () => [], close: async () => {} }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const id = /^\/push\/([^/?]+)$/.exec(req.url ?? '')?.[1] ?? ''
      const m = readMessage(id, `${s.url}${req.url ?? ''}`, req.headers, Buffer.concat(chunks), devices.get(id))
      const n = s.messages.push(m) - 1
      Promise.resolve(s.respond(n, m)).then((a) => {
        m.answer = typeof a === 'object' ? a.status : a
        if (a === 'hang') return
        const answer: Answer = typeof a === 'number' ? { status: a } : a
        res.writeHead(answer.status, answer.headers ?? {}).end()
      }, (err: unknown) => { res.destroy(err as Error) })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  s.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  s.newDevice = () => {
    const id = randomUUID()
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const secrets = { ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16) }
    devices.set(id, secrets)
    const keys = { p256dh: secrets.publicKey.toString('base64url'), auth: secrets.auth.toString('base64url') }
    const endpoint = `${s.url}/push/${id}`
    return { id, endpoint, keys, subscription: { endpoint, expirationTime: null, keys } }
  }
  s.delivered = () => s.messages.filter((m) => typeof m.answer === 'number' && m.answer >= 200 && m.answer < 300)
  s.close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  if (closeWithTest) onTestFinished(s.close)
  return s
}

/** Keys a browser could have made, for tests that never receive (route tests). */
export function browserKeys (): { p256dh: string, auth: string } {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') }
}
