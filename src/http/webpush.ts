/**
 * Web Push subscriptions (docs/push.md): `GET /v1/push/key` (the VAPID public key, no client key needed;
 * 404 when push is not configured), and `POST`, `GET`, `DELETE /v1/push/subscriptions` with a client key
 * or a fan's signed token (docs/tokens.md). Thin: the shape is the wire model's (src/wire-model/webpush.ts), the rest
 * of the checks and the storing are the push module's. The key's scope, as a token narrows it, is checked as
 * for a WebSocket subscribe (fanout/scope-check.ts): leagues outside it, teams that play only outside it and
 * fixtures known to be outside it are refused (403). With a token the fan manages their own devices only,
 * within the key's `max_devices_per_fan`; another fan's device, or the key's own, is answered as none (404).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { leagueAllowed, type ClientKey, type KeyRing } from '../client-keys.ts'
import { fixturesOutsideScope, teamsOutsideScope } from '../fanout/scope-check.ts'
import type { Push } from '../webpush/index.ts'
import { lookup, subscribe, unsubscribe, viewOf, type PushFan } from '../webpush/manage.ts'
import type { LiveStore } from '../store/types.ts'
import { PushSubscribeBody } from '../wire-model/webpush.ts'
import { PushEndpointQuery } from '../wire-model/queries.ts'
import { admitKey, grantOf, httpError } from './websocket.ts'
import { claimRefusal, mayPush } from '../tokens.ts'
import { answerStoreOutages } from './outage.ts'

export interface PushRouteDeps {
  /** Undefined when push is not configured (no VAPID keys): every route answers 404. */
  push: Push | undefined
  keys: KeyRing
  store: LiveStore
}

const NOT_CONFIGURED = 'push alerts are not configured on this gateway (no VAPID keys)'

/**
 * The key of a request allowed to manage subscriptions (as its token narrows it) and, for a token, its fan;
 * undefined after answering the error.
 */
function admit (deps: PushRouteDeps, request: FastifyRequest, reply: FastifyReply): { key: ClientKey, fan: PushFan | undefined, push: Push } | undefined {
  if (deps.push === undefined) {
    httpError(reply, 404, 'not_found', NOT_CONFIGURED)
    return undefined
  }
  const key = admitKey(deps.keys, request, reply, { tokens: true })
  if (key === undefined) return undefined
  if (!mayPush(key)) {
    httpError(reply, 403, 'forbidden', 'this token may not use Web Push (push: false)')
    return undefined
  }
  reply.header('cache-control', 'no-store')
  const grant = grantOf(request)
  // A token's key always has its token settings (they verified it); the cap of 1 is never used.
  const fan = grant === undefined ? undefined : { name: grant.fan, maxDevices: key.tokens?.max_devices_per_fan ?? 1, leagues: key.leagues }
  return { key, fan, push: deps.push }
}

/** What of `follow` lies outside the key's scope (as a token narrows it), as a message; undefined when nothing does. */
async function outsideScope (store: LiveStore, key: ClientKey, follow: { teams: number[], fixtures: number[], leagues: number[] }, holder: string): Promise<string | undefined> {
  if (key.leagues === '*') return undefined
  const leagues = [...new Set(follow.leagues)].filter((id) => !leagueAllowed(key, id)).sort((a, b) => a - b)
  const teams = await teamsOutsideScope(store, key, follow.teams)
  const fixtures = await fixturesOutsideScope(store, key, follow.fixtures)
  const parts = [
    leagues.length > 0 ? `leagues ${leagues.join(',')}` : '',
    teams.length > 0 ? `teams ${teams.join(',')} (they play only in other leagues)` : '',
    fixtures.length > 0 ? `fixtures ${fixtures.join(',')}` : ''
  ].filter((p) => p !== '')
  return parts.length === 0 ? undefined : `outside this ${holder}'s scope: ${parts.join('; ')}`
}

function endpointParam (request: FastifyRequest, reply: FastifyReply): string | undefined {
  const parsed = PushEndpointQuery.safeParse(request.query)
  if (parsed.success) return parsed.data.endpoint
  httpError(reply, 400, 'invalid_request', 'endpoint: the subscription\'s endpoint URL is required (url-encoded, once)')
  return undefined
}

export function pushRoutes (deps: PushRouteDeps): FastifyPluginAsync {
  return async (app) => {
    // Subscriptions live in the store: while it is down, 503 like the feeds.
    answerStoreOutages(app)

    app.get('/v1/push/key', async (_request, reply) => {
      if (deps.push === undefined) return httpError(reply, 404, 'not_found', NOT_CONFIGURED)
      return { public_key: deps.push.publicKey }
    })

    app.post('/v1/push/subscriptions', async (request, reply) => {
      const admitted = admit(deps, request, reply)
      if (admitted === undefined) return reply
      const parsed = PushSubscribeBody.safeParse(request.body)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        const field = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.')
        return httpError(reply, 400, 'invalid_request', `${field}: ${issue?.message ?? 'invalid'}`)
      }
      const { follow } = parsed.data
      const claimed = claimRefusal(admitted.key, { all: false, leagues: follow.leagues, fixtures: follow.fixtures, teams: follow.teams, dates: 0, kinds: new Set() })
      if (claimed !== undefined) return httpError(reply, 403, 'forbidden', claimed)
      const outside = await outsideScope(deps.store, admitted.key, follow, admitted.fan === undefined ? 'key' : 'token')
      if (outside !== undefined) return httpError(reply, 403, 'forbidden', outside)
      const result = await subscribe(admitted.push.manage, admitted.key, parsed.data, admitted.fan)
      if (result.outcome === 'invalid') return httpError(reply, 400, 'invalid_request', `${result.problem.field}: ${result.problem.message}`)
      if (result.outcome === 'limit') return httpError(reply, 429, 'limit_exceeded', `this key holds ${admitted.push.manage.maxPerKey} push subscriptions already; delete some first`)
      if (result.outcome === 'fan_limit') {
        return httpError(reply, 429, 'limit_exceeded', `this fan holds ${admitted.fan?.maxDevices ?? 0} push subscriptions on this key already (max_devices_per_fan); delete one first`)
      }
      return reply.code(result.outcome === 'created' ? 201 : 200).send(result.view)
    })

    app.get('/v1/push/subscriptions', async (request, reply) => {
      const admitted = admit(deps, request, reply)
      if (admitted === undefined) return reply
      const endpoint = endpointParam(request, reply)
      if (endpoint === undefined) return reply
      const sub = await lookup(admitted.push.manage.store, admitted.key, endpoint, admitted.fan?.name)
      if (sub === undefined) return httpError(reply, 404, 'not_found', `no push subscription of this ${admitted.fan === undefined ? 'key' : 'fan'} has that endpoint`)
      return viewOf(sub)
    })

    app.delete('/v1/push/subscriptions', async (request, reply) => {
      const admitted = admit(deps, request, reply)
      if (admitted === undefined) return reply
      const endpoint = endpointParam(request, reply)
      if (endpoint === undefined) return reply
      const deleted = await unsubscribe(admitted.push.manage.store, admitted.key, endpoint, admitted.fan?.name)
      // The key's DELETE answers 204 either way (it sees every device of the key); a fan's answers 404 when
      // they have no device there, whether there is none or it is someone else's: nothing said of others.
      if (!deleted && admitted.fan !== undefined) return httpError(reply, 404, 'not_found', 'no push subscription of this fan has that endpoint')
      return reply.code(204).send()
    })
  }
}
