/**
 * Records of the real API's wider surface that the generated dataset does not hold but can derive, the same
 * on every call: lineups, formations and a fixture's coaches from the squads, commentaries from the simulated
 * events, topscorers from the simulated goals, transfers and rivals from the clubs, TV stations, markets and
 * bookmakers from fixed lists. Field names follow the docs' example responses; ids are the provider's own.
 * What it cannot derive meaningfully (news, trends, sidelined, metadata, statistics of seasons...) it does
 * not invent: the provider answers those with empty lists.
 */
import type { Kind } from '../contract/resources.ts'
import { State } from '../contract/states.ts'
import { EventType } from '../contract/types.ts'
import { hashInt } from './rng.ts'
import type { Rec, World } from './world.ts'

const SPORT: Rec = { id: 1, name: 'Football' }

/** Markets of the odds reference data (ids and names of the real API's common markets). */
const MARKETS: readonly Rec[] = [
  { id: 1, legacy_id: 1, name: 'Fulltime Result', developer_name: 'FULLTIME_RESULT', has_winning_calculations: true },
  { id: 2, legacy_id: 63, name: 'Double Chance', developer_name: 'DOUBLE_CHANCE', has_winning_calculations: true },
  { id: 14, legacy_id: 976105, name: 'Both Teams To Score', developer_name: 'BOTH_TEAMS_TO_SCORE', has_winning_calculations: true },
  { id: 80, legacy_id: 12, name: 'Goals Over/Under', developer_name: 'GOALS_OVER_UNDER', has_winning_calculations: true }
]

/** Bookmakers; the provider's odds (world.odds) all come from bookmaker 2. */
const BOOKMAKERS: readonly Rec[] = [
  { id: 2, legacy_id: 2, name: 'bet365' },
  { id: 9, legacy_id: 9, name: 'Betfair' },
  { id: 23, legacy_id: 23, name: 'Unibet' }
].map((b) => ({ ...b, logo: `https://cdn.touchline.invalid/bookmakers/${b.id}.png` }))

const TV_STATIONS: readonly Rec[] = ['Touchline Sport 1', 'Touchline Sport 2', 'Arena TV', 'Pitchside', 'Matchday Live', 'Goal Channel'].map((name, i) => ({
  id: i + 1,
  name,
  url: `https://tv.touchline.invalid/${i + 1}`,
  image_path: `https://cdn.touchline.invalid/tvstations/${i + 1}.png`,
  type: 'tv',
  related_id: null
}))

const FORMATIONS = ['4-4-2', '4-3-3', '4-2-3-1', '3-5-2', '5-3-2'] as const
const SIDES = ['home', 'away'] as const
type Side = typeof SIDES[number]

/** Official lineups and formations appear about an hour before kick-off (the docs' lineup tutorial). */
const LINEUP_LEAD_S = 3600

const teamOf = (f: Rec, side: Side): number => Number(side === 'home' ? f.home_team_id : f.away_team_id)

interface Tables {
  byKind: Partial<Record<Kind, readonly Rec[]>>
  byId: Partial<Record<Kind, ReadonlyMap<number, Rec>>>
}

const TABLES = new WeakMap<World, Tables>()

/** The derived tables of a world: computed once, on first use. */
function tables (w: World): Tables {
  let t = TABLES.get(w)
  if (t === undefined) {
    const byKind: Tables['byKind'] = { sport: [SPORT], market: MARKETS, bookmaker: BOOKMAKERS, tvstation: TV_STATIONS, transfer: transfers(w), rival: rivals(w) }
    const byId: Tables['byId'] = {}
    for (const [kind, rows] of Object.entries(byKind) as Array<[Kind, readonly Rec[]]>) byId[kind] = new Map(rows.map((r) => [r.id, r]))
    t = { byKind, byId }
    TABLES.set(w, t)
  }
  return t
}

export const derivedTable = (w: World, kind: Kind): readonly Rec[] | undefined => tables(w).byKind[kind]
export const derivedRecord = (w: World, kind: Kind, id: number): Rec | undefined => tables(w).byId[kind]?.get(id)

/**
 * One transfer for every fifth player of a squad: into his club from the club before it among the clubs of
 * the same country (ids in order), dated before the current season; a transfer, a loan or a free transfer.
 */
function transfers (w: World): Rec[] {
  const teams = [...w.all('team')].sort((a, b) => Number(a.country_id) - Number(b.country_id) || a.id - b.id)
  const out: Rec[] = []
  teams.forEach((team, t) => {
    const from = teams[t - 1]?.country_id === team.country_id ? teams[t - 1] : teams[(t + 1) % teams.length]
    const start = Date.parse(String(w.related('team', 'seasons', team.id).find((s) => s.is_current === true)?.starting_at ?? '2026-07-01'))
    ;(w.ds.squads.get(team.id) ?? []).forEach((playerId, i) => {
      const player = w.get('player', playerId)
      if (i % 5 !== 4 || player === undefined || from === undefined) return
      const type = [219, 218, 220][hashInt(playerId) % 3] as number
      out.push({
        id: playerId,
        sport_id: 1,
        player_id: playerId,
        type_id: type,
        from_team_id: from.id,
        to_team_id: team.id,
        position_id: player.position_id,
        detailed_position_id: player.detailed_position_id,
        date: new Date(start - (1 + (hashInt(playerId) % 60)) * 86_400_000).toISOString().slice(0, 10),
        career_ended: false,
        completed: true,
        amount: type === 219 ? 250_000 * (1 + (hashInt(playerId) % 80)) : null
      })
    })
  })
  return out.sort((a, b) => a.id - b.id)
}

/** Each club's rival: its neighbour among the clubs of its country, in id order (pairs). */
function rivals (w: World): Rec[] {
  const byCountry = new Map<number, Rec[]>()
  for (const team of w.all('team')) byCountry.set(Number(team.country_id), [...(byCountry.get(Number(team.country_id)) ?? []), team])
  const out: Rec[] = []
  for (const clubs of byCountry.values()) {
    clubs.sort((a, b) => a.id - b.id)
    for (let i = 0; i + 1 < clubs.length; i += 2) {
      const [a, b] = [clubs[i] as Rec, clubs[i + 1] as Rec]
      out.push({ id: a.id, sport_id: 1, team_id: a.id, rival_id: b.id }, { id: b.id, sport_id: 1, team_id: b.id, rival_id: a.id })
    }
  }
  return out.sort((a, b) => a.id - b.id)
}

/** The squad rows of a club, dated by a season (the current one unless given). */
export function squad (w: World, teamId: number, season?: Rec): Rec[] {
  const dates = season ?? w.related('team', 'seasons', teamId).find((s) => s.is_current === true)
  return (w.ds.squads.get(teamId) ?? []).flatMap((playerId, i) => {
    const p = w.get('player', playerId)
    if (p === undefined) return []
    return [{
      id: teamId * 100 + i,
      transfer_id: derivedRecord(w, 'transfer', playerId)?.id ?? null,
      player_id: playerId,
      team_id: teamId,
      position_id: p.position_id,
      detailed_position_id: p.detailed_position_id,
      start: dates?.starting_at ?? null,
      end: dates?.ending_at ?? null,
      captain: i === 0,
      jersey_number: i + 1
    }]
  })
}

const published = (w: World, f: Rec, now: number): boolean => now / 1000 >= w.kickoff(f) - LINEUP_LEAD_S

/** The `lineups` include: each side's squad, the first eleven starting (type 11) and the rest on the bench (12). */
export function lineups (w: World, f: Rec, now: number): Rec[] {
  if (!published(w, f, now)) return []
  return SIDES.flatMap((side, s) => squad(w, teamOf(f, side)).map((row, i) => ({
    id: f.id * 1000 + s * 500 + i,
    sport_id: 1,
    fixture_id: f.id,
    player_id: row.player_id,
    team_id: row.team_id,
    position_id: row.position_id,
    formation_field: null,
    type_id: i < 11 ? 11 : 12,
    formation_position: i < 11 ? i + 1 : null,
    player_name: w.get('player', Number(row.player_id))?.display_name ?? null,
    jersey_number: row.jersey_number
  })))
}

export function formations (w: World, f: Rec, now: number): Rec[] {
  if (!published(w, f, now)) return []
  return SIDES.map((side, s) => ({ id: f.id * 10 + s, fixture_id: f.id, participant_id: teamOf(f, side), formation: FORMATIONS[teamOf(f, side) % FORMATIONS.length], location: side }))
}

/** The `coaches` include: each side's coach with the fixture pivot in `meta`. */
export function fixtureCoaches (w: World, f: Rec): Rec[] {
  return SIDES.flatMap((side) => {
    const coach = w.get('coach', Number(w.ds.coachOfTeam.get(teamOf(f, side))))
    return coach === undefined ? [] : [{ ...coach, meta: { fixture_id: f.id, coach_id: coach.id, participant_id: teamOf(f, side) } }]
  })
}

/** The stations showing a fixture: one by league, one by fixture. */
const stationIds = (f: Rec): number[] => [...new Set([(Number(f.league_id) % TV_STATIONS.length) + 1, (f.id % TV_STATIONS.length) + 1])]

/** The `tvStations` include: junction rows, a station per country (the league's), as the docs show them. */
export function fixtureTvStations (w: World, f: Rec): Rec[] {
  const country = w.get('league', Number(f.league_id))?.country_id ?? null
  return stationIds(f).map((id, i) => ({ id: f.id * 10 + i, fixture_id: f.id, tvstation_id: id, country_id: country }))
}

export const stationsOf = (f: Rec): Rec[] => stationIds(f).map((id) => TV_STATIONS[id - 1] as Rec)
export const showsOn = (f: Rec, stationId: number): boolean => stationIds(f).includes(stationId)

/** The `weatherReport` include: a forecast before kick-off, the actual weather after. */
export function weatherReport (w: World, f: Rec, now: number): Rec {
  const h = hashInt(f.id)
  const day = 4 + (h % 22)
  const temperature = { day, morning: day - 3, evening: day - 1, night: day - 5 }
  return {
    id: f.id,
    fixture_id: f.id,
    venue_id: f.venue_id ?? null,
    temperature,
    feels_like: { day: day - 1, morning: day - 4, evening: day - 2, night: day - 6 },
    wind: { speed: ((h >> 8) % 120) / 10, direction: (h >> 4) % 360 },
    humidity: `${40 + ((h >> 12) % 55)}%`,
    pressure: 990 + ((h >> 16) % 40),
    clouds: `${(h >> 20) % 100}%`,
    description: ['clear sky', 'few clouds', 'broken clouds', 'light rain'][(h >> 24) % 4],
    icon: `https://cdn.touchline.invalid/weather/${(h >> 24) % 4}.png`,
    type: now / 1000 < w.kickoff(f) ? 'forecast' : 'actual',
    metric: 'celsius'
  }
}

/** Period type of a live state (the `state.type` include: the period a match is in). */
export function statePeriodType (stateId: number): number | undefined {
  switch (stateId) {
    case State.INPLAY_1ST_HALF: case State.HT: return 1
    case State.INPLAY_2ND_HALF: case State.BREAK: return 2
    case State.INPLAY_ET: case State.EXTRA_TIME_BREAK: case State.INPLAY_ET_2ND_HALF: return 3
    case State.INPLAY_PENALTIES: case State.PEN_BREAK: case State.FT_PEN: return 5
    default: return undefined
  }
}

function commentText (w: World, e: Rec): string {
  const team = w.get('team', Number(e.participant_id))?.name ?? 'a team'
  const player = String(e.player_name ?? 'A player')
  const related = String(e.related_player_name ?? 'a team-mate')
  switch (e.type_id) {
    case EventType.GOAL: case EventType.PENALTY: return `Goal! ${player} scores for ${team}${e.result === null ? '' : `, ${String(e.result)}`}.`
    case EventType.OWNGOAL: return `Own goal by ${player}${e.result === null ? '' : `, ${String(e.result)}`}.`
    case EventType.MISSED_PENALTY: return `Penalty missed by ${player} (${team}).`
    case EventType.SUBSTITUTION: return `Substitution, ${team}. ${player} replaces ${related}.`
    case EventType.YELLOWCARD: return `${player} (${team}) is shown the yellow card.`
    case EventType.REDCARD: case EventType.YELLOWREDCARD: return `${player} (${team}) is sent off.`
    default: return `${player} (${team}).`
  }
}

const IMPORTANT: ReadonlySet<number> = new Set([EventType.GOAL, EventType.OWNGOAL, EventType.PENALTY, EventType.REDCARD, EventType.YELLOWREDCARD])
const GOALS: ReadonlySet<number> = new Set([EventType.GOAL, EventType.OWNGOAL, EventType.PENALTY])

/** Commentary lines of a fixture, one per simulated event (the `comments` include, `/commentaries`). */
export function commentaries (w: World, f: Rec, now: number): Rec[] {
  const events = w.view(f, now).events as unknown as Rec[]
  return events.map((e, i) => ({
    id: e.id,
    fixture_id: f.id,
    comment: commentText(w, e),
    minute: e.minute,
    extra_minute: e.extra_minute ?? null,
    is_goal: GOALS.has(Number(e.type_id)),
    is_important: IMPORTANT.has(Number(e.type_id)),
    order: i + 1
  }))
}

/** Topscorer types: goals, assists, yellow cards (ids of the real API's topscorer and card types). */
const TOPSCORER_TYPES = [
  { type_id: 208, counts: (e: Rec): number | null => (e.type_id === EventType.GOAL || e.type_id === EventType.PENALTY ? Number(e.player_id) : null) },
  { type_id: 209, counts: (e: Rec): number | null => (e.type_id === EventType.GOAL && e.related_player_id !== null ? Number(e.related_player_id) : null) },
  { type_id: 84, counts: (e: Rec): number | null => (e.type_id === EventType.YELLOWCARD ? Number(e.player_id) : null) }
] as const
const TOPSCORERS_PER_TYPE = 25

/**
 * The top 25 players per type over the fixtures played so far (a season's or a stage's), from the simulated
 * events: goals (penalties included, own goals not), assists, yellow cards. Ties share a position.
 */
export function topscorers (w: World, fixtures: readonly Rec[], now: number, scope: { season_id: number, stage_id?: number }): Rec[] {
  const played = fixtures.filter((f) => w.kickoff(f) <= now / 1000)
  const tallies = TOPSCORER_TYPES.map(() => new Map<number, { total: number, team: number }>())
  for (const f of played) {
    for (const e of w.view(f, now).events as unknown as Rec[]) {
      TOPSCORER_TYPES.forEach((t, i) => {
        const player = t.counts(e)
        if (player === null || Number.isNaN(player)) return
        const tally = tallies[i] as Map<number, { total: number, team: number }>
        tally.set(player, { total: (tally.get(player)?.total ?? 0) + 1, team: Number(e.participant_id) })
      })
    }
  }
  const scopeId = scope.stage_id ?? scope.season_id
  return TOPSCORER_TYPES.flatMap((t, i) => {
    const ranked = [...(tallies[i] as Map<number, { total: number, team: number }>).entries()].sort(([pa, a], [pb, b]) => b.total - a.total || pa - pb).slice(0, TOPSCORERS_PER_TYPE)
    let position = 0
    return ranked.map(([player, { total, team }], rank) => {
      if (rank === 0 || total !== ranked[rank - 1]?.[1].total) position = rank + 1
      return { id: (scopeId * 3 + i) * 100 + rank, season_id: scope.season_id, ...(scope.stage_id !== undefined ? { stage_id: scope.stage_id } : {}), player_id: player, type_id: t.type_id, position, total, participant_id: team }
    })
  })
}
