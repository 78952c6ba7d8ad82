/**
 * Authentication (spec part 5): the token comes in the `api_token` query parameter, or in the
 * `Authorization` header, the second scheme the real API accepts (bare token or `Bearer <token>`).
 */
import { PLANS, type Plan, type TokenRecord } from './plans.ts'
import { unauthorized, type ErrorReply } from './errors.ts'

export interface Caller {
  token: string
  plan: Plan
}

const MALFORMED = /[\s"'`]/

const REFUSALS: Readonly<Record<Exclude<TokenRecord['status'], 'active'>, string>> = {
  revoked: 'This API token has been revoked. Create a new token in your dashboard.',
  regenerated: 'This API token was regenerated and is no longer valid. Use the new token from your dashboard.',
  expired: 'This API token has expired. Renew your subscription or create a new token.',
  'other-environment': 'This API token belongs to another environment and cannot be used here.'
}

/** Extracts the token of a request: the query parameter wins over the header, as documented. */
export function tokenOf (query: Record<string, unknown>, authorization: string | undefined): string | undefined {
  const fromQuery = query.api_token
  if (typeof fromQuery === 'string') return fromQuery
  if (Array.isArray(fromQuery)) return fromQuery.join(',')
  if (authorization === undefined) return undefined
  return authorization.replace(/^Bearer\s+/i, '')
}

export function authenticate (token: string | undefined, tokens: ReadonlyMap<string, TokenRecord>, limitOf: (plan: Plan) => Plan = (p) => p): Caller | ErrorReply {
  if (token === undefined || token === '') {
    return unauthorized('You did not provide an API token. Pass it in the api_token query parameter.')
  }
  if (MALFORMED.test(token)) return unauthorized('The API token is malformed: it must not contain spaces or quotes.')
  const record = tokens.get(token)
  if (record === undefined) return unauthorized('The API token is invalid. Check it in your dashboard.')
  if (record.status !== 'active') return unauthorized(REFUSALS[record.status])
  return { token, plan: limitOf(PLANS[record.plan]) }
}
