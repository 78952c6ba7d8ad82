/**
 * The goal and minute rules the client, the gateway's alerts and terminal client, and the pages share
 * (@touchline/core): which events are goals, the side a goal counts for, and how a minute is written.
 */
import { describe, expect, it } from 'vitest'
import { isGoalType, minuteText, scoringSide } from '@touchline/core'

describe('the goal rules', () => {
  it('counts goals, penalties and own goals, not a shoot-out kick, a missed penalty or a card', () => {
    expect(['GOAL', 'PENALTY', 'OWNGOAL'].map(isGoalType)).toEqual([true, true, true])
    expect(['PENALTY_SHOOTOUT_GOAL', 'MISSED_PENALTY', 'REDCARD', 'VAR'].map(isGoalType)).toEqual([false, false, false, false])
  })

  it('gives a goal to its side, an own goal to the other side, and nothing else to anyone', () => {
    expect(scoringSide({ type: 'GOAL', side: 'home' })).toBe('home')
    expect(scoringSide({ type: 'PENALTY', side: 'away' })).toBe('away')
    expect(scoringSide({ type: 'OWNGOAL', side: 'home' })).toBe('away')
    expect(scoringSide({ type: 'OWNGOAL', side: 'away' })).toBe('home')
    expect(scoringSide({ type: 'GOAL', side: null })).toBeNull()
    expect(scoringSide({ type: 'REDCARD', side: 'home' })).toBeNull()
  })

  it('writes a minute as fans do, added time after a plus, nothing for no minute', () => {
    expect(minuteText({ minute: 23, extra_minute: null })).toBe('23\'')
    expect(minuteText({ minute: 90, extra_minute: 4 })).toBe('90+4\'')
    expect(minuteText({ minute: 45, extra_minute: 0 })).toBe('45\'')
    expect(minuteText({ minute: null, extra_minute: 2 })).toBe('')
  })
})
