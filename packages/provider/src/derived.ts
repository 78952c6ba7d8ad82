/**
 * Per-fixture and per-club records of the real API's wider surface that the generated dataset does not hold
 * but can derive, the same on every call: lineups, formations and a fixture's coaches from the squads,
 * commentaries from the simulated events, topscorers from the simulated goals, weather, TV stations. (Whole
 * derived tables, such as transfers and markets, are in derived-tables.ts.) Field names follow the docs'
 * example responses; ids are the provider's own. What it cannot derive meaningfully (news, trends, sidelined,
 * metadata, statistics of seasons...) it does not invent: the provider answers those with empty lists.
 */
import { State } from '@touchline/upstream-contract/states'
import { EventType } from '@touchline/upstream-contract/types'
import { TV_STATIONS } from './derived-tables.ts'
import { formationOf, matchdaySquad } from './matchday.ts'
import type { Rec } from './records.ts'
import { hashInt } from './rng.ts'
import type { World } from './world.ts'

const SIDES = ['home', 'away'] as const
type Side = typeof SIDES[number]

const teamOf = (f: Rec, side: Side): number => Number(side === 'home' ? f.home_team_id : f.away_team_id)

/** The squad rows of a club, dated by a season (the current one unless given). */
export function squad (w: World, teamId: number, season?: Rec): Rec[] {
  const dates = season ?? w.related('team', 'seasons', teamId).find((s) => s.is_current === true)
  return (w.ds.squads.get(teamId) ?? []).flatMap((playerId, i) => {
    const p = w.get('player', playerId)
    if (p === undefined) return []
    return [{
      id: teamId * 100 + i,
      transfer_id: w.get('transfer', playerId)?.id ?? null,
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

const published = (w: World, f: Rec, now: number): boolean => now / 1000 >= w.lineupsFrom(f, now)

/**
 * The `lineups` include: each side's matchday squad (matchday.ts), the eleven placed in the formation (type 11,
 * with `formation_field` and `formation_position`) and the bench (12), the same players the simulator plays.
 */
export function lineups (w: World, f: Rec, now: number): Rec[] {
  if (!published(w, f, now)) return []
  return SIDES.flatMap((side, s) => {
    const { starters, bench } = matchdaySquad(w.ds, teamOf(f, side))
    return [...starters, ...bench].map((p, i) => ({
      id: f.id * 1000 + s * 500 + i,
      sport_id: 1,
      fixture_id: f.id,
      player_id: p.player_id,
      team_id: teamOf(f, side),
      position_id: p.position_id,
      formation_field: p.formation_field,
      type_id: p.formation_position === null ? 12 : 11,
      formation_position: p.formation_position,
      player_name: p.name,
      jersey_number: p.jersey_number
    }))
  })
}

/** The `formations` include: the formation each side's line-up is placed in, published with the line-ups. */
export function formations (w: World, f: Rec, now: number): Rec[] {
  if (!published(w, f, now)) return []
  return SIDES.map((side, s) => ({ id: f.id * 10 + s, fixture_id: f.id, participant_id: teamOf(f, side), formation: formationOf(teamOf(f, side)), location: side }))
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
    type: now / 1000 < w.kickoff(f, now) ? 'forecast' : 'actual',
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
  const played = fixtures.filter((f) => w.kickoff(f, now) <= now / 1000)
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
