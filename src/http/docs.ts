/**
 * `/docs/asyncapi.json` and `/docs/openapi.json`: the WebSocket protocol and the HTTP endpoints as
 * machine-readable documents (src/docs), for developers and code generators. Serialized once at startup.
 */
import type { FastifyPluginAsync } from 'fastify'
import { asyncApiDocument } from '../docs/asyncapi.ts'
import { openApiDocument } from '../docs/openapi.ts'

export function docsRoutes (): FastifyPluginAsync {
  const asyncApi = JSON.stringify(asyncApiDocument)
  const openApi = JSON.stringify(openApiDocument)
  return async (app) => {
    for (const [path, body] of [['/docs/asyncapi.json', asyncApi], ['/docs/openapi.json', openApi]] as const) {
      app.get(path, async (_req, reply) => reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body))
    }
  }
}
