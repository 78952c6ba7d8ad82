import { Writable } from 'node:stream'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { loggerOptions, redactUrl } from '../../../src/logger.ts'

const SECRET = 'sk-live-0123456789'

function capture () {
  const lines: string[] = []
  const stream = new Writable({ write (chunk, _enc, done) { lines.push(String(chunk)); done() } })
  const { transport: _t, ...opts } = loggerOptions('trace')
  return { log: pino(opts, stream), text: () => lines.join('') }
}

describe('logger', () => {
  it('redactUrl hides every api_token value in a URL or text', () => {
    expect(redactUrl(`/v3/core/cities?api_token=${SECRET}&page=2`)).toBe('/v3/core/cities?api_token=[redacted]&page=2')
    expect(redactUrl(`GET http://x/v3/a?page=1&api_token=${SECRET} failed`)).not.toContain(SECRET)
  })

  it('never writes a token from request URLs, headers, query or error messages', () => {
    const { log, text } = capture()
    log.info({ req: { method: 'GET', url: `/v3/x?api_token=${SECRET}`, headers: { authorization: SECRET }, query: { api_token: SECRET } } }, 'request')
    log.info({ token: SECRET, upstream: { token: SECRET }, api_token: SECRET }, 'fields')
    log.error({ err: new Error(`GET /v3/x?api_token=${SECRET} timed out`) }, 'upstream failed')
    log.info({ config: { TOUCHLINE_UPSTREAM_TOKEN: SECRET } }, 'settings')
    expect(text()).toContain('upstream failed')
    expect(text()).not.toContain(SECRET)
  })
})

describe('expected failures', () => {
  const lines = (text: string): Array<Record<string, any>> => text.trim().split('\n').map((l) => JSON.parse(l))

  it('logs an upstream that does not answer as one line with its codes, no stack', async () => {
    const { UpstreamNetworkError, UpstreamTimeoutError } = await import('../../../src/upstream/upstream-errors.ts')
    const { log, text } = capture()
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
    log.warn({ err: new UpstreamNetworkError('upstream call GET /football/livescores failed (ECONNREFUSED)', { cause: refused }) }, 'poll failed')
    log.warn({ err: new UpstreamTimeoutError('upstream did not answer GET /football/livescores within 2500 ms', {}) }, 'poll failed')
    log.warn({ err: Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), { code: 'ENOTFOUND' }) }, 'lookup failed')
    const [network, timeout, dns] = lines(text())
    expect(network?.err).toEqual({ type: 'UpstreamNetworkError', code: 'TL_ERR_UPSTREAM_NETWORK', message: 'upstream call GET /football/livescores failed (ECONNREFUSED)', cause: 'ECONNREFUSED' })
    expect(timeout?.err).toEqual({ type: 'UpstreamTimeoutError', code: 'TL_ERR_UPSTREAM_TIMEOUT', message: 'upstream did not answer GET /football/livescores within 2500 ms' })
    expect(dns?.err).toEqual({ type: 'Error', code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND api.example.invalid' })
    expect(text()).not.toContain('"stack"')
  })

  it('keeps the stack of anything else: a bug must be found', () => {
    const { log, text } = capture()
    log.error({ err: new TypeError('Cannot read properties of undefined') }, 'poller loop ended unexpectedly')
    expect(lines(text())[0]?.err.stack).toMatch(/^TypeError: Cannot read properties of undefined\n\s+at /)
  })
})
