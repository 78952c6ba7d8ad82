/**
 * Why touchline/client stops, and why a socket would not open. A browser hides an upgrade's status code
 * (a refused key and an unreachable gateway look the same to it), so the client asks the same question
 * over HTTP, with the key, in Node as in browsers: one code path.
 */

/** Why the client stopped for good, in plain words (status `refused`). */
export const REFUSALS = Object.freeze({
  unauthorized: 'The gateway does not accept this key (HTTP 401).',
  revoked: 'This key has been revoked.',
  too_many_connections: 'This key has too many open connections; close one and try again.',
  forbidden: 'This key may not follow any of the leagues, fixtures or teams asked for.'
})

/** How long the HTTP diagnosis may take. */
const DIAGNOSE_TIMEOUT_MS = 5_000

/**
 * Why the socket cannot open: `status` 401 (the key is refused: stop), 403 (this site may not use the key),
 * another status, or 0 when the gateway cannot be reached (or CORS hides the answer).
 * @param {string} url a cheap authenticated GET of the gateway (GET /v1/fixtures/live with the key)
 * @returns {Promise<{ status: number, message: string }>}
 */
export async function diagnose (url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(DIAGNOSE_TIMEOUT_MS) })
    await res.body?.cancel()
    if (res.status === 401) return { status: 401, message: REFUSALS.unauthorized }
    if (res.status === 403) return { status: 403, message: 'This site may not use this key.' }
    return { status: res.status, message: 'The live feed is unavailable.' }
  } catch {
    return {
      status: 0,
      message: globalThis.navigator?.onLine === false ? 'You are offline.' : 'Cannot reach the live feed (or this site may not use this key).'
    }
  }
}
