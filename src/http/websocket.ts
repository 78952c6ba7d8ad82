/**
 * `GET /v1/live`, the WebSocket endpoint (docs/protocol.md). A thin route: every check that can answer over HTTP
 * (key 401, origin 403, connection rate 429) runs in `preValidation`, before the upgrade, so a refused
 * client gets a status code instead of a socket that opens and closes; the hub does the rest.
 *
 * Not wrapped in fastify-plugin on purpose: @fastify/websocket is registered in this plugin's own
 * encapsulated context, so its hooks and its ws server options (no compression, maxPayload) apply to this
 * route only.
 */
import type { ServerResponse } from 'node:http'
import websocket from '@fastify/websocket'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { BaseLogger } from 'pino'
import type { Hub } from '../fanout/hub.ts'
import { originAllowed, type ClientKey, type KeyRing } from '../client-keys.ts'
import { checkLabels, looksLikeToken, TokenError, verifyToken, type TokenGrant } from '../tokens.ts'
import type { Metrics } from '../metrics.ts'
import type { HttpErrorCode } from '../wire-model/http.ts'
import type WebSocket from 'ws'
import { wsErrorHandler, type WsFaultHandler } from './ws-faults.ts'

export interface LiveRouteDeps {
  hub: Hub
  keys: KeyRing
  metrics: Metrics
  log: BaseLogger
}

/**
 * HTTP error body of the gateway's own endpoints (the `Error` schema of src/wire-model/http.ts): the upstream's
 * `error` + `message`, plus a stable `code`.
 */
export function httpError (reply: FastifyReply, status: number, code: HttpErrorCode, message: string): FastifyReply {
  const error = ({ 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' } as Record<number, string>)[status] ?? 'Error'
  return reply.code(status).send({ error, code, message })
}

/**
 * The client key a request presents: `api_token` in the query (browsers cannot set headers on a WebSocket or
 * an EventSource), else the `Authorization` header, bare or as `Bearer <key>` (what HTTP clients expect, and
 * the upstream API's second form of its token). A signed connection token (`Authorization: Bearer <jwt>`,
 * or `access_token` in the query) was verified before the request reached its route (tokenHook): its key,
 * as the token narrows it.
 */
export function keyOf (keys: KeyRing, request: FastifyRequest, opts: { tokens?: boolean } = {}): ClientKey | undefined {
  const presented = tokenGrants.get(request)
  // A fan's token opens the feeds only (opts.tokens): the key holder's routes (webhooks, push) want the key.
  if (presented !== undefined) return presented instanceof TokenError || opts.tokens !== true ? undefined : presented.key
  const token = (request.query as { api_token?: unknown }).api_token
  if (typeof token === 'string') return keys.find(token)
  const header = request.headers.authorization
  return keys.find(header === undefined ? undefined : header.replace(/^Bearer\s+/i, '').trim())
}

/**
 * Whether a WebSocket upgrade asks to send its token in the first frame (`?auth=frame`) and presents no
 * credential: no `api_token`, no `access_token`, no `Authorization`. Without `auth=frame` a missing key is
 * refused before the upgrade (401), as it always was.
 */
function tokenInFirstFrame (request: FastifyRequest): boolean {
  const q = request.query as { api_token?: unknown, access_token?: unknown, auth?: unknown }
  return q.auth === 'frame' && q.api_token === undefined && q.access_token === undefined && request.headers.authorization === undefined
}

/** The fan of a request's token as the hub holds it: its `sub` and expiry. */
export function fanOf (request: FastifyRequest): { name: string, expiresAt: number } | undefined {
  const grant = grantOf(request)
  return grant === undefined ? undefined : { name: grant.fan, expiresAt: grant.expiresAt }
}

/** The fan a request's token names, with its expiry; undefined for a request made with a key. */
export function grantOf (request: FastifyRequest): TokenGrant | undefined {
  const presented = tokenGrants.get(request)
  return presented instanceof TokenError ? undefined : presented
}

/** Why a request's token was refused, in the words a 401 says; undefined when it presented none or it was good. */
export function tokenRefusalOf (request: FastifyRequest): string | undefined {
  const presented = tokenGrants.get(request)
  return presented instanceof TokenError ? `token refused: ${presented.reason} (${presented.message})` : undefined
}

/** Each request's verified token (or why it was refused), from tokenHook. */
const tokenGrants = new WeakMap<FastifyRequest, TokenGrant | TokenError>()

/** The signed token a request presents, if any: `Authorization: Bearer <jwt>`, else `access_token` in the query. */
function presentedToken (request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.replace(/^Bearer\s+/i, '').trim()
  if (header !== undefined && looksLikeToken(header)) return header
  const query = (request.query as { access_token?: unknown }).access_token
  return typeof query === 'string' && query !== '' ? query : undefined
}

/**
 * Verifies the signed connection token a request presents (docs/tokens.md), before any route or hook reads
 * its key: jose's verification is asynchronous, the key lookups after it are not.
 */
export function tokenHook (keys: KeyRing, metrics?: Metrics): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const token = presentedToken(request)
    if (token === undefined) return
    try {
      tokenGrants.set(request, await verifyToken(token, keys))
    } catch (err) {
      tokenGrants.set(request, err instanceof TokenError ? err : new TokenError('invalid', 'the token could not be read'))
    }
    metrics?.tokenChecks.inc(checkLabels(tokenGrants.get(request)))
  }
}

/** Answers 401: the token's refusal in one word and why, or the key missing or unknown. */
export function unauthorized (request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const refused = tokenGrants.get(request)
  if (refused instanceof TokenError) return httpError(reply, 401, 'unauthorized', `token refused: ${refused.reason} (${refused.message})`)
  if (refused !== undefined) return httpError(reply, 401, 'unauthorized', 'this route takes the client key, not a fan\'s token')
  return httpError(reply, 401, 'unauthorized', 'missing or invalid client key (api_token or Authorization)')
}

/** The request's client key, allowed from the request's origin; undefined after answering the error. */
export function admitKey (keys: KeyRing, request: FastifyRequest, reply: FastifyReply, opts: { tokens?: boolean } = {}): ClientKey | undefined {
  const key = keyOf(keys, request, opts)
  if (key === undefined) {
    unauthorized(request, reply)
    return undefined
  }
  if (!originAllowed(key, request.headers.origin)) {
    httpError(reply, 403, 'forbidden', 'this origin may not use this key')
    return undefined
  }
  return key
}

/**
 * The checks every streaming endpoint makes before it commits to a long-lived connection. Returns the key,
 * or undefined after answering the error.
 */
export function admitStream (hub: Hub, keys: KeyRing, request: FastifyRequest, reply: FastifyReply): ClientKey | undefined {
  const key = admitKey(keys, request, reply, { tokens: true })
  if (key === undefined) return undefined
  const grant = grantOf(request)
  if (grant !== undefined && !hub.hasRoomForFan(key, grant.fan)) {
    httpError(reply, 429, 'too_many_connections', `this fan holds ${key.tokens?.max_connections_per_fan ?? 0} connections already (max_connections_per_fan)`)
    return undefined
  }
  return admitOpening(hub, request, reply) ? key : undefined
}

/**
 * The checks of every new long-lived connection, with a credential or with its token in its first frame: the
 * server is not closing, the address is within its connection rate. False after answering the error.
 */
function admitOpening (hub: Hub, request: FastifyRequest, reply: FastifyReply): boolean {
  if (hub.closing) {
    httpError(reply, 503, 'shutting_down', 'server is shutting down; reconnect to another instance')
    return false
  }
  if (!hub.allowConnection(request.ip)) {
    reply.header('retry-after', '1')
    httpError(reply, 429, 'rate_limited', 'too many new connections from this address')
    return false
  }
  return true
}

/**
 * Lets go of the upgrade's request and response once the socket is adopted. @fastify/websocket routes the
 * upgrade through a ServerResponse it assigns to the socket, and gives the socket an `error` listener that
 * closes over fastify's request and reply: both would keep the request, its headers and the response alive
 * as long as the connection, about 2.7 KiB of heap per idle connection (bench:fanout's stack mode: 5.3 KiB of
 * heap per connection with them, 2.6 without, as much as a bare ws server). The same fault handler is put
 * back holding only the client's address.
 */
function release (socket: WebSocket, request: FastifyRequest, response: ServerResponse, onFault: WsFaultHandler): void {
  const ip = request.ip
  socket.removeAllListeners('error')
  socket.on('error', (err) => onFault(err, socket, { ip }))
  if (response.socket !== null) response.detachSocket(response.socket)
}

export function liveRoutes (deps: LiveRouteDeps): FastifyPluginAsync {
  const { hub, keys } = deps
  // The key found in preValidation and the upgrade's response, handed to the handler without decorating
  // every request of the app.
  const admitted = new WeakMap<FastifyRequest, { key: ClientKey | undefined, response: ServerResponse }>()
  const onFault = wsErrorHandler(deps.log)

  return async (app) => {
    await app.register(websocket, {
      options: {
        // Compression of snapshots only (fanout/deflate.ts, docs/protocol.md): negotiated with no context
        // takeover and a threshold ws never reaches, so ws compresses nothing (no per-socket deflate context, no
        // CPU per change frame); the hub writes snapshots of 16 KiB and more compressed.
        perMessageDeflate: {
          serverNoContextTakeover: true,
          clientNoContextTakeover: true,
          threshold: Number.MAX_SAFE_INTEGER
        },
        // Above the 16 KiB frame limit so an oversize frame gets an `invalid_message` reply, not a 1009 close.
        maxPayload: hub.limits.maxPayloadBytes
      },
      // Client protocol violations at warn, without stack, rate-limited (the default logs each at error).
      errorHandler: onFault,
      // Our own preClose: the hub closes sockets with 1001 and the final cursor (not the plugin's bare 1000).
      preClose: async () => {
        await hub.close()
        await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()))
      }
    })

    app.get('/v1/live', {
      websocket: true,
      preValidation: async (request, reply) => {
        // The token comes in the first frame (fanout/auth.ts), out of the address.
        if (tokenInFirstFrame(request)) {
          if (!admitOpening(hub, request, reply)) return reply
          admitted.set(request, { key: undefined, response: reply.raw })
          return
        }
        const key = admitStream(hub, keys, request, reply)
        if (key === undefined) return reply
        admitted.set(request, { key, response: reply.raw })
      }
    }, (socket, request) => {
      const admission = admitted.get(request)
      admitted.delete(request)
      if (admission !== undefined) {
        release(socket, request, admission.response, onFault)
        // acceptWebSocket attaches every listener before this handler returns: an event emitted before a
        // listener is attached (an early close or error) would be lost.
        if (admission.key === undefined) return hub.acceptUnauthenticated(socket, request.headers.origin)
        return hub.acceptWebSocket(socket, admission.key, request.headers.origin, fanOf(request))
      }
      socket.on('error', (err) => deps.log.debug({ err }, 'websocket error'))
      socket.close(1011, 'not admitted')
    })
  }
}
