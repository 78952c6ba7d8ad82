/**
 * Include resolvers: for each `kind.include` pair of the resource graph (packages/upstream-contract/src/resources.ts), the
 * related record(s) of one record. Fixture includes come from the simulator's live view. A single relation
 * without a resolver follows the record's `<name>_id` field; a list relation without one is empty.
 */
import { filterIds, type ParsedQuery } from '@touchline/upstream-contract/query'
import { RELATIONS, type Kind } from '@touchline/upstream-contract/resources'
import { STATE_BY_ID } from '@touchline/upstream-contract/states'
import { commentaries, fixtureCoaches, fixtureTvStations, formations, lineups, statePeriodType, topscorers, weatherReport } from './derived.ts'
import { filterOdds } from './fixture-filters.ts'
import type { Plan } from './plans.ts'
import { standingDetails } from './standings.ts'
import type { Rec } from './records.ts'
import { XG_TYPE, type World } from './world.ts'

/** What a resolver reads of the request: the instant it is answered at, its filters, and the caller's plan. */
export interface IncludeContext {
  query: ParsedQuery
  now: number
  /** Absent when no caller is known (then the plan's extras, such as xG, are left out). */
  caller?: { plan: Pick<Plan, 'features'> }
}

type Resolver = (w: World, r: Rec, ctx: IncludeContext) => Rec | Rec[] | null

const one = (w: World, kind: Kind, id: unknown): Rec | null => (typeof id === 'number' ? w.get(kind, id) ?? null : null)
const list = (records: readonly Rec[]): Rec[] => [...records]
const idx = (index: ReadonlyMap<number, readonly object[]>, id: number): Rec[] => [...(index.get(id) ?? [])] as Rec[]

const typeFilter = (ctx: IncludeContext, name: string): Set<number> | undefined => filterIds(ctx.query.filters, name)

function fixtureParticipants (w: World, f: Rec, ctx: IncludeContext): Rec[] {
  const view = w.view(f, ctx.now)
  return (['home', 'away'] as const).flatMap((location) => {
    const team = w.get('team', Number(location === 'home' ? f.home_team_id : f.away_team_id))
    if (team === undefined) return []
    const meta = view.participantsMeta[location]
    return [{ ...team, meta: { location, winner: meta.winner, position: meta.position } }]
  })
}

/** `events` holds the match events, `timeline` the timeline-only rows (`section: "timeline"`); `eventTypes` narrows both. */
function fixtureEvents (rows: (w: World, f: Rec, now: number) => Rec[]) {
  return (w: World, f: Rec, ctx: IncludeContext): Rec[] => {
    const types = typeFilter(ctx, 'eventtypes')
    const events = rows(w, f, ctx.now)
    return types === undefined ? events : events.filter((e) => types.has(Number(e.type_id)))
  }
}

/** The period of an event, from its fixture's live view. */
function eventPeriod (w: World, e: Rec, ctx: IncludeContext): Rec | null {
  const fixture = w.get('fixture', Number(e.fixture_id))
  if (fixture === undefined) return null
  const view = w.view(fixture, ctx.now)
  const periods = [...view.periods, ...view.detailedperiods] as unknown as Rec[]
  return periods.find((p) => p.id === e.period_id) ?? null
}

/**
 * The `statistics` include: the simulator's rows at the instant (sim/stats.ts), narrowed by
 * `fixtureStatisticTypes` (or `statisticTypes`); the xG row (5304) only for plans with expected goals.
 */
function fixtureStatistics (w: World, f: Rec, ctx: IncludeContext): Rec[] {
  const types = typeFilter(ctx, 'fixturestatistictypes') ?? typeFilter(ctx, 'statistictypes')
  const xg = ctx.caller?.plan.features.has('xg') === true
  const stats = (w.view(f, ctx.now).statistics as unknown as Rec[]).filter((s) => xg || s.type_id !== XG_TYPE)
  return types === undefined ? stats : stats.filter((s) => types.has(Number(s.type_id)))
}

const fixtureDay = (w: World, f: Rec, now: number): string => new Date(w.kickoff(f, now) * 1000).toISOString().slice(0, 10)

function leagueFixtures (w: World, league: Rec, ctx: IncludeContext, pick: 'latest' | 'upcoming' | 'inplay' | 'today'): Rec[] {
  if (pick === 'inplay') return w.inplay(ctx.now).filter((f) => f.league_id === league.id)
  const season = w.ds.currentSeasonByLeague.get(league.id)
  const fixtures = season === undefined ? [] : w.related('season', 'fixtures', season.id)
  const nowS = ctx.now / 1000
  if (pick === 'today') {
    const today = new Date(ctx.now).toISOString().slice(0, 10)
    return fixtures.filter((f) => fixtureDay(w, f, ctx.now) === today)
  }
  if (pick === 'latest') return fixtures.filter((f) => w.kickoff(f, ctx.now) < nowS).slice(-10)
  return fixtures.filter((f) => w.kickoff(f, ctx.now) >= nowS).slice(0, 10)
}

const RESOLVERS: Readonly<Record<string, Resolver>> = {
  'continent.countries': (w, r) => idx(w.ds.countriesByContinent, r.id),
  'country.continent': (w, r) => one(w, 'continent', r.continent_id),
  'country.leagues': (w, r) => list(w.related('country', 'leagues', r.id)),
  'country.regions': (w, r) => list(w.related('country', 'regions', r.id)),
  'region.country': (w, r) => one(w, 'country', r.country_id),
  'region.cities': (w, r) => idx(w.ds.citiesByRegion, r.id),
  'city.region': (w, r, ctx) => {
    const regions = typeFilter(ctx, 'regioncities')
    return regions !== undefined && !regions.has(Number(r.region_id)) ? null : one(w, 'region', r.region_id)
  },
  'city.country': (w, r) => one(w, 'country', r.country_id),
  'league.sport': () => ({ id: 1, name: 'Football' }),
  'league.country': (w, r) => one(w, 'country', r.country_id),
  'league.currentSeason': (w, r) => (w.ds.currentSeasonByLeague.get(r.id) as Rec | undefined) ?? null,
  'league.seasons': (w, r) => idx(w.ds.seasonsByLeague, r.id),
  'league.stages': (w, r) => {
    const season = w.ds.currentSeasonByLeague.get(r.id)
    return season === undefined ? [] : list(w.related('season', 'stages', season.id))
  },
  'league.latest': (w, r, ctx) => leagueFixtures(w, r, ctx, 'latest'),
  'league.upcoming': (w, r, ctx) => leagueFixtures(w, r, ctx, 'upcoming'),
  'league.inplay': (w, r, ctx) => leagueFixtures(w, r, ctx, 'inplay'),
  'league.today': (w, r, ctx) => leagueFixtures(w, r, ctx, 'today'),
  'season.league': (w, r) => one(w, 'league', r.league_id),
  'season.stages': (w, r) => list(w.related('season', 'stages', r.id)),
  'season.rounds': (w, r) => list(w.related('season', 'rounds', r.id)),
  'season.groups': (w, r) => idx(w.ds.groupsBySeason, r.id),
  'season.teams': (w, r) => list(w.related('season', 'teams', r.id)),
  'season.fixtures': (w, r) => list(w.related('season', 'fixtures', r.id)),
  'season.currentStage': (w, r) => w.related('season', 'stages', r.id).find((s) => s.is_current === true) ?? null,
  'stage.league': (w, r) => one(w, 'league', r.league_id),
  'stage.season': (w, r) => one(w, 'season', r.season_id),
  'stage.rounds': (w, r) => idx(w.ds.roundsByStage, r.id),
  'stage.groups': (w, r) => idx(w.ds.groupsByStage, r.id),
  'stage.fixtures': (w, r) => idx(w.ds.fixturesByStage, r.id),
  'stage.type': (w, r) => one(w, 'type', r.type_id),
  'round.league': (w, r) => one(w, 'league', r.league_id),
  'round.season': (w, r) => one(w, 'season', r.season_id),
  'round.stage': (w, r) => one(w, 'stage', r.stage_id),
  'round.fixtures': (w, r) => idx(w.ds.fixturesByRound, r.id),
  'group.league': (w, r) => one(w, 'league', r.league_id),
  'group.season': (w, r) => one(w, 'season', r.season_id),
  'group.stage': (w, r) => one(w, 'stage', r.stage_id),
  'group.fixtures': (w, r) => idx(w.ds.fixturesByGroup, r.id),
  'standing.participant': (w, r) => one(w, 'team', r.participant_id),
  'standing.league': (w, r) => one(w, 'league', r.league_id),
  'standing.season': (w, r) => one(w, 'season', r.season_id),
  'standing.stage': (w, r) => one(w, 'stage', r.stage_id),
  'standing.round': (w, r) => one(w, 'round', r.round_id),
  'standing.group': (w, r) => one(w, 'group', r.group_id),
  'standing.details': (_w, r) => standingDetails(r),
  'fixture.sport': () => ({ id: 1, name: 'Football' }),
  'fixture.league': (w, r) => one(w, 'league', r.league_id),
  'fixture.season': (w, r) => one(w, 'season', r.season_id),
  'fixture.stage': (w, r) => one(w, 'stage', r.stage_id),
  'fixture.round': (w, r) => one(w, 'round', r.round_id),
  'fixture.group': (w, r) => one(w, 'group', r.group_id),
  'fixture.venue': (w, r) => one(w, 'venue', r.venue_id),
  'fixture.state': (w, r, ctx) => {
    const s = STATE_BY_ID.get(w.view(r, ctx.now).state_id)
    return s === undefined ? null : { id: s.id, state: s.state, name: s.name, short_name: s.short_name, developer_name: s.developer_name }
  },
  'fixture.participants': fixtureParticipants,
  'fixture.scores': (w, r, ctx) => w.view(r, ctx.now).scores as unknown as Rec[],
  'fixture.events': fixtureEvents((w, f, now) => (w.view(f, now).events as unknown as Rec[]).filter((e) => e.section !== 'timeline')),
  'fixture.timeline': fixtureEvents((w, f, now) => w.timeline(f, now)),
  'fixture.comments': (w, r, ctx) => commentaries(w, r, ctx.now),
  'fixture.lineups': (w, r, ctx) => lineups(w, r, ctx.now),
  'fixture.formations': (w, r, ctx) => formations(w, r, ctx.now),
  'fixture.coaches': (w, r) => fixtureCoaches(w, r),
  'fixture.tvStations': (w, r) => fixtureTvStations(w, r),
  'fixture.weatherReport': (w, r, ctx) => weatherReport(w, r, ctx.now),
  'fixture.periods': (w, r, ctx) => w.view(r, ctx.now).periods as unknown as Rec[],
  'fixture.detailedPeriods': (w, r, ctx) => w.view(r, ctx.now).detailedperiods as unknown as Rec[],
  'fixture.currentPeriod': (w, r, ctx) => (w.view(r, ctx.now).currentperiod as unknown as Rec | null),
  'fixture.statistics': fixtureStatistics,
  'fixture.referees': (w, r) => {
    const ref = one(w, 'referee', r.referee_id)
    return ref === null ? [] : [{ id: r.id * 10 + 1, fixture_id: r.id, referee_id: ref.id, type_id: 6, referee: ref }]
  },
  'fixture.xGFixture': (w, r, ctx) => w.xg(r, ctx.now),
  'fixture.predictions': (w, r) => w.predictions(r),
  'fixture.odds': (w, r, ctx) => filterOdds(w.preMatchOdds(r, ctx.now).map((o) => o.row), ctx.query.filters),
  'fixture.inplayOdds': (w, r, ctx) => filterOdds(w.inplayOdds(r, ctx.now).map((o) => o.row), ctx.query.filters),
  'team.country': (w, r) => one(w, 'country', r.country_id),
  'team.venue': (w, r) => one(w, 'venue', r.venue_id),
  'team.players': (w, r) => (w.ds.squads.get(r.id) ?? []).map((id) => one(w, 'player', id)).filter((p): p is Rec => p !== null),
  'team.coaches': (w, r) => [one(w, 'coach', w.ds.coachOfTeam.get(r.id))].filter((c): c is Rec => c !== null),
  'team.latest': (w, r, ctx) => w.related('team', 'fixtures', r.id).filter((f) => w.kickoff(f, ctx.now) < ctx.now / 1000).slice(-10),
  'team.upcoming': (w, r, ctx) => w.related('team', 'fixtures', r.id).filter((f) => w.kickoff(f, ctx.now) >= ctx.now / 1000).slice(0, 10),
  'team.seasons': (w, r) => list(w.related('team', 'seasons', r.id)),
  'player.country': (w, r) => one(w, 'country', r.country_id),
  'player.nationality': (w, r) => one(w, 'country', r.nationality_id),
  'player.city': (w, r) => one(w, 'city', r.city_id),
  'player.teams': (w, r) => idx(w.ds.teamsByPlayer, r.id),
  'coach.country': (w, r) => one(w, 'country', r.country_id),
  'coach.nationality': (w, r) => one(w, 'country', r.nationality_id),
  'coach.teams': (w, r) => idx(w.ds.teamsByCoach, r.id),
  'referee.country': (w, r) => one(w, 'country', r.country_id),
  'referee.city': (w, r) => one(w, 'city', r.city_id),
  'venue.country': (w, r) => one(w, 'country', r.country_id),
  'venue.city': (w, r) => one(w, 'city', r.city_id),
  'venue.fixtures': (w, r) => idx(w.ds.fixturesByVenue, r.id),
  'score.participant': (w, r) => one(w, 'team', r.participant_id),
  'score.type': (w, r) => one(w, 'type', r.type_id),
  'state.type': (w, r) => one(w, 'type', statePeriodType(r.id)),
  'event.period': eventPeriod,
  'lineup.details': () => [],
  'fixtureTvStation.tvStation': (w, r) => one(w, 'tvstation', r.tvstation_id),
  'team.rivals': (w, r) => w.all('rival').filter((x) => x.team_id === r.id),
  'team.activeSeasons': (w, r) => w.related('team', 'seasons', r.id).filter((s) => s.is_current === true),
  'player.transfers': (w, r) => w.all('transfer').filter((t) => t.player_id === r.id),
  'season.topscorers': (w, r, ctx) => topscorers(w, w.related('season', 'fixtures', r.id), ctx.now, { season_id: r.id }),
  'event.player': (w, r) => one(w, 'player', r.player_id),
  'event.relatedPlayer': (w, r) => one(w, 'player', r.related_player_id),
  'event.participant': (w, r) => one(w, 'team', r.participant_id),
  'event.type': (w, r) => one(w, 'type', r.type_id),
  'event.fixture': (w, r) => one(w, 'fixture', r.fixture_id),
  'period.type': (w, r) => one(w, 'type', r.type_id),
  'statistic.type': (w, r) => one(w, 'type', r.type_id),
  'statistic.participant': (w, r) => one(w, 'team', r.participant_id),
  'xg.type': (w, r) => one(w, 'type', r.type_id),
  'prediction.type': (w, r) => one(w, 'type', r.type_id)
}

/** The field naming a single relation's record: `fromTeam` → `from_team_id`, `tvStation` → `tvstation_id`. */
const idField = (include: string): string => `${include.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}_id`

export function resolveInclude (w: World, kind: Kind, include: string, record: Rec, ctx: IncludeContext): Rec | Rec[] | null {
  const resolver = RESOLVERS[`${kind}.${include}`]
  if (resolver !== undefined) return resolver(w, record, ctx)
  const relation = RELATIONS[kind][include]
  return relation === undefined || relation.many ? null : one(w, relation.target, record[idField(include)])
}
