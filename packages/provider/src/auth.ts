/**
 * Authentication (docs/upstream.md, "Authentication"): the token comes in the `api_token` query parameter, or in the
 * `Authorization` header, the second scheme the real API accepts (bare token or `Bearer <token>`).
 */
import { isMalformedToken } from '@touchline/upstream-contract/auth'
import { PLANS, type Plan, type TokenRecord } from './plans.ts'
import { unauthorized, type ErrorReply } from './error-replies.ts'

export interface Caller {
  token: string
  plan: Plan
}

const REFUSALS: Readonly<Record<Exclude<TokenRecord['status'], 'active'>, string>> = {
  revoked: 'This API token has been revoked. Create a new token in your dashboard.',
  regenerated: 'This API token was regenerated and is no longer valid. Use the new token from your dashboard.',
  expired: 'This API token has expired. Renew your subscription or create a new token.',
  'other-environment': 'This API token belongs to another environment and cannot be used here.'
}

export function authenticate (token: string | undefined, tokens: ReadonlyMap<string, TokenRecord>, limitOf: (plan: Plan) => Plan = (p) => p): Caller | ErrorReply {
  if (token === undefined || token === '') {
    return unauthorized('You did not provide an API token. Pass it in the api_token query parameter.')
  }
  if (isMalformedToken(token)) return unauthorized('The API token is malformed: it must not contain spaces or quotes.')
  const record = tokens.get(token)
  if (record === undefined) return unauthorized('The API token is invalid. Check it in your dashboard.')
  if (record.status !== 'active') return unauthorized(REFUSALS[record.status])
  return { token, plan: limitOf(PLANS[record.plan]) }
}
