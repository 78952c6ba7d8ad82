/**
 * Which changes and live fixtures a consumer sees: its filter (leagues, fixtures, teams) within its key's
 * scope, and the kinds of change it takes. Shared by every consumer of the log: the hub's subscriptions,
 * `GET /v1/changes` and `GET /v1/fixtures/live`, and the webhook workers.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { ChangeRecord, FixtureOdds, LiveFixture, OddsRecord, SubscribedKind } from '../wire-model/model.ts'
import type { OddsTake, Take } from '../wire-model/take.ts'

export type { NamedTake, OddsTake, Take } from '../wire-model/take.ts'
export { namesOdds, namesStandings, narrowsTake, takeOf } from '../wire-model/take.ts'
import { isChangeRecord, isOddsRecord, isStandingsRecord, type LiveStore, type LogRecord, type StoreFilter } from '../store/types.ts'
import { inRange, recordKickoffs, type DayRange } from './days.ts'

/**
 * A snapshot's filter: the store's, plus `teams` (a fixture matches when either participant is listed).
 * The store cannot filter by team, so with teams the key's whole scope is read and filtered here.
 */
export interface LiveFilter extends StoreFilter {
  teams?: readonly number[]
  /** Days followed (days.ts): every fixture kicking off in one of them, live or not. */
  days?: readonly DayRange[]
  /**
   * Every league the key may see (`leagues: "*"`), beside the days: a filter of days alone leaves the live
   * set out, one with `all` takes it whole. Undefined lists and no `all`: the filter is the days alone.
   */
  all?: boolean
}

/**
 * Whether a record is of the live set: every odds record, and every change of a fixture in the live set or
 * leaving it. The others (a fixture of a day, before kick-off or after its removal) go only to those
 * following its day or the fixture itself.
 */
export function inLiveSet (record: LogRecord): boolean {
  return !isChangeRecord(record) || record.live !== false || record.changes.some((c) => c.kind === 'fixture_removed')
}

/** Whether a record's fixture kicks off (or did, before the change) in one of the days. */
export function inDays (record: LogRecord, days: readonly DayRange[]): boolean {
  if (days.length === 0 || !isChangeRecord(record)) return false
  return recordKickoffs(record).some((ms) => days.some((d) => inRange(d, ms)))
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
  const live = await store.liveFixtures(liveReadFilter(filter, key))
  const matches = fixtureMatcher(filter)
  const seen = (f: LiveFixture): boolean => key.leagues === '*' || leagueAllowed(key, f.league_id)
  const fixtures = live.filter((f) => seen(f) && matches(f))
  const outside = await outsideLiveSet(store, filter, new Set(fixtures.map((f) => f.id)))
  if (outside.length === 0) return { cursor, fixtures }
  return { cursor, fixtures: [...fixtures, ...outside.filter(seen)].sort((a, b) => a.id - b.id) }
}

/**
 * What a snapshot holds beyond the live set: the fixtures of the days followed, and the fixtures followed by
 * id that are stored but not live (a match of tomorrow, one that ended), those of `have` left out.
 */
async function outsideLiveSet (store: LiveStore, filter: LiveFilter | undefined, have: ReadonlySet<number>): Promise<LiveFixture[]> {
  const out = new Map<number, LiveFixture>()
  for (const day of filter?.days ?? []) for (const f of await store.scheduled(day.from, day.to)) if (!have.has(f.id)) out.set(f.id, f)
  const named = (filter?.fixtures ?? []).filter((id) => !have.has(id) && !out.has(id))
  if (named.length > 0) for (const f of await store.getFixtures(named)) out.set(f.id, f)
  return [...out.values()]
}

/** The live index's read for a snapshot: the filter's leagues and fixtures, or with teams, everything the key may see. */
function liveReadFilter (filter: LiveFilter | undefined, key: ClientKey): StoreFilter | undefined {
  if (filter?.all !== true && (filter?.teams === undefined || filter.teams.length === 0)) return filter === undefined ? undefined : { leagues: filter.leagues ?? [], fixtures: filter.fixtures ?? [] }
  return key.leagues === '*' ? undefined : { leagues: key.leagues }
}

/**
 * What to ask the store's log for: the filter itself, or with teams or days (which the store cannot filter
 * by), everything the key may see; `recordMatcher` then decides.
 */
export function readFilter (filter: LiveFilter | undefined, key: ClientKey): StoreFilter | undefined {
  if ((filter?.teams === undefined || filter.teams.length === 0) && (filter?.days === undefined || filter.days.length === 0)) {
    return filter === undefined ? undefined : { leagues: filter.leagues, fixtures: filter.fixtures }
  }
  return key.leagues === '*' ? undefined : { leagues: key.leagues }
}

/** Whether a fixture matches the filter by league, id or team (undefined: every fixture). */
export function fixtureMatcher (filter: LiveFilter | undefined): (f: Pick<LiveFixture, 'id' | 'league_id' | 'home' | 'away'>) => boolean {
  if (filter?.all === true || filter?.teams === undefined || filter.teams.length === 0) return () => true
  const leagues = new Set(filter.leagues)
  const fixtures = new Set(filter.fixtures)
  const teams = new Set(filter.teams)
  return (f) => leagues.has(f.league_id) || fixtures.has(f.id) || teams.has(f.home.id) || teams.has(f.away.id)
}

/**
 * Whether a log record matches the filter: by its fixture's id or its day, whatever it is; by league or team
 * (or with no list at all: every league) only when it is of the live set (inLiveSet).
 */
export function recordMatcher (filter: LiveFilter | undefined): (record: LogRecord) => boolean {
  if (filter === undefined || (filter.leagues === undefined && filter.fixtures === undefined && filter.teams === undefined && filter.days === undefined)) return inLiveSet
  const every = filter.all === true
  const leagues = new Set(filter.leagues)
  const fixtures = new Set(filter.fixtures)
  const teams = new Set(filter.teams)
  const days = filter.days ?? []
  return (record) => {
    // A league's table: for those following its league (by id, or every league).
    if (isStandingsRecord(record)) return every || leagues.has(record.league_id)
    if (fixtures.has(record.fixture_id) || inDays(record, days)) return true
    if (!inLiveSet(record)) return false
    const [home, away] = teamsOf(record)
    return every || leagues.has(record.league_id) || teams.has(home) || teams.has(away)
  }
}

/** The two teams of a record's fixture (0 for an odds image that does not know one, and for a league's table). */
export function teamsOf (record: LogRecord): [number, number] {
  if (isOddsRecord(record)) return [record.odds.home_id ?? 0, record.odds.away_id ?? 0]
  return isChangeRecord(record) ? [record.fixture.home.id, record.fixture.away.id] : [0, 0]
}

/** Why a key may not take what is named (odds without the odds feature), or undefined when it may. */
export function takeRefusal (take: Take, key: ClientKey): string | undefined {
  return take.odds !== undefined && !key.features.includes('odds') ? 'this key has no odds: ask without odds, bookmakers, markets or odds kinds' : undefined
}

/** The record as a consumer that takes `take` sees it: itself, narrowed, or undefined when nothing is left. */
export function takeView (record: LogRecord, take: Take): LogRecord | undefined {
  if (isOddsRecord(record)) return take.odds === undefined ? undefined : oddsView(record, take.kinds, take.odds)
  if (isStandingsRecord(record)) return take.standings === true && (take.kinds === undefined || take.kinds.has('standings_changed')) ? record : undefined
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
