/**
 * Small builders of upstream fixtures for the normalizer and differ tests: a live fixture between
 * Home FC (100) and Away FC (200), with CURRENT score rows and whatever the test overrides.
 */
import type { EventInput, FixtureInput, PeriodInput, ScoreInput } from '../../../src/diff/input.ts'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'

export const HOME_ID = 100
export const AWAY_ID = 200
export const NOW = '2026-11-21T20:15:03.120Z'

export const homeTeam = { id: HOME_ID, name: 'Home FC', short_code: 'HOM', image_path: 'https://img/100.png', meta: { location: 'home' } }
export const awayTeam = { id: AWAY_ID, name: 'Away FC', short_code: 'AWA', image_path: 'https://img/200.png', meta: { location: 'away' } }

const TYPE_DESCRIPTIONS: Record<number, string> = { 1525: 'CURRENT', 1: '1ST_HALF', 2: '2ND_HALF', 5: 'PENALTY_SHOOTOUT' }

/** The two rows of one score type. */
export function scoreRows (typeId: number, home: number, away: number): ScoreInput[] {
  const description = TYPE_DESCRIPTIONS[typeId] ?? `TYPE_${typeId}`
  return [
    { id: typeId * 10 + 1, type_id: typeId, participant_id: HOME_ID, score: { goals: home, participant: 'home' }, description },
    { id: typeId * 10 + 2, type_id: typeId, participant_id: AWAY_ID, score: { goals: away, participant: 'away' }, description }
  ]
}

export function ticking (description: string, minutes: number | null, typeId = 1): PeriodInput {
  return { type_id: typeId, description, ticking: true, minutes, sort_order: 1 }
}

export function event (id: number, typeId: number, minute: number, side: 'home' | 'away', extra: Partial<EventInput> = {}): EventInput {
  return {
    id,
    type_id: typeId,
    participant_id: side === 'home' ? HOME_ID : AWAY_ID,
    section: 'event',
    player_id: id * 10,
    player_name: `Player ${id}`,
    related_player_id: null,
    related_player_name: null,
    result: null,
    info: null,
    addition: null,
    minute,
    extra_minute: null,
    sort_order: 1,
    ...extra
  }
}

/** An upstream fixture in the first half at 0-0, 12th minute. */
export function upstream (overrides: Partial<FixtureInput> = {}): FixtureInput {
  return {
    id: 19146701,
    league_id: 271,
    season_id: 23584,
    stage_id: 77471570,
    round_id: 339999,
    state_id: 2,
    name: 'Home FC vs Away FC',
    starting_at: '2026-11-21 20:00:00',
    starting_at_timestamp: 1795291200,
    result_info: null,
    length: 90,
    participants: [homeTeam, awayTeam],
    scores: scoreRows(1525, 0, 0),
    events: [],
    currentperiod: ticking('1st-half', 12),
    ...overrides
  }
}

/** The normalized fixture of `upstream(overrides)`. */
export function live (overrides: Partial<FixtureInput> = {}): LiveFixture {
  return normalizeFixture(upstream(overrides), { now: NOW })
}
