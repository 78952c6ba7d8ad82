/**
 * One delivery attempt: a signed POST with undici (docs/webhooks.md). The request has one
 * deadline covering connect, headers and body; redirects are never followed (undici's `request` does not,
 * and a 3xx is not a 2xx, so it is retried like any failure); at most `MAX_RESPONSE_BYTES` of the answer
 * are read and thrown away, so a receiver cannot make the gateway buffer a large body.
 */
import { lookup } from 'node:dns/promises'
import { isIP, type Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { Agent, buildConnector, request } from 'undici'
import { signWebhook } from './signature.ts'
import { linkSignals } from '../util/abort.ts'

/**
 * Response bytes read at most: enough for an error message in a log line, nothing a receiver could use to
 * tie up memory. The rest of the body is discarded with its connection.
 * @default 4096
 */
const MAX_RESPONSE_BYTES = 4096

type Outcome = 'acked' | 'http_error' | 'timeout' | 'network_error' | 'refused'

export interface AttemptResult {
  outcome: Outcome
  status: number | null
  /** What went wrong, without the URL's query or credentials. */
  error: string | null
}

export interface Attempt {
  url: string
  webhookId: string
  deliveryId: string
  secret: string
  body: string
  timeoutMs: number
  /** Aborted when the worker stops (lease lost, shutdown): the attempt ends at once. */
  signal: AbortSignal
  dispatcher: Agent
  now?: () => number
}

/**
 * How long the body of a 2xx may take to arrive after its status: the delivery counts as acknowledged at the
 * status, and its body is read in the background to keep the connection alive for the next one, but a
 * receiver that drips it is cut after this.
 */
const ACKED_BODY_MS = 1000

/** The code of the connect error of a connection that reached the gateway's own listener. */
const SELF_CONNECT = 'ERR_WEBHOOK_SELF'

/**
 * An undici Agent for one endpoint's requests (index.ts makes one per endpoint): one connection, since its
 * worker sends one request at a time, kept alive between deliveries. One per endpoint so that endpoints of
 * one host that hang (another key's, say) cannot hold the connections this one needs.
 *
 * `self` (where the gateway listens, once it does): a connection whose peer is this machine at the
 * listener's port is closed before anything is sent. `selfTarget` judges the URL's name beforehand; this
 * judges the address actually reached, so a name that resolves elsewhere at the check and here at the
 * connect (DNS rebinding) is refused too.
 */
export function createWebhookAgent (self?: () => SelfAddress | undefined): Agent {
  const connector = buildConnector({})
  return new Agent({
    connections: 1,
    keepAliveTimeout: 30_000,
    pipelining: 1,
    connect: (options, callback) => {
      connector(options, (err, socket) => {
        if (err !== null) return callback(err, null)
        const where = self?.()
        if (where === undefined || !reachesSelf(socket, where)) return callback(null, socket)
        socket.destroy()
        callback(Object.assign(new Error('the connection reached the gateway\'s own listener'), { code: SELF_CONNECT }), null)
      })
    }
  })
}

/** Whether a connected socket's peer is this machine at the gateway's port. */
function reachesSelf (socket: Socket, self: SelfAddress): boolean {
  if (socket.remotePort !== self.port || socket.remoteAddress === undefined) return false
  return isThisMachine(plainIp(socket.remoteAddress))
}

export async function postWebhook (a: Attempt): Promise<AttemptResult> {
  const timestamp = String(Math.floor((a.now ?? Date.now)() / 1000))
  const call = linkSignals(a.timeoutMs, [a.signal], 'webhook delivery')
  try {
    const res = await request(a.url, {
      method: 'POST',
      dispatcher: a.dispatcher,
      signal: call.signal,
      headersTimeout: a.timeoutMs,
      bodyTimeout: a.timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'touchline-webhooks/1',
        'x-touchline-webhook-id': a.webhookId,
        'x-touchline-delivery': a.deliveryId,
        'x-touchline-timestamp': timestamp,
        'x-touchline-signature': signWebhook(a.secret, timestamp, a.body)
      },
      body: a.body
    })
    if (res.statusCode >= 200 && res.statusCode < 300) {
      // Acknowledged by its status: a body that trickles must not turn the ack into a timeout and a resend.
      res.body.dump({ limit: MAX_RESPONSE_BYTES, signal: AbortSignal.timeout(ACKED_BODY_MS) }).catch(() => {})
      return { outcome: 'acked', status: res.statusCode, error: null }
    }
    const excerpt = await readCapped(res.body)
    const why = res.statusCode >= 300 && res.statusCode < 400 ? 'redirect not followed' : excerpt.replace(/\s+/g, ' ').trim().slice(0, 200)
    return { outcome: 'http_error', status: res.statusCode, error: `HTTP ${res.statusCode}${why === '' ? '' : `: ${why}`}` }
  } catch (err) {
    if (call.timedOut() && !a.signal.aborted) return { outcome: 'timeout', status: null, error: `no answer within ${a.timeoutMs} ms` }
    const e = err as Error & { code?: string }
    if (e.code === SELF_CONNECT) return { outcome: 'refused', status: null, error: `refused: ${e.message}` }
    return { outcome: 'network_error', status: null, error: e.code ?? e.name }
  } finally {
    call.done()
  }
}

/** Reads up to MAX_RESPONSE_BYTES, then drops the rest (destroying the stream closes its connection). */
async function readCapped (body: AsyncIterable<Buffer> & { destroy: () => void }): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8')
}

/** Where the gateway answers: its listener and its public URL. */
export interface SelfAddress {
  /** TOUCHLINE_HOST: a wildcard (`0.0.0.0`, `::`) listens on every local address. */
  host: string
  port: number
  /** TOUCHLINE_PUBLIC_URL, when set. */
  publicUrl?: string | undefined
}

const WILDCARDS = new Set(['0.0.0.0', '::', ''])
/** Loopback, or the unspecified address, which a connect on Linux takes for this machine. */
const isLoopback = (ip: string): boolean => ip.startsWith('127.') || ip === '::1' || ip === '0.0.0.0' || ip === '::'

/**
 * An address in one spelling: an IPv4-mapped IPv6 one as its IPv4, lower case. The URL parser and the
 * resolver write IPv6 compressed, the mapped part dotted (`::ffff:127.0.0.1`) or in hex (`::ffff:7f00:1`).
 */
function plainIp (address: string): string {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase()
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(ip)
  if (mapped === null) return ip
  if (mapped[1] !== undefined) return mapped[1]
  const hi = parseInt(mapped[2] as string, 16)
  const lo = parseInt(mapped[3] as string, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

const defaultPort = (u: URL): number => u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80

/** Whether an address is this machine's: loopback or unspecified, or one of `local` (its interfaces'). */
const isThisMachine = (ip: string, local: ReadonlySet<string> = localAddresses()): boolean => isLoopback(ip) || local.has(ip)

function localAddresses (): Set<string> {
  const out = new Set<string>(['0.0.0.0', '::'])
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) out.add(i.address)
  return out
}

/**
 * Why `url` would reach the gateway itself, or undefined when it would not: same origin as the public URL,
 * or a name that resolves to an address the listener answers on, at its port. A webhook to itself would
 * post every change back to its own `/v1` routes: refused, and shown as `refused`.
 */
export async function selfTarget (url: string, self: SelfAddress, resolve = resolveAll): Promise<string | undefined> {
  const u = new URL(url)
  if (self.publicUrl !== undefined) {
    const p = new URL(self.publicUrl)
    if (p.hostname.toLowerCase() === u.hostname.toLowerCase() && defaultPort(p) === defaultPort(u)) return 'the URL is the gateway\'s public URL'
  }
  if (defaultPort(u) !== self.port) return undefined
  const addresses = (await addressesOf(u.hostname, resolve)).map(plainIp)
  const wildcard = WILDCARDS.has(self.host)
  const local = wildcard ? localAddresses() : undefined
  // The listener's own addresses: TOUCHLINE_HOST may be a name (`localhost`).
  const listener = wildcard ? [] : (await addressesOf(self.host, resolve)).map(plainIp)
  for (const ip of addresses) {
    const mine = local !== undefined
      ? isThisMachine(ip, local)
      : listener.some((own) => own === ip || (isLoopback(ip) && isLoopback(own)))
    if (mine) return 'the URL resolves to the gateway\'s own listener'
  }
  return undefined
}

/** A host's addresses: itself when it is one, else what it resolves to (none when it does not). */
async function addressesOf (hostname: string, resolve: (host: string) => Promise<string[]>): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '')
  return isIP(host) !== 0 ? [host] : await resolve(host).catch(() => [])
}

async function resolveAll (host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address)
}
