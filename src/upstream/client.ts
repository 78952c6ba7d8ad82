/**
 * HTTP client for the upstream API (docs/upstream.md: its envelope, errors and rate limits, and the real
 * API's quirks). One keep-alive undici Pool; every failure becomes a typed UpstreamError. One attempt and
 * its bookkeeping are attempt.ts; the calls built on it (retried `get`, `paginate`, `getRaw`) are here.
 *
 * - Token: sent as the `api_token` query parameter and nowhere else. Whatever the caller put
 *   under that name is dropped. Log lines and errors carry the path rendered without it.
 * - Retries: 5xx, timeouts and network errors, with exponential backoff and full jitter (the client library's backoffDelay:
 *   delay drawn uniformly from [0, min(retryMaxMs, retryBaseMs * 2^attempt)]), so instances that fail
 *   together do not retry in lockstep. 4xx never: they would fail again and each try may cost budget.
 *   429 neither: its `retryAfterSeconds` goes to the poller, which decides.
 * - Budget: every response that reports a bucket (body `rate_limit`, or `x-ratelimit-*` headers when the
 *   body has none; the body wins, docs/upstream.md "Rate limits") is recorded in the ledger, 429s included.
 */
import { Pool } from 'undici'
import { redactUrl } from '../logger.ts'
import { sleep } from '../util/abort.ts'
import { backoffDelay } from '@touchline/core'
import { DEFAULT_HEADERS, getOnce, send, settle, type UpstreamContext } from './attempt.ts'
import { nextPage, OFFSET_ROWS_CAP, parseJson, resolveTarget, type Query } from './request.ts'
import type { PaginateOptions, RawResponse, RequestOptions, UpstreamClient, UpstreamClientOptions, UpstreamResponse } from './types.ts'
import { UpstreamAbortedError, UpstreamError, UpstreamErrorCode } from './upstream-errors.ts'

export type { Query } from './request.ts'
export type { CallInfo, PaginateOptions, RawResponse, RequestOptions, UpstreamClient, UpstreamClientOptions, UpstreamResponse } from './types.ts'

/**
 * Caller headers getRaw never forwards: hop-by-hop ones (undici rejects some), `host` (the Pool sets it),
 * and `authorization`, which the upstream also reads as a token (docs/upstream.md, "Authentication") and
 * would then win over ours.
 */
const DROPPED_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length', 'te', 'trailer', 'proxy-authorization', 'authorization'])

export function createUpstreamClient (opts: UpstreamClientOptions): UpstreamClient {
  const c = upstreamContext(opts)
  const ownDispatcher = opts.dispatcher === undefined
  return {
    get: async (path, query, reqOpts) => await get(c, path, query, reqOpts),
    paginate: (path, query, popts) => paginate(c, path, query, popts),
    getRaw: async (path, query, headers, reqOpts) => await getRaw(c, path, query, headers, reqOpts),
    /** Aborts calls in flight and pending backoffs, then closes the Pool if the client made it. Idempotent. */
    async close () {
      if (c.closed.signal.aborted) return
      c.closed.abort()
      if (ownDispatcher) await c.dispatcher.close()
    }
  }
}

function upstreamContext (opts: UpstreamClientOptions): UpstreamContext {
  const { token } = opts
  if (typeof token !== 'string' || token === '') throw new TypeError('upstream token must be a non-empty string')
  const base = new URL(opts.baseUrl)
  const timeoutMs = opts.timeoutMs ?? 10_000
  return {
    base,
    timeoutMs,
    retries: opts.retries ?? 2,
    retryBaseMs: opts.retryBaseMs ?? 200,
    retryMaxMs: opts.retryMaxMs ?? 5000,
    now: opts.now ?? Date.now,
    random: opts.random ?? Math.random,
    // Used as given: the caller names it (gateway.ts passes a child with component 'upstream').
    log: opts.logger,
    ledger: opts.ledger,
    onCall: opts.onCall,
    // 8 sockets: the poller makes about one call a second and the passthrough coalesces, so this bounds
    // what we open against the upstream while leaving room for a burst of distinct passthrough requests.
    // Idle sockets live 30 s unless the server's Keep-Alive hint says less, so polls reuse a warm socket.
    dispatcher: opts.dispatcher ?? new Pool(base.origin, {
      connections: 8, keepAliveTimeout: 30_000, connect: { timeout: timeoutMs }
    }),
    closed: new AbortController(),
    scrub: (text) => redactUrl(text).replaceAll(token, '[redacted]'),
    resolve: (path, query) => resolveTarget(base, path, query, token)
  }
}

async function get<T> (c: UpstreamContext, path: string, query: Query = {}, reqOpts: RequestOptions = {}): Promise<UpstreamResponse<T>> {
  const target = c.resolve(path, query)
  for (let attempt = 0; ; attempt++) {
    await reqOpts.beforeAttempt?.(attempt)
    try {
      return await getOnce<T>(c, target, reqOpts)
    } catch (err) {
      if (!(err instanceof UpstreamError) || !err.retryable || attempt >= (reqOpts.retries ?? c.retries)) throw err
      if (err.code === UpstreamErrorCode.Timeout && reqOpts.retryTimeouts === false) throw err
      const delayMs = backoffDelay(attempt + 1, { baseMs: c.retryBaseMs, capMs: c.retryMaxMs, jitter: 'full', random: c.random })
      c.log?.warn({ path: target.display, attempt: attempt + 1, code: err.code, status: err.status, delayMs }, 'upstream call failed, retrying')
      if (!await sleep(delayMs, [c.closed.signal, reqOpts.signal])) {
        throw new UpstreamAbortedError(`upstream call GET ${target.display} aborted`, { path: target.display, entity: target.entity, cause: err })
      }
    }
  }
}

async function * paginate<T> (c: UpstreamContext, path: string, query: Query = {}, popts: PaginateOptions = {}): AsyncIterable<UpstreamResponse<T[]>> {
  const maxPages = popts.maxPages ?? 1000
  let next: { path: string, query: Query } | undefined = { path, query }
  for (let pages = 1; next !== undefined; pages++) {
    const res: UpstreamResponse<unknown> = await get<unknown>(c, next.path, next.query, popts)
    const items = res.data === null ? [] : Array.isArray(res.data) ? res.data : [res.data]
    yield { ...res, data: items as T[] }
    const following = nextPage(c.base, next, res.envelope.pagination, items.length)
    if (following !== undefined && 'capped' in following) {
      const display = c.resolve(path, query).display
      throw new UpstreamError(UpstreamErrorCode.Pagination, `upstream pagination of GET ${display} goes past ${OFFSET_ROWS_CAP} rows with no cursor to follow`, false, { path: display })
    }
    next = following
    if (next !== undefined && pages >= maxPages) {
      const display = c.resolve(path, query).display
      throw new UpstreamError(UpstreamErrorCode.Pagination, `upstream pagination of GET ${display} did not end within ${maxPages} pages`, false, { path: display })
    }
  }
}

async function getRaw (c: UpstreamContext, path: string, query: Query = {}, headers: Record<string, string> = {}, reqOpts: RequestOptions = {}): Promise<RawResponse> {
  const target = c.resolve(path, query)
  const forwarded: Record<string, string> = { ...DEFAULT_HEADERS }
  for (const [name, value] of Object.entries(headers)) {
    if (!DROPPED_HEADERS.has(name.toLowerCase())) forwarded[name.toLowerCase()] = value
  }
  const res = await send(c, target, forwarded, reqOpts.signal)
  // Parsed only to read `rate_limit` for the ledger; the caller gets the bytes untouched.
  const encoding = res.headers['content-encoding']
  const plain = encoding === undefined || encoding === 'identity'
  await settle(c, target, res, plain && /json/i.test(String(res.headers['content-type'] ?? '')) ? parseJson(res.body) : undefined)
  return { status: res.status, headers: res.headers, body: res.body }
}
