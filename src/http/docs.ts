/**
 * `/docs/asyncapi.json` and `/docs/openapi.json`: the WebSocket protocol and the HTTP endpoints as
 * machine-readable documents, generated from the wire model (src/wire-model) for developers and code generators.
 * Built and serialized once, on the first request.
 */
import type { FastifyPluginAsync } from 'fastify'
import { asyncApiDocument } from '../wire-model/asyncapi.ts'
import { openApiDocument } from '../wire-model/openapi.ts'

export function docsRoutes (): FastifyPluginAsync {
  const documents = { '/docs/asyncapi.json': asyncApiDocument, '/docs/openapi.json': openApiDocument }
  return async (app) => {
    for (const [path, build] of Object.entries(documents)) {
      let body: string | undefined
      app.get(path, async (_req, reply) => {
        body ??= JSON.stringify(build())
        return await reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body)
      })
    }
  }
}
