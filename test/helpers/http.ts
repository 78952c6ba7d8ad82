import { request } from 'undici'

/** A parsed HTTP response: JSON body when it parses, the raw text always. */
export interface HttpResponse {
  status: number
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>
  /** Parsed JSON, or `undefined` when the body is not JSON. Tests read it loosely. */
  body: any
  text: string
}

export type QueryValue = string | number | boolean | undefined
export type Query = Record<string, QueryValue>

/**
 * Encodes a query string the way the API's documentation writes it: values are percent-encoded, except
 * `;`, `,`, `:` and `.`, which stay literal so that `include=a;b.c` and `filters=x:1,2;y:3` reach the server
 * as written. Undefined values are left out.
 */
export function encodeQuery (query: Query): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    const encoded = encodeURIComponent(String(value)).replace(/%3B/gi, ';').replace(/%2C/gi, ',').replace(/%3A/gi, ':')
    parts.push(`${encodeURIComponent(key)}=${encoded}`)
  }
  return parts.join('&')
}

/** Joins a base URL, a path and a query; `path` may already carry a query string. */
export function buildUrl (base: string, path: string, query: Query = {}): string {
  const qs = encodeQuery(query)
  const url = `${base.replace(/\/+$/, '')}${path}`
  if (qs === '') return url
  return url.includes('?') ? `${url}&${qs}` : `${url}?${qs}`
}

/** GET a URL and read the whole body. Never throws on an HTTP status; network errors propagate. */
export async function httpGet (url: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  const res = await request(url, { method: 'GET', headers })
  const text = await res.body.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return { status: res.statusCode, headers: flat, body, text }
}
