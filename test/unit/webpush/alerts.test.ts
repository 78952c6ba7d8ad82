import { describe, expect, it } from 'vitest'
import { alertsOf, ceilingOf, payloadOf, topicOf } from '../../../src/webpush/alerts.ts'
import { STATE_BY_CODE } from '../../../packages/upstream-contract/src/states.ts'
import type { Change, ChangeRecord, LiveEvent, LiveFixture } from '../../../src/wire-model/model.ts'
import { MAX_PAYLOAD_BYTES } from '../../../src/wire-model/webpush.ts'

const state = (code: string): LiveFixture['state'] => {
  const s = STATE_BY_CODE.get(code)
  if (s === undefined) throw new Error(code)
  return { id: s.id, code: s.state, name: s.name, phase: s.phase }
}

function fixture (over: Partial<LiveFixture> = {}): LiveFixture {
  const base: LiveFixture = JSON.parse(JSON.stringify({
    id: 123, league_id: 501, season_id: 1, stage_id: 1, round_id: null, name: 'Celtic vs Rangers', starting_at: null, minute: 67, period: null, clock: null, scores: {}, events: [], result_info: null, length: 90, updated_at: '2026-11-21T20:00:00.000Z', version: 3
  }))
  base.state = state('INPLAY_2ND_HALF')
  base.home = { id: 10, name: 'Celtic', short_code: null, image_path: null, score: 2 }
  base.away = { id: 11, name: 'Rangers', short_code: null, image_path: null, score: 1 }
  return { ...base, ...over }
}

const event = (id: number, type: string, minute: number, player: string | null, side: 'home' | 'away' = 'home', result: string | null = null): LiveEvent => {
  const details = { extra_minute: null, related_player: null, info: null, addition: null, sort_order: null }
  return { ...details, id, type_id: 14, type, minute, side, team_id: side === 'home' ? 10 : 11, player: player === null ? null : { id: null, name: player }, result }
}

const record = (changes: Change[], f = fixture()): ChangeRecord => ({ cursor: 'e:1', fixture_id: f.id, league_id: f.league_id, at: f.updated_at, live: true, changes, fixture: f })
const brief = (r: ChangeRecord) => alertsOf(r).map((a) => ({ id: a.id, kind: a.kind, title: a.title, body: a.body, topic: a.topic }))

describe('alertsOf', () => {
  it('a goal reads like a livescore app, with the score after it from the event', () => {
    const goal = event(501, 'GOAL', 67, 'Furuhashi', 'home', '2-1')
    expect(brief(record([{ kind: 'score_changed', home: 2, away: 1, previous: { home: 1, away: 1 }, goals: [goal] }, { kind: 'event_added', event: goal }])))
      .toEqual([{ id: 'f123:goal:e501', kind: 'goal', title: 'GOAL! Celtic 2-1 Rangers', body: '67\' Furuhashi', topic: 'f123-goal' }])
  })

  it('marks penalties and own goals, and added time', () => {
    const pen = { ...event(7, 'PENALTY', 90, 'Tavernier', 'away', '2-2'), extra_minute: 3 }
    const og = event(8, 'OWNGOAL', 12, 'Carter-Vickers', 'home', '0-1')
    expect(alertsOf(record([{ kind: 'event_added', event: pen }])).map((a) => a.body)).toEqual(['90+3\' Tavernier (pen)'])
    expect(alertsOf(record([{ kind: 'event_added', event: og }])).map((a) => [a.title, a.body])).toEqual([['GOAL! Celtic 0-1 Rangers', '12\' Carter-Vickers (o.g.)']])
    // With no player named, the goal is said to be the side it counts for: Celtic's own goal is Rangers'.
    const unnamed = event(9, 'OWNGOAL', 14, null, 'home', '0-1')
    expect(alertsOf(record([{ kind: 'event_added', event: unnamed }])).map((a) => a.body)).toEqual(['14\' Goal for Rangers (o.g.)'])
  })

  it('a score that rose without its event gets one alert by the score; a shoot-out score gets none', () => {
    expect(brief(record([{ kind: 'score_changed', home: 2, away: 1, previous: { home: 1, away: 1 } }])).map((a) => [a.id, a.title]))
      .toEqual([['f123:goal:s2-1', 'GOAL! Celtic 2-1 Rangers']])
    expect(alertsOf(record([{ kind: 'score_changed', home: 3, away: 2, previous: { home: 2, away: 2 }, score_type: 'penalty_shootout' }]))).toEqual([])
    // A score going down is the disallowed goal's, not a goal.
    expect(alertsOf(record([{ kind: 'score_changed', home: 1, away: 1, previous: { home: 2, away: 1 } }]))).toEqual([])
  })

  it('a goal VAR takes back is "Goal disallowed" under the goal\'s topic', () => {
    const goal = event(501, 'GOAL', 67, 'Furuhashi', 'home', '2-1')
    const after = fixture({ home: { ...fixture().home, score: 1 } })
    const [a] = alertsOf(record([{ kind: 'score_changed', home: 1, away: 1, previous: { home: 2, away: 1 } }, { kind: 'event_removed', event: goal }], after))
    expect(a).toMatchObject({ id: 'f123:goal_disallowed:e501', kind: 'goal_disallowed', wants: 'goal', title: 'Goal disallowed: Celtic 1-1 Rangers', body: '67\' Furuhashi\'s goal ruled out', topic: 'f123-goal', urgency: 'high' })
  })

  it('red cards (a second yellow too) but not yellow ones', () => {
    const red = event(9, 'YELLOWREDCARD', 58, 'Goldson', 'away')
    const yellow = event(10, 'YELLOWCARD', 59, 'Kyogo')
    expect(brief(record([{ kind: 'event_added', event: red }, { kind: 'event_added', event: yellow }])))
      .toEqual([{ id: 'f123:red_card:e9', kind: 'red_card', title: 'Red card: Celtic 2-1 Rangers', body: '58\' Goldson (Rangers)', topic: 'f123-card' }])
  })

  it('kick-off and half time from the state; full time only once final', () => {
    const f = fixture({ home: { ...fixture().home, score: 0 }, away: { ...fixture().away, score: 0 }, state: state('INPLAY_1ST_HALF') })
    expect(brief(record([{ kind: 'state_changed', state: state('INPLAY_1ST_HALF'), previous: state('NS') }], f)).map((a) => [a.id, a.title]))
      .toEqual([['f123:kick_off', 'Kick-off: Celtic 0-0 Rangers']])
    const goals = [event(1, 'GOAL', 23, 'Furuhashi'), event(2, 'PENALTY', 55, 'Tavernier', 'away')]
    const ht = fixture({ state: state('HT'), events: goals })
    expect(alertsOf(record([{ kind: 'state_changed', state: state('HT'), previous: state('INPLAY_1ST_HALF') }], ht)).map((a) => [a.kind, a.body]))
      .toEqual([['half_time', 'Furuhashi 23\', Tavernier 55\' (pen)']])
    // A goal with no scorer named is its team's in the list: an own goal filed under Celtic is Rangers'.
    const unnamed = fixture({ state: state('HT'), events: [event(3, 'OWNGOAL', 31, null, 'home'), event(4, 'GOAL', 40, null, 'home')] })
    expect(alertsOf(record([{ kind: 'state_changed', state: state('HT'), previous: state('INPLAY_1ST_HALF') }], unnamed)).map((a) => a.body))
      .toEqual(['Rangers 31\' (o.g.), Celtic 40\''])
    // FT while still in the live feed is not final (a cup tie may go on); leaving the live set makes it so.
    const ft = fixture({ state: state('FT'), events: goals })
    expect(alertsOf(record([{ kind: 'state_changed', state: state('FT'), previous: state('INPLAY_2ND_HALF') }], ft))).toEqual([])
    expect(brief(record([{ kind: 'fixture_removed' }], ft)).map((a) => [a.id, a.title])).toEqual([['f123:full_time', 'Full time: Celtic 2-1 Rangers']])
    // After extra time or penalties the state is final at once.
    const aet = fixture({ state: state('AET') })
    expect(alertsOf(record([{ kind: 'state_changed', state: state('AET'), previous: state('INPLAY_ET_2ND_HALF') }], aet)).map((a) => a.id)).toEqual(['f123:full_time'])
  })

  it('gives TTL and Urgency by kind, and a topic of at most 32 URL-safe characters', () => {
    const f = fixture({ id: 9_007_199_254_740_991 })
    expect(topicOf(f.id, 'goal_disallowed')).toMatch(/^[A-Za-z0-9_-]{1,32}$/)
    const [goal] = alertsOf(record([{ kind: 'event_added', event: event(1, 'GOAL', 1, 'A') }], f))
    const [ft] = alertsOf(record([{ kind: 'fixture_removed' }], fixture({ state: state('FT') })))
    expect([goal?.ttl, goal?.urgency, ft?.ttl, ft?.urgency]).toEqual([300, 'high', 3600, 'normal'])
  })
})

describe('payloadOf', () => {
  it('carries the contract\'s fields and stays within 3 KB', () => {
    const [a] = alertsOf(record([{ kind: 'event_added', event: event(1, 'GOAL', 1, 'x'.repeat(5000)) }]))
    if (a === undefined) throw new Error('no alert')
    const json = payloadOf(a, '2026-11-21T20:00:00.000Z')
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES)
    expect(JSON.parse(json)).toMatchObject({ id: 'f123:goal:e1', kind: 'goal', title: 'GOAL! Celtic 2-1 Rangers', fixture_id: 123, url: '/?fixture=123', tag: 'f123-goal', sent_at: '2026-11-21T20:00:00.000Z' })
  })
})

describe('ceilingOf', () => {
  it('stops the least important kinds first under the hourly cap', () => {
    const at30 = [0, 1, 2, 3, 4].map((i) => ceilingOf(i, 30))
    expect(at30).toEqual([15, 18, 24, 27, 30])
    expect(ceilingOf(0, 1)).toBe(1)
  })
})
