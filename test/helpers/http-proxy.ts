/**
 * An HTTP proxy in front of the embedded provider that can answer like the real API where the provider
 * answers as the API's documentation says: e.g. drop `x-ratelimit-limit` (the real `rate_limit` block has no total) or answer a
 * path with a 404; or like a slow or hung upstream (`delayMs`). Real sockets both ways.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'

export interface ProxyRule {
  /** Answers the request itself when it returns a reply; undefined forwards it. */
  answer?: (url: string) => { status: number, body: unknown } | undefined
  /** Response headers removed on the way back. */
  dropHeaders?: readonly string[]
  /** How long to wait before forwarding a request (0 or undefined: at once); Infinity never answers it. */
  delayMs?: (url: string) => number | undefined
}

export interface RunningProxy {
  /** The provider's base URL through the proxy (`http://127.0.0.1:<port>/v3`). */
  baseUrl: string
  /** Requests held without an answer (`delayMs` Infinity). */
  held: () => number
  close: () => Promise<void>
}

export async function startProxy (target: string, rule: ProxyRule): Promise<RunningProxy> {
  const origin = new URL(target).origin
  const drop = new Set((rule.dropHeaders ?? []).map((h) => h.toLowerCase()))
  let held = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/'
    const own = rule.answer?.(url)
    if (own !== undefined) {
      res.writeHead(own.status, { 'content-type': 'application/json' }).end(JSON.stringify(own.body))
      return
    }
    const delay = rule.delayMs?.(url) ?? 0
    if (delay === Infinity) {
      held++
      return
    }
    sleep(delay).then(async () => await fetch(origin + url)).then(async (up) => {
      const headers: Record<string, string> = {}
      up.headers.forEach((value, name) => { if (!drop.has(name) && name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') headers[name] = value })
      res.writeHead(up.status, headers).end(Buffer.from(await up.arrayBuffer()))
    }).catch(() => { res.destroy() })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    held: () => held,
    close: async () => { server.closeAllConnections(); await new Promise((resolve) => server.close(resolve)) }
  }
}
