/**
 * The provider's error replies (docs/upstream.md, "Errors"), built on the shared bodies of packages/upstream-contract/src/error-bodies.ts with
 * the upstream's own wording.
 */
import { randomUUID } from 'node:crypto'
import {
  endpointNotFoundBody, forbiddenBody, notFoundBody, serverErrorBody, tooManyRequestsReply, unauthorizedBody, type ErrorBody
} from '@touchline/upstream-contract/error-bodies'

export interface ErrorReply {
  status: number
  body: ErrorBody
  headers?: Record<string, string>
}

export function unauthorized (message: string): ErrorReply {
  return { status: 401, body: unauthorizedBody(message) }
}

export function forbidden (resource: string, planRequired: string, message?: string): ErrorReply {
  return { status: 403, body: forbiddenBody(resource, planRequired, message ?? `Your subscription does not give access to ${resource}. Upgrade to ${planRequired} to use it.`) }
}

export function notFound (resourceType: string, resourceId: string | number, message?: string): ErrorReply {
  return { status: 404, body: notFoundBody(resourceType, resourceId, message ?? `No ${resourceType} found with id ${resourceId}.`) }
}

export function pathNotFound (path: string): ErrorReply {
  return { status: 404, body: endpointNotFoundBody(path) }
}

export function tooManyRequests (entity: string, total: number, resetsInSeconds: number): ErrorReply {
  const message = `You have reached the hourly request limit for the ${entity} entity. Try again in ${resetsInSeconds} seconds.`
  return { status: 429, ...tooManyRequestsReply({ entity, limit: total, remaining: 0, resetsInSeconds }, resetsInSeconds, message) }
}

/** A 500 with an `error_id` to quote to support; never a stack trace or an internal message. */
export function internalError (errorId: string = randomUUID()): ErrorReply {
  return { status: 500, body: serverErrorBody('Internal Server Error', 'Something went wrong on our side. Quote the error_id when you contact support.', errorId) }
}
