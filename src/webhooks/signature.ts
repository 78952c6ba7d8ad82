/**
 * Webhook signatures (docs/webhooks.md, "Verifying signatures"): `x-touchline-signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`
 * with the endpoint's secret, `x-touchline-timestamp` in Unix seconds. Signing the timestamp with the body
 * lets a receiver refuse a captured request replayed later (Stripe's scheme). This file imports nothing but
 * node:crypto so a receiver can copy it as is, and `touchline/client` can re-export `verifyWebhook`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** How old (or how far ahead) a timestamp `verifyWebhook` accepts by default, in seconds. @default 300 */
const DEFAULT_TOLERANCE_S = 300

/** The `x-touchline-signature` value for a body sent at `timestamp` (Unix seconds). */
export function signWebhook (secret: string, timestamp: number | string, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body)
  return `sha256=${mac.digest('hex')}`
}

export interface VerifyWebhookInput {
  secret: string
  /** The raw request body, exactly as received (not re-serialized JSON). */
  body: string | Uint8Array
  /** The `x-touchline-timestamp` header. */
  timestamp: string | undefined
  /** The `x-touchline-signature` header. */
  signature: string | undefined
  /** Largest accepted distance between the timestamp and `now`, in seconds; 0 disables the check. @default 300 */
  toleranceS?: number
  /** Current time in ms. @default Date.now() */
  now?: number
}

/**
 * True when the signature is the body's, made with `secret` at a timestamp within the tolerance. Compares
 * in constant time; never throws on malformed headers (they are simply not valid).
 */
export function verifyWebhook (input: VerifyWebhookInput): boolean {
  const { timestamp, signature } = input
  if (timestamp === undefined || signature === undefined || !/^\d{1,12}$/.test(timestamp)) return false
  const tolerance = input.toleranceS ?? DEFAULT_TOLERANCE_S
  const now = input.now ?? Date.now()
  if (tolerance > 0 && Math.abs(now / 1000 - Number(timestamp)) > tolerance) return false
  const expected = Buffer.from(signWebhook(input.secret, timestamp, input.body))
  const given = Buffer.from(signature)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
