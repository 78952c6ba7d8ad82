/**
 * What the passthrough sends back: the upstream's error bodies in their exact shapes (the shared builders of
 * packages/upstream-contract/src/error-bodies.ts), worded for a touchline key. Only the 429 body carries `rate_limit`.
 */
import { randomUUID } from 'node:crypto'
import {
  endpointNotFoundBody, forbiddenBody, serverErrorBody, tooManyRequestsReply, unauthorizedBody, type BucketReport
} from '@touchline/upstream-contract/error-bodies'
import type { Feature } from '@touchline/upstream-contract/resources'

export { rateLimitBody, rateLimitHeaders } from '@touchline/upstream-contract/error-bodies'

/** A finished HTTP answer: the fastify plugin only copies it onto the reply. */
export interface Reply {
  status: number
  headers: Record<string, string>
  /** JSON text. */
  body: string
}

export const reply = (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  ({ status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) })

export function unauthorized (message: string): Reply {
  return reply(401, unauthorizedBody(message))
}

export const MISSING_KEY = 'You did not provide an API token. Pass your touchline key in the api_token query parameter.'
export const MALFORMED_KEY = 'The API token is malformed: it must not contain spaces or quotes.'
export const INVALID_KEY = 'The API token is invalid. Check the key your touchline operator gave you.'

function forbidden (resource: string, planRequired: string, message: string): Reply {
  return reply(403, forbiddenBody(resource, planRequired, message))
}

/** A league outside the key's `leagues`: the upstream's 403 shape, naming what would grant it. */
export function leagueForbidden (leagueId: number): Reply {
  return forbidden(`league ${leagueId}`, `a touchline key with access to league ${leagueId}`,
    `League ${leagueId} is not included in the leagues of your touchline key.`)
}

/** A record whose league could not be established, refused to a key scoped to some leagues (fail closed). */
export function leagueUnknownForbidden (): Reply {
  return forbidden('league', 'a touchline key with access to every league',
    'The league of this record could not be established, and your touchline key is limited to some leagues.')
}

/** What a key needs for a feature, as the upstream's 403 names it (`resource`, `plan_required`). */
const FEATURE_RESOURCES: Readonly<Record<Feature, { resource: string, plan: string }>> = {
  xg: { resource: 'xGFixture', plan: 'a touchline key with the xg feature' },
  odds: { resource: 'odds', plan: 'a touchline key with the odds feature' },
  predictions: { resource: 'predictions', plan: 'a touchline key with the predictions feature' }
}

export function featureForbidden (feature: Feature): Reply {
  const { resource, plan } = FEATURE_RESOURCES[feature]
  return forbidden(resource, plan, `Your touchline key does not include ${resource}.`)
}

export function originForbidden (origin: string): Reply {
  return forbidden(`origin ${origin}`, 'a touchline key that allows this origin', `Your touchline key may not be used from the origin ${origin}.`)
}

/**
 * A key limited to some leagues asking for something the catalogue does not know: the gateway cannot tell
 * which leagues its records belong to, so it is outside such a key's plan (a key for all leagues gets it).
 */
export function unknownForScopedKey (what: string): Reply {
  return forbidden(what, 'a touchline key for all leagues',
    `Your touchline key is limited to some leagues, and the gateway cannot check the leagues of ${what}, which it does not know.`)
}

export function pathNotFound (path: string): Reply {
  return reply(404, endpointNotFoundBody(path))
}

/** A key's quota bucket as the envelope reports it. */
export type QuotaView = BucketReport

/**
 * The upstream's 429 body. `retryAfter` is the key's own window for its quota; for a gateway whose shared
 * upstream budget ran out it is when the upstream window resets, while `rate_limit` still reports the key's
 * own quota, so a client is never told it used requests it did not make.
 */
export function tooManyRequests (q: QuotaView, retryAfter: number, message?: string): Reply {
  const r = tooManyRequestsReply(q, retryAfter, message ?? `You have reached the hourly request limit of your key for the ${q.entity} entity. Try again in ${retryAfter} seconds.`)
  return reply(429, r.body, r.headers)
}

const GATEWAY_MESSAGES: Readonly<Record<number, [string, string]>> = {
  500: ['Internal Server Error', 'Something went wrong on our side. Quote the error_id when you report it.'],
  502: ['Bad Gateway', 'The upstream football data service failed to answer this request. Quote the error_id when you report it.'],
  503: ['Service Unavailable', 'The upstream football data service cannot be reached right now. Try again shortly.'],
  504: ['Gateway Timeout', 'The upstream football data service did not answer in time. Try again shortly.']
}

/** A 5xx in the upstream's 500 shape (error, message, error_id): never an upstream message, token or stack. */
export function serverError (status: 500 | 502 | 503 | 504, errorId: string = randomUUID()): Reply {
  const [error, message] = GATEWAY_MESSAGES[status] ?? GATEWAY_MESSAGES[500] as [string, string]
  return reply(status, serverErrorBody(error, message, errorId))
}

/** The reply with `headers` added (they win over its own). */
export function withHeaders (r: Reply, headers: Record<string, string>): Reply {
  return { ...r, headers: { ...r.headers, ...headers } }
}
