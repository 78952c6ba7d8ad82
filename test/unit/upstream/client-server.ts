/**
 * A tiny real HTTP server for the upstream client tests: canned replies per path, served in order (the
 * last one repeats), every request recorded. 'hang' accepts the request and never answers.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface CannedReply {
  status?: number
  /** JSON-encoded unless it is a string. */
  body?: unknown
  headers?: Record<string, string>
}
/** A canned reply, 'hang', or a function of the request (e.g. a counter of remaining calls). */
export type Reply = CannedReply | 'hang' | ((req: SeenRequest) => CannedReply)

export interface SeenRequest {
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  at: number
}

export interface TestServer {
  /** Base URL including `/v3`. */
  baseUrl: string
  origin: string
  seen: SeenRequest[]
  /** Sets the replies for a path under /v3 (e.g. `/football/livescores/latest`). */
  on: (path: string, ...replies: Reply[]) => void
  hits: (path: string) => SeenRequest[]
  close: () => Promise<void>
}

export const rateLimit = (remaining: number, entity = 'Fixture', resetsIn = 1800) =>
  ({ remaining, resets_in_seconds: resetsIn, requested_entity: entity })

/** A spec envelope (part 2.1) around `data`. */
export function envelope (data: unknown, extra: Record<string, unknown> = {}) {
  return { data, subscription: [], rate_limit: rateLimit(2990), timezone: 'UTC', ...extra }
}

export async function startServer (): Promise<TestServer> {
  const routes = new Map<string, Reply[]>()
  const seen: SeenRequest[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    const path = url.pathname.replace(/^\/v3/, '')
    const request = { path, query: url.searchParams, headers: req.headers, at: performance.now() }
    seen.push(request)
    const queue = routes.get(path)
    const next = queue === undefined ? { status: 404, body: { message: 'no route in test server' } } : queue.length > 1 ? queue.shift() : queue[0]
    if (next === 'hang' || next === undefined) return
    const reply = typeof next === 'function' ? next(request) : next
    const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {})
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    baseUrl: `${origin}/v3`,
    origin,
    seen,
    on: (path, ...replies) => { routes.set(path, replies) },
    hits: (path) => seen.filter((r) => r.path === path),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A base URL on which nothing listens: a port the OS gave us, then released. */
export async function refusedBaseUrl (): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/v3`
}
