/**
 * pino options shared by every process. Tokens never reach a log line: the redact list covers the places a
 * token can sit (query strings are scrubbed by `redactUrl` in the request serializer).
 */
import { createRequire } from 'node:module'
import type { LoggerOptions } from 'pino'

const TOKEN_PARAM = /([?&](?:api_token|access_token|token)=)[^&#\s]*/gi

/** Replaces the value of every `api_token=` in a URL or text with `[redacted]`. */
export function redactUrl (text: string): string {
  return text.replace(TOKEN_PARAM, '$1[redacted]')
}

/**
 * Failures that are the network's or the upstream's doing, not the gateway's: a dead port, a name that does
 * not resolve, a reset, a timeout, an error answer. They come back on every poll while an outage lasts, and
 * their stack (always the same frames of the upstream client) says nothing their code does not, so they are
 * logged as one line: type, code, message, and the socket's own code as `cause`.
 */
const EXPECTED_CODES = new Set<unknown>([
  // src/errors.ts: what the upstream answered or did not answer. Not a bad envelope or a runaway
  // pagination, which may be the gateway's own bug and keep their stack.
  'TL_ERR_UPSTREAM_BAD_REQUEST', 'TL_ERR_UPSTREAM_UNAUTHORIZED', 'TL_ERR_UPSTREAM_FORBIDDEN', 'TL_ERR_UPSTREAM_NOT_FOUND',
  'TL_ERR_UPSTREAM_RATE_LIMITED', 'TL_ERR_UPSTREAM_SERVER', 'TL_ERR_UPSTREAM_HTTP', 'TL_ERR_UPSTREAM_TIMEOUT',
  'TL_ERR_UPSTREAM_NETWORK', 'TL_ERR_UPSTREAM_ABORTED',
  // Node's and undici's own, when such an error is logged as it is.
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN',
  'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'
])

/** An error as a log field: no token in its text; a stack only for what is not an expected failure. */
function serializeError (err: Error & { code?: unknown }): Record<string, unknown> {
  const out: Record<string, unknown> = { type: err.name, code: err.code, message: redactUrl(err.message) }
  if (!EXPECTED_CODES.has(err.code)) {
    out.stack = err.stack === undefined ? undefined : redactUrl(err.stack)
    return out
  }
  const cause = (err.cause as { code?: unknown } | undefined)?.code
  if (typeof cause === 'string') out.cause = cause
  return out
}

export function loggerOptions (level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["x-api-key"]', 'req.query.api_token', 'req.query.access_token',
        'token', '*.token', 'apiToken', '*.apiToken', 'upstreamToken', '*.upstreamToken', 'api_token', '*.api_token',
        'config.TOUCHLINE_UPSTREAM_TOKEN', 'TOUCHLINE_UPSTREAM_TOKEN',
        // Webhook secrets (keys file): a hook or key record logged whole must not show them.
        'secret', '*.secret', 'webhooks[*].secret', '*.webhooks[*].secret'
      ],
      censor: '[redacted]'
    },
    serializers: {
      req (req: { method: string, url: string, id?: unknown }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url) }
      },
      err: serializeError
    },
    ...prettyTransport()
  }
}

/**
 * Human-readable lines on a terminal, through pino-pretty when it is installed. It is a devDependency:
 * the pruned production image (`docker run -it`) has none, and logs JSON lines there instead of crashing.
 */
function prettyTransport (): Pick<LoggerOptions, 'transport'> {
  if (process.stdout.isTTY !== true || process.env.NODE_ENV === 'test') return {}
  let target: string
  try {
    target = createRequire(import.meta.url).resolve('pino-pretty')
  } catch {
    return {}
  }
  return { transport: { target, options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
}
