/**
 * The REST passthrough's HTTP binding (docs/passthrough.md): every `GET /v3/...` (`/v3/core/*`, `/v3/football/*`,
 * `/v3/my/*`, and the upstream's 404 body for any other path under `/v3`) handed to the passthrough service.
 * No logic here: the service returns status, headers and JSON text. Links are built on the configured public
 * URL, never on the Host header (a client could name any host there).
 */
import type { FastifyPluginAsync } from 'fastify'
import type { Passthrough } from '../passthrough/index.ts'
import { grantOf, tokenRefusalOf } from './websocket.ts'

export interface PassthroughRouteDeps {
  passthrough: Passthrough
  /** Base of every link the passthrough returns: TOUCHLINE_PUBLIC_URL, else the listener's URL (gateway.ts). */
  publicUrl: () => string
}

const header = (value: string | string[] | undefined): string | undefined => Array.isArray(value) ? value[0] : value

export function passthroughRoutes (deps: PassthroughRouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/v3/*', async (req, reply) => {
      const q = req.url.indexOf('?')
      const path = (q === -1 ? req.url : req.url.slice(0, q)).slice('/v3'.length)
      const origin = header(req.headers.origin)
      // A fan's signed token in place of the key (docs/tokens.md): verified by tokenHook, never sent upstream.
      const grant = grantOf(req)
      const refused = tokenRefusalOf(req)
      const token = grant !== undefined ? { key: grant.key } : refused !== undefined ? { refused } : undefined
      const { access_token: _token, ...query } = req.query as Record<string, string | string[] | undefined>
      const authorization = token === undefined ? header(req.headers.authorization) : undefined
      const out = await deps.passthrough.handle({
        path,
        query: token === undefined ? req.query as Record<string, string | string[] | undefined> : query,
        ...(token !== undefined ? { token } : {}),
        ...(authorization !== undefined ? { authorization } : {}),
        ...(origin !== undefined ? { origin } : {}),
        baseUrl: deps.publicUrl()
      })
      return await reply.code(out.status).headers(out.headers).type('application/json; charset=utf-8').send(out.body)
    })
  }
}
