/**
 * Typed upstream failures, each with its stable TL_ERR_UPSTREAM_* code from the gateway's catalogue
 * (src/errors.ts): callers branch on `code` or `instanceof`, never on message text. One class per error
 * status the upstream answers with (docs/upstream.md, "Errors"), plus transport failures.
 *
 * No error ever carries the upstream token: messages are built from the request path, which the client
 * renders without `api_token` (and passes through `redactUrl` on top), and any text copied from an
 * upstream body goes through the client's `scrub` first. Raw bodies are not kept on the error.
 */
import { AppError, ErrorCodes } from '../errors.ts'
import { redactUrl } from '../logger.ts'
import { parseErrorBody, TooManyRequestsBodySchema } from './schemas.ts'

/** The upstream's failures by kind: their codes are the TL_ERR_UPSTREAM_* of the gateway's catalogue. */
export const UpstreamErrorCode = {
  BadRequest: ErrorCodes.UPSTREAM_BAD_REQUEST,
  Unauthorized: ErrorCodes.UPSTREAM_UNAUTHORIZED,
  Forbidden: ErrorCodes.UPSTREAM_FORBIDDEN,
  NotFound: ErrorCodes.UPSTREAM_NOT_FOUND,
  RateLimited: ErrorCodes.UPSTREAM_RATE_LIMITED,
  Server: ErrorCodes.UPSTREAM_SERVER,
  Http: ErrorCodes.UPSTREAM_HTTP,
  BadResponse: ErrorCodes.UPSTREAM_BAD_RESPONSE,
  Timeout: ErrorCodes.UPSTREAM_TIMEOUT,
  Network: ErrorCodes.UPSTREAM_NETWORK,
  Aborted: ErrorCodes.UPSTREAM_ABORTED,
  Pagination: ErrorCodes.UPSTREAM_PAGINATION
} as const
export type UpstreamErrorCodeValue = typeof UpstreamErrorCode[keyof typeof UpstreamErrorCode]

export interface UpstreamErrorOptions {
  /** HTTP status, when the upstream answered. */
  status?: number
  /** Entity bucket of the request (from the response, or the path's endpoint in the contract). */
  entity?: string
  /** Request path and query relative to the base URL, token removed. */
  path?: string
  /** The upstream's internal numeric code (5001 include not found, 5005 rate limit, ...), when sent. */
  upstreamCode?: number
  /** The upstream's `message`, scrubbed of the token. */
  upstreamMessage?: string
  cause?: unknown
}

export class UpstreamError extends AppError {
  declare readonly code: UpstreamErrorCodeValue
  readonly status: number | undefined
  readonly entity: string | undefined
  readonly path: string | undefined
  /** Whether the client retries it (5xx, timeouts, network errors); never for 4xx, 429 included. */
  readonly retryable: boolean
  readonly upstreamCode: number | undefined
  readonly upstreamMessage: string | undefined

  constructor (code: UpstreamErrorCodeValue, message: string, retryable: boolean, opts: UpstreamErrorOptions = {}) {
    // redactUrl again here: a second line of defence for messages built anywhere from a URL.
    super(code, redactUrl(message), opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = new.target.name
    this.retryable = retryable
    this.status = opts.status
    this.entity = opts.entity
    this.path = opts.path === undefined ? undefined : redactUrl(opts.path)
    this.upstreamCode = opts.upstreamCode
    this.upstreamMessage = opts.upstreamMessage
  }
}

export class UpstreamBadRequestError extends UpstreamError {
  /** Parameter name to problems, as the upstream's 400 body gives them (scrubbed). */
  readonly errors: Record<string, string[]>
  constructor (message: string, errors: Record<string, string[]>, opts: UpstreamErrorOptions) {
    super(UpstreamErrorCode.BadRequest, message, false, opts)
    this.errors = errors
  }
}

export class UpstreamUnauthorizedError extends UpstreamError {
  constructor (message: string, opts: UpstreamErrorOptions) { super(UpstreamErrorCode.Unauthorized, message, false, opts) }
}

export class UpstreamForbiddenError extends UpstreamError {
  readonly resource: string | undefined
  readonly planRequired: string | undefined
  constructor (message: string, extra: { resource?: string, planRequired?: string }, opts: UpstreamErrorOptions) {
    super(UpstreamErrorCode.Forbidden, message, false, opts)
    this.resource = extra.resource
    this.planRequired = extra.planRequired
  }
}

export class UpstreamNotFoundError extends UpstreamError {
  readonly resourceType: string | undefined
  readonly resourceId: string | undefined
  constructor (message: string, extra: { resourceType?: string, resourceId?: string }, opts: UpstreamErrorOptions) {
    super(UpstreamErrorCode.NotFound, message, false, opts)
    this.resourceType = extra.resourceType
    this.resourceId = extra.resourceId
  }
}

export interface RateLimitInfo {
  remaining?: number
  /** The hourly limit (`rate_limit.total`). */
  total?: number
  resetsInSeconds?: number
  entity?: string
}

/** 429: the entity's hourly bucket is empty. Not retried by the client: the poller decides when to come back. */
export class UpstreamRateLimitedError extends UpstreamError {
  /** From the body's `retry_after`, else the `retry-after` header, else `rate_limit.resets_in_seconds`. */
  readonly retryAfterSeconds: number | undefined
  readonly rateLimit: RateLimitInfo | undefined
  constructor (message: string, extra: { retryAfterSeconds?: number, rateLimit?: RateLimitInfo }, opts: UpstreamErrorOptions) {
    super(UpstreamErrorCode.RateLimited, message, false, opts)
    this.retryAfterSeconds = extra.retryAfterSeconds
    this.rateLimit = extra.rateLimit
  }
}

export class UpstreamServerError extends UpstreamError {
  /** The id to quote to the upstream's support. */
  readonly errorId: string | undefined
  constructor (message: string, errorId: string | undefined, opts: UpstreamErrorOptions) {
    super(UpstreamErrorCode.Server, message, true, opts)
    this.errorId = errorId
  }
}

export class UpstreamTimeoutError extends UpstreamError {
  constructor (message: string, opts: UpstreamErrorOptions) { super(UpstreamErrorCode.Timeout, message, true, opts) }
}

export class UpstreamNetworkError extends UpstreamError {
  constructor (message: string, opts: UpstreamErrorOptions) { super(UpstreamErrorCode.Network, message, true, opts) }
}

export class UpstreamAbortedError extends UpstreamError {
  constructor (message: string, opts: UpstreamErrorOptions) { super(UpstreamErrorCode.Aborted, message, false, opts) }
}

/** What errorFromResponse needs to know about a non-2xx answer. */
export interface ErrorResponse {
  status: number
  /** Parsed JSON body, or undefined when the body was not JSON. */
  json: unknown
  /** `retry-after` header, parsed (see parseRetryAfter). */
  retryAfterSeconds?: number
  /** Request path without the token. */
  path: string
  entity?: string
  /** Removes the token from upstream text copied into the error. */
  scrub: (text: string) => string
}

/** Maps an upstream error status and body to its typed error. */
export function errorFromResponse (res: ErrorResponse): UpstreamError {
  const { status, path, scrub } = res
  const body = parseErrorBody(status, res.json) as (Record<string, unknown> & { message: string, code?: number }) | null
  const upstreamMessage = body === null ? undefined : scrub(body.message)
  const opts: UpstreamErrorOptions = { status, path, entity: res.entity, upstreamCode: body?.code, upstreamMessage }
  const message = `upstream answered ${status} to GET ${path}${upstreamMessage === undefined ? '' : `: ${upstreamMessage}`}`
  const str = (key: string): string | undefined => typeof body?.[key] === 'string' ? scrub(body[key]) : undefined

  if (status === 400 || status === 422) return new UpstreamBadRequestError(message, scrubErrors(body?.errors, scrub), opts)
  if (status === 401) return new UpstreamUnauthorizedError(message, opts)
  if (status === 403) return new UpstreamForbiddenError(message, { resource: str('resource'), planRequired: str('plan_required') }, opts)
  if (status === 404) {
    const id = body?.resource_id
    return new UpstreamNotFoundError(message, { resourceType: str('resource_type'), resourceId: id === undefined ? undefined : scrub(String(id)) }, opts)
  }
  if (status === 429) return rateLimited(message, res, opts)
  if (status >= 500) return new UpstreamServerError(message, str('error_id'), opts)
  return new UpstreamError(UpstreamErrorCode.Http, message, false, opts)
}

function rateLimited (message: string, res: ErrorResponse, opts: UpstreamErrorOptions): UpstreamRateLimitedError {
  const parsed = TooManyRequestsBodySchema.safeParse(res.json)
  const body = parsed.success ? parsed.data : undefined
  const rl = body?.rate_limit
  const rateLimit: RateLimitInfo | undefined = rl === undefined
    ? undefined
    : { remaining: rl.remaining, total: rl.total, resetsInSeconds: rl.resets_in_seconds, entity: rl.requested_entity }
  const retryAfterSeconds = body?.retry_after ?? res.retryAfterSeconds ?? rl?.resets_in_seconds
  return new UpstreamRateLimitedError(message, { retryAfterSeconds, rateLimit }, { ...opts, entity: rl?.requested_entity ?? opts.entity })
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/**
 * Maps a failed attempt (no HTTP answer) to its typed error: aborted by the caller or close(), timed out
 * (our deadline, or undici's connect/headers/body timeouts), else a network error. The undici error is
 * kept as `cause`; only its `code` (ECONNREFUSED, UND_ERR_SOCKET, ...) goes into the message.
 */
export function transportError (cause: unknown, t: { path: string, entity?: string, timeoutMs: number, timedOut: boolean, aborted: boolean }): UpstreamError {
  const opts: UpstreamErrorOptions = { path: t.path, entity: t.entity, cause }
  if (t.aborted) return new UpstreamAbortedError(`upstream call GET ${t.path} aborted`, opts)
  const code = (cause as { code?: unknown } | null)?.code
  if (t.timedOut || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
    return new UpstreamTimeoutError(`upstream did not answer GET ${t.path} within ${t.timeoutMs} ms`, opts)
  }
  return new UpstreamNetworkError(`upstream call GET ${t.path} failed (${typeof code === 'string' ? code : 'network error'})`, opts)
}

/** `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter (value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  if (/^\s*\d+\s*$/.test(value)) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

function scrubErrors (errors: unknown, scrub: (text: string) => string): Record<string, string[]> {
  if (errors === null || typeof errors !== 'object') return {}
  const out: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(errors)) {
    out[scrub(key)] = Array.isArray(value) ? value.map((v) => scrub(String(v))) : [scrub(String(value))]
  }
  return out
}
