/**
 * HTTP client for the upstream API (spec/football-data-service.md; the real API's quirks per
 * spec/upstream-facts.md). One keep-alive undici Pool; every failure becomes a typed UpstreamError.
 *
 * - Token: sent as the `api_token` query parameter (spec part 5) and nowhere else. Whatever the caller put
 *   under that name is dropped. Log lines and errors carry the path rendered without it.
 * - Retries: 5xx, timeouts and network errors, with exponential backoff and full jitter (util/backoff.ts:
 *   delay drawn uniformly from [0, min(retryMaxMs, retryBaseMs * 2^attempt)]), so instances that fail
 *   together do not retry in lockstep. 4xx never: they would fail again and each try may cost budget. 429 neither: its
 *   `retryAfterSeconds` goes to the poller, which decides.
 * - Budget: every response that reports a bucket (body `rate_limit`, or `x-ratelimit-*` headers when the
 *   body has none; the body wins, upstream-facts §5) is recorded in the ledger, 429s included.
 */
import { performance } from 'node:perf_hooks'
import type { IncomingHttpHeaders } from 'node:http'
import type { Logger } from 'pino'
import { Pool, type Dispatcher } from 'undici'
import { observeResponse, type RateLimitSnapshot } from '../budget/observe.ts'
import type { BudgetLedger } from '../budget/types.ts'
import { redactUrl } from '../logger.ts'
import { backoffDelay } from '../util/backoff.ts'
import { errorFromResponse, parseRetryAfter, transportError, UpstreamAbortedError, UpstreamError, UpstreamErrorCode } from './upstream-errors.ts'
import { linkSignals, sleep } from './abort.ts'
import { nextPage, OFFSET_ROWS_CAP, parseJson, resolveTarget, shapeData, type Query, type Target } from './request.ts'
import { parseEnvelope, type Envelope } from './schemas.ts'

export type { Query } from './request.ts'
export type { RateLimitSnapshot } from '../budget/observe.ts'

export interface UpstreamResponse<T> {
  /** `data` of the envelope. Missing data (the real API's "No result(s) found" 200) is `[]`, or `null` on a
   * single-resource endpoint; a list endpoint answering an object (`latest` in the docs) gives `[object]`. */
  data: T
  envelope: Envelope
  rateLimit?: RateLimitSnapshot
  status: number
  durationMs: number
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  /** The body exactly as received (still compressed if the caller asked for an encoding). */
  body: Buffer
}

/** One upstream HTTP attempt, for metrics (calls by entity and status) without importing prom-client here. */
export interface CallInfo {
  entity?: string
  status: number | 'timeout' | 'network'
  durationMs: number
}

export interface RequestOptions {
  /** Aborts the call (and its retries) with an UpstreamAbortedError. */
  signal?: AbortSignal
  /** Deadline of one attempt for this call, e.g. a short one for `latest` polls. @default the client's timeoutMs */
  timeoutMs?: number
  /** Retries for this call (`get`/`paginate`). @default the client's retries */
  retries?: number
  /** Whether an attempt that timed out is retried (false: only error answers are). @default true */
  retryTimeouts?: boolean
  /**
   * Runs before every attempt, retries included (`get`/`paginate` only): the poller reserves each call
   * in the budget ledger here. What it throws ends the call with that error, unretried.
   */
  beforeAttempt?: (attempt: number) => Promise<void>
}

export interface PaginateOptions extends RequestOptions {
  /**
   * Runaway guard: the walk throws TL_ERR_UPSTREAM_PAGINATION past this many pages rather than loop on an
   * upstream that always says `has_more`. 1000 pages is a third of a 3000/h bucket. @default 1000
   */
  maxPages?: number
}

export interface UpstreamClientOptions {
  /** Base URL including `/v3`, e.g. `https://api.example.com/v3`. */
  baseUrl: string
  token: string
  /** Deadline of one attempt (connect, headers and body). @default 10_000 */
  timeoutMs?: number
  /** Retries after the first attempt, for retryable failures only. @default 2 */
  retries?: number
  /** Backoff base: the n-th retry waits up to retryBaseMs * 2^(n-1). @default 200 */
  retryBaseMs?: number
  /** Cap of one backoff delay. @default 5000 */
  retryMaxMs?: number
  ledger?: BudgetLedger
  logger?: Logger
  /** @default a keep-alive undici Pool on the base URL's origin, closed by close() */
  dispatcher?: Dispatcher
  /** Wall clock in epoch ms (arrival times for the ledger, Retry-After dates). @default Date.now */
  now?: () => number
  /** Jitter source in [0, 1); tests pin it. @default Math.random */
  random?: () => number
  onCall?: (info: CallInfo) => void
}

export interface UpstreamClient {
  get: <T = unknown>(path: string, query?: Query, opts?: RequestOptions) => Promise<UpstreamResponse<T>>
  /**
   * Walks a list endpoint page by page (one call each) while `pagination.has_more`: by `next_cursor` when the
   * upstream gives one, else by page number, never past the upstream's 20,000-row offset cap (it throws
   * TL_ERR_UPSTREAM_PAGINATION there rather than ask for a page the upstream refuses).
   */
  paginate: <T = unknown>(path: string, query?: Query, opts?: PaginateOptions) => AsyncIterable<UpstreamResponse<T[]>>
  /** One attempt, no parsing, no retries, token added: for the REST passthrough. Throws only on transport failures. */
  getRaw: (path: string, query?: Query, headers?: Record<string, string>, opts?: RequestOptions) => Promise<RawResponse>
  close: () => Promise<void>
}

interface Attempt { status: number, headers: IncomingHttpHeaders, body: Buffer, durationMs: number }

const DEFAULT_HEADERS = { accept: 'application/json', 'user-agent': 'touchline' }
/**
 * Caller headers getRaw never forwards: hop-by-hop ones (undici rejects some), `host` (the Pool sets it),
 * and `authorization`, which the real API reads as a token (spec 5.6) and would then win over ours.
 */
const DROPPED_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length', 'te', 'trailer', 'proxy-authorization', 'authorization'])

export function createUpstreamClient (opts: UpstreamClientOptions): UpstreamClient {
  const { token, ledger, onCall } = opts
  if (typeof token !== 'string' || token === '') throw new TypeError('upstream token must be a non-empty string')
  const base = new URL(opts.baseUrl)
  const timeoutMs = opts.timeoutMs ?? 10_000
  const retries = opts.retries ?? 2
  const retryBaseMs = opts.retryBaseMs ?? 200
  const retryMaxMs = opts.retryMaxMs ?? 5000
  const now = opts.now ?? Date.now
  const random = opts.random ?? Math.random
  // Used as given: the caller names it (gateway.ts passes a child with component 'upstream').
  const log = opts.logger
  const ownDispatcher = opts.dispatcher === undefined
  // 8 sockets: the poller makes about one call a second and the passthrough coalesces, so this bounds
  // what we open against the upstream while leaving room for a burst of distinct passthrough requests.
  // Idle sockets live 30 s unless the server's Keep-Alive hint says less, so polls reuse a warm socket.
  const dispatcher = opts.dispatcher ?? new Pool(base.origin, {
    connections: 8, keepAliveTimeout: 30_000, connect: { timeout: timeoutMs }
  })
  const closed = new AbortController()
  const scrub = (text: string): string => redactUrl(text).replaceAll(token, '[redacted]')
  const resolve = (path: string, query: Query): Target => resolveTarget(base, path, query, token)

  const report = (info: CallInfo): void => {
    try {
      onCall?.(info)
    } catch (err) {
      log?.warn({ err }, 'upstream onCall hook threw')
    }
  }

  async function send (target: Target, headers: Record<string, string>, signal?: AbortSignal, attemptMs = timeoutMs): Promise<Attempt> {
    const deadline = linkSignals(attemptMs, [closed.signal, signal])
    const started = performance.now()
    try {
      const res = await dispatcher.request({
        origin: base.origin,
        path: target.requestPath,
        method: 'GET',
        headers,
        signal: deadline.signal,
        headersTimeout: attemptMs,
        bodyTimeout: attemptMs
      })
      const body = Buffer.from(await res.body.arrayBuffer())
      return { status: res.statusCode, headers: res.headers, body, durationMs: performance.now() - started }
    } catch (cause) {
      const aborted = closed.signal.aborted || signal?.aborted === true
      const err = transportError(cause, { path: target.display, entity: target.entity, timeoutMs: attemptMs, timedOut: deadline.timedOut(), aborted })
      // An aborted call is our own doing, not an upstream outcome: it is not reported as a call.
      if (!aborted) report({ entity: target.entity, status: err.code === UpstreamErrorCode.Timeout ? 'timeout' : 'network', durationMs: performance.now() - started })
      throw err
    } finally {
      deadline.done()
    }
  }

  /** Records the response's bucket in the ledger (failures logged, never thrown), reports and logs the call. */
  async function settle (target: Target, res: Attempt, json: unknown): Promise<{ rateLimit?: RateLimitSnapshot, retryAfterSeconds?: number }> {
    const atMs = now()
    const retryAfter = res.headers['retry-after']
    const retryAfterSeconds = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, atMs)
    const rateLimit = await observeResponse({ status: res.status, json, headers: res.headers, entityHint: target.entity, retryAfterSeconds, nowMs: atMs, ledger })
    if (rateLimit !== undefined && ledger !== undefined) {
      const { entity, ...obs } = rateLimit
      try {
        await ledger.record(entity, obs, atMs)
      } catch (err) {
        log?.warn({ err, entity }, 'budget ledger write failed')
      }
    }
    const entity = rateLimit?.entity ?? target.entity
    report({ entity, status: res.status, durationMs: res.durationMs })
    log?.debug({ path: target.display, status: res.status, durationMs: Math.round(res.durationMs), entity, remaining: rateLimit?.remaining }, 'upstream call')
    return { rateLimit, retryAfterSeconds }
  }

  async function getOnce<T> (target: Target, reqOpts: RequestOptions): Promise<UpstreamResponse<T>> {
    const res = await send(target, DEFAULT_HEADERS, reqOpts.signal, reqOpts.timeoutMs)
    const json = parseJson(res.body)
    const { rateLimit, retryAfterSeconds } = await settle(target, res, json)
    if (res.status < 200 || res.status > 299) {
      throw errorFromResponse({ status: res.status, json, path: target.display, entity: rateLimit?.entity ?? target.entity, retryAfterSeconds, scrub })
    }
    let envelope: Envelope
    try {
      envelope = parseEnvelope(json)
    } catch (cause) {
      throw new UpstreamError(UpstreamErrorCode.BadResponse, `upstream answered GET ${target.display} with a body that is not an envelope`, false, {
        status: res.status, path: target.display, entity: target.entity, cause: json === undefined ? undefined : cause
      })
    }
    const data = shapeData(envelope.data, target.mode) as T
    const out: UpstreamResponse<T> = { data, envelope, status: res.status, durationMs: res.durationMs }
    if (rateLimit !== undefined) out.rateLimit = rateLimit
    return out
  }

  async function get<T> (path: string, query: Query = {}, reqOpts: RequestOptions = {}): Promise<UpstreamResponse<T>> {
    const target = resolve(path, query)
    for (let attempt = 0; ; attempt++) {
      await reqOpts.beforeAttempt?.(attempt)
      try {
        return await getOnce<T>(target, reqOpts)
      } catch (err) {
        if (!(err instanceof UpstreamError) || !err.retryable || attempt >= (reqOpts.retries ?? retries)) throw err
        if (err.code === UpstreamErrorCode.Timeout && reqOpts.retryTimeouts === false) throw err
        const delayMs = backoffDelay(attempt + 1, { baseMs: retryBaseMs, capMs: retryMaxMs, jitter: 'full', random })
        log?.warn({ path: target.display, attempt: attempt + 1, code: err.code, status: err.status, delayMs }, 'upstream call failed, retrying')
        if (!await sleep(delayMs, [closed.signal, reqOpts.signal])) {
          throw new UpstreamAbortedError(`upstream call GET ${target.display} aborted`, { path: target.display, entity: target.entity, cause: err })
        }
      }
    }
  }

  async function * paginate<T> (path: string, query: Query = {}, popts: PaginateOptions = {}): AsyncIterable<UpstreamResponse<T[]>> {
    const maxPages = popts.maxPages ?? 1000
    let next: { path: string, query: Query } | undefined = { path, query }
    for (let pages = 1; next !== undefined; pages++) {
      const res: UpstreamResponse<unknown> = await get<unknown>(next.path, next.query, popts)
      const items = res.data === null ? [] : Array.isArray(res.data) ? res.data : [res.data]
      yield { ...res, data: items as T[] }
      const following = nextPage(base, next, res.envelope.pagination, items.length)
      if (following !== undefined && 'capped' in following) {
        const display = resolve(path, query).display
        throw new UpstreamError(UpstreamErrorCode.Pagination, `upstream pagination of GET ${display} goes past ${OFFSET_ROWS_CAP} rows with no cursor to follow`, false, { path: display })
      }
      next = following
      if (next !== undefined && pages >= maxPages) {
        const display = resolve(path, query).display
        throw new UpstreamError(UpstreamErrorCode.Pagination, `upstream pagination of GET ${display} did not end within ${maxPages} pages`, false, { path: display })
      }
    }
  }

  async function getRaw (path: string, query: Query = {}, headers: Record<string, string> = {}, reqOpts: RequestOptions = {}): Promise<RawResponse> {
    const target = resolve(path, query)
    const forwarded: Record<string, string> = { ...DEFAULT_HEADERS }
    for (const [name, value] of Object.entries(headers)) {
      if (!DROPPED_HEADERS.has(name.toLowerCase())) forwarded[name.toLowerCase()] = value
    }
    const res = await send(target, forwarded, reqOpts.signal)
    // Parsed only to read `rate_limit` for the ledger; the caller gets the bytes untouched.
    const encoding = res.headers['content-encoding']
    const plain = encoding === undefined || encoding === 'identity'
    await settle(target, res, plain && /json/i.test(String(res.headers['content-type'] ?? '')) ? parseJson(res.body) : undefined)
    return { status: res.status, headers: res.headers, body: res.body }
  }

  return {
    get,
    paginate,
    getRaw,
    /** Aborts calls in flight and pending backoffs, then closes the Pool if the client made it. Idempotent. */
    async close () {
      if (closed.signal.aborted) return
      closed.abort()
      if (ownDispatcher) await dispatcher.close()
    }
  }
}
