/**
 * Whole tables of the real API's wider surface that the generated dataset does not hold: fixed reference
 * lists (the sport, odds markets, bookmakers, TV stations) and what follows from the clubs (transfers,
 * rivals). Built from the dataset alone, once per world (World builds them on first use), and the same on
 * every call. Field names follow the docs' example responses; ids are the provider's own.
 */
import type { Kind } from '@touchline/upstream-contract/resources'
import type { Dataset } from './dataset/types.ts'
import type { Rec } from './records.ts'
import { hashInt } from './rng.ts'
import { BOOKMAKERS as PRICED_BOOKMAKERS, Market, MARKET_NAMES } from './odds/markets.ts'

export interface DerivedTables {
  byKind: Partial<Record<Kind, readonly Rec[]>>
  byId: Partial<Record<Kind, ReadonlyMap<number, Rec>>>
}

const SPORT: Rec = { id: 1, name: 'Football' }

/** Markets of the odds reference data: the ones the provider prices (odds/markets.ts), with the real API's ids and names. */
const MARKETS: readonly Rec[] = [
  { id: Market.FULLTIME_RESULT, legacy_id: 1, developer_name: 'FULLTIME_RESULT' },
  { id: Market.DOUBLE_CHANCE, legacy_id: 63, developer_name: 'DOUBLE_CHANCE' },
  { id: Market.BOTH_TEAMS_TO_SCORE, legacy_id: 976105, developer_name: 'BOTH_TEAMS_TO_SCORE' },
  { id: Market.NEXT_GOAL, legacy_id: null, developer_name: 'NEXT_GOAL' },
  { id: Market.OVER_UNDER, legacy_id: 12, developer_name: 'GOALS_OVER_UNDER' }
].map((m) => ({ id: m.id, legacy_id: m.legacy_id, name: MARKET_NAMES[m.id], developer_name: m.developer_name, has_winning_calculations: true }))

/** Bookmakers: the two whose odds the provider serves (odds/markets.ts), and one listed without odds. */
const BOOKMAKERS: readonly Rec[] = [
  ...PRICED_BOOKMAKERS.map((b) => ({ id: b.id, legacy_id: b.id, name: b.name })),
  { id: 23, legacy_id: 23, name: 'Unibet' }
].map((b) => ({ ...b, logo: `https://cdn.touchline.invalid/bookmakers/${b.id}.png` }))

export const TV_STATIONS: readonly Rec[] = ['Touchline Sport 1', 'Touchline Sport 2', 'Arena TV', 'Pitchside', 'Matchday Live', 'Goal Channel'].map((name, i) => ({
  id: i + 1,
  name,
  url: `https://tv.touchline.invalid/${i + 1}`,
  image_path: `https://cdn.touchline.invalid/tvstations/${i + 1}.png`,
  type: 'tv',
  related_id: null
}))

export function derivedTables (ds: Dataset): DerivedTables {
  const byKind: DerivedTables['byKind'] = { sport: [SPORT], market: MARKETS, bookmaker: BOOKMAKERS, tvstation: TV_STATIONS, transfer: transfers(ds), rival: rivals(ds) }
  const byId: DerivedTables['byId'] = {}
  for (const [kind, rows] of Object.entries(byKind) as Array<[Kind, readonly Rec[]]>) byId[kind] = new Map(rows.map((r) => [r.id, r]))
  return { byKind, byId }
}

/**
 * One transfer for every fifth player of a squad: into his club from the club before it among the clubs of
 * the same country (ids in order), dated before the current season; a transfer, a loan or a free transfer.
 */
function transfers (ds: Dataset): Rec[] {
  const teams = [...ds.teams].sort((a, b) => a.country_id - b.country_id || a.id - b.id)
  const out: Rec[] = []
  teams.forEach((team, t) => {
    const from = teams[t - 1]?.country_id === team.country_id ? teams[t - 1] : teams[(t + 1) % teams.length]
    const start = Date.parse(String((ds.seasonsByTeam.get(team.id) ?? []).find((s) => s.is_current)?.starting_at ?? '2026-07-01'))
    ;(ds.squads.get(team.id) ?? []).forEach((playerId, i) => {
      const player = ds.byId.player.get(playerId)
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
function rivals (ds: Dataset): Rec[] {
  const byCountry = new Map<number, number[]>()
  for (const team of ds.teams) byCountry.set(team.country_id, [...(byCountry.get(team.country_id) ?? []), team.id])
  const out: Rec[] = []
  for (const clubs of byCountry.values()) {
    clubs.sort((a, b) => a - b)
    for (let i = 0; i + 1 < clubs.length; i += 2) {
      const [a, b] = [clubs[i] as number, clubs[i + 1] as number]
      out.push({ id: a, sport_id: 1, team_id: a, rival_id: b }, { id: b, sport_id: 1, team_id: b, rival_id: a })
    }
  }
  return out.sort((a, b) => a.id - b.id)
}
