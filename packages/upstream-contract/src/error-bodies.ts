/**
 * The upstream's error bodies and the rate-limit parts of its envelope, in their exact shapes
 * (docs/upstream.md, "Errors" and "Rate limits"): written by the embedded provider and, with its own
 * wording, by the REST passthrough. Only the 429 body carries `rate_limit`.
 */
import type { RateLimitBody } from './envelope.ts'

export type ErrorBody = Record<string, unknown>

export const unauthorizedBody = (message: string): ErrorBody => ({ error: 'Unauthorized', message })

export const forbiddenBody = (resource: string, planRequired: string, message: string): ErrorBody =>
  ({ error: 'Forbidden', message, resource, plan_required: planRequired })

export const notFoundBody = (resourceType: string, resourceId: string | number, message: string): ErrorBody =>
  ({ error: 'Not Found', message, resource_type: resourceType, resource_id: String(resourceId) })

/** 404 for a path that names no endpoint (a wrong path, another sport, another API version). */
export const endpointNotFoundBody = (path: string): ErrorBody =>
  notFoundBody('endpoint', path, `The requested endpoint ${path} does not exist. Check the path and the API version.`)

export const serverErrorBody = (error: string, message: string, errorId: string): ErrorBody =>
  ({ error, message, error_id: errorId })

/** A bucket as the envelope and the headers report it. */
export interface BucketReport {
  entity: string
  limit: number
  remaining: number
  resetsInSeconds: number
}

export const rateLimitBody = (b: BucketReport): RateLimitBody =>
  ({ resets_in_seconds: b.resetsInSeconds, remaining: b.remaining, requested_entity: b.entity })

/** `x-ratelimit-*` headers; they equal the body's numbers. */
export const rateLimitHeaders = (b: BucketReport): Record<string, string> =>
  ({ 'x-ratelimit-limit': String(b.limit), 'x-ratelimit-remaining': String(b.remaining) })

/** The 429 body and its headers, `retry-after` included. */
export function tooManyRequestsReply (b: BucketReport, retryAfter: number, message: string): { body: ErrorBody, headers: Record<string, string> } {
  return {
    body: {
      error: 'Too Many Requests',
      message,
      retry_after: retryAfter,
      rate_limit: { remaining: b.remaining, total: b.limit, resets_in_seconds: b.resetsInSeconds, requested_entity: b.entity }
    },
    headers: { 'retry-after': String(retryAfter), ...rateLimitHeaders(b) }
  }
}
