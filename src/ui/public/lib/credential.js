/**
 * Who a page is to the gateway: a client key, or a fan's signed connection tokens (docs/tokens.md) from a
 * route of the site's backend, so that no key is in the page. A key goes in the query (`api_token`), as the
 * upstream takes it; a token in the `Authorization` header, out of addresses and logs (the WebSocket's in
 * its first frame: the client library does that).
 *
 * @typedef {{ key: string } | { tokenUrl: string }} PageCredential
 */

/**
 * The page's credential from its address: `?token_url=` (a path on the page's own origin answering a fresh
 * token: the site serves the gateway's pages under its address, its reverse proxy sending the rest to the
 * gateway) or `?key=` (default `demo`). A token URL on another origin is not asked (the pages' Content
 * Security Policy forbids it, and an address should not choose where a page gets its credentials).
 * @param {URLSearchParams} params
 * @returns {PageCredential}
 */
export function credentialOf (params) {
  const tokenUrl = params.get('token_url')
  const key = params.get('key') || 'demo'
  if (!tokenUrl) return { key }
  const url = new URL(tokenUrl, location.href)
  if (url.origin === location.origin) return { tokenUrl: url.href }
  console.error(`touchline: token_url must be a path on this page's origin (${location.origin}); ignored`)
  return { key }
}

/**
 * A fresh token from the site's backend, asked with the site's cookies (its session says which fan): the
 * body is the token, as text or as `{ "token": "..." }`.
 * @param {string} url
 * @returns {Promise<string>}
 */
export async function fetchToken (url) {
  const res = await fetch(url, { credentials: 'include', cache: 'no-store', headers: { accept: 'application/json, text/plain' } })
  if (!res.ok) throw new Error(`the token URL answered ${res.status}`)
  const body = (await res.text()).trim()
  const token = body.startsWith('{') ? JSON.parse(body).token : body
  if (typeof token !== 'string' || token === '') throw new Error('the token URL answered no token: send it as text, or as { "token": "..." }')
  return token
}

/**
 * A request to the gateway's HTTP API with the credential: the key added to the query, or the token given
 * (the client's current one) in the Authorization header.
 * @param {string} url with a query already (`?...`) or none
 * @param {{ key: string } | { token: string }} credential
 * @param {RequestInit} [init]
 * @returns {{ url: string, init: RequestInit }}
 */
export function withCredential (url, credential, init = {}) {
  if ('key' in credential) return { url: `${url}${url.includes('?') ? '&' : '?'}api_token=${encodeURIComponent(credential.key)}`, init }
  return { url, init: { ...init, headers: { ...init.headers, authorization: `Bearer ${credential.token}` } } }
}
