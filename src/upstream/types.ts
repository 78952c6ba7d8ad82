/** The upstream client's public types: its options, its calls' options and what they return (client.ts). */
import type { IncomingHttpHeaders } from 'node:http'
import type { Logger } from 'pino'
import type { Dispatcher } from 'undici'
import type { RateLimitSnapshot } from '../budget/observe.ts'
import type { BudgetLedger } from '../budget/types.ts'
import type { Query } from './request.ts'
import type { Envelope } from './schemas.ts'

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
