/**
 * The competitions of the dataset and how their seasons are laid out. Only dates depend on the anchor:
 * every season is a timeline of match slots (a round, a matchday or a leg), and the slot `current` of the
 * current season starts `anchorShift` days from the anchor day.
 *
 * Club competitions keep to fixed weekdays (counted from the anchor) so that no club plays twice on a day:
 * domestic rounds on days -1..+2 of each week, the Champions League on +3/+4, the FA Cup and the play-offs
 * on +5 and +3 (teams in neither European cup), friendlies on days -2..+2 of the anchor week only.
 */
import type { LeagueSubType, StageTypeId } from './types.ts'

/** A round-robin phase: one table (`groups` 0, no group records) or several groups. */
export interface TablePhase {
  kind: 'table'
  type: StageTypeId
  name: string
  groups: number
  /** Teams per group (per table when `groups` is 0). */
  size: number
  legs: 1 | 2
  /** Days between two matchdays. */
  spacing: number
  /** Days from the previous phase's last slot to this phase's first. */
  gap: number
  /** Per-slot kick-offs, `<day within the slot> HH:MM` (UTC), used cyclically. */
  kickoffs: string
  /** Teams through to the next phase per group, plus the best third-placed teams. */
  advance: number
  bestThirds: number
}

/** A knock-out phase: `ties` pairings of one or two legs. */
export interface KnockoutPhase {
  kind: 'ko'
  type: StageTypeId
  name: string
  ties: number
  legs: 1 | 2
  spacing: number
  gap: number
  kickoffs: string
  /** Played at a neutral venue (finals). */
  neutral: boolean
}

/** Friendlies: one slot per day, the teams paired at random each day, no rounds and no table. */
export interface FriendlyPhase {
  kind: 'friendly'
  type: StageTypeId
  name: string
  days: number
  spacing: number
  gap: number
  kickoffs: string
}

export type PhaseSpec = TablePhase | KnockoutPhase | FriendlyPhase

/** How a competition finds its teams (see draws.ts). */
type Draw = 'domestic' | 'fa-cup' | 'champions' | 'euro' | 'playoffs' | 'friendlies'

export interface LeagueSpec {
  id: number
  name: string
  short_code: string
  /** iso3 of the country, `EUR` for the pseudo-country Europe. */
  country: string
  sub_type: LeagueSubType
  category: number
  draw: Draw
  /** Teams the league owns (domestic leagues); other draws borrow teams. */
  teams: number
  seasons: number
  /** Days between two editions: 364 keeps the weekdays, 1456 is four years. */
  seasonDays: number
  /** Season names: `2025/2026` or `2026`. */
  naming: 'split' | 'year'
  phases: PhaseSpec[]
  /** Slot index (over all phases) that is being played at the anchor. */
  current: number
  anchorShift: number
  premiumOdds: boolean
}

const table = (name: string, size: number, kickoffs: string, more: Partial<TablePhase> = {}): TablePhase =>
  ({ kind: 'table', type: 223, name, groups: 0, size, legs: 2, spacing: 7, gap: 0, kickoffs, advance: 0, bestThirds: 0, ...more })

const ko = (name: string, ties: number, kickoffs: string, more: Partial<KnockoutPhase> = {}): KnockoutPhase =>
  ({ kind: 'ko', type: 224, name, ties, legs: 1, spacing: 7, gap: 28, kickoffs, neutral: false, ...more })

/** A double round robin, weekly, with the round at `progress` (0..1) of the season being played now. */
function domestic (id: number, name: string, shortCode: string, country: string, teams: number, category: number,
  progress: number, kickoffs: string): LeagueSpec {
  return {
    id,
    name,
    short_code: shortCode,
    country,
    sub_type: 'domestic',
    category,
    draw: 'domestic',
    teams,
    seasons: 3,
    seasonDays: 364,
    naming: 'split',
    phases: [table('Regular Season', teams, kickoffs)],
    current: Math.floor(2 * (teams - 1) * progress),
    anchorShift: -1,
    premiumOdds: category === 1
  }
}

const CL_KICKOFFS = '0 17:45, 0 20:00, 0 20:00, 0 20:00, 1 17:45, 1 20:00, 1 20:00, 1 20:00'
const EURO_KICKOFFS = '0 13:00, 0 16:00, 0 19:00, 1 13:00, 1 16:00, 1 19:00, 2 13:00, 2 16:00, 2 19:00, 3 13:00, 3 16:00, 3 19:00'
const EURO_KO_KICKOFFS = '0 16:00, 0 19:00, 1 16:00, 1 19:00, 2 16:00, 2 19:00, 3 16:00, 3 19:00'
const FA_KICKOFFS = '0 12:15, 0 15:00, 0 15:00, 0 15:00, 0 17:30, 0 19:45'

export const LEAGUES: readonly LeagueSpec[] = [
  domestic(271, 'Superliga', 'DNK SL', 'DNK', 12, 2, 0.55, '0 17:00, 1 13:00, 1 15:00, 2 12:00, 2 14:00, 3 17:00'),
  domestic(501, 'Premiership', 'SCO P', 'SCO', 12, 2, 0.6, '0 19:45, 1 11:30, 1 14:00, 1 14:00, 1 16:30, 2 12:00'),
  domestic(8, 'Premier League', 'UK PL', 'ENG', 20, 1, 0.5,
    '0 19:00, 1 11:30, 1 14:00, 1 14:00, 1 14:00, 1 16:30, 2 13:00, 2 13:00, 2 15:30, 3 19:00'),
  domestic(564, 'La Liga', 'ESP PL', 'ESP', 20, 1, 0.5,
    '0 19:00, 1 12:00, 1 14:15, 1 16:30, 1 19:00, 2 12:00, 2 14:15, 2 16:30, 2 19:00, 3 19:00'),
  domestic(82, 'Bundesliga', 'GER BL', 'DEU', 18, 1, 0.45, '0 18:30, 1 13:30, 1 13:30, 1 13:30, 1 13:30, 1 16:30, 2 13:30, 2 15:30, 2 17:30'),
  domestic(384, 'Serie A', 'ITA SA', 'ITA', 20, 1, 0.5,
    '0 18:45, 1 13:00, 1 16:00, 1 18:45, 2 10:30, 2 13:00, 2 13:00, 2 16:00, 2 18:45, 3 18:45'),
  domestic(301, 'Ligue 1', 'FRA L1', 'FRA', 18, 1, 0.45, '0 19:00, 1 15:00, 1 17:00, 1 19:00, 2 12:00, 2 14:00, 2 14:00, 2 16:15, 2 18:45'),
  domestic(72, 'Eredivisie', 'NLD E', 'NLD', 18, 2, 0.5, '0 19:00, 1 15:30, 1 17:45, 1 19:00, 1 20:00, 2 11:15, 2 13:30, 2 13:30, 2 15:45'),
  domestic(462, 'Liga Portugal', 'POR LP', 'PRT', 18, 2, 0.5, '0 19:15, 1 15:30, 1 18:00, 1 20:30, 2 14:00, 2 16:30, 2 19:00, 3 18:15, 3 20:15'),
  {
    id: 24,
    name: 'FA Cup',
    short_code: 'UK FA',
    country: 'ENG',
    sub_type: 'domestic_cup',
    category: 2,
    draw: 'fa-cup',
    teams: 0,
    seasons: 3,
    seasonDays: 364,
    naming: 'split',
    phases: [
      ko('3rd Round', 32, FA_KICKOFFS, { gap: 0 }),
      ko('4th Round', 16, FA_KICKOFFS),
      ko('5th Round', 8, FA_KICKOFFS),
      ko('Quarter-finals', 4, FA_KICKOFFS),
      ko('Semi-finals', 2, '0 12:30, 0 16:45', { neutral: true }),
      ko('Final', 1, '0 14:00', { neutral: true })
    ],
    current: 2,
    anchorShift: 5,
    premiumOdds: false
  },
  {
    id: 2,
    name: 'Champions League',
    short_code: 'UEFA CL',
    country: 'EUR',
    sub_type: 'cup_international',
    category: 1,
    draw: 'champions',
    teams: 0,
    seasons: 3,
    seasonDays: 364,
    naming: 'split',
    phases: [
      ko('Play-offs', 8, CL_KICKOFFS, { type: 225, legs: 2, gap: 0 }),
      table('Group Stage', 4, CL_KICKOFFS, { groups: 8, spacing: 14, gap: 21, advance: 2 }),
      ko('Round of 16', 8, CL_KICKOFFS, { legs: 2, gap: 35 }),
      ko('Quarter-finals', 4, CL_KICKOFFS, { legs: 2, gap: 21 }),
      ko('Semi-finals', 2, CL_KICKOFFS, { legs: 2, gap: 14 }),
      ko('Final', 1, '1 19:00', { gap: 21, neutral: true })
    ],
    current: 5,
    anchorShift: 3,
    premiumOdds: true
  },
  {
    id: 1326,
    name: 'European Championship',
    short_code: 'UEFA EC',
    country: 'EUR',
    sub_type: 'international',
    category: 1,
    draw: 'euro',
    teams: 0,
    seasons: 3,
    seasonDays: 1456,
    naming: 'year',
    phases: [
      table('Group Stage', 4, EURO_KICKOFFS, { groups: 6, legs: 1, spacing: 4, advance: 2, bestThirds: 4 }),
      ko('Round of 16', 8, EURO_KO_KICKOFFS, { gap: 5 }),
      ko('Quarter-finals', 4, EURO_KO_KICKOFFS, { gap: 5 }),
      ko('Semi-finals', 2, EURO_KO_KICKOFFS, { gap: 4 }),
      ko('Final', 1, '0 19:00', { gap: 4 })
    ],
    current: 3,
    anchorShift: -1,
    premiumOdds: true
  },
  {
    id: 513,
    name: 'Premiership Play-Offs',
    short_code: 'SCO PO',
    country: 'SCO',
    sub_type: 'play-offs',
    category: 3,
    draw: 'playoffs',
    teams: 0,
    seasons: 2,
    seasonDays: 364,
    naming: 'split',
    phases: [
      ko('Quarter-final', 1, '0 18:45', { type: 225, legs: 2, gap: 0 }),
      ko('Semi-final', 1, '0 18:45', { legs: 2, gap: 7 }),
      ko('Final', 1, '0 18:45', { legs: 2, gap: 7 })
    ],
    current: 2,
    anchorShift: 3,
    premiumOdds: false
  },
  {
    // One fixture every hour around the clock from two days before the anchor to two days after, so that a
    // simulator started at any time of day has matches to play.
    id: 1101,
    name: 'Club Friendlies',
    short_code: 'CF',
    country: 'EUR',
    sub_type: 'friendly',
    category: 4,
    draw: 'friendlies',
    teams: 0,
    seasons: 2,
    seasonDays: 364,
    naming: 'year',
    phases: [{
      kind: 'friendly',
      type: 223,
      name: 'Club Friendlies',
      days: 5,
      spacing: 1,
      gap: 0,
      kickoffs: Array.from({ length: 24 }, (_, h) => `0 ${String(h).padStart(2, '0')}:00`).join(', ')
    }],
    current: 2,
    anchorShift: 0,
    premiumOdds: false
  }
]

/** Clubs that exist outside the leagues: English lower-league clubs for the FA Cup, Scottish Championship
 * clubs for the play-offs, and a pool of clubs per other European country (Champions League, friendlies). */
export const FA_CUP_EXTRA_CLUBS = 44
export const SCOTTISH_CHAMPIONSHIP_CLUBS = 3
export const CLUB_POOL_PER_COUNTRY = 3

/** Champions League entrants taken from the domestic leagues: iso3 → [direct to the groups, to the play-offs]. */
export const CL_ENTRANTS: Readonly<Record<string, readonly [number, number]>> = {
  ENG: [4, 0], ESP: [4, 0], DEU: [4, 0], ITA: [4, 0], FRA: [3, 0], NLD: [2, 1], PRT: [2, 1], DNK: [1, 1], SCO: [0, 1]
}
