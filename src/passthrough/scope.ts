/**
 * League scope of a client key (DESIGN §5 `leagues`), applied the way the upstream applies a plan's leagues
 * (spec 5.4, 7.4): a record of a league outside the scope asked for by id is a 403; lists leave such
 * records out and stay 200.
 *
 * - By id: a league's id is in the path, so `/leagues/{id}` is refused before any call. A season, stage,
 *   round or fixture shows its `league_id` only once fetched (shared through the cache with other keys),
 *   and is refused then. Season-, round- and fixture-scoped lists (`/fixtures/seasons/{id}`,
 *   `/standings/rounds/{id}`, `/predictions/.../fixtures/{id}`...) first look up that record the same way,
 *   so `/teams/seasons/{id}` of another league is a 403 even though teams carry no league.
 * - Lists: fixture lists and livescores get `fixtureLeagues` narrowed to the key's leagues upstream, so
 *   pages are full and counts right; every list is also filtered after the fact on the records' own league
 *   (league id, or `league_id`), which covers league lists and `/my/leagues`. Those post-filtered pages can
 *   hold fewer than `per_page` items. Records with no league (teams, players, countries...) are not scoped.
 * - Includes: included records of a league outside the scope are left out too (`/teams/{id}?include=latest`
 *   shows only the key's leagues' fixtures), at any depth, as the embedded provider does for plans.
 */
import type { Endpoint } from '../contract/endpoints.ts'
import type { IncludeNode, ParsedQuery } from '../contract/query.ts'
import type { Kind } from '../contract/resources.ts'
import { leagueAllowed, type ClientKey } from '../keys.ts'
import { leagueOf, type CachedEntry, type EnvelopeParts } from './entry.ts'

export const isScoped = (key: ClientKey): boolean => key.leagues !== '*'

/** The league a path names directly (`/leagues/{id}`, `/standings/live/leagues/{leagueId}`...), for the refusal before any call. */
export function leagueInPath (endpoint: Endpoint, params: Record<string, string>): number | undefined {
  if (endpoint.id === 'leagues.byId') return Number(params.id)
  return params.leagueId === undefined ? undefined : Number(params.leagueId)
}

export interface ScopeLookup {
  path: string
  entity: string
  kind: Kind
}

/** The record whose league decides access to a season-, round-, stage- or fixture-scoped endpoint. */
export function scopeLookup (params: Record<string, string>): ScopeLookup | undefined {
  if (params.seasonId !== undefined) return { path: `/football/seasons/${params.seasonId}`, entity: 'Season', kind: 'season' }
  if (params.roundId !== undefined) return { path: `/football/rounds/${params.roundId}`, entity: 'Round', kind: 'round' }
  if (params.stageId !== undefined) return { path: `/football/stages/${params.stageId}`, entity: 'Stage', kind: 'stage' }
  if (params.fixtureId !== undefined) return { path: `/football/fixtures/${params.fixtureId}`, entity: 'Fixture', kind: 'fixture' }
  return undefined
}

/** The upstream caps id lists in filters at 50 values (upstream-facts §6). */
const MAX_FILTER_IDS = 50

/**
 * The `filters` value to send upstream for a scoped key: `fixtureLeagues` set to the key's leagues, or to
 * the part of the client's own `fixtureLeagues` within them. Unchanged when the endpoint takes no such filter,
 * when the intersection is empty (the post-filter then empties the result) or when it would exceed the cap.
 */
export function narrowFilters (endpoint: Endpoint, query: ParsedQuery, raw: string | undefined, leagues: readonly number[]): string | undefined {
  if (endpoint.mode === 'single' || !endpoint.filters.some((f) => f.name === 'fixtureLeagues')) return raw
  const asked = query.filters.get('fixtureleagues')
  const allowed = asked === undefined ? [...leagues] : asked.values.map(Number).filter((id) => leagues.includes(id))
  if (allowed.length === 0 || allowed.length > MAX_FILTER_IDS) return raw
  const others = (raw ?? '').split(';').filter((part) => part !== '' && (part.split(':')[0] ?? '').toLowerCase() !== 'fixtureleagues')
  return [...others, `fixtureLeagues:${allowed.join(',')}`].join(';')
}

export type Scoped = { ok: true, parts: EnvelopeParts } | { ok: false, league: number }

/** Keeps the records in `entry` (a 200) that the key may see; a single record out of scope is a refusal. */
export function scopeEntry (key: ClientKey, endpoint: Endpoint, entry: CachedEntry, includes: readonly IncludeNode[] = []): Scoped {
  const parts = entry.parts ?? {}
  const nested = key.leagues !== '*' && includes.some(reachesLeagues)
  const topInScope = entry.leagues === null || entry.leagues.every((id) => leagueAllowed(key, id))
  if (key.leagues === '*' || (topInScope && !nested)) return { ok: true, parts }
  if (endpoint.mode === 'single' && !topInScope) return { ok: false, league: entry.leagues?.find((id) => !leagueAllowed(key, id)) as number }
  const data = parts.data === undefined ? undefined : JSON.parse(parts.data) as unknown
  const records = filterRecords(key, endpoint.kind, data).map((r) => scopeIncludes(key, r, includes))
  if (endpoint.mode === 'single') return { ok: true, parts: { ...parts, data: JSON.stringify(records[0] ?? null) } }
  return { ok: true, parts: withData(parts, records) }
}

/** Kinds whose records belong to one league. */
const LEAGUE_KINDS: ReadonlySet<Kind> = new Set(['league', 'season', 'stage', 'round', 'group', 'fixture', 'standing'])
const reachesLeagues = (node: IncludeNode): boolean => LEAGUE_KINDS.has(node.target) || node.children.some(reachesLeagues)

/** Drops, at every depth, included records of leagues outside the key's scope (a lone one becomes null). */
function scopeIncludes (key: ClientKey, record: unknown, includes: readonly IncludeNode[]): unknown {
  if (record === null || typeof record !== 'object' || includes.length === 0) return record
  const out = { ...(record as Record<string, unknown>) }
  for (const node of includes) {
    if (!reachesLeagues(node) || !(node.key in out)) continue
    const value = out[node.key]
    if (Array.isArray(value)) {
      out[node.key] = filterRecords(key, node.target, value).map((r) => scopeIncludes(key, r, node.children))
    } else if (value !== null && value !== undefined) {
      const kept = filterRecords(key, node.target, value)
      out[node.key] = kept.length === 0 ? null : scopeIncludes(key, kept[0], node.children)
    }
  }
  return out
}

/** The records of `data` the key may see (a lone object on a list endpoint counts as a list of one). */
export function filterRecords (key: ClientKey, kind: Kind, data: unknown): unknown[] {
  const records = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data]
  if (key.leagues === '*') return records
  return records.filter((record) => {
    const league = leagueOf(kind, record)
    return league === undefined || leagueAllowed(key, league)
  })
}

function withData (parts: EnvelopeParts, records: unknown[]): EnvelopeParts {
  const out: EnvelopeParts = { ...parts, data: JSON.stringify(records) }
  if (parts.pagination !== undefined) out.pagination = { ...parts.pagination, count: records.length }
  return out
}
