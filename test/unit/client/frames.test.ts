/**
 * How the client applies a change frame to the fixture it holds (nextFixture): a delta applies to exactly
 * the previous version, a version jump is a gap (a lost frame, healed by a resubscribe with since), and a
 * frame that is not newer than the fixture held is stale (replays overlap snapshots), so no change counts twice.
 */
import { describe, expect, it } from 'vitest'
import { eventsOf, nextFixture } from '@touchline/client'

const fixture = (version: number, home = 0): any => ({
  id: 7,
  league_id: 271,
  version,
  state: { id: 2, code: 'INPLAY_1ST_HALF', name: '1st half', phase: 'live' },
  minute: 10,
  home: { id: 1, name: 'A', score: home },
  away: { id: 2, name: 'B', score: 0 },
  scores: { current: { home, away: 0 } },
  events: [],
  updated_at: '2026-11-21T19:00:00.000Z'
})
const goal = (version: number) => ({
  type: 'change',
  cursor: `e:${version}`,
  fixture_id: 7,
  league_id: 271,
  version,
  at: '2026-11-21T19:10:00.000Z',
  changes: [{ kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }]
})

describe('nextFixture', () => {
  it('applies a delta to the previous version', () => {
    const next = nextFixture(fixture(4) as any, goal(5) as any)
    expect(next.status).toBe('applied')
    if (next.status !== 'applied') return
    expect(next.fixture).toMatchObject({ version: 5, home: { score: 1 }, scores: { current: { home: 1, away: 0 } }, updated_at: '2026-11-21T19:10:00.000Z' })
  })

  it('calls a skipped version a gap, and a delta for a fixture not held a gap', () => {
    expect(nextFixture(fixture(4) as any, goal(6) as any)).toEqual({ status: 'gap' })
    expect(nextFixture(undefined, goal(1) as any)).toEqual({ status: 'gap' })
  })

  it('calls a delta or a full frame that is not newer stale (a duplicate)', () => {
    expect(nextFixture(fixture(5) as any, goal(5) as any)).toEqual({ status: 'stale' })
    expect(nextFixture(fixture(5) as any, goal(3) as any)).toEqual({ status: 'stale' })
    expect(nextFixture(fixture(5) as any, { ...goal(5), fixture: fixture(5, 1) } as any)).toEqual({ status: 'stale' })
  })

  it('takes a full frame newer than the fixture held whatever the jump (a replay, or a kinds filter)', () => {
    const full = { ...goal(9), fixture: fixture(9, 1) }
    expect(nextFixture(fixture(5) as any, full as any)).toEqual({ status: 'applied', fixture: full.fixture })
    expect(nextFixture(undefined, full as any)).toEqual({ status: 'applied', fixture: full.fixture })
  })
})

describe('eventsOf', () => {
  const event = (type: string, side: 'home' | 'away') => ({ id: 1, type, side, minute: 20, player: { name: 'X' } })

  it('makes a goal per side whose main score went up, with the goal event of that side (an own goal counts for the other)', () => {
    const frame = {
      changes: [
        { kind: 'event_added', event: event('OWNGOAL', 'home') },
        { kind: 'score_changed', home: 1, away: 1, previous: { home: 1, away: 0 } }
      ]
    }
    expect(eventsOf(frame.changes as any, fixture(3, 1), fixture(2, 1), true)).toEqual([
      ['goal', { fixture: fixture(3, 1), side: 'away', score: { home: 1, away: 1 }, event: event('OWNGOAL', 'home'), replayed: true }]
    ])
  })

  it('makes one goal per goal the score change carries, each with its scorer, when two go in between two polls', () => {
    const first = { ...event('GOAL', 'home'), id: 1, minute: 20 }
    const second = { ...event('PENALTY', 'away'), id: 2, minute: 21 }
    const frame = { changes: [{ kind: 'score_changed', home: 1, away: 1, previous: { home: 0, away: 0 }, goals: [first, second] }] }
    expect(eventsOf(frame.changes as any, fixture(3, 1), fixture(2), false)).toEqual([
      ['goal', { fixture: fixture(3, 1), side: 'home', score: { home: 1, away: 1 }, event: first, replayed: false }],
      ['goal', { fixture: fixture(3, 1), side: 'away', score: { home: 1, away: 1 }, event: second, replayed: false }]
    ])
  })

  it('makes a goal without an event for a side whose score went up with no goal event', () => {
    const frame = { changes: [{ kind: 'score_changed', home: 0, away: 1, previous: { home: 0, away: 0 } }] }
    expect(eventsOf(frame.changes as any, fixture(3), fixture(2), false)).toEqual([
      ['goal', { fixture: fixture(3), side: 'away', score: { home: 0, away: 1 }, event: undefined, replayed: false }]
    ])
  })

  it('makes no goal for a score going down (VAR), nor for another score type (a shoot-out)', () => {
    const frame = {
      changes: [
        { kind: 'score_changed', home: 0, away: 0, previous: { home: 1, away: 0 } },
        { kind: 'score_changed', score_type: 'penalty_shootout', home: 3, away: 2, previous: { home: 2, away: 2 } }
      ]
    }
    expect(eventsOf(frame.changes as any, fixture(3), fixture(2), false)).toEqual([])
  })

  it('makes a state event for a state change', () => {
    const ht = { id: 3, code: 'HT', name: 'Half time', phase: 'break' }
    const frame = { changes: [{ kind: 'state_changed', state: ht, previous: fixture(2).state }] }
    expect(eventsOf(frame.changes as any, fixture(3), fixture(2), false)).toEqual([['state', { fixture: fixture(3), state: ht, previous: fixture(2).state, replayed: false }]])
  })
})
