/**
 * Error bodies of spec part 7, exactly as the upstream sends them. Only the 429 body carries `rate_limit`
 * (spec 7 rule 2): validation, auth, plan and not-found errors never do.
 */
import { randomUUID } from 'node:crypto'

export interface ErrorReply {
  status: number
  body: Record<string, unknown>
  headers?: Record<string, string>
}

export function unauthorized (message: string): ErrorReply {
  return { status: 401, body: { error: 'Unauthorized', message } }
}

export function forbidden (resource: string, planRequired: string, message?: string): ErrorReply {
  return {
    status: 403,
    body: {
      error: 'Forbidden',
      message: message ?? `Your subscription does not give access to ${resource}. Upgrade to ${planRequired} to use it.`,
      resource,
      plan_required: planRequired
    }
  }
}

export function notFound (resourceType: string, resourceId: string | number, message?: string): ErrorReply {
  return {
    status: 404,
    body: {
      error: 'Not Found',
      message: message ?? `No ${resourceType} found with id ${resourceId}.`,
      resource_type: resourceType,
      resource_id: String(resourceId)
    }
  }
}

export function pathNotFound (path: string): ErrorReply {
  return notFound('endpoint', path, `The requested endpoint ${path} does not exist. Check the path and the API version.`)
}

export function tooManyRequests (entity: string, total: number, resetsInSeconds: number): ErrorReply {
  return {
    status: 429,
    body: {
      error: 'Too Many Requests',
      message: `You have reached the hourly request limit for the ${entity} entity. Try again in ${resetsInSeconds} seconds.`,
      retry_after: resetsInSeconds,
      rate_limit: { remaining: 0, total, resets_in_seconds: resetsInSeconds, requested_entity: entity }
    },
    headers: {
      'retry-after': String(resetsInSeconds),
      'x-ratelimit-limit': String(total),
      'x-ratelimit-remaining': '0'
    }
  }
}

/** A 500 with an `error_id` to quote to support; never a stack trace or an internal message. */
export function internalError (errorId: string = randomUUID()): ErrorReply {
  return {
    status: 500,
    body: { error: 'Internal Server Error', message: 'Something went wrong on our side. Quote the error_id when you contact support.', error_id: errorId }
  }
}
