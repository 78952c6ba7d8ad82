/**
 * League names for headings, from the gateway's REST passthrough (`GET /v3/football/leagues`, answered
 * from its cache after the first call, and narrowed to the key's leagues). Optional: without the
 * passthrough, or when it refuses, headings fall back to `League <id>`.
 *
 * They also give the order of the board's leagues (leagueOrder): the gateway's priority list first
 * (TOUCHLINE_LEAGUE_PRIORITY, docs/settings.md, handed to the page in a meta tag), then the best-known
 * competitions (WELL_KNOWN), then the upstream's own rank of a league (`category`: 1 for the top
 * competitions, 4 for friendlies), international competitions before domestic leagues before domestic cups,
 * then country and name.
 *
 * @typedef {'international' | 'league' | 'cup' | 'other'} LeagueKind
 * @typedef {{ id: number, name: string, country: string | null, category: number | null, kind: LeagueKind }} League
 */
import { withCredential } from './credential.js'

/**
 * The upstream's ids of the competitions most fans look for first, most followed first: the World Cup, the
 * European Championship, the Champions, Europa and Conference Leagues, the five big leagues, the FA Cup.
 */
export const WELL_KNOWN = [732, 1326, 2, 5, 2286, 8, 564, 384, 82, 301, 24]

/** The upstream's `sub_type` of a league as a kind (unknown ones are `other`: play-offs, friendlies). */
const KINDS = /** @type {Record<string, LeagueKind>} */ ({ international: 'international', cup_international: 'international', domestic: 'league', domestic_cup: 'cup' })
const KIND_RANK = { international: 0, league: 1, cup: 2, other: 3 }

/** What a read carries: the key (in the query), or a fan's signed token (in a header). @typedef {{ key: string } | { token: string }} Credential */

/**
 * Every league the key may see (at most 4 pages of 50).
 * @param {string} base gateway origin
 * @param {Credential} credential
 * @returns {Promise<Map<number, League>>}
 */
export async function fetchLeagues (base, credential) {
  /** @type {Map<number, League>} */
  const out = new Map()
  for (let page = 1; page <= 4; page++) {
    const body = await getJson(withCredential(`${base}/v3/football/leagues?select=name,category,sub_type&include=country&per_page=50&page=${page}`, credential))
    if (body === undefined || !Array.isArray(body.data)) break
    for (const l of body.data) out.set(l.id, toLeague(l))
    if (body.pagination?.has_more !== true) break
  }
  return out
}

/**
 * One league by id.
 * @param {string} base @param {Credential} credential @param {number} id
 * @returns {Promise<League | undefined>}
 */
export async function fetchLeague (base, credential, id) {
  const body = await getJson(withCredential(`${base}/v3/football/leagues/${id}?select=name,category,sub_type&include=country`, credential))
  return body?.data?.id === undefined ? undefined : toLeague(body.data)
}

/** `Premiership · Scotland` @param {League | undefined} l @param {number} id */
export const leagueTitle = (l, id) => l === undefined ? `League ${id}` : l.country ? `${l.name} · ${l.country}` : l.name

/** @param {any} l @returns {League} */
const toLeague = (l) => ({
  id: l.id,
  name: String(l.name),
  country: typeof l.country?.name === 'string' ? l.country.name : null,
  category: typeof l.category === 'number' ? l.category : null,
  kind: KINDS[String(l.sub_type)] ?? 'other'
})

/**
 * The gateway's league priority list (most important first), from the page's
 * `<meta name="touchline-league-priority" content="8,2,564">`; empty when not set.
 * @param {Document} doc
 * @returns {number[]}
 */
export function priorityList (doc) {
  const content = doc.querySelector('meta[name="touchline-league-priority"]')?.getAttribute('content') ?? ''
  return content.split(',').map((s) => Number(s.trim())).filter((n) => Number.isSafeInteger(n) && n > 0)
}

/**
 * Compares two league ids by importance: the priority list, then the best-known competitions, then the
 * upstream's category, international before league before cup, then country and name (leagues not known
 * yet last, by id).
 * @param {() => Map<number, League>} leagues the leagues known now
 * @param {number[]} priority
 * @returns {(a: number, b: number) => number}
 */
export function leagueOrder (leagues, priority) {
  const rank = new Map([...priority, ...WELL_KNOWN.filter((id) => !priority.includes(id))].map((id, i) => [id, i]))
  return (a, b) => {
    const ra = rank.get(a) ?? Infinity
    const rb = rank.get(b) ?? Infinity
    if (ra !== rb) return ra - rb
    const la = leagues().get(a)
    const lb = leagues().get(b)
    if ((la === undefined) !== (lb === undefined)) return la === undefined ? 1 : -1
    return (la?.category ?? 9) - (lb?.category ?? 9) || KIND_RANK[la?.kind ?? 'other'] - KIND_RANK[lb?.kind ?? 'other'] ||
      (la?.country ?? '').localeCompare(lb?.country ?? '') || (la?.name ?? '').localeCompare(lb?.name ?? '') || a - b
  }
}

/** @param {{ url: string, init: RequestInit }} req */
async function getJson ({ url, init }) {
  try {
    const res = await fetch(url, init)
    return res.ok ? await res.json() : undefined
  } catch {
    return undefined
  }
}
