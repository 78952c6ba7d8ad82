/**
 * A cached upstream answer, kept in pieces so that serving it costs no JSON parse: `data` stays the text
 * the upstream sent (re-serialized once, at fill time), and the small parts around it (pagination,
 * subscription, timezone) are stitched back with the caller's own `rate_limit` on every response.
 */
import type { Pagination } from '@touchline/upstream-contract/envelope'
import type { Kind } from '@touchline/upstream-contract/resources'

/** The upstream's envelope without `rate_limit`, which is per caller. */
export interface EnvelopeParts {
  /** JSON text of `data`; undefined when the upstream sent none (its "no results" form, docs/upstream.md "Envelope"). */
  data?: string
  pagination?: Pagination
  subscription?: unknown
  timezone?: string
  /** Any other top-level field the upstream sent (`message` of an empty result), in order. */
  extra?: Record<string, unknown>
}

/**
 * What the league-bound records of a body hang on, computed once when the entry is stored (fetch.ts calls
 * scope.ts#leagueRefs), so that serving it to a scoped key needs no parse when everything is in scope: the
 * leagues of the records placed by the body itself, the fixtures and seasons it leaves to the index, and
 * whether any record cannot be placed at all.
 */
export interface LeagueRefs {
  leagues: number[]
  fixtures: number[]
  seasons: number[]
  unplaced: boolean
  /** `[id, league]` of the fixtures and seasons the body shows, taught to the index on every scoped serve. */
  shows: { fixtures: Array<[number, number]>, seasons: Array<[number, number]> }
}

export interface CachedEntry {
  /** 200, a 404 (cached briefly), or any relayed 4xx for a name the catalogue does not know (an hour; see ttl.ts). */
  status: number
  /** Entity bucket the endpoint draws on (docs/upstream.md, "Rate limits"). */
  entity: string
  /** For 200: the envelope. */
  parts?: EnvelopeParts
  /** For other statuses: the body as received, token scrubbed. */
  body?: string
  /**
   * League ids of the records in `data` (the record's own id for leagues, `league_id` for the rest), or null
   * when the records carry none (teams, countries...). Lets a key scoped to some leagues skip parsing when
   * every record is in scope, which is the common case.
   */
  leagues: number[] | null
  /** For 200: what its league-bound records hang on (scope.ts#leagueRefs); absent in older entries. */
  refs?: LeagueRefs
  storedAt: number
  expiresAt: number
}

type Rec = Record<string, unknown>

/** The league a record belongs to, when it belongs to one (same rule as the upstream's plan filter). */
export function leagueOf (kind: Kind, record: unknown): number | undefined {
  if (record === null || typeof record !== 'object') return undefined
  const value = kind === 'league' ? (record as Rec).id : (record as Rec).league_id
  return typeof value === 'number' ? value : undefined
}

export function leaguesOf (kind: Kind, data: unknown): number[] | null {
  const records = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data]
  const found = new Set<number>()
  let any = false
  for (const record of records) {
    const league = leagueOf(kind, record)
    if (league === undefined) continue
    any = true
    found.add(league)
  }
  return any ? [...found] : records.length === 0 ? [] : null
}

/**
 * Splits a 200 envelope into parts. Returns undefined for a body that is not an envelope (the caller
 * answers 502: a drop-in must not relay a malformed payload as a success).
 */
export function partsOf (json: unknown): { parts: EnvelopeParts, data: unknown } | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined
  const { data, pagination, subscription, timezone, rate_limit: _rateLimit, ...extra } = json as Rec
  if (data !== undefined && (data === null || typeof data !== 'object')) return undefined
  const parts: EnvelopeParts = {}
  if (data !== undefined) parts.data = JSON.stringify(data)
  if (pagination !== null && typeof pagination === 'object') parts.pagination = pagination as Pagination
  if (subscription !== undefined) parts.subscription = subscription
  if (typeof timezone === 'string') parts.timezone = timezone
  if (Object.keys(extra).length > 0) parts.extra = extra
  return { parts, data }
}

/** The envelope text, in the upstream's field order, with this caller's `rate_limit`. */
export function renderEnvelope (parts: EnvelopeParts, rateLimit: unknown): string {
  const fields: string[] = []
  if (parts.data !== undefined) fields.push(`"data":${parts.data}`)
  if (parts.pagination !== undefined) fields.push(`"pagination":${JSON.stringify(parts.pagination)}`)
  for (const [name, value] of Object.entries(parts.extra ?? {})) fields.push(`${JSON.stringify(name)}:${JSON.stringify(value)}`)
  if (parts.subscription !== undefined) fields.push(`"subscription":${JSON.stringify(parts.subscription)}`)
  fields.push(`"rate_limit":${JSON.stringify(rateLimit)}`)
  if (parts.timezone !== undefined) fields.push(`"timezone":${JSON.stringify(parts.timezone)}`)
  return `{${fields.join(',')}}`
}

/** Approximate memory held by an entry, for the LRU's byte bound. */
export function entrySize (entry: CachedEntry): number {
  return (entry.parts?.data?.length ?? 0) + (entry.body?.length ?? 0) + 512
}

/**
 * One string per entry for Redis: a JSON header line, then the `data` text verbatim (JSON.stringify never
 * emits a raw newline, so the first one is the separator). Keeping `data` out of the header avoids escaping
 * a large JSON text inside another.
 */
export function serializeEntry (entry: CachedEntry): string {
  const { parts, ...rest } = entry
  const { data, ...meta } = parts ?? {}
  return `${JSON.stringify({ v: 1, ...rest, ...(parts !== undefined ? { parts: meta } : {}) })}\n${data ?? ''}`
}

export function deserializeEntry (text: string): CachedEntry | undefined {
  const cut = text.indexOf('\n')
  if (cut === -1) return undefined
  try {
    const head = JSON.parse(text.slice(0, cut)) as CachedEntry & { v?: number }
    if (head.v !== 1 || typeof head.status !== 'number' || typeof head.expiresAt !== 'number') return undefined
    const { v: _v, ...entry } = head
    if (entry.parts !== undefined && cut + 1 < text.length) entry.parts.data = text.slice(cut + 1)
    return entry
  } catch {
    return undefined
  }
}
