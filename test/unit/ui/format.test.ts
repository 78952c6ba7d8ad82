/**
 * The page's wording of clocks, results and goals (src/ui/public/lib/format.js), pure and run in Node, on
 * the core package's rules as the page gets them (/lib/core.js).
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error the page's plain JavaScript module (no declarations)
import { announcements, awaitingExtraTime, clockLabel, goalsIn, resultNote, scoreLine, winner } from '../../../src/ui/public/lib/format.js'
import type { ChangeFrame } from '@touchline/client'
import type { LiveEvent, LiveFixture } from '../../../src/wire-model/model.ts'

type State = LiveFixture['state']
const LIVE: State = { id: 22, code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' }
const FT: State = { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' }
const FT_PEN: State = { id: 8, code: 'FT_PEN', name: 'Full Time after Penalties', phase: 'finished' }

function fixture (over: Partial<LiveFixture> = {}, home = 1, away = 1): LiveFixture {
  return {
    id: 1,
    league_id: 271,
    round_id: null,
    name: 'Home FC vs Away FC',
    starting_at: '2026-12-07T15:00:00.000Z',
    state: LIVE,
    minute: 60,
    clock: null,
    home: { id: 10, name: 'Home FC', short_code: 'HOM', image_path: null, score: home },
    away: { id: 20, name: 'Away FC', short_code: 'AWA', image_path: null, score: away },
    scores: { current: { home, away } },
    events: [],
    ...over
  } as unknown as LiveFixture
}

const goal = (side: 'home' | 'away', player: string, minute: number, type = 'GOAL'): LiveEvent =>
  ({ id: minute, type_id: 14, type, minute, extra_minute: null, side, team_id: null, player: { id: minute, name: player }, related_player: null, result: null, info: null, addition: null, sort_order: null }) as unknown as LiveEvent

describe('awaiting extra time', () => {
  it('is a level full time in a tie with no round, while the match is in the live set', () => {
    expect(awaitingExtraTime(fixture({ state: FT }), true)).toBe(true)
    expect(awaitingExtraTime(fixture({ state: FT }), false)).toBe(false)
  })

  it('is never a league match (it has a round), a decided score, or a match still in play', () => {
    expect(awaitingExtraTime(fixture({ state: FT, round_id: 330057 }), true)).toBe(false)
    expect(awaitingExtraTime(fixture({ state: FT }, 2, 1), true)).toBe(false)
    expect(awaitingExtraTime(fixture({ state: LIVE }), true)).toBe(false)
  })
})

describe('results', () => {
  it('names the winner on the score, else on the shoot-out, and says "on pens"', () => {
    expect(winner(fixture({ state: FT }, 2, 1))).toBe('home')
    expect(winner(fixture({ state: FT }))).toBeNull()
    const pens = fixture({ state: FT_PEN, scores: { current: { home: 1, away: 1 }, penalty_shootout: { home: 3, away: 4 } } as LiveFixture['scores'] })
    expect(winner(pens)).toBe('away')
    expect(resultNote(pens)).toBe('3-4 pens')
    expect(winner(fixture({ state: LIVE }, 2, 1))).toBeNull()
  })

  it('shows kick-off as the first minute, added time as 90+N, and FT', () => {
    const clock = (countsFrom: number, minutesIn: number, length = 45): LiveFixture['clock'] => ({ counts_from: countsFrom, length, added: null, period_started_at: new Date(Date.now() - minutesIn * 60_000).toISOString(), rate: 1, ticking: true })
    expect(clockLabel(fixture({ minute: 0, clock: clock(0, 0) }))).toBe("1'")
    // 93 minutes and a half played: the 94th minute runs, written as the minutes played, 90+3'.
    expect(clockLabel(fixture({ minute: 93, clock: clock(45, 48.5) }))).toBe("90+3'")
    expect(clockLabel(fixture({ state: FT }))).toBe('FT')
  })
})

describe('goals as the page announces them', () => {
  it('credits an own goal to the other side and names its scorer', () => {
    const f = fixture({}, 1, 1)
    const frame = { type: 'change', fixture: f, changes: [{ kind: 'score_changed', home: 1, away: 1, previous: { home: 1, away: 0 }, goals: [goal('home', 'Ann Own', 70, 'OWNGOAL')] }] } as unknown as ChangeFrame
    expect(goalsIn(frame)).toEqual([{ side: 'away', scorer: 'Ann Own', minute: "70'", own: true }])
    expect(announcements(frame)).toEqual([`Goal for Away FC, own goal by Ann Own, 70'. ${scoreLine(f)}.`])
  })
})
