/**
 * What a posted subscription must be beyond its shape (docs/push.md): `p256dh` a point of P-256 (65 bytes,
 * uncompressed), `auth` 16 bytes, the endpoint an https URL on a public address without credentials (an
 * http or https URL on the loopback with TOUCHLINE_PUSH_ALLOW_LOCAL, for tests). Each problem names its
 * field, for the 400's message.
 */
import { createPublicKey } from 'node:crypto'
import { isIP } from 'node:net'
import { isLoopbackAddress, isPublicAddress } from './address.ts'

export interface FieldProblem {
  field: string
  message: string
}

function fromB64url (text: string): Buffer {
  return Buffer.from(text.replace(/=+$/, ''), 'base64url')
}

/** Whether 65 bytes are an uncompressed point on P-256 (node:crypto refuses one off the curve). */
export function isP256Point (raw: Buffer): boolean {
  if (raw.length !== 65 || raw[0] !== 4) return false
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' })
    return true
  } catch {
    return false
  }
}

export function checkKeys (keys: { p256dh: string, auth: string }): FieldProblem | undefined {
  if (!isP256Point(fromB64url(keys.p256dh))) return { field: 'subscription.keys.p256dh', message: 'must be an uncompressed P-256 public key (65 bytes, base64url)' }
  if (fromB64url(keys.auth).length !== 16) return { field: 'subscription.keys.auth', message: 'must be 16 bytes, base64url' }
  return undefined
}

/** Names a local push service may use with TOUCHLINE_PUSH_ALLOW_LOCAL. */
const LOCAL_NAMES = new Set(['localhost'])

export function checkEndpoint (endpoint: string, allowLocal: boolean): FieldProblem | undefined {
  const field = 'subscription.endpoint'
  let u: URL
  try {
    u = new URL(endpoint)
  } catch {
    return { field, message: 'must be a URL' }
  }
  const host = u.hostname.replace(/^\[|\]$/g, '')
  const local = allowLocal && (LOCAL_NAMES.has(host.toLowerCase()) || isLoopbackAddress(host))
  if (u.protocol !== 'https:' && !(local && u.protocol === 'http:')) return { field, message: 'must be an https URL' }
  if (u.username !== '' || u.password !== '') return { field, message: 'must not carry credentials' }
  if (u.hash !== '') return { field, message: 'must not have a fragment' }
  if (local) return undefined
  if (isIP(host) !== 0 ? !isPublicAddress(host) : !host.includes('.') || /\.(local|localhost|internal|lan|home)$/i.test(host) || LOCAL_NAMES.has(host.toLowerCase())) {
    return { field, message: 'must be on a public address' }
  }
  return undefined
}
