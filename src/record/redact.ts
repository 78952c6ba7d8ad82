/**
 * What a recording may hold of a request and a body: no upstream host and no token. The path keeps its
 * query parameters except the token; every absolute URL inside a body (`pagination.next_page`...) loses its
 * origin and its `api_token`, a token parameter anywhere else is redacted, and any configured secret is cut
 * out of every string.
 */
import type { Query } from '../upstream/index.ts'

const TOKEN_PARAMS: ReadonlySet<string> = new Set(['api_token', 'token'])
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i
const TOKEN_IN_TEXT = /([?&](?:api_token|token)=)[^&#\s"]*/gi
const redactTokens = (text: string): string => text.replace(TOKEN_IN_TEXT, '$1[redacted]')

/** `/football/livescores/latest?include=participants;scores`: the request as recorded. */
export function recordedPath (path: string, query: Query = {}): string {
  const params = Object.entries(query).flatMap(([name, value]) => {
    if (value === undefined || TOKEN_PARAMS.has(name.toLowerCase())) return []
    return (Array.isArray(value) ? value : [value as string]).map((v) => `${encodeURIComponent(name)}=${readable(v)}`)
  })
  const clean = path.startsWith('/') ? path : `/${path}`
  return params.length === 0 ? clean : `${clean}?${params.join('&')}`
}

/** A query value encoded, with the separators the API's syntax uses (`;`, `,`, `:`) left readable. */
const readable = (value: string): string => encodeURIComponent(value).replace(/%3B/g, ';').replace(/%2C/g, ',').replace(/%3A/g, ':')

/** A URL reduced to its path and query, without any token parameter. */
function redactUrlString (text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return redactTokens(text)
  }
  for (const name of [...url.searchParams.keys()]) if (TOKEN_PARAMS.has(name.toLowerCase())) url.searchParams.delete(name)
  return `${url.pathname}${url.search}${url.hash}`
}

function redactString (text: string, secrets: readonly string[]): string {
  let out = ABSOLUTE_URL.test(text) ? redactUrlString(text) : redactTokens(text)
  for (const secret of secrets) if (secret !== '') out = out.replaceAll(secret, '[redacted]')
  return out
}

/** A deep copy of a body with every URL and secret redacted. */
export function redactBody (value: unknown, secrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return redactString(value, secrets)
  if (Array.isArray(value)) return value.map((v) => redactBody(v, secrets))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactBody(v, secrets)]))
  }
  return value
}
