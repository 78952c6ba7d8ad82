/**
 * `GET /v1/webhooks?api_token=` (the key's endpoints: state, acknowledged cursor, lag, last status and error)
 * and `POST /v1/webhooks/{id}/resume?api_token=` (a paused endpoint delivers again, from its cursor).
 * Thin: the state is the webhooks module's; a key sees its own endpoints only. A store outage answers 503
 * `unavailable` (outage.ts).
 */
import type { FastifyPluginAsync } from 'fastify'
import type { KeyRing } from '../client-keys.ts'
import type { Webhooks } from '../webhooks/index.ts'
import { keyOf, unauthorized } from './websocket.ts'
import { answerStoreOutages } from './outage.ts'
import { WebhookParams } from '../wire-model/queries.ts'

export interface WebhookRouteDeps {
  webhooks: Webhooks
  keys: KeyRing
}

export function webhookRoutes (deps: WebhookRouteDeps): FastifyPluginAsync {
  return async (app) => {
    // The endpoints' cursors and states live in the store: while it is down, 503 like the feeds.
    answerStoreOutages(app)

    app.get('/v1/webhooks', async (request, reply) => {
      const key = keyOf(deps.keys, request)
      if (key === undefined) return unauthorized(request, reply)
      reply.header('cache-control', 'no-store')
      return { data: await deps.webhooks.list(key) }
    })

    app.post('/v1/webhooks/:id/resume', async (request, reply) => {
      const key = keyOf(deps.keys, request)
      if (key === undefined) return unauthorized(request, reply)
      const params = WebhookParams.safeParse(request.params)
      const view = params.success ? await deps.webhooks.resume(key, params.data.id) : undefined
      if (view === undefined) return reply.code(404).send({ error: 'Not Found', code: 'not_found', message: 'this key has no webhook with that id' })
      return { data: view }
    })
  }
}
