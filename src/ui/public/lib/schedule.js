/**
 * Fixtures that are not live (today's results, the next kick-offs, a match that has ended), read from the
 * gateway's REST passthrough (`/v3/football/fixtures/...`, answered from the gateway's cache) and put in
 * the LiveFixture shape the Board draws. The live feed only carries matches in play, and drops a match a
 * little after full time: this is what the page and the widget show around it.
 *
 * Each answer is kept here for a minute too, so a page that asks again (a widget per league, a refresh)
 * costs the gateway nothing.
 *
 * @typedef {import('./live.js').LiveFixture} LiveFixture
 */

/** The passthrough includes that give a row its teams, score, state and events. */
const INCLUDES = 'participants;scores;state;events'
/** How long an answer is reused. */
const CACHE_MS = 60_000
/** Pages of 50 read at most per list. */
const MAX_PAGES = 3

/** Upstream event type ids (src/contract/types.ts EventType) → the names the feed uses. */
const EVENT_TYPES = { 10: 'VAR', 14: 'GOAL', 15: 'OWNGOAL', 16: 'PENALTY', 17: 'MISSED_PENALTY', 18: 'SUBSTITUTION', 19: 'YELLOWCARD', 20: 'REDCARD', 21: 'YELLOWREDCARD', 22: 'PENALTY_SHOOTOUT_MISS', 23: 'PENALTY_SHOOTOUT_GOAL', 1697: 'VAR_CARD' }

/** State code → phase (src/contract/states.ts); a code not listed is in play. */
const PHASES = new Map(Object.entries({
  scheduled: 'NS TBA DELAYED',
  break: 'HT BREAK EXTRA_TIME_BREAK PEN_BREAK',
  finished: 'FT AET FT_PEN AWARDED WO',
  postponed: 'POSTPONED',
  cancelled: 'CANCELLED ABANDONED DELETED',
  suspended: 'SUSPENDED INTERRUPTED',
  unknown: 'PENDING'
}).flatMap(([phase, codes]) => codes.split(' ').map((code) => [code, phase])))

/** @type {Map<string, { at: number, body: Promise<any> }>} */
const cache = new Map()

/**
 * An answer's body, or undefined when the gateway answered with an error (nothing to show). Rejects when no
 * whole answer came (the gateway unreachable, the link cut mid-answer): that is not "no fixtures", and a
 * failed read is not kept, so the next call asks again.
 * @param {string} url
 */
function getJson (url) {
  const hit = cache.get(url)
  if (hit !== undefined && Date.now() - hit.at < CACHE_MS) return hit.body
  const body = fetch(url).then((res) => res.ok ? res.json() : undefined)
  const entry = { at: Date.now(), body }
  cache.set(url, entry)
  body.catch(() => { if (cache.get(url) === entry) cache.delete(url) })
  return body
}

/** `2026-11-24`: the reader's local date of a time. @param {Date} d */
export const dateOf = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`

/** The reader's local date `days` from today. @param {number} [days] */
export function localDate (days = 0) {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return dateOf(d)
}

/**
 * Fixtures of `leagues` between two dates (inclusive, as the upstream dates them), by kick-off. Rejects
 * when the gateway could not be read (see getJson).
 * @param {string} base gateway origin @param {string} key
 * @param {{ leagues: number[], from: string, to: string }} what
 * @returns {Promise<LiveFixture[]>}
 */
export async function fetchFixtures (base, key, what) {
  if (what.leagues.length === 0) return []
  const path = what.from === what.to ? `date/${what.from}` : `between/${what.from}/${what.to}`
  /** @type {LiveFixture[]} */
  const out = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await getJson(`${base}/v3/football/fixtures/${path}?api_token=${encodeURIComponent(key)}&include=${INCLUDES}` +
      `&filters=fixtureLeagues:${what.leagues.join(',')}&per_page=50&page=${page}`)
    if (body === undefined || !Array.isArray(body.data)) break
    for (const raw of body.data) out.push(toLiveFixture(raw))
    if (body.pagination?.has_more !== true) break
  }
  return out.sort((a, b) => (a.starting_at ?? '').localeCompare(b.starting_at ?? '') || a.id - b.id)
}

/**
 * The fixtures of one day of the reader's (`2026-11-24`, local time): the upstream dates fixtures in UTC,
 * so the UTC dates the local day overlaps are read and the fixtures kept by their local kick-off date.
 * @param {string} base @param {string} key @param {number[]} leagues @param {string} day
 * @returns {Promise<LiveFixture[]>}
 */
export async function fetchDay (base, key, leagues, day) {
  const [y, m, d] = day.split('-').map(Number)
  const start = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1)
  const end = new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1, 0, 0, -1)
  const utc = (/** @type {Date} */ t) => t.toISOString().slice(0, 10)
  const list = await fetchFixtures(base, key, { leagues, from: utc(start), to: utc(end) })
  return list.filter((f) => f.starting_at === null || dateOf(new Date(f.starting_at)) === day)
}

/**
 * One fixture by id (a match the live feed no longer carries).
 * @param {string} base @param {string} key @param {number} id
 * @returns {Promise<LiveFixture | undefined>}
 */
export async function fetchFixture (base, key, id) {
  const body = await getJson(`${base}/v3/football/fixtures/${id}?api_token=${encodeURIComponent(key)}&include=${INCLUDES}`)
  return body?.data?.id === undefined ? undefined : toLiveFixture(body.data)
}

/**
 * An upstream fixture with the includes above, in the feed's shape (the parts a row shows).
 * @param {any} raw
 * @returns {LiveFixture}
 */
export function toLiveFixture (raw) {
  const participants = Array.isArray(raw.participants) ? raw.participants : []
  const team = (/** @type {'home' | 'away'} */ side) => participants.find((/** @type {any} */ p) => p.meta?.location === side)
  const home = team('home')
  const away = team('away')
  /** @param {number | null | undefined} id */
  const sideOf = (id) => id === home?.id ? 'home' : id === away?.id ? 'away' : null
  const scores = Array.isArray(raw.scores) ? raw.scores : []
  const current = (/** @type {'home' | 'away'} */ side) => {
    const row = scores.find((/** @type {any} */ s) => s.description === 'CURRENT' && s.score?.participant === side)
    return row === undefined ? (Array.isArray(raw.scores) ? 0 : null) : Number(row.score.goals)
  }
  const code = String(raw.state?.state ?? raw.state?.developer_name ?? 'NS')
  /** @type {Record<string, { home: number, away: number }>} scores by type, keyed as the feed keys them */
  const byType = {}
  for (const row of Array.isArray(raw.scores) ? raw.scores : []) {
    const side = row.score?.participant
    if (side !== 'home' && side !== 'away') continue
    const type = String(row.description ?? '').toLowerCase()
    byType[type] = { ...(byType[type] ?? { home: 0, away: 0 }), [side]: Number(row.score.goals) }
  }
  const events = (Array.isArray(raw.events) ? raw.events : [])
    .filter((/** @type {any} */ e) => (e.section ?? 'event') === 'event')
    .map((/** @type {any} */ e) => ({
      id: e.id,
      type: EVENT_TYPES[/** @type {keyof typeof EVENT_TYPES} */ (e.type_id)] ?? `TYPE_${e.type_id}`,
      minute: e.minute ?? null,
      extra_minute: e.extra_minute ?? null,
      side: sideOf(e.participant_id),
      player: e.player_name ? { name: e.player_name } : null,
      related_player: e.related_player_name ? { name: e.related_player_name } : null,
      result: e.result ?? null,
      info: e.info ?? null,
      addition: e.addition ?? null
    }))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => (a.minute ?? 0) - (b.minute ?? 0) || (a.extra_minute ?? 0) - (b.extra_minute ?? 0) || a.id - b.id)
  return {
    id: raw.id,
    league_id: raw.league_id,
    version: 0,
    state: { code, name: String(raw.state?.name ?? code), phase: PHASES.get(code) ?? 'live' },
    minute: null,
    clock: null,
    home: { id: home?.id ?? null, name: String(home?.name ?? 'Home'), score: current('home') },
    away: { id: away?.id ?? null, name: String(away?.name ?? 'Away'), score: current('away') },
    events,
    scores: byType,
    starting_at: typeof raw.starting_at_timestamp === 'number' ? new Date(raw.starting_at_timestamp * 1000).toISOString() : raw.starting_at ? `${String(raw.starting_at).replace(' ', 'T')}Z` : null
  }
}
