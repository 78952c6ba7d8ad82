/** A complete, valid LiveFixture for store tests; pure, so unit tests can use it too. */
import type { LiveFixture } from '../../../src/wire-model/model.ts'

export function fixture (id: number, leagueId: number, overrides: Partial<LiveFixture> = {}): LiveFixture {
  const team = (teamId: number, name: string) => ({ id: teamId, name, short_code: null, image_path: null, score: 0 })
  return {
    id,
    league_id: leagueId,
    season_id: 1,
    stage_id: 1,
    round_id: null,
    name: `Home ${id} vs Away ${id}`,
    starting_at: '2026-11-21T19:00:00Z',
    state: { id: 2, code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' },
    minute: 10,
    period: '1st-half',
    home: team(id * 10, `Home ${id}`),
    away: team(id * 10 + 1, `Away ${id}`),
    scores: { current: { home: 0, away: 0 } },
    events: [],
    statistics: {},
    lineups: null,
    result_info: null,
    length: 90,
    updated_at: '2026-11-21T19:10:00Z',
    version: 0,
    ...overrides
  }
}
