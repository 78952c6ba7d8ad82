/**
 * What a posted subscription must be beyond its shape (docs/push.md): `p256dh` a point of P-256 (65 bytes,
 * uncompressed), `auth` 16 bytes, the endpoint an https URL on a public address (address.ts) without
 * credentials, spaces or control characters (an http or https URL on the loopback with
 * TOUCHLINE_PUSH_ALLOW_LOCAL, for tests). Each problem names its field, for the 400's message.
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

/**
 * Names that are never a push service's: single labels (`intranet`), special-use domains that resolve
 * locally or nowhere (RFC 6761, 6762, 7686, 8375, 9476: `localhost`, `local`, `home.arpa`, `onion`...),
 * and the suffixes private networks use. A name is compared without its trailing dot (`localhost.` is
 * `localhost`). What a public name resolves to is checked at every connection (send.ts).
 */
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|private|arpa|invalid|test|example|onion|alt)$/

/**
 * Spaces and control characters: a browser's endpoint never holds one. URL parsing drops tabs and line
 * breaks without a word (`https://a/p\r\nX-Header: 1` parses), so the text is checked before it.
 */
function hasControlOrSpace (text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(ch)) return true
  }
  return false
}

export function checkEndpoint (endpoint: string, allowLocal: boolean): FieldProblem | undefined {
  const field = 'subscription.endpoint'
  if (hasControlOrSpace(endpoint)) return { field, message: 'must not contain spaces or control characters' }
  let u: URL
  try {
    u = new URL(endpoint)
  } catch {
    return { field, message: 'must be a URL' }
  }
  // The parser has already written every IPv4 spelling (127.1, 0x7f000001, 2130706433) as a dotted quad
  // and compressed IPv6; a name loses its trailing dots here.
  const host = u.hostname.replace(/^\[|\]$/g, '')
  const name = host.replace(/\.+$/, '').toLowerCase()
  const local = allowLocal && (LOCAL_NAMES.has(name) || isLoopbackAddress(host))
  if (u.protocol !== 'https:' && !(local && u.protocol === 'http:')) return { field, message: 'must be an https URL' }
  if (u.username !== '' || u.password !== '') return { field, message: 'must not carry credentials' }
  if (u.hash !== '') return { field, message: 'must not have a fragment' }
  if (local) return undefined
  const isPublic = isIP(host) !== 0 ? isPublicAddress(host) : name.includes('.') && !PRIVATE_NAME.test(name)
  return isPublic ? undefined : { field, message: 'must be on a public address' }
}
