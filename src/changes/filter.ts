/**
 * Which changes and live fixtures a consumer sees: its filter (leagues, fixtures, teams) within its key's
 * scope, and the kinds of change it takes. Shared by every consumer of the log: the hub's subscriptions,
 * `GET /v1/changes` and `GET /v1/fixtures/live`, and the webhook workers.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { ChangeKind, ChangeRecord, LiveFixture } from '../wire/model.ts'
import type { LiveStore, StoreFilter } from '../store/types.ts'

/**
 * A snapshot's filter: the store's, plus `teams` (a fixture matches when either participant is listed).
 * The store cannot filter by team, so with teams the key's whole scope is read and filtered here.
 */
export interface LiveFilter extends StoreFilter {
  teams?: readonly number[]
}

/** A filter as a request or a webhook names it: `leagues` ids or `*`, fixtures, teams. */
export interface NamedFilter {
  leagues?: readonly number[] | '*' | undefined
  fixtures?: readonly number[] | undefined
  teams?: readonly number[] | undefined
}

/**
 * The filter within the key's scope. Without leagues, fixtures and teams, or with `leagues=*`: everything
 * the key may see (undefined for an unscoped key).
 */
export function scopeFilter (q: NamedFilter, key: ClientKey): LiveFilter | undefined {
  if (q.leagues === '*' || (q.leagues === undefined && q.fixtures === undefined && q.teams === undefined)) {
    return key.leagues === '*' ? undefined : { leagues: key.leagues }
  }
  return { leagues: q.leagues ?? [], fixtures: q.fixtures ?? [], teams: q.teams ?? [] }
}

/**
 * The live fixtures matching `filter` that `key` may see, with the store head read before them: every change
 * up to that cursor is reflected in the fixtures.
 */
export async function readSnapshot (store: LiveStore, filter: LiveFilter | undefined, key: ClientKey): Promise<{ cursor: string, fixtures: LiveFixture[] }> {
  const cursor = await store.head()
  const fixtures = await store.liveFixtures(readFilter(filter, key))
  const matches = fixtureMatcher(filter)
  return { cursor, fixtures: fixtures.filter((f) => (key.leagues === '*' || leagueAllowed(key, f.league_id)) && matches(f)) }
}

/** What to ask the store for: the filter itself, or with teams, everything the key may see. */
export function readFilter (filter: LiveFilter | undefined, key: ClientKey): StoreFilter | undefined {
  if (filter?.teams === undefined || filter.teams.length === 0) return filter === undefined ? undefined : { leagues: filter.leagues, fixtures: filter.fixtures }
  return key.leagues === '*' ? undefined : { leagues: key.leagues }
}

/** Whether a fixture matches the filter by league, id or team (undefined: every fixture). */
export function fixtureMatcher (filter: LiveFilter | undefined): (f: Pick<LiveFixture, 'id' | 'league_id' | 'home' | 'away'>) => boolean {
  if (filter?.teams === undefined || filter.teams.length === 0) return () => true
  const leagues = new Set(filter.leagues)
  const fixtures = new Set(filter.fixtures)
  const teams = new Set(filter.teams)
  return (f) => leagues.has(f.league_id) || fixtures.has(f.id) || teams.has(f.home.id) || teams.has(f.away.id)
}

/** The record holding only changes of `kinds`: the record itself when all are, undefined when none is. */
export function withKinds (record: ChangeRecord, kinds: ReadonlySet<ChangeKind>): ChangeRecord | undefined {
  const kept = record.changes.filter((c) => kinds.has(c.kind))
  if (kept.length === record.changes.length) return record
  return kept.length === 0 ? undefined : { ...record, changes: kept }
}
