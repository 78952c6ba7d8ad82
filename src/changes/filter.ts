/**
 * Which changes and live fixtures a consumer sees: its filter (leagues, fixtures, teams) within its key's
 * scope, and the kinds of change it takes. Shared by every consumer of the log: the hub's subscriptions,
 * `GET /v1/changes` and `GET /v1/fixtures/live`, and the webhook workers.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { ChangeRecord, FixtureOdds, LiveFixture, OddsRecord, SubscribedKind } from '../wire/model.ts'
import type { OddsTake, Take } from './take.ts'

export type { NamedTake, OddsTake, Take } from './take.ts'
export { namesOdds, narrowsTake, takeOf } from './take.ts'
import { isOddsRecord, type LiveStore, type LogRecord, type StoreFilter } from '../store/types.ts'

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

/** Whether a log record matches the filter by league, id or team (undefined: every record). */
export function recordMatcher (filter: LiveFilter | undefined): (record: LogRecord) => boolean {
  const matches = fixtureMatcher(filter)
  return (record) => matches(isOddsRecord(record) ? oddsParticipants(record.odds) : record.fixture)
}

/** The two teams of a record's fixture (0 for an odds image that does not know one). */
export function teamsOf (record: LogRecord): [number, number] {
  return isOddsRecord(record) ? [record.odds.home_id ?? 0, record.odds.away_id ?? 0] : [record.fixture.home.id, record.fixture.away.id]
}

/** An odds image as fixtureMatcher reads a fixture: its id, league and teams. */
const oddsParticipants = (odds: FixtureOdds): Pick<LiveFixture, 'id' | 'league_id' | 'home' | 'away'> =>
  ({ id: odds.fixture_id, league_id: odds.league_id, home: { id: odds.home_id ?? 0 } as LiveFixture['home'], away: { id: odds.away_id ?? 0 } as LiveFixture['away'] })

/** Why a key may not take what is named (odds without the odds feature), or undefined when it may. */
export function takeRefusal (take: Take, key: ClientKey): string | undefined {
  return take.odds !== undefined && !key.features.includes('odds') ? 'this key has no odds: ask without odds, bookmakers, markets or odds kinds' : undefined
}

/** The record as a consumer that takes `take` sees it: itself, narrowed, or undefined when nothing is left. */
export function takeView (record: LogRecord, take: Take): LogRecord | undefined {
  if (isOddsRecord(record)) return take.odds === undefined ? undefined : oddsView(record, take.kinds, take.odds)
  return take.kinds === undefined ? record : withKinds(record, take.kinds)
}

/** The record holding only changes of `kinds`: the record itself when all are, undefined when none is. */
export function withKinds (record: ChangeRecord, kinds: ReadonlySet<SubscribedKind>): ChangeRecord | undefined {
  const kept = record.changes.filter((c) => kinds.has(c.kind))
  if (kept.length === record.changes.length) return record
  return kept.length === 0 ? undefined : { ...record, changes: kept }
}

/**
 * An odds record holding only the changes of `kinds` and of the bookmakers and markets taken, with its image
 * narrowed the same way: the record itself when nothing is left out, undefined when no change is left.
 */
export function oddsView (record: OddsRecord, kinds: ReadonlySet<SubscribedKind> | undefined, take: OddsTake): OddsRecord | undefined {
  const { bookmakers, markets } = take
  const narrowed = bookmakers !== undefined || markets !== undefined
  const taken = (m: { bookmaker_id: number, market_id: number }): boolean =>
    (bookmakers === undefined || bookmakers.has(m.bookmaker_id)) && (markets === undefined || markets.has(m.market_id))
  const kept = record.changes.filter((c) => (kinds === undefined || kinds.has(c.kind)) &&
    (!narrowed || c.kind === 'odds_stale' || taken(c.kind === 'market_added' ? c.market : c)))
  if (kept.length === 0) return undefined
  if (!narrowed && kept.length === record.changes.length) return record
  return { ...record, changes: kept, odds: narrowed ? narrowOdds(record.odds, take) : record.odds }
}

/** The image holding only the markets of the bookmakers and markets taken. */
export function narrowOdds (odds: FixtureOdds, take: OddsTake): FixtureOdds {
  const { bookmakers, markets } = take
  if (bookmakers === undefined && markets === undefined) return odds
  return { ...odds, markets: odds.markets.filter((m) => (bookmakers === undefined || bookmakers.has(m.bookmaker_id)) && (markets === undefined || markets.has(m.market_id))) }
}
