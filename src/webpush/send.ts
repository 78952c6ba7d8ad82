/**
 * One push request (docs/push.md, "Sending"): the payload encrypted for the device (RFC 8291, aes128gcm, by
 * web-push in encrypt.ts), the VAPID JWT signed by web-push (RFC 8292; `aud` the endpoint's origin, `exp`
 * 12 h ahead), and the request sent through the gateway's own undici client: one deadline for the whole exchange, redirects
 * never followed, the answer's body thrown away unread. The connection is refused unless it reaches a
 * public address (address.ts), or the loopback with TOUCHLINE_PUSH_ALLOW_LOCAL, so a name that resolves to
 * a private address, at the check or later, reaches nothing.
 */
import { Agent, buildConnector, request } from 'undici'
import webpush from 'web-push'
import type { Alert } from './alerts.ts'
import { reachable } from './address.ts'
import { linkSignals } from '../util/abort.ts'

export type SendOutcome = 'sent' | 'gone' | 'rejected' | 'retry'

/** Why a request without an HTTP answer failed: no answer in time, no connection, an address push may not use, unusable keys. */
export type SendFailure = 'timeout' | 'network' | 'address' | 'keys'

export interface SendResult {
  outcome: SendOutcome
  status: number | null
  /** With `status` null and an outcome other than `sent`: why there was no answer. */
  failure?: SendFailure
  /** With `retry`: what the push service asked for (Retry-After), ms. */
  retryAfterMs?: number
  error?: string
}

export interface Vapid { publicKey: string, privateKey: string, subject: string }

/** The code of the connect error of a connection to an address push may not use. */
const NOT_PUBLIC = 'ERR_PUSH_ADDRESS'

/**
 * The undici Agent of one instance's push requests: `connections` per push service origin (the concurrency
 * cap is the sender's), kept alive, and every connection checked for the address it reached.
 */
export function createPushAgent (allowLocal: boolean, connections: number): Agent {
  const connector = buildConnector({})
  return new Agent({
    connections,
    keepAliveTimeout: 30_000,
    connect: (options, callback) => {
      connector(options, (err, socket) => {
        if (err !== null) return callback(err, null)
        if (socket.remoteAddress !== undefined && reachable(socket.remoteAddress, allowLocal)) return callback(null, socket)
        socket.destroy()
        callback(Object.assign(new Error(`the push endpoint reached ${socket.remoteAddress ?? 'an unknown address'}, not a public address`), { code: NOT_PUBLIC }), null)
      })
    }
  })
}

/** Retry-After in ms: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs (value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined || text.trim() === '') return undefined
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

function verdict (status: number, retryAfter: string | string[] | undefined): SendResult {
  if (status >= 200 && status < 300) return { outcome: 'sent', status }
  if (status === 404 || status === 410) return { outcome: 'gone', status }
  if (status === 429 || status >= 500) {
    const after = retryAfterMs(retryAfter)
    return { outcome: 'retry', status, ...(after !== undefined ? { retryAfterMs: after } : {}), error: `HTTP ${status}` }
  }
  // 413 and every other 4xx: the request itself is wrong for this service; a 3xx is a redirect not followed.
  return { outcome: 'rejected', status, error: status >= 300 && status < 400 ? `HTTP ${status}: redirect not followed` : `HTTP ${status}` }
}

export interface Transport {
  dispatcher: Agent
  timeoutMs: number
  signal: AbortSignal
}

/** A VAPID header is signed afresh after this long (its JWT's `exp` is 12 h ahead, so it is never near expiry). */
const VAPID_REUSE_MS = 3600_000
/** VAPID headers by audience (a push service's origin) and key: signing one took half a push's CPU. */
const vapidHeaders = new Map<string, { authorization: string, until: number }>()

/**
 * The VAPID `Authorization` header for a push service's origin (RFC 8292). The JWT names only the origin,
 * the subject and the expiry, so one signature serves every push to that service for an hour.
 */
export function vapidAuthorization (endpoint: string, vapid: Vapid, now = Date.now()): string {
  const audience = new URL(endpoint).origin
  const key = `${audience} ${vapid.publicKey} ${vapid.subject}`
  const cached = vapidHeaders.get(key)
  if (cached !== undefined && cached.until > now) return cached.authorization
  const exp = Math.floor(now / 1000) + 12 * 3600
  const { Authorization: authorization } = webpush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', exp)
  if (vapidHeaders.size >= 1000) vapidHeaders.clear() // a bound: push services are a handful of origins
  vapidHeaders.set(key, { authorization, until: now + VAPID_REUSE_MS })
  return authorization
}

/** A push request ready to go: the body encrypted for its device (encrypt.ts), the headers signed. */
export interface Prepared {
  endpoint: string
  headers: Record<string, string>
  body: Buffer
}

/**
 * The headers of a push (RFC 8030, 8291, 8292): `TTL`, `Urgency` and `Topic` from the alert, the body's
 * encoding, and the VAPID header from the cache above.
 */
export function pushHeaders (endpoint: string, alert: Alert, vapid: Vapid): Record<string, string> {
  return {
    TTL: String(alert.ttl),
    Urgency: alert.urgency,
    Topic: alert.topic,
    'Content-Type': 'application/octet-stream',
    'Content-Encoding': 'aes128gcm',
    Authorization: vapidAuthorization(endpoint, vapid),
    'User-Agent': 'touchline-push/1'
  }
}

export async function sendPush (details: Prepared, r: Transport): Promise<SendResult> {
  const call = linkSignals(r.timeoutMs, [r.signal], 'push')
  try {
    const res = await request(details.endpoint, {
      method: 'POST',
      dispatcher: r.dispatcher,
      signal: call.signal,
      headersTimeout: r.timeoutMs,
      bodyTimeout: r.timeoutMs,
      headers: details.headers,
      body: details.body
    })
    res.body.dump({ limit: 4096 }).catch(() => {})
    return verdict(res.statusCode, res.headers['retry-after'])
  } catch (err) {
    if (call.timedOut() && !r.signal.aborted) return { outcome: 'retry', status: null, failure: 'timeout', error: `no answer within ${r.timeoutMs} ms` }
    const e = err as Error & { code?: string }
    if (e.code === NOT_PUBLIC) return { outcome: 'rejected', status: null, failure: 'address', error: e.message }
    return { outcome: 'retry', status: null, failure: 'network', error: e.code ?? e.name }
  } finally {
    call.done()
  }
}
