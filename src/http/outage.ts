/**
 * A store outage is a known state, not a bug: a route whose read or write the store could not serve answers
 * 503 `unavailable` with `retry-after` (docs/operations.md, "Redis"), logging nothing. Any other error goes
 * on to the app's handler (a 500 with an error id, logged).
 */
import type { FastifyInstance } from 'fastify'
import { isStoreUnavailable, OUTAGE_RETRY_AFTER_S } from '../store/unavailable.ts'
import { httpError } from './websocket.ts'

/** Sets the plugin's error handler: a StoreUnavailableError becomes 503 `unavailable`. */
export function answerStoreOutages (app: FastifyInstance): void {
  app.setErrorHandler((err, _request, reply) => {
    if (!isStoreUnavailable(err)) throw err
    return httpError(reply.header('retry-after', String(OUTAGE_RETRY_AFTER_S)), 503, 'unavailable', 'the live store is unreachable; try again shortly')
  })
}
