/**
 * Per-key CORS for the gateway's own JSON endpoints that browsers call from other origins (the widget):
 * `/v1/fixtures/live`, `/v1/changes`, `/v1/sse` and `/v1/standings/{league}`. A key's `allowed_origins` (client-keys.ts) decides:
 *
 * - a request with an `Origin` and a valid key that allows it gets `Access-Control-Allow-Origin: <origin>`
 *   (never `*`: the answer depends on the key) and `Vary: Origin`;
 * - a valid key that does not allow the origin is answered 403 `forbidden` before the route runs, as the
 *   WebSocket upgrade (live.ts) and the passthrough are, so a page elsewhere cannot spend the key's quota;
 * - a missing or unknown key is left to the route; its 401 carries `Access-Control-Allow-Origin: <origin>`
 *   (it reveals nothing), so a page elsewhere can read the refusal and stop, instead of retrying blind;
 * - requests without `Origin` (same-origin GETs, servers, curl) are untouched.
 *
 * `/v3/*` GETs are not handled here: the passthrough answers their CORS with the same rule (passthrough/service.ts).
 * Their preflights (`OPTIONS /v3/...`, sent when a page adds `Authorization`, the header form of the
 * key) are answered here: 204, with the allow headers only for an origin the key allows. A preflight carries
 * no `Authorization` value, so without `api_token` in the URL it is allowed for an origin that some key
 * allows; the GET that follows is then checked against its own key (403 for an origin it does not allow).
 * Wrapped with fastify-plugin so the hook applies to the routes of sibling plugins (feeds.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { originAllowed, type KeyRing } from '../client-keys.ts'
import { httpError, keyOf } from './websocket.ts'

export interface CorsDeps {
  keys: KeyRing
}

/** Paths (without the query) whose responses a key may share with its allowed origins. */
const CORS_PATHS: ReadonlySet<string> = new Set(['/v1/fixtures/live', '/v1/changes', '/v1/sse'])

/** Preflight answers may be cached this long by the browser, seconds. */
const PREFLIGHT_MAX_AGE_S = 600

const pathOf = (url: string): string => {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/** The checked origin to echo, `false` after answering 403, or undefined when CORS does not apply. */
function check (keys: KeyRing, request: FastifyRequest, reply: FastifyReply): string | false | undefined {
  const origin = request.headers.origin
  const path = pathOf(request.url)
  if (origin === undefined || !(CORS_PATHS.has(path) || path.startsWith('/v1/standings/'))) return undefined
  const key = keyOf(keys, request, { tokens: true })
  if (key === undefined) return undefined
  if (!originAllowed(key, origin)) {
    httpError(reply, 403, 'forbidden', 'this origin may not use this key')
    return false
  }
  reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
  return origin
}

/** Headers a page may add to a passthrough request: the key's header form, and cache control. */
const PASSTHROUGH_REQUEST_HEADERS = 'authorization, cache-control'

/** Whether a preflight for `/v3` from `origin` is allowed: by the key in its URL, else by any key. */
function passthroughOriginAllowed (keys: KeyRing, request: FastifyRequest, origin: string): boolean {
  const token = (request.query as { api_token?: unknown }).api_token
  if (token === undefined) return keys.all().some((k) => originAllowed(k, origin))
  const key = keyOf(keys, request, { tokens: true })
  return key !== undefined && originAllowed(key, origin)
}

function allowPreflight (reply: FastifyReply, origin: string, headers: string): void {
  reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
    .header('access-control-allow-methods', 'GET, HEAD')
    .header('access-control-allow-headers', headers)
    .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S))
}

export function corsRoutes (deps: CorsDeps): FastifyPluginAsync {
  const { keys } = deps
  return fp(async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return
      if (check(keys, request, reply) === false) return reply
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const origin = request.headers.origin
      if (reply.statusCode === 401 && origin !== undefined && CORS_PATHS.has(pathOf(request.url))) {
        reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
      }
      return payload
    })

    // Simple GETs need no preflight; a page that adds a header (EventSource polyfills send Last-Event-ID,
    // some clients Cache-Control) does. The key travels in the query, so the preflight can be checked too.
    for (const path of CORS_PATHS) {
      app.options(path, async (request, reply) => {
        const allowed = check(keys, request, reply)
        if (allowed === false) return reply
        if (allowed !== undefined) allowPreflight(reply, allowed, 'last-event-id, cache-control')
        return reply.code(204).send()
      })
    }

    app.options('/v3/*', async (request, reply) => {
      const origin = request.headers.origin
      if (origin !== undefined && passthroughOriginAllowed(keys, request, origin)) allowPreflight(reply, origin, PASSTHROUGH_REQUEST_HEADERS)
      else reply.header('vary', 'Origin')
      return reply.code(204).send()
    })
  }, { name: 'touchline-cors', fastify: '5.x' })
}
