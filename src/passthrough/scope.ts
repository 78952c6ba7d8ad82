/**
 * League scope of a client key (its `leagues`, docs/passthrough.md "Scope"), applied the way the upstream
 * applies a plan's leagues (docs/upstream.md, "Errors"): a record of a league outside the scope asked for by id is a 403; lists leave such
 * records out and stay 200.
 *
 * - By id: a league's id is in the path, so `/leagues/{id}` is refused before any call. A season, stage,
 *   round or fixture shows its `league_id` only once fetched (shared through the cache with other keys),
 *   and is refused then. Season-, round- and fixture-scoped lists (`/fixtures/seasons/{id}`,
 *   `/standings/rounds/{id}`, `/predictions/.../fixtures/{id}`...) first look up that record the same way,
 *   so `/teams/seasons/{id}` of another league is a 403 even though teams carry no league.
 * - Lists: fixture lists and livescores get `fixtureLeagues` narrowed to the key's leagues upstream, so
 *   pages are full and counts right; every list is also filtered after the fact (`scopeEntry`), which covers
 *   league lists and `/my/leagues`. Those post-filtered pages can hold fewer than `per_page` items.
 * - Every record, at every depth, is judged by its shape, not by the path that returned it (so a path
 *   outside the catalogue is scoped too): its `league_id`; else, for a league, its id; for a fixture or a
 *   season, its own id; else its `fixture_id` or `season_id` (xG, odds, predictions, commentaries, events,
 *   player statistics). A fixture's or season's league comes from the league index (league-index.ts), fed by
 *   every body read here, and otherwise from an upstream lookup. A record whose league cannot be
 *   established is withheld (fail closed). Records with none of these (teams, players, countries, types)
 *   are not league-bound. Keys with every league (`*`) skip all of this.
 */
import type { Endpoint } from '@touchline/upstream-contract/endpoints'
import type { ParsedQuery } from '@touchline/upstream-contract/query'
import { RELATIONS, type Kind } from '@touchline/upstream-contract/resources'
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import { leagueOf, type CachedEntry, type EnvelopeParts, type LeagueRefs } from './entry.ts'
import type { LeagueIndex } from './league-index.ts'

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

/** The upstream caps id lists in filters at 50 values (docs/upstream.md, "select, filters and other options"). */
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

export type Scoped = { ok: true, parts: EnvelopeParts } | { ok: false, league: number | null }

/** Where the scope gets the league of a fixture or season a row names, when the row carries no league. */
export interface ScopeResolver {
  index: LeagueIndex
  /** Learns (into `index`) the leagues of these ids from the upstream, within the request's allowance. */
  lookup: (need: { fixtures: number[], seasons: number[] }) => Promise<void>
}

/**
 * Keeps the records in `entry` (a 200) that the key may see, at every depth; a single record out of scope
 * (or whose league cannot be established) is a refusal. `endpoint.kind` is the kind of the top-level
 * records when known (undefined for a path outside the catalogue: the records' shapes decide alone).
 */
export async function scopeEntry (
  key: ClientKey, endpoint: Pick<Endpoint, 'mode'> & { kind: Kind | undefined }, entry: CachedEntry, resolver: ScopeResolver
): Promise<Scoped> {
  const parts = entry.parts ?? {}
  if (key.leagues === '*' || parts.data === undefined) return { ok: true, parts }
  // The common case (every record already placed in the key's leagues) costs no parse.
  if (entry.refs !== undefined) {
    learnShown(resolver.index, entry.refs)
    if (settled(key, entry.refs, resolver.index)) return { ok: true, parts }
  }
  const data = JSON.parse(parts.data) as unknown
  const top = endpoint.kind
  learnLeagues(resolver.index, data, top)
  const need = unresolved(resolver.index, data, top)
  if (need.fixtures.length > 0 || need.seasons.length > 0) await resolver.lookup(need)
  const judge = judgeWith(key, resolver.index)
  if (endpoint.mode === 'single' && !Array.isArray(data)) {
    if (!isRecord(data)) return { ok: true, parts }
    const verdict = judge(data, top)
    if (verdict !== true) return { ok: false, league: verdict }
    return { ok: true, parts: { ...parts, data: JSON.stringify(keepChildren(data, top, judge)) } }
  }
  return { ok: true, parts: withData(parts, keepList(Array.isArray(data) ? data : [data], top, judge)) }
}

type Rec = Record<string, unknown>
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown): number | undefined => typeof v === 'number' && Number.isInteger(v) ? v : undefined

/**
 * What a record is, when known: the endpoint's kind at the top, then the resource graph's relation behind
 * each key (include response keys are the lower-cased relation names). Undefined for anything else.
 */
type Position = Kind | undefined

/** Response keys (lower-cased include names) by kind, from the resource graph. */
const RELATION_KEYS: ReadonlyMap<Kind, ReadonlyMap<string, Kind>> = new Map(Object.entries(RELATIONS).map(([kind, rels]) =>
  [kind as Kind, new Map(Object.entries(rels).map(([name, rel]) => [name.toLowerCase(), rel.target]))]))

/** Keys that hold league-bound records whatever holds them (for records of unknown kind). */
const KEY_KINDS: ReadonlyMap<string, Kind> = new Map([
  ...['league', 'leagues'].map((k): [string, Kind] => [k, 'league']),
  ...['season', 'seasons', 'currentseason'].map((k): [string, Kind] => [k, 'season']),
  ...['fixture', 'fixtures', 'latest', 'upcoming', 'inplay', 'today'].map((k): [string, Kind] => [k, 'fixture'])
])

const childPosition = (parent: Position, key: string): Position =>
  (parent === undefined ? undefined : RELATION_KEYS.get(parent)?.get(key)) ?? KEY_KINDS.get(key)

/** Calls `visit` on every record of `value`, parents before children, at any depth. */
function eachRecord (value: unknown, pos: Position, visit: (record: Rec, pos: Position) => void): void {
  if (Array.isArray(value)) {
    for (const v of value) eachRecord(v, pos, visit)
    return
  }
  if (!isRecord(value)) return
  visit(value, pos)
  for (const k in value) {
    const v = value[k]
    if (v !== null && typeof v === 'object') eachRecord(v, childPosition(pos, k), visit)
  }
}

/** A fixture seen where its kind is unknown: the two fields only fixtures carry together. */
const looksLikeFixture = (r: Rec): boolean => 'starting_at_timestamp' in r && 'state_id' in r

/** What a record's league hangs on: its own league id, or a fixture or season whose league is looked up. */
type Binding = { league: number } | { fixture: number } | { season: number } | 'unbound' | 'unknown'

function bindingOf (r: Rec, kind: Kind | undefined): Binding {
  const league = idOf(r.league_id)
  if (league !== undefined) return { league }
  const id = idOf(r.id)
  if (kind === 'league') return id === undefined ? 'unknown' : { league: id }
  if (id !== undefined && (kind === 'fixture' || (kind === undefined && looksLikeFixture(r)))) return { fixture: id }
  if (id !== undefined && kind === 'season') return { season: id }
  const fixture = idOf(r.fixture_id)
  if (fixture !== undefined) return { fixture }
  const season = idOf(r.season_id)
  if (season !== undefined) return { season }
  return kind !== undefined && LEAGUE_KINDS.has(kind) ? 'unknown' : 'unbound'
}

/** Learns from a body every fixture's and season's league it shows. */
export function learnLeagues (index: LeagueIndex, data: unknown, top: Kind | undefined): void {
  eachRecord(data, top, (r, kind) => { learnRecord(index, r, kind) })
}

function learnRecord (index: Pick<LeagueIndex, 'learnFixture' | 'learnSeason'>, r: Rec, kind: Position): void {
  const league = idOf(r.league_id)
  if (league === undefined) return
  const season = idOf(r.season_id)
  if (season !== undefined) index.learnSeason(season, league)
  const id = idOf(r.id)
  if (id === undefined) return
  if (kind === 'season') index.learnSeason(id, league)
  if (kind === 'fixture' || (kind === undefined && looksLikeFixture(r))) index.learnFixture(id, league)
}

export function leagueRefs (kind: Kind | undefined, data: unknown): LeagueRefs {
  // One walk: learn what the body shows, note what each record hangs on, place those notes afterwards.
  const shownFixtures = new Map<number, number>()
  const shownSeasons = new Map<number, number>()
  const local = { learnFixture: (id: number, league: number) => shownFixtures.set(id, league), learnSeason: (id: number, league: number) => shownSeasons.set(id, league) }
  const leagues = new Set<number>()
  const fixtureRefs = new Set<number>()
  const seasonRefs = new Set<number>()
  let unplaced = false
  eachRecord(data, kind, (r, k) => {
    learnRecord(local, r, k)
    const b = bindingOf(r, k)
    if (b === 'unbound') return
    if (b === 'unknown') unplaced = true
    else if ('league' in b) leagues.add(b.league)
    else if ('fixture' in b) fixtureRefs.add(b.fixture)
    else seasonRefs.add(b.season)
  })
  const fixtures = [...fixtureRefs].filter((id) => !placed(shownFixtures.get(id), leagues))
  const seasons = [...seasonRefs].filter((id) => !placed(shownSeasons.get(id), leagues))
  return { leagues: [...leagues], fixtures, seasons, unplaced, shows: { fixtures: [...shownFixtures], seasons: [...shownSeasons] } }
}

/** Adds a league the body itself established to `leagues`; false when there is none. */
function placed (league: number | undefined, leagues: Set<number>): boolean {
  if (league !== undefined) leagues.add(league)
  return league !== undefined
}

/** Teaches the index the fixture and season leagues an entry shows (no parse: from its refs). */
export function learnShown (index: LeagueIndex, refs: LeagueRefs): void {
  for (const [id, league] of refs.shows.fixtures) index.learnFixture(id, league)
  for (const [id, league] of refs.shows.seasons) index.learnSeason(id, league)
}

/** True when every record `refs` describes is in the key's leagues, as far as the index knows. */
function settled (key: ClientKey, refs: LeagueRefs, index: LeagueIndex): boolean {
  const allowed = (league: number | undefined): boolean => league !== undefined && leagueAllowed(key, league)
  return !refs.unplaced && refs.leagues.every(allowed) &&
    refs.fixtures.every((id) => allowed(index.fixture(id))) && refs.seasons.every((id) => allowed(index.season(id)))
}

/** Fixtures and seasons the body's rows hang on whose league the index does not know. */
function unresolved (index: LeagueIndex, data: unknown, top: Position): { fixtures: number[], seasons: number[] } {
  const fixtures = new Set<number>()
  const seasons = new Set<number>()
  eachRecord(data, top, (r, kind) => {
    const b = bindingOf(r, kind)
    if (typeof b !== 'object') return
    if ('fixture' in b && index.fixture(b.fixture) === undefined) fixtures.add(b.fixture)
    if ('season' in b && index.season(b.season) === undefined) seasons.add(b.season)
  })
  return { fixtures: [...fixtures], seasons: [...seasons] }
}

/** true when the key may see the record; otherwise the league it belongs to, or null when that is unknown. */
type Judge = (r: Rec, kind: Kind | undefined) => true | number | null

function judgeWith (key: ClientKey, index: LeagueIndex): Judge {
  return (r, kind) => {
    const b = bindingOf(r, kind)
    if (b === 'unbound') return true
    if (b === 'unknown') return null
    const league = 'league' in b ? b.league : 'fixture' in b ? index.fixture(b.fixture) : index.season(b.season)
    if (league === undefined) return null
    return leagueAllowed(key, league) ? true : league
  }
}

/** The records of a list the key may see, each with its children scoped the same way. */
function keepList (list: readonly unknown[], pos: Position, judge: Judge): unknown[] {
  const out: unknown[] = []
  for (const v of list) {
    if (Array.isArray(v)) out.push(keepList(v, pos, judge))
    else if (!isRecord(v)) out.push(v)
    else if (judge(v, pos) === true) out.push(keepChildren(v, pos, judge))
  }
  return out
}

/** A copy of a kept record whose nested records of other (or unknown) leagues are left out; a lone one becomes null. */
function keepChildren (r: Rec, pos: Position, judge: Judge): Rec {
  const out: Rec = {}
  for (const [k, v] of Object.entries(r)) {
    if (v === null || typeof v !== 'object') {
      out[k] = v
      continue
    }
    const child = childPosition(pos, k)
    if (Array.isArray(v)) out[k] = keepList(v, child, judge)
    else out[k] = judge(v as Rec, child) === true ? keepChildren(v as Rec, child, judge) : null
  }
  return out
}

/** Kinds whose records belong to one league. */
const LEAGUE_KINDS: ReadonlySet<Kind> = new Set(['league', 'season', 'stage', 'round', 'group', 'fixture', 'standing'])

/**
 * The records of `data` the key may see (a lone object on a list endpoint counts as a list of one). A record
 * whose league is not known (`league_id` null or absent) is withheld from a scoped key, as `scopeEntry`
 * withholds one it cannot place.
 */
export function filterRecords (key: ClientKey, kind: Kind, data: unknown): unknown[] {
  const records = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data]
  if (key.leagues === '*') return records
  return records.filter((record) => {
    const league = leagueOf(kind, record)
    return league !== undefined && leagueAllowed(key, league)
  })
}

function withData (parts: EnvelopeParts, records: unknown[]): EnvelopeParts {
  const out: EnvelopeParts = { ...parts, data: JSON.stringify(records) }
  if (parts.pagination !== undefined) out.pagination = { ...parts.pagination, count: records.length }
  return out
}
