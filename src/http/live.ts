/**
 * `GET /v1/live`, the WebSocket endpoint (DESIGN §4). A thin route: every check that can answer over HTTP
 * (key 401, origin 403, connection rate 429) runs in `preValidation`, before the upgrade, so a refused
 * client gets a status code instead of a socket that opens and closes; the hub does the rest.
 *
 * Not wrapped in fastify-plugin on purpose: @fastify/websocket is registered in this plugin's own
 * encapsulated context, so its hooks and its ws server options (no compression, maxPayload) apply to this
 * route only.
 */
import websocket from '@fastify/websocket'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { BaseLogger } from 'pino'
import type { Hub } from '../fanout/hub.ts'
import { originAllowed, type ClientKey, type KeyRing } from '../keys.ts'
import type { Metrics } from '../metrics.ts'
import { wsErrorHandler } from './ws-faults.ts'

export interface LiveRouteDeps {
  hub: Hub
  keys: KeyRing
  metrics: Metrics
  log: BaseLogger
}

/** HTTP error body of the gateway's own endpoints: the spec's `error` + `message`, plus a stable `code`. */
export function httpError (reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  const error = ({ 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 429: 'Too Many Requests', 503: 'Service Unavailable' } as Record<number, string>)[status] ?? 'Error'
  return reply.code(status).send({ error, code, message })
}

/** The client key a request presents in `api_token` (browsers cannot set headers on WebSocket or EventSource). */
export function keyOf (keys: KeyRing, request: FastifyRequest): ClientKey | undefined {
  const token = (request.query as { api_token?: unknown }).api_token
  return keys.find(typeof token === 'string' ? token : undefined)
}

/**
 * The checks every streaming endpoint makes before it commits to a long-lived connection. Returns the key,
 * or undefined after answering the error.
 */
export function admitStream (hub: Hub, keys: KeyRing, request: FastifyRequest, reply: FastifyReply): ClientKey | undefined {
  const key = keyOf(keys, request)
  if (key === undefined) {
    httpError(reply, 401, 'unauthorized', 'missing or invalid api_token')
    return undefined
  }
  if (!originAllowed(key, request.headers.origin)) {
    httpError(reply, 403, 'forbidden', 'this origin may not use this key')
    return undefined
  }
  if (hub.closing) {
    httpError(reply, 503, 'shutting_down', 'server is shutting down; reconnect to another instance')
    return undefined
  }
  if (!hub.allowConnection(request.ip)) {
    reply.header('retry-after', '1')
    httpError(reply, 429, 'rate_limited', 'too many new connections from this address')
    return undefined
  }
  return key
}

export function liveRoutes (deps: LiveRouteDeps): FastifyPluginAsync {
  const { hub, keys } = deps
  // The key found in preValidation, handed to the handler without decorating every request of the app.
  const admitted = new WeakMap<FastifyRequest, ClientKey>()

  return async (app) => {
    await app.register(websocket, {
      options: {
        // DESIGN §4: compression off. Per-socket zlib contexts cost ~300 KB each and CPU per message.
        perMessageDeflate: false,
        // Above the 16 KiB frame limit so an oversize frame gets an `invalid_message` reply, not a 1009 close.
        maxPayload: hub.limits.maxPayloadBytes
      },
      // Client protocol violations at warn, without stack, rate-limited (the default logs each at error).
      errorHandler: wsErrorHandler(deps.log),
      // Our own preClose: the hub closes sockets with 1001 and the final cursor (not the plugin's bare 1000).
      preClose: async () => {
        await hub.close()
        await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()))
      }
    })

    app.get('/v1/live', {
      websocket: true,
      preValidation: async (request, reply) => {
        const key = admitStream(hub, keys, request, reply)
        if (key === undefined) return reply
        admitted.set(request, key)
      }
    }, (socket, request) => {
      const key = admitted.get(request)
      admitted.delete(request)
      // acceptWebSocket attaches every listener, `error` included, before this handler returns (STYLE rule 5).
      if (key !== undefined) return hub.acceptWebSocket(socket, key, request.headers.origin)
      socket.on('error', (err) => deps.log.debug({ err }, 'websocket error'))
      socket.close(1011, 'not admitted')
    })
  }
}
