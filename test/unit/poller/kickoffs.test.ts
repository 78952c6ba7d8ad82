import { describe, expect, it } from 'vitest'
import type { BucketView } from '../../../src/budget/index.ts'
import { daysRequest } from '../../../src/poller/days.ts'
import { createKickoffSchedule, upcomingKickoffs } from '../../../src/poller/kickoffs.ts'
import { nextPace } from '../../../src/poller/pacing.ts'
import { SLOWEST_POLL_MS } from '../../../src/budget/share.ts'
import { FEED_LEAD_MS } from '../../../packages/upstream-contract/src/livescores.ts'

const NOW = Date.parse('2026-11-24T14:10:00Z')
const MIN = 60_000

describe('the read of the days', () => {
  const query = { include: 'participants;scores', filters: 'fixtureLeagues:271,501' }
  it('asks for the days back to the days ahead of today (UTC), with the polls\' includes and filters, 50 a page', () => {
    expect(daysRequest(NOW, { back: 3, ahead: 3 }, query)).toEqual({
      path: '/football/fixtures/between/2026-11-21/2026-11-27',
      query: { ...query, per_page: '50' }
    })
    // Late in the day, today is still today in UTC.
    expect(daysRequest(Date.parse('2026-11-24T23:30:00Z'), { back: 1, ahead: 2 }, {}).path).toBe('/football/fixtures/between/2026-11-23/2026-11-26')
    expect(daysRequest(NOW, { back: 0, ahead: 0 }, {}).path).toBe('/football/fixtures/between/2026-11-24/2026-11-24')
  })
})

describe('upcoming kick-offs from a list page', () => {
  const ts = (ms: number): number => Math.floor(ms / 1000)
  const rows = [
    { id: 1, league_id: 271, starting_at_timestamp: ts(NOW + 20 * MIN) },
    { id: 2, league_id: 8, starting_at_timestamp: ts(NOW + 30 * MIN) },
    { id: 3, league_id: 501, starting_at_timestamp: ts(NOW - 5 * MIN) },
    { id: 4, league_id: 501, starting_at_timestamp: null },
    { league_id: 501, starting_at_timestamp: ts(NOW + 40 * MIN) },
    'not a fixture',
    null
  ]

  it('keeps fixtures still to kick off, with their kick-off in ms', () => {
    expect(upcomingKickoffs(rows, NOW)).toEqual([{ id: 1, at: ts(NOW + 20 * MIN) * 1000 }, { id: 2, at: ts(NOW + 30 * MIN) * 1000 }])
  })

  it('keeps only the configured leagues, even when the upstream ignored the filter', () => {
    expect(upcomingKickoffs(rows, NOW, [271, 501]).map((k) => k.id)).toEqual([1])
    expect(upcomingKickoffs([{ id: 5, starting_at_timestamp: ts(NOW + MIN) }], NOW, [271])).toEqual([])
  })
})

describe('the kick-off schedule', () => {
  const kickoff = NOW + 20 * MIN
  const entry = kickoff - FEED_LEAD_MS

  it('is due when a fixture enters the feed (kick-off minus the lead), not before', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }], new Set())
    expect(s.due(entry - 1)).toBe(false)
    expect(s.due(entry)).toBe(true)
  })

  it('is done with a fixture the reconcile at its entry found in the feed', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }], new Set())
    s.reconciled(entry + 300, new Set([1]))
    expect(s.size()).toBe(0)
    expect(s.due(kickoff + MIN)).toBe(false)
  })

  it('looks again at kick-off for a fixture not found at its entry, then gives up', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }], new Set())
    s.reconciled(entry + 300, new Set())
    expect(s.due(entry + 301)).toBe(false)
    expect(s.due(kickoff - 1)).toBe(false)
    expect(s.due(kickoff)).toBe(true)
    s.reconciled(kickoff + 300, new Set())
    expect(s.size()).toBe(0)
  })

  it('is not moved on by a reconcile before the entry (a periodic one), except for fixtures it found', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }, { id: 2, at: kickoff }], new Set())
    s.reconciled(entry - MIN, new Set([2]))
    expect(s.size()).toBe(1)
    expect(s.due(entry)).toBe(true)
  })

  it('leaves out fixtures already in the feed, and drops those a latest poll listed', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }, { id: 2, at: kickoff + MIN }, { id: 3, at: kickoff + 2 * MIN }], new Set([1]))
    expect(s.size()).toBe(2)
    s.seen([2])
    expect(s.size()).toBe(1)
    expect(s.due(entry + MIN)).toBe(false)
    expect(s.due(entry + 2 * MIN)).toBe(true)
  })

  it('uses the lead it is given (the embedded provider: 15 match minutes at its speed)', () => {
    const s = createKickoffSchedule(15_000)
    s.replace([{ id: 1, at: kickoff }], new Set())
    expect(s.due(kickoff - 15_001)).toBe(false)
    expect(s.due(kickoff - 15_000)).toBe(true)
  })

  it('counts the distinct entry moments ahead: fixtures kicking off together cost one reconcile', () => {
    const s = createKickoffSchedule()
    s.replace([{ id: 1, at: kickoff }, { id: 2, at: kickoff }, { id: 3, at: kickoff + 30 * MIN }, { id: 4, at: kickoff + 3 * 60 * MIN }], new Set())
    expect(s.entriesBetween(NOW, NOW + 60 * MIN)).toBe(2)
    expect(s.entriesBetween(NOW, NOW + 4 * 60 * MIN)).toBe(3)
  })
})

describe('pacing with the kick-off list and its reconciles', () => {
  const opts = { reserve: 0.2, floorMs: 1000, ceilingMs: SLOWEST_POLL_MS }
  const bucket = (remaining: number, msLeft: number, limit = 3000): BucketView =>
    ({ entity: 'Fixture', remaining, limit, resetsAt: NOW + msLeft, updatedAt: NOW, expired: false, pollersNeed: 0, spent: { pollers: 0, passthrough: 0 } })

  it('slows the polls by what the other calls take, so the hour still ends within the bucket', () => {
    const hour = 3_600_000
    // 3000/h, 2400 for the poller: one poll per 1.5 s alone.
    expect(nextPace(bucket(3000, hour), NOW, opts)).toEqual({ kind: 'poll', delayMs: 1500 })
    // 2 list pages and 40 scheduled reconciles with one multi batch each: 42 calls of the 2400.
    const other = (2 + 40) / hour
    const pace = nextPace(bucket(3000, hour), NOW, opts, { reconcileCalls: 2, reconcileEveryMs: 30_000, otherCallsPerMs: other })
    expect(pace.kind).toBe('poll')
    const polls = hour / pace.delayMs
    const calls = polls + hour / 30_000 + 42
    expect(calls).toBeLessThanOrEqual(2400)
    expect(calls).toBeGreaterThan(2390)
  })
})
