/**
 * League names for headings, from the gateway's REST passthrough (`GET /v3/football/leagues`, answered
 * from its cache after the first call, and narrowed to the key's leagues). Optional: without the
 * passthrough, or when it refuses, headings fall back to `League <id>`.
 *
 * @typedef {{ id: number, name: string, country: string | null }} League
 */

/**
 * Every league the key may see (at most 4 pages of 50).
 * @param {string} base gateway origin
 * @param {string} key
 * @returns {Promise<Map<number, League>>}
 */
export async function fetchLeagues (base, key) {
  /** @type {Map<number, League>} */
  const out = new Map()
  for (let page = 1; page <= 4; page++) {
    const body = await getJson(`${base}/v3/football/leagues?api_token=${encodeURIComponent(key)}&select=name&include=country&per_page=50&page=${page}`)
    if (body === undefined || !Array.isArray(body.data)) break
    for (const l of body.data) out.set(l.id, toLeague(l))
    if (body.pagination?.has_more !== true) break
  }
  return out
}

/**
 * One league by id.
 * @param {string} base @param {string} key @param {number} id
 * @returns {Promise<League | undefined>}
 */
export async function fetchLeague (base, key, id) {
  const body = await getJson(`${base}/v3/football/leagues/${id}?api_token=${encodeURIComponent(key)}&select=name&include=country`)
  return body?.data?.id === undefined ? undefined : toLeague(body.data)
}

/** `Premiership · Scotland` @param {League | undefined} l @param {number} id */
export const leagueTitle = (l, id) => l === undefined ? `League ${id}` : l.country ? `${l.name} · ${l.country}` : l.name

/** @param {any} l @returns {League} */
const toLeague = (l) => ({ id: l.id, name: String(l.name), country: typeof l.country?.name === 'string' ? l.country.name : null })

/** @param {string} url */
async function getJson (url) {
  try {
    const res = await fetch(url)
    return res.ok ? await res.json() : undefined
  } catch {
    return undefined
  }
}
