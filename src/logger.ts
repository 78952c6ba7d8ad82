/**
 * pino options shared by every process. Tokens never reach a log line: the redact list covers the places a
 * token can sit (query strings are scrubbed by `redactUrl` in the request serializer).
 */
import { createRequire } from 'node:module'
import type { LoggerOptions } from 'pino'

const TOKEN_PARAM = /([?&](?:api_token|token)=)[^&#\s]*/gi

/** Replaces the value of every `api_token=` in a URL or text with `[redacted]`. */
export function redactUrl (text: string): string {
  return text.replace(TOKEN_PARAM, '$1[redacted]')
}

export function loggerOptions (level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["x-api-key"]', 'req.query.api_token',
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
      err (err: Error & { code?: unknown }) {
        return { type: err.name, code: err.code, message: redactUrl(err.message), stack: err.stack === undefined ? undefined : redactUrl(err.stack) }
      }
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
