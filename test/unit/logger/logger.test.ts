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
