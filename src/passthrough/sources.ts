/**
 * Where the passthrough's answers come from when the live mirror has none: the cache, else one upstream
 * call shared by every identical request in flight; and the reads the scope makes on a scoped key's behalf
 * to learn the league of a season, a fixture or the rows of an answer.
 */
import { matchEndpoint } from '@touchline/upstream-contract/query'
import { StoreUnavailableError } from '../store/unavailable.ts'
import { fetchUpstream, type Fetched, type FetchInput } from './fetch.ts'
import type { Reply } from './replies.ts'
import { upstreamRequest } from './request.ts'
import { learnLeagues, learnShown, scopeLookup, type ScopeLookup } from './scope.ts'
import { ttlFor } from './ttl.ts'
import type { PassthroughContext, RequestContext } from './types.ts'

export type Source = 'hit' | 'miss' | 'coalesced' | 'live'
export interface Loaded { fetched: Fetched, source: Source }

/** Ids per `fixtures/multi` call. */
const MULTI_IDS = 50
/**
 * Scope lookups one request may make: 4 `fixtures/multi` calls (200 fixtures, a `populate` page of xG rows
 * spans fewer) and 5 seasons. Rows past them stay unplaced and are withheld.
 */
const MAX_FIXTURE_LOOKUPS = 4
const MAX_SEASON_LOOKUPS = 5

/** Cache, else one upstream call shared by every identical request in flight. */
export async function load (p: PassthroughContext, input: FetchInput, offline = false): Promise<Loaded> {
  const key = input.request.key
  const flight = await p.flights.run(key, async () => {
    const cached = await p.deps.cache.get(key, p.now()).catch((err: unknown) => { p.log.warn({ err }, 'passthrough cache read failed'); return undefined })
    if (cached !== undefined) return { fetched: { kind: 'entry', entry: cached, cacheable: false } as const, hit: true }
    // Fail closed: a request its key's quota could not count gets no upstream call (fallback.ts).
    if (offline) throw new StoreUnavailableError(new Error('quota uncounted: no upstream call'))
    const fetched = await fetchUpstream(p.fetchDeps, input)
    // Every body fetched teaches the scope's index the fixtures and seasons it shows (scope.ts).
    if (fetched.kind === 'entry' && fetched.entry.refs !== undefined) learnShown(p.leagueIndex, fetched.entry.refs)
    if (fetched.kind === 'entry' && fetched.cacheable) {
      await p.deps.cache.set(key, fetched.entry, p.now()).catch((err: unknown) => { p.log.warn({ err }, 'passthrough cache write failed') })
    }
    return { fetched, hit: false }
  })
  const source: Source = flight.value.hit ? 'hit' : flight.shared ? 'coalesced' : 'miss'
  return { fetched: flight.value.fetched, source }
}

/** True when this request's own load sent a call upstream: not a cache hit, not a follower, not refused by the budget. */
export function sentUpstream (loaded: Loaded): boolean {
  return loaded.source === 'miss' && !(loaded.fetched.kind === 'budget' && !loaded.fetched.sent)
}

/**
 * An upstream read made for the scope on the key's behalf: costs the key one call of its entity when it
 * is sent (service.ts, "Counting"); undefined, and nothing sent, when that quota is spent.
 */
async function lookup (p: PassthroughContext, ctx: RequestContext, target: ScopeLookup, query: Record<string, string> = {}): Promise<Loaded | undefined> {
  const match = matchEndpoint(target.path)
  const taken = await p.deps.quota.take(ctx.keyId, target.entity, ctx.key.hourly_quota, p.now())
  if (!taken.allowed) return undefined
  const ttlMs = match === undefined ? p.ttl.notFoundMs : ttlFor(match.endpoint, [], p.ttl)
  const loaded = await load(p, { request: upstreamRequest(target.path, query), entity: target.entity, kind: target.kind, now: p.now(), ttlMs, notFoundTtlMs: p.ttl.notFoundMs }, ctx.offline === true || taken.offline === true)
  if (!sentUpstream(loaded)) await p.deps.quota.refund(ctx.keyId, target.entity, taken.state.windowStart).catch(() => {})
  if (loaded.fetched.kind === 'entry') {
    const { entry } = loaded.fetched
    if (entry.refs !== undefined) learnShown(p.leagueIndex, entry.refs)
    else if (entry.parts?.data !== undefined) learnLeagues(p.leagueIndex, JSON.parse(entry.parts.data), target.kind)
  }
  return loaded
}

/**
 * For a scoped key: the league of the season, round or fixture an endpoint is scoped to (known, or looked
 * up); null when it cannot be established (the request is then refused: fail closed); a Reply to send
 * instead when the record does not exist; undefined when the endpoint is scoped to none.
 */
export async function scopedLeague (p: PassthroughContext, ctx: RequestContext): Promise<number | null | Reply | undefined> {
  const target = scopeLookup(ctx.params)
  if (target === undefined) return undefined
  const index = p.leagueIndex
  const known = target.kind === 'season' ? index.season(Number(ctx.params.seasonId)) : target.kind === 'fixture' ? index.fixture(Number(ctx.params.fixtureId)) : undefined
  if (known !== undefined) return known
  const loaded = await lookup(p, ctx, target)
  if (loaded?.fetched.kind !== 'entry') return null
  const { entry } = loaded.fetched
  if (entry.status === 404) return { status: 404, headers: {}, body: entry.body ?? '{}' }
  return entry.status === 200 ? entry.leagues?.[0] ?? null : null
}

/** Learns the leagues of fixtures and seasons a scoped answer's rows name: the live mirror, then the upstream. */
export async function lookupLeagues (p: PassthroughContext, ctx: RequestContext, need: { fixtures: number[], seasons: number[] }): Promise<void> {
  const index = p.leagueIndex
  for (const f of p.deps.live?.fixtures('livescores.all', ctx.now)?.fixtures ?? []) {
    if (typeof f.league_id === 'number') index.learnFixture(f.id as number, f.league_id)
  }
  const fixtures = need.fixtures.filter((id) => index.fixture(id) === undefined).sort((a, b) => a - b)
  for (let i = 0; i < Math.min(fixtures.length, MULTI_IDS * MAX_FIXTURE_LOOKUPS); i += MULTI_IDS) {
    const ids = fixtures.slice(i, i + MULTI_IDS).join(',')
    if (await lookup(p, ctx, { path: `/football/fixtures/multi/${ids}`, entity: 'Fixture', kind: 'fixture' }, { select: 'league_id' }) === undefined) return
  }
  for (const id of need.seasons.filter((s) => index.season(s) === undefined).slice(0, MAX_SEASON_LOOKUPS)) {
    if (await lookup(p, ctx, { path: `/football/seasons/${id}`, entity: 'Season', kind: 'season' }, { select: 'league_id' }) === undefined) return
  }
}
