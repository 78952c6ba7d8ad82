import { describe, expect, it } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import { recordedFixture } from '../upstream/recordings.ts'
import { AWAY_ID, HOME_ID, NOW, awayTeam, event, homeTeam, live, scoreRows, ticking, upstream } from './builders.ts'

describe('normalizeFixture on Manchester United vs Aston Villa (FT 2-0)', () => {
  const fixture = normalizeFixture(recordedFixture('manutdVilla'), { now: NOW })

  it('reads the base fields, the final state and no running clock', () => {
    expect(fixture).toMatchObject({
      id: 19135043,
      league_id: 8,
      season_id: 23614,
      stage_id: 77471288,
      round_id: 339273,
      name: 'Manchester United vs Aston Villa',
      starting_at: '2025-05-25T15:00:00.000Z',
      state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' },
      minute: null,
      period: null,
      result_info: 'Manchester United won after full-time.',
      length: 90,
      updated_at: NOW,
      version: 0
    })
  })

  it('places the teams by meta.location and takes the score from CURRENT', () => {
    expect(fixture.home).toEqual({ id: 14, name: 'Manchester United', short_code: 'MUN', image_path: 'https://cdn.sportmonks.com/images/soccer/teams/14/14.png', score: 2 })
    expect(fixture.away).toMatchObject({ id: 15, name: 'Aston Villa', short_code: 'AVL', score: 0 })
    expect(fixture.scores).toEqual({
      current: { home: 2, away: 0 },
      '1st_half': { home: 0, away: 0 },
      '2nd_half': { home: 2, away: 0 },
      '2nd_half_only': { home: 2, away: 0 }
    })
  })

  it('normalizes the 17 events in match order with sides and type names', () => {
    expect(fixture.events).toHaveLength(17)
    expect(fixture.events.map((e) => `${e.minute}${e.extra_minute ? `+${e.extra_minute}` : ''} ${e.type}`).slice(0, 4))
      .toEqual(['20 SUBSTITUTION', '45+1 YELLOWCARD', '45+1 REDCARD', '45+4 SUBSTITUTION'])
    const goals = fixture.events.filter((e) => e.type === 'GOAL' || e.type === 'PENALTY')
    expect(goals).toEqual([
      expect.objectContaining({ id: 150479702, type: 'GOAL', minute: 76, side: 'home', team_id: 14, result: '1-0', player: { id: 37317015, name: 'Amad' } }),
      expect.objectContaining({ id: 150480200, type: 'PENALTY', minute: 87, side: 'home', result: '2-0', addition: '1st Penalty' })
    ])
    const sub = fixture.events.find((e) => e.id === 150477385)
    expect(sub?.related_player).toEqual({ id: 28716, name: 'Noussair Mazraoui' })
  })
})

describe('normalizeFixture on Paris Saint Germain vs Arsenal (1-1, 4-3 on penalties)', () => {
  const fixture = normalizeFixture(recordedFixture('psgArsenal'), { now: NOW })

  it('places PSG at home although the participants list Arsenal first', () => {
    expect(fixture.home).toMatchObject({ id: 591, name: 'Paris Saint Germain', score: 1 })
    expect(fixture.away).toMatchObject({ id: 19, name: 'Arsenal', score: 1 })
  })

  it('uses the English state name of the table, not the translated include', () => {
    expect(fixture.state).toEqual({ id: 8, code: 'FT_PEN', name: 'After Penalties', phase: 'finished' })
    expect(fixture.round_id).toBeNull()
    expect(fixture.result_info).toBe('Paris Saint Germain won after penalties.')
    expect(fixture.starting_at).toBe('2026-05-30T16:00:00.000Z')
  })

  it('keys all 8 score types and keeps the shoot-out out of CURRENT', () => {
    expect(fixture.scores).toEqual({
      current: { home: 1, away: 1 },
      '1st_half': { home: 0, away: 1 },
      '2nd_half': { home: 1, away: 1 },
      '2nd_half_only': { home: 1, away: 0 },
      et: { home: 0, away: 0 },
      et_1st_half: { home: 0, away: 0 },
      et_2nd_half: { home: 0, away: 0 },
      penalty_shootout: { home: 4, away: 3 }
    })
    expect(fixture.minute).toBeNull()
    expect(fixture.period).toBeNull()
  })

  it('orders the 10 shoot-out kicks after the match events, by kick number', () => {
    expect(fixture.events).toHaveLength(30)
    const kicks = fixture.events.slice(20)
    expect(kicks.map((e) => e.minute)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(kicks.every((e) => e.type.startsWith('PENALTY_SHOOTOUT_'))).toBe(true)
    expect(kicks.filter((e) => e.type === 'PENALTY_SHOOTOUT_GOAL')).toHaveLength(7)
    expect(fixture.events[0]).toMatchObject({ id: 157087821, type: 'GOAL', minute: 6, side: 'away', result: '0-1' })
  })

  it('keeps a card given to a coach with no player id', () => {
    const coachCard = fixture.events.find((e) => e.id === 157089005)
    expect(coachCard).toMatchObject({ type: 'YELLOWCARD', side: 'away', player: { id: null, name: 'Mikel Arteta' } })
  })
})

describe('normalizeFixture: team placement fallbacks', () => {
  const noMeta = { ...homeTeam, meta: undefined }
  const noMetaAway = { ...awayTeam, meta: undefined }

  it('uses the score rows when meta is missing', () => {
    const fixture = normalizeFixture(upstream({ participants: [noMetaAway, noMeta], name: null, scores: scoreRows(1525, 3, 1) }))
    expect([fixture.home.id, fixture.away.id]).toEqual([HOME_ID, AWAY_ID])
    expect([fixture.home.score, fixture.away.score]).toEqual([3, 1])
  })

  it('uses the "Home vs Away" name when neither meta nor scores tell', () => {
    const fixture = normalizeFixture(upstream({ participants: [noMetaAway, noMeta], scores: [] }))
    expect([fixture.home.name, fixture.away.name]).toEqual(['Home FC', 'Away FC'])
    expect(fixture.scores).toEqual({})
    expect([fixture.home.score, fixture.away.score]).toEqual([0, 0])
  })

  it('gives the other team the other side when one side is known', () => {
    const fixture = normalizeFixture(upstream({ participants: [noMeta, awayTeam], name: null, scores: [] }))
    expect([fixture.home.id, fixture.away.id]).toEqual([HOME_ID, AWAY_ID])
  })

  it('builds teams from score rows and the name without participants', () => {
    const fixture = normalizeFixture(upstream({ participants: undefined, scores: scoreRows(1525, 1, 0) }))
    expect(fixture.home).toEqual({ id: HOME_ID, name: 'Home FC', short_code: null, image_path: null, score: 1 })
    expect(fixture.away).toEqual({ id: AWAY_ID, name: 'Away FC', short_code: null, image_path: null, score: 0 })
  })
})

describe('normalizeFixture: state, clock and events', () => {
  it('ignores a translated state name and falls back to the include for an unknown id', () => {
    const spanish = live({ state_id: 3, state: { id: 3, state: 'HT', name: 'Descanso', developer_name: 'HT' } })
    expect(spanish.state).toEqual({ id: 3, code: 'HT', name: 'Half Time', phase: 'break' })
    const unknown = live({ state_id: 99, state: { id: 99, state: 'NEW', name: 'New state', developer_name: 'NEW_STATE' } })
    expect(unknown.state).toEqual({ id: 99, code: 'NEW_STATE', name: 'New state', phase: 'unknown' })
  })

  it('takes minute and period from the ticking current period', () => {
    expect(live({ state_id: 22, currentperiod: ticking('2nd-half', 97, 2) })).toMatchObject({ minute: 97, period: '2nd-half' })
  })

  it('falls back to detailedperiods, then periods, when currentperiod is absent', () => {
    const ended = { ...ticking('extra-time', 95, 3), ticking: false }
    const fromPeriods = live({ state_id: 6, currentperiod: undefined, periods: [ended, ticking('extra-time', 101, 3)] })
    expect(fromPeriods).toMatchObject({ minute: 101, period: 'extra-time' })
    const detailed = live({ state_id: 6, currentperiod: undefined, periods: [ticking('extra-time', 101, 3)], detailedperiods: [ticking('extra-time-1st-half', 101, 5314)] })
    expect(detailed).toMatchObject({ minute: 101, period: 'extra-time-1st-half' })
  })

  it('has no clock in breaks even if a stale period still ticks, nor without a ticking period', () => {
    expect(live({ state_id: 3 })).toMatchObject({ minute: null, period: null })
    expect(live({ state_id: 2, currentperiod: null })).toMatchObject({ minute: null, period: null })
  })

  it('reports the shoot-out period without a minute', () => {
    expect(live({ state_id: 9, currentperiod: ticking('penalties', null, 5) })).toMatchObject({ minute: null, period: 'penalties' })
  })

  it('keeps only section "event" rows and names unknown types', () => {
    const fixture = live({
      events: [
        event(3, 126, 10, 'home', { section: 'timeline' }),
        event(2, 999, 9, 'away', { type: { developer_name: 'NEW_THING' } }),
        event(1, 14, 9, 'home', { section: undefined }),
        event(4, 998, 11, 'away', { participant_id: 12345 })
      ]
    })
    expect(fixture.events.map((e) => [e.id, e.type, e.side])).toEqual([[1, 'GOAL', 'home'], [2, 'NEW_THING', 'away'], [4, 'TYPE_998', null]])
  })

  it('reads starting_at as UTC when the timestamp is missing, and does not touch its input', () => {
    const input = upstream({ starting_at_timestamp: null, starting_at: '2026-11-21 19:45:00' })
    const copy = structuredClone(input)
    expect(normalizeFixture(input).starting_at).toBe('2026-11-21T19:45:00.000Z')
    expect(input).toEqual(copy)
    expect(normalizeFixture(input).updated_at).toBe('1970-01-01T00:00:00.000Z')
  })
})
