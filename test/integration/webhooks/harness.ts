/**
 * Webhook tests over real parts: node:http receivers on real ports that record every request as it arrived
 * (headers, raw body, whether the signature verifies, how many requests were in flight at once), and real
 * gateways (in process, `startGateway`) reading a keys file from a temporary directory.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { onTestFinished } from 'vitest'
import type { Gateway, GatewayOverrides } from '../../../src/gateway.ts'
import { verifyWebhook } from '../../../src/webhooks/signature.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

export { wholeLog } from '../../helpers/log.ts'

export const SECRET = 'a-webhook-secret-of-some-length'

export interface Received {
  deliveryId: string
  webhookId: string
  headers: IncomingHttpHeaders
  raw: string
  body: { type: 'changes' | 'resync', delivery_id: string, cursor: string, data?: Array<{ cursor: string, [k: string]: unknown }>, fixtures?: Array<{ id: number }>, standings?: unknown[] }
  signed: boolean
  /** What the receiver answered: a status, or `hang` (no answer at all). */
  answer: number | 'hang'
}

/** What to answer to request number `n` (0-based): a status, `hang` (never answer), with an optional delay. */
export type Respond = (n: number, r: Received) => number | 'hang' | Promise<number | 'hang'>

export interface Receiver {
  url: string
  requests: Received[]
  /** Most requests in flight at once. */
  maxInFlight: number
  respond: Respond
  close: () => Promise<void>
}

/** A receiver, closed when the test ends (`closeWithTest`), or by the caller (one started in a beforeAll). */
export async function startReceiver (respond: Respond = () => 200, secret = SECRET, closeWithTest = true): Promise<Receiver> {
  let inFlight = 0
  const r: Receiver = { url: '', requests: [], maxInFlight: 0, respond, close: async () => {} }
  const server: Server = createServer((req, res) => {
    inFlight++
    r.maxInFlight = Math.max(r.maxInFlight, inFlight)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const rec: Received = {
        deliveryId: String(req.headers['x-touchline-delivery']),
        webhookId: String(req.headers['x-touchline-webhook-id']),
        headers: req.headers,
        raw,
        body: JSON.parse(raw) as Received['body'],
        signed: verifyWebhook({ secret, body: raw, timestamp: req.headers['x-touchline-timestamp'] as string, signature: req.headers['x-touchline-signature'] as string }),
        answer: 200
      }
      const n = r.requests.push(rec) - 1
      Promise.resolve(r.respond(n, rec)).then((answer) => {
        rec.answer = answer
        if (answer === 'hang') {
          // Counted out when the gateway gives up (its timeout) and closes the connection.
          res.on('close', () => { inFlight-- })
          return
        }
        inFlight--
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 200 && answer < 300 ? 'ok' : 'nope')
      }, (err: unknown) => { res.destroy(err as Error) })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  r.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hook`
  r.close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  if (closeWithTest) onTestFinished(r.close)
  return r
}

/**
 * The change frames the receiver acknowledged, in the order it acknowledged them: a request's frames count
 * once its answer was a 2xx. Several acknowledged requests with the same delivery id are one delivery.
 */
export function acknowledged (r: Receiver, webhookId?: string): Array<{ cursor: string, [k: string]: unknown }> {
  const seen = new Set<string>()
  const out: Array<{ cursor: string, [k: string]: unknown }> = []
  for (const q of r.requests) {
    if (webhookId !== undefined && q.webhookId !== webhookId) continue
    if (typeof q.answer !== 'number' || q.answer < 200 || q.answer >= 300 || seen.has(q.deliveryId)) continue
    seen.add(q.deliveryId)
    out.push(...q.body.data ?? [])
  }
  return out
}

/** Every record of the log from its start (or after `since`), in order. */
export { writeKeysFile as writeKeys } from '../../helpers/gateway.ts'

export const hookKey = (hooks: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ key: 'hook-client-key', name: 'hooks', webhooks: hooks, ...extra })

/** A gateway without polling (the test appends to its store), closed when the test ends. */
export async function startHookGateway (keysFile: string, env: Record<string, string> = {}, overrides: GatewayOverrides = {}): Promise<Gateway> {
  return await startTestGateway({
    env: {
      // Never called: the poller is off and no passthrough request is made.
      TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3',
      TOUCHLINE_KEYS_FILE: keysFile,
      TOUCHLINE_WEBHOOK_RETRY_BASE_MS: '20',
      TOUCHLINE_WEBHOOK_RETRY_MAX_MS: '200',
      TOUCHLINE_WEBHOOK_TIMEOUT_MS: '2000',
      ...env
    },
    overrides: { poll: false, ...overrides },
    closeWhenTestEnds: true
  })
}
