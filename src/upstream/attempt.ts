/**
 * One attempt at the upstream and its bookkeeping: the HTTP request with its deadline, the bucket the
 * answer reports recorded in the budget ledger, the call reported to metrics and logged, and a 2xx parsed
 * into its envelope. What every call of one client shares is an UpstreamContext (client.ts builds it).
 */
import { performance } from 'node:perf_hooks'
import type { IncomingHttpHeaders } from 'node:http'
import type { Logger } from 'pino'
import type { Dispatcher } from 'undici'
import { observeResponse, type RateLimitSnapshot } from '../budget/observe.ts'
import type { BudgetLedger } from '../budget/types.ts'
import { linkSignals } from '../util/abort.ts'
import { parseJson, shapeData, type Query, type Target } from './request.ts'
import { parseEnvelope, type Envelope } from './schemas.ts'
import type { CallInfo, RequestOptions, UpstreamResponse } from './types.ts'
import { errorFromResponse, parseRetryAfter, transportError, UpstreamError, UpstreamErrorCode } from './upstream-errors.ts'

export interface UpstreamContext {
  base: URL
  timeoutMs: number
  retries: number
  retryBaseMs: number
  retryMaxMs: number
  now: () => number
  random: () => number
  log: Logger | undefined
  ledger: BudgetLedger | undefined
  onCall: ((info: CallInfo) => void) | undefined
  dispatcher: Dispatcher
  /** Aborted by close(): calls in flight and pending backoffs end. */
  closed: AbortController
  /** Removes the token (and URL credentials) from upstream text copied into errors. */
  scrub: (text: string) => string
  /** The request target of a path and query, token added. */
  resolve: (path: string, query: Query) => Target
}

export interface Attempt { status: number, headers: IncomingHttpHeaders, body: Buffer, durationMs: number }

export const DEFAULT_HEADERS = { accept: 'application/json', 'user-agent': 'touchline' }

function report (c: UpstreamContext, info: CallInfo): void {
  try {
    c.onCall?.(info)
  } catch (err) {
    c.log?.warn({ err }, 'upstream onCall hook threw')
  }
}

export async function send (c: UpstreamContext, target: Target, headers: Record<string, string>, signal?: AbortSignal, attemptMs = c.timeoutMs): Promise<Attempt> {
  const deadline = linkSignals(attemptMs, [c.closed.signal, signal], 'upstream attempt')
  const started = performance.now()
  try {
    const res = await c.dispatcher.request({
      origin: c.base.origin,
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
    const aborted = c.closed.signal.aborted || signal?.aborted === true
    const err = transportError(cause, { path: target.display, entity: target.entity, timeoutMs: attemptMs, timedOut: deadline.timedOut(), aborted })
    // An aborted call is our own doing, not an upstream outcome: it is not reported as a call.
    if (!aborted) report(c, { entity: target.entity, status: err.code === UpstreamErrorCode.Timeout ? 'timeout' : 'network', durationMs: performance.now() - started })
    throw err
  } finally {
    deadline.done()
  }
}

/** Records the response's bucket in the ledger (failures logged, never thrown), reports and logs the call. */
export async function settle (c: UpstreamContext, target: Target, res: Attempt, json: unknown): Promise<{ rateLimit?: RateLimitSnapshot, retryAfterSeconds?: number }> {
  const { ledger, log } = c
  const atMs = c.now()
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
  report(c, { entity, status: res.status, durationMs: res.durationMs })
  log?.debug({ path: target.display, status: res.status, durationMs: Math.round(res.durationMs), entity, remaining: rateLimit?.remaining }, 'upstream call')
  return { rateLimit, retryAfterSeconds }
}

/** One attempt of a `get`: a non-2xx answer throws its typed error, a 2xx is parsed into its envelope. */
export async function getOnce<T> (c: UpstreamContext, target: Target, reqOpts: RequestOptions): Promise<UpstreamResponse<T>> {
  const res = await send(c, target, DEFAULT_HEADERS, reqOpts.signal, reqOpts.timeoutMs)
  const json = parseJson(res.body)
  const { rateLimit, retryAfterSeconds } = await settle(c, target, res, json)
  if (res.status < 200 || res.status > 299) {
    throw errorFromResponse({ status: res.status, json, path: target.display, entity: rateLimit?.entity ?? target.entity, retryAfterSeconds, scrub: c.scrub })
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
