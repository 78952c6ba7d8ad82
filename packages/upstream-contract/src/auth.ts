/**
 * How a request presents its token (docs/upstream.md, "Authentication"): the `api_token` query parameter, or the second scheme the
 * real API accepts, the `Authorization` header (bare or `Bearer <token>`); the parameter wins. Shared by the
 * embedded provider (upstream tokens) and the gateway (client keys), which must read tokens alike.
 */

/** The presented token. A repeated `api_token` is joined: it can never match, and fails like a wrong token. */
export function presentedToken (query: Record<string, unknown>, authorization: string | undefined): string | undefined {
  const fromQuery = query.api_token
  if (typeof fromQuery === 'string') return fromQuery
  if (Array.isArray(fromQuery)) return fromQuery.join(',')
  if (authorization === undefined) return undefined
  return authorization.replace(/^Bearer\s+/i, '')
}

const MALFORMED = /[\s"'`]/

/** Spec 5.2: a token with spaces or quotes is malformed (401), whatever it is otherwise. */
export const isMalformedToken = (token: string): boolean => MALFORMED.test(token)
