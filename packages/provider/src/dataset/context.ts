/**
 * State shared by the generator's steps while one dataset is built: the seed streams, id counters, the
 * records produced so far and a few look-ups that later steps need (teams, venues, referees by country).
 */
import type { Geo } from './geo.ts'
import type { Rng } from '../rng.ts'
import type { DatasetRecords, Team, Venue } from './types.ts'

/**
 * First id of each kind minus one. Ranges look like the real API's (teams and venues small, fixtures
 * around 19 million) and never overlap within a kind; every id is assigned in generation order.
 */
const BASES = {
  team: 0,
  venue: 200,
  player: 30_000,
  coach: 520_000,
  referee: 14_000,
  season: 20_000,
  stage: 77_440_000,
  round: 330_000,
  group: 240_000,
  fixture: 19_000_000,
  aggregate: 50_000,
  standing: 2_400_000
} as const

export type IdKind = keyof typeof BASES

export class Ids {
  readonly #last = new Map<IdKind, number>()

  next (kind: IdKind): number {
    const id = (this.#last.get(kind) ?? BASES[kind]) + 1
    this.#last.set(kind, id)
    return id
  }
}

export interface BuildContext {
  seed: number
  /** Unix seconds of the anchor day, 00:00 UTC. */
  anchor: number
  rng: Rng
  geo: Geo
  ids: Ids
  out: DatasetRecords
  teams: Map<number, Team>
  /** 0..1, how good a team is: standings and tie winners lean on it, so big clubs stay big across seasons. */
  strength: Map<number, number>
  venuesByCountry: Map<number, Venue[]>
  refereesByCountry: Map<number, number[]>
}

export function emptyRecords (): DatasetRecords {
  return {
    continents: [],
    countries: [],
    regions: [],
    cities: [],
    leagues: [],
    seasons: [],
    stages: [],
    rounds: [],
    groups: [],
    teams: [],
    players: [],
    coaches: [],
    referees: [],
    venues: [],
    fixtures: [],
    standings: [],
    types: [],
    squads: new Map(),
    coachOfTeam: new Map(),
    tieWinners: new Map()
  }
}

/** Removes diacritics and keeps ASCII letters, upper-cased (for short codes). */
export function asciiLetters (text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z]/g, '').toUpperCase()
}

export function imagePath (folder: string, id: number): string {
  return `https://cdn.sportmonks.com/images/soccer/${folder}/${id % 32}/${id}.png`
}
