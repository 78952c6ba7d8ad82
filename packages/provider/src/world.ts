/**
 * The provider's view of its data at an instant: the generated dataset, with each fixture's live fields
 * (state, scores, events, periods...) taken from the match simulator. Handlers and the renderer only talk
 * to this facade, so the dataset's layout stays in one place.
 */
import type { Kind } from '@touchline/upstream-contract/resources'
import { filterIds, type ParsedFilter } from '@touchline/upstream-contract/query'
import type { Dataset, DatasetFixture } from './dataset/types.ts'
import type { FixtureLive } from './sim/model.ts'
import type { FixtureEvent } from '@touchline/upstream-contract/football'
import type { Plan } from './plans.ts'
import { ENDPOINTS } from '@touchline/upstream-contract/endpoints'
import { STATES } from '@touchline/upstream-contract/states'
import { derivedTables, type DerivedTables } from './derived-tables.ts'
import type { Rec } from './records.ts'
import { inplayOdds, preMatchOdds, type OddsLine, type PlacedLine, type TimedOdd } from './odds/book.ts'
import { ratesOf } from './odds/pricing.ts'
import type { ScoreAt } from './sim/engine.ts'
import type { ScheduleChange } from './sim/reschedule.ts'

/** What the simulator offers the provider (packages/provider/src/sim). */
export interface LiveSource {
  /**
   * Kick-off in unix seconds at `nowMs`: the rolling schedule's for fixtures it plays live, else the dataset's,
   * moved by any schedule change announced by then (sim/reschedule.ts).
   */
  kickoff: (fixture: DatasetFixture, nowMs: number) => number
  /** The fixture's schedule changes (announced or to come), in announcement order. */
  changes?: (fixture: DatasetFixture) => ScheduleChange[]
  view: (fixture: DatasetFixture, nowMs: number) => FixtureLive
  /** The `timeline` include's rows up to `nowMs` (sim/timeline-rows.ts). */
  timeline: (fixture: DatasetFixture, nowMs: number) => FixtureEvent[]
  /** The state id alone, cheaply (for state filters over whole seasons). */
  stateAt: (fixture: DatasetFixture, nowMs: number) => number
  /** State and CURRENT score at `nowMs`, cheaply for matches over (league tables); undefined when not simulated. */
  scoreAt: (fixture: DatasetFixture, nowMs: number) => ScoreAt | undefined
  /** Fixture ids from 15 minutes before kick-off until 15 minutes after the end. */
  livescores: (nowMs: number) => number[]
  inplay: (nowMs: number) => number[]
  /** Fixture ids whose data changed in the last 10 seconds (`livescores/latest`). */
  latest: (nowMs: number) => number[]
  /** Fixture ids, of any date, whose tracked base fields changed in the last 10 seconds (`fixtures/latest`). */
  fixturesLatest: (nowMs: number) => number[]
  /** Match seconds per real second. */
  speed: number
  /**
   * The fixture's match as the odds see it at `nowMs` (a postponement announced by then voids it), on the real
   * clock (odds/line.ts), or undefined when it is not simulated. @default nowMs: its final schedule
   */
  oddsLine: (fixture: DatasetFixture, nowMs?: number) => OddsLine | undefined
  /** In-play odds a replayed recording carried for the fixture at `nowMs` (odds/recorded.ts), if it carried any. */
  recordedOdds?: (fixture: DatasetFixture, nowMs: number) => TimedOdd[] | undefined
}

/** Official line-ups and formations appear about an hour before kick-off (the docs' lineup tutorial). */
const LINEUP_LEAD_S = 3600
/** The expected-goals statistic (sim/stats.ts), which only plans with the `xg` feature see. */
export const XG_TYPE = 5304

const FIXTURE_INTERNAL = new Set(['home_team_id', 'away_team_id', 'referee_id', 'kind'])

type RelatedKey = `${Kind}.${string}`

export class World {
  readonly #tables: Partial<Record<Kind, readonly Rec[]>>
  readonly #byId: Partial<Record<Kind, ReadonlyMap<number, Rec>>>
  #views: { now: number, byId: Map<number, FixtureLive> } = { now: Number.NaN, byId: new Map() }
  #derived: DerivedTables | undefined

  /** `clock` is the provider's (`now` option): what `kickoff` reads when it is given no instant. */
  constructor (readonly ds: Dataset, readonly live: LiveSource, readonly clock: () => number = Date.now) {
    const r = (x: readonly object[]): readonly Rec[] => x as readonly Rec[]
    this.#tables = {
      continent: r(ds.continents),
      country: r(ds.countries),
      region: r(ds.regions),
      city: r(ds.cities),
      type: r(ds.types),
      league: r(ds.leagues),
      season: r(ds.seasons),
      stage: r(ds.stages),
      round: r(ds.rounds),
      group: r(ds.groups),
      team: r(ds.teams),
      player: r(ds.players),
      coach: r(ds.coaches),
      referee: r(ds.referees),
      venue: r(ds.venues),
      fixture: r(ds.fixtures),
      standing: r(ds.standings),
      state: r(STATE_RECORDS)
    }
    const m = (x: ReadonlyMap<number, object>): ReadonlyMap<number, Rec> => x as ReadonlyMap<number, Rec>
    const b = ds.byId
    this.#byId = {
      continent: m(b.continent),
      country: m(b.country),
      region: m(b.region),
      city: m(b.city),
      type: m(b.type),
      league: m(b.league),
      season: m(b.season),
      stage: m(b.stage),
      round: m(b.round),
      group: m(b.group),
      team: m(b.team),
      player: m(b.player),
      coach: m(b.coach),
      referee: m(b.referee),
      venue: m(b.venue),
      fixture: m(b.fixture),
      standing: m(b.standing),
      state: new Map(STATE_RECORDS.map((s) => [s.id, s]))
    }
  }

  /** Every record of a kind: the dataset's, else the derived ones (derived-tables.ts), else none. */
  all (kind: Kind): readonly Rec[] {
    return this.#tables[kind] ?? this.#derivedTables().byKind[kind] ?? []
  }

  get (kind: Kind, id: number): Rec | undefined {
    const table = this.#byId[kind]
    return table !== undefined ? table.get(id) : this.#derivedTables().byId[kind]?.get(id)
  }

  /** Built on first use: most requests never read a derived kind. */
  #derivedTables (): DerivedTables {
    this.#derived ??= derivedTables(this.ds)
    return this.#derived
  }

  /** Records related to one record, e.g. `related('country', 'leagues', 320)`. */
  related (kind: Kind, relation: string, id: number): readonly Rec[] {
    const ds = this.ds
    const list = (x: ReadonlyMap<number, readonly object[]>): readonly Rec[] => (x.get(id) ?? []) as readonly Rec[]
    const table: Partial<Record<RelatedKey, () => readonly Rec[]>> = {
      'country.leagues': () => list(ds.leaguesByCountry),
      'country.regions': () => list(ds.regionsByCountry),
      'country.teams': () => this.all('team').filter((t) => t.country_id === id),
      'country.players': () => this.all('player').filter((p) => p.country_id === id),
      'country.coaches': () => this.all('coach').filter((p) => p.country_id === id),
      'country.referees': () => this.all('referee').filter((p) => p.country_id === id),
      'team.seasons': () => list(ds.seasonsByTeam),
      'team.fixtures': () => list(ds.fixturesByTeam),
      'season.stages': () => list(ds.stagesBySeason),
      'season.rounds': () => list(ds.roundsBySeason),
      'season.standings': () => list(ds.standingsBySeason),
      'season.fixtures': () => list(ds.fixturesBySeason),
      'season.teams': () => list(ds.teamsBySeason),
      'season.referees': () => uniqueById(list(ds.fixturesBySeason).map((f) => this.get('referee', Number(f.referee_id)))),
      'season.venues': () => uniqueById(list(ds.fixturesBySeason).map((f) => this.get('venue', Number(f.venue_id))))
    }
    return table[`${kind}.${relation}`]?.() ?? []
  }

  /** The core endpoints' dynamic filters that narrow a list by a relation: regionCities, regionCountries, leagueCountries. */
  applyRelationFilters (kind: Kind, records: Rec[], filters: ReadonlyMap<string, ParsedFilter>): Rec[] {
    const ids = (name: string): Set<number> | undefined => filterIds(filters, name)
    let out = records
    const regionCities = ids('regioncities')
    if (kind === 'city' && regionCities !== undefined) out = out.filter((c) => regionCities.has(Number(c.region_id)))
    const regionCountries = ids('regioncountries')
    if (kind === 'country' && regionCountries !== undefined) {
      out = out.filter((c) => this.related('country', 'regions', c.id).some((r) => regionCountries.has(r.id)))
    }
    const leagueCountries = ids('leaguecountries')
    if (kind === 'country' && leagueCountries !== undefined) {
      out = out.filter((c) => this.related('country', 'leagues', c.id).some((l) => leagueCountries.has(l.id)))
    }
    return out
  }

  /** Kick-off (unix s) shown at `now`, schedule changes announced by then included. @default now: the provider's clock */
  kickoff (fixture: Rec, now: number = this.clock()): number {
    return this.live.kickoff(fixture as unknown as DatasetFixture, now)
  }

  /** The fixture's schedule changes (sim/reschedule.ts): moves and postponements, announced or to come. */
  scheduleChanges (fixture: Rec): ScheduleChange[] {
    return this.live.changes?.(fixture as unknown as DatasetFixture) ?? []
  }

  /**
   * Unix second from which the fixture's line-ups show: an hour before its kick-off. A move announced after they
   * came out does not take them back (they stay out from then), one announced before places them by the new time.
   */
  lineupsFrom (fixture: Rec, now: number): number {
    const changes = this.scheduleChanges(fixture).filter((c) => c.atMs <= now)
    let from = (changes[0]?.from ?? this.kickoff(fixture, now)) - LINEUP_LEAD_S
    for (const c of changes) {
      if (from * 1000 <= c.atMs) return from
      from = c.to - LINEUP_LEAD_S
    }
    return from
  }

  /** Drops what the world memoized for an instant: after a schedule change forced at or before it. */
  invalidate (): void {
    this.#views = { now: Number.NaN, byId: new Map() }
  }

  /**
   * The fixture's live view at `now`. Memoized for one instant: a request asks for the same view several
   * times (base fields, then each include), and all of a request's lookups share its `now`.
   */
  view (fixture: Rec, now: number): FixtureLive {
    if (this.#views.now !== now) this.#views = { now, byId: new Map() }
    let view = this.#views.byId.get(fixture.id)
    if (view === undefined) {
      view = this.live.view(fixture as unknown as DatasetFixture, now)
      this.#views.byId.set(fixture.id, view)
    }
    return view
  }

  /** Timeline rows: the simulator's, and any a replayed recording carried in its events. */
  timeline (fixture: Rec, now: number): Rec[] {
    const recorded = (this.view(fixture, now).events as unknown as Rec[]).filter((e) => e.section === 'timeline')
    return [...recorded, ...this.live.timeline(fixture as unknown as DatasetFixture, now) as unknown as Rec[]]
  }

  stateOf (fixture: Rec, now: number): number {
    return this.live.stateAt(fixture as unknown as DatasetFixture, now)
  }

  /** Fixtures kicking off on a UTC date, as their kick-off shows at `now`. */
  fixturesOn (date: string, now: number = this.clock()): Rec[] {
    const from = Date.parse(`${date}T00:00:00Z`) / 1000
    return this.#fixturesWhere((ts) => ts >= from && ts < from + 86400, now)
  }

  #fixturesWhere (test: (kickoff: number) => boolean, now: number): Rec[] {
    const kickoffs = new Map(this.all('fixture').map((f) => [f.id, this.kickoff(f, now)]))
    const at = (f: Rec): number => kickoffs.get(f.id) ?? 0
    return this.all('fixture').filter((f) => test(at(f))).sort((a, b) => at(a) - at(b) || a.id - b.id)
  }

  #fixtures (ids: readonly number[]): Rec[] {
    return ids.map((id) => this.get('fixture', id)).filter((f): f is Rec => f !== undefined).sort((a, b) => a.id - b.id)
  }

  livescores (now: number): Rec[] { return this.#fixtures(this.live.livescores(now)) }
  inplay (now: number): Rec[] { return this.#fixtures(this.live.inplay(now)) }
  latest (now: number): Rec[] { return this.#fixtures(this.live.latest(now)) }
  /** `fixtures/latest`: every fixture whose tracked base fields changed in the last 10 s, whatever its date. */
  fixturesLatest (now: number): Rec[] { return this.#fixtures(this.live.fixturesLatest(now)) }

  leaguesWithFixtures (fixtures: readonly Rec[]): Rec[] {
    const ids = new Set(fixtures.map((f) => Number(f.league_id)))
    return this.all('league').filter((l) => ids.has(l.id))
  }

  /** `/schedules/...`: stages with their rounds and each round's fixtures (the real API's shape). */
  schedule (stages: readonly Rec[], now: number): Rec[] {
    return stages.map((stage) => ({
      ...stage,
      rounds: (this.ds.roundsByStage.get(stage.id) ?? []).map((round) => ({
        ...round,
        fixtures: (this.ds.fixturesByRound.get(round.id) ?? []).map((f) => this.present('fixture', f as unknown as Rec, now))
      }))
    }))
  }

  teamSchedule (teamId: number, now: number): Rec[] {
    const seasons = this.related('team', 'seasons', teamId).filter((s) => s.is_current === true)
    return seasons.flatMap((s) => this.schedule(this.related('season', 'stages', s.id), now))
  }

  /** Filters the provider knows, by entity (`/my/filters/entity`). */
  filterListing (): Rec[] {
    const byEntity = new Map<string, Set<string>>()
    for (const e of ENDPOINTS) {
      const set = byEntity.get(e.entity) ?? new Set<string>()
      for (const f of e.filters) set.add(f.name)
      byEntity.set(e.entity, set)
    }
    return [...byEntity.entries()].filter(([, s]) => s.size > 0).map(([entity, s], i) => ({ id: i + 1, entity, filters: [...s].sort() }))
  }

  /** Record as sent, without dataset-only fields; a fixture shows its live state at `now`. */
  present (kind: Kind, record: Rec, now: number): Rec {
    if (kind !== 'fixture' || !('home_team_id' in record)) return record
    const out: Rec = { id: record.id }
    for (const [k, v] of Object.entries(record)) if (!FIXTURE_INTERNAL.has(k)) out[k] = v
    const kickoff = this.kickoff(record, now)
    const view = this.view(record, now)
    out.state_id = view.state_id
    out.result_info = view.result_info
    out.length = view.length
    out.starting_at = new Date(kickoff * 1000).toISOString().slice(0, 19).replace('T', ' ')
    out.starting_at_timestamp = kickoff
    return out
  }

  /** `/expected/fixtures`: the expected goals of the fixtures in play (at most 50). */
  expected (now: number): Rec[] {
    return this.inplay(now).slice(0, 50).flatMap((f) => this.xg(f, now))
  }

  /**
   * The `xGFixture` include: each side's expected goals at `now`, the same value as the fixture's xG statistic
   * (type 5304); none before kick-off or for a match the simulator has no xG of (a replay).
   */
  xg (fixture: Rec, now: number): Rec[] {
    const stats = this.view(fixture, now).statistics.filter((s) => s.type_id === XG_TYPE)
    return stats.map((s) => ({ id: fixture.id * 10 + (s.location === 'home' ? 0 : 1), fixture_id: fixture.id, type_id: XG_TYPE, participant_id: s.participant_id, location: s.location, data: { value: s.data.value } }))
  }

  predictions (fixture: Rec): Rec[] {
    const h = (fixture.id % 37) + 30
    const d = 25
    return [{ id: fixture.id * 10 + 1, fixture_id: fixture.id, type_id: 237, predictions: { home: h, draw: d, away: 100 - h - d } }]
  }

  #placed (fixture: Rec, now: number): PlacedLine | undefined {
    const placed = this.live.oddsLine(fixture as unknown as DatasetFixture, now)
    return placed === undefined ? undefined : { ...placed, seed: this.ds.seed, rates: ratesOf(this.ds.seed, placed.line.home.id, placed.line.away.id) }
  }

  /**
   * In-play odds of a fixture at `now` (docs/provider.md, "Odds"): from kick-off while it is in the livescores
   * feed, recorded ones for a replayed recording that carried them, else priced from its match.
   */
  inplayOdds (fixture: Rec, now: number): TimedOdd[] {
    if (!this.live.livescores(now).includes(fixture.id)) return []
    const recorded = this.live.recordedOdds?.(fixture as unknown as DatasetFixture, now)
    if (recorded !== undefined) return recorded
    const placed = this.#placed(fixture, now)
    return placed === undefined ? [] : inplayOdds(placed, now)
  }

  /** Pre-match odds of a fixture at `now`: its kick-off prices, stopped from kick-off, settled with the match. */
  preMatchOdds (fixture: Rec, now: number): TimedOdd[] {
    const placed = this.#placed(fixture, now)
    return placed === undefined ? [] : preMatchOdds(placed, now)
  }

  resources (plan: Plan): Rec[] {
    const leagues = plan.leagues === '*' ? this.all('league').map((l) => l.id) : [...plan.leagues]
    return [
      { id: 1, resource: 'leagues', count: leagues.length, ids: leagues },
      { id: 2, resource: 'features', features: [...plan.features].sort() },
      { id: 3, resource: 'hourly_limit', limit: plan.hourlyLimit }
    ]
  }
}

function uniqueById (records: ReadonlyArray<Rec | undefined>): Rec[] {
  const seen = new Map<number, Rec>()
  for (const r of records) if (r !== undefined) seen.set(r.id, r)
  return [...seen.values()].sort((a, b) => a.id - b.id)
}

const STATE_RECORDS: readonly Rec[] = STATES.map(({ phase: _phase, ...s }) => s)
