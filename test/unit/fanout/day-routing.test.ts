/**
 * Days in the hub's routing index and in the consumers' filter: a change reaches those following its
 * fixture's day (in their time zone), and, when the change moved the kick-off, those following the day it
 * left; a change outside the live set reaches only the day's and the fixture's followers, never a league's.
 */
import { describe, expect, it } from 'vitest'
import { dateAt, dayRange, recordKickoffs } from '../../../src/protocol/days.ts'
import { inLiveSet, recordMatcher } from '../../../src/protocol/filter.ts'
import { Connection } from '../../../src/fanout/connection.ts'
import { Outgoing } from '../../../src/fanout/outgoing.ts'
import { RoutingIndex } from '../../../src/fanout/routing.ts'
import type { ClientKey } from '../../../src/client-keys.ts'
import type { Change, ChangeRecord } from '../../../src/wire-model/model.ts'
import { fixture } from '../../integration/store/fixture.ts'

const key = (leagues: ClientKey['leagues'] = '*'): ClientKey =>
  ({ key: 'k', name: 'k', leagues, hourly_quota: 1, max_connections: 1, allowed_origins: '*', features: [] })

class FakeConnection extends Connection {
  readonly transport = 'ws' as const
  sendControl (): number { return 0 }
  sendChange (): number { return 1 }
  sendSnapshot (): number { return 0 }
  bufferedAmount (): number { return 0 }
  close (): void {}
  terminate (): void {}
  dropSlow (): void {}
}

let offset = 0
function record (fixtureId: number, leagueId: number, startingAt: string, live: boolean, changes: Change[] = []): ChangeRecord {
  return { cursor: `e:${++offset}`, fixture_id: fixtureId, league_id: leagueId, at: 'now', live, changes, fixture: fixture(fixtureId, leagueId, { starting_at: startingAt }) }
}
const routed = (index: RoutingIndex, r: ChangeRecord): number[] => {
  const out: number[] = []
  index.forEachMatch(Outgoing.of(r, JSON.stringify(r)), (c) => out.push(c.id))
  return out.sort((a, b) => a - b)
}
const days = (...list: Array<[string, string]>) => new Map(list.map(([date, tz]) => [date, dayRange(date, tz)]))
const none = { leagues: [], fixtures: [], teams: [] }

describe('a day in a time zone', () => {
  it('runs from midnight to midnight there, 23 or 25 hours across a change of clocks', () => {
    expect(dayRange('2026-11-28')).toEqual({ from: Date.parse('2026-11-28T00:00:00Z'), to: Date.parse('2026-11-29T00:00:00Z') })
    expect(dayRange('2026-11-28', 'Europe/London')).toEqual({ from: Date.parse('2026-11-28T00:00:00Z'), to: Date.parse('2026-11-29T00:00:00Z') })
    expect(dayRange('2026-11-28', 'Asia/Tokyo')).toEqual({ from: Date.parse('2026-11-27T15:00:00Z'), to: Date.parse('2026-11-28T15:00:00Z') })
    // London springs forward on 29 March 2026 (23 h) and falls back on 25 October (25 h).
    const spring = dayRange('2026-03-29', 'Europe/London')
    expect((spring.to - spring.from) / 3_600_000).toBe(23)
    const autumn = dayRange('2026-10-25', 'Europe/London')
    expect((autumn.to - autumn.from) / 3_600_000).toBe(25)
    expect(dateAt(Date.parse('2026-11-28T23:30:00Z'), 'Europe/Paris')).toBe('2026-11-29')
  })

  it('takes in a record by its kick-off, and by the kick-off before a move', () => {
    const moved = record(1, 271, '2026-11-29T15:00:00.000Z', false, [{ kind: 'fixture_updated', fields: { starting_at: { value: '2026-11-29T15:00:00.000Z', previous: '2026-11-28T20:00:00.000Z' } } }])
    expect(recordKickoffs(moved)).toEqual([Date.parse('2026-11-29T15:00:00Z'), Date.parse('2026-11-28T20:00:00Z')])
  })
})

describe('routing days', () => {
  it('reaches the followers of the day, in their own zone, each once', () => {
    const index = new RoutingIndex()
    const utc = new FakeConnection(1, key())
    const tokyo = new FakeConnection(2, key())
    const both = new FakeConnection(3, key())
    index.add(utc, { ...none, days: days(['2026-11-28', 'UTC']) })
    index.add(tokyo, { ...none, days: days(['2026-11-28', 'Asia/Tokyo']) })
    index.add(both, { ...none, days: days(['2026-11-28', 'UTC'], ['2026-11-29', 'UTC']) })
    // 20:00 UTC on the 28th is the 29th in Tokyo.
    expect(routed(index, record(1, 271, '2026-11-28T20:00:00.000Z', false))).toEqual([1, 3])
    expect(routed(index, record(1, 271, '2026-11-28T10:00:00.000Z', false))).toEqual([1, 2, 3])
    // A kick-off moved from the 28th to the 29th: those of the 28th learn it left, those of the 29th it came; once each.
    const moved = record(1, 271, '2026-11-29T15:00:00.000Z', false, [{ kind: 'fixture_updated', fields: { starting_at: { value: '2026-11-29T15:00:00.000Z', previous: '2026-11-28T20:00:00.000Z' } } }])
    expect(routed(index, moved)).toEqual([1, 3])
  })

  it('keeps a change outside the live set from league, team and every-league followers, not from the fixture\'s', () => {
    const index = new RoutingIndex()
    const league = new FakeConnection(1, key())
    const team = new FakeConnection(2, key())
    const all = new FakeConnection(3, key())
    const byId = new FakeConnection(4, key())
    index.add(league, { ...none, leagues: [271] })
    index.add(team, { ...none, teams: [10] })
    index.add(all, { ...none, all: true })
    index.add(byId, { ...none, fixtures: [1] })
    const scheduled = record(1, 271, '2026-11-28T20:00:00.000Z', false, [{ kind: 'fixture_scheduled' }])
    expect(routed(index, scheduled)).toEqual([4])
    // In the live set, every one of them.
    expect(routed(index, record(1, 271, '2026-11-28T20:00:00.000Z', true))).toEqual([1, 2, 3, 4])
    // Leaving the live set (fixture_removed, live false) still reaches those who had it.
    expect(routed(index, record(1, 271, '2026-11-28T20:00:00.000Z', false, [{ kind: 'fixture_removed' }]))).toEqual([1, 2, 3, 4])
  })

  it('keeps a scoped key to its leagues on days too, and forgets a day unfollowed', () => {
    const index = new RoutingIndex()
    const scoped = new FakeConnection(1, key([501]))
    index.add(scoped, { ...none, days: days(['2026-11-28', 'UTC']) })
    expect(routed(index, record(1, 271, '2026-11-28T20:00:00.000Z', false))).toEqual([])
    expect(routed(index, record(2, 501, '2026-11-28T20:00:00.000Z', false))).toEqual([1])
    index.remove(scoped, { ...none, days: new Map(scoped.days) })
    expect(scoped.days.size).toBe(0)
    expect(routed(index, record(2, 501, '2026-11-28T20:00:00.000Z', false))).toEqual([])
  })
})

describe('the consumers\' filter', () => {
  const day = dayRange('2026-11-28')
  it('takes the live set by league, and a fixture of a day by its day or its id', () => {
    const scheduled = record(1, 271, '2026-11-28T20:00:00.000Z', false)
    const live = record(1, 271, '2026-11-28T20:00:00.000Z', true)
    expect(inLiveSet(scheduled)).toBe(false)
    expect(inLiveSet(live)).toBe(true)
    expect(recordMatcher(undefined)(scheduled)).toBe(false)
    expect(recordMatcher(undefined)(live)).toBe(true)
    expect(recordMatcher({ leagues: [271] })(scheduled)).toBe(false)
    expect(recordMatcher({ leagues: [271] })(live)).toBe(true)
    expect(recordMatcher({ fixtures: [1] })(scheduled)).toBe(true)
    expect(recordMatcher({ days: [day] })(scheduled)).toBe(true)
    expect(recordMatcher({ days: [day] })(record(1, 271, '2026-11-29T20:00:00.000Z', false))).toBe(false)
    expect(recordMatcher({ all: true, days: [day] })(record(2, 501, '2026-12-03T20:00:00.000Z', true))).toBe(true)
    expect(recordMatcher({ all: true, days: [day] })(record(2, 501, '2026-12-03T20:00:00.000Z', false))).toBe(false)
  })
})
