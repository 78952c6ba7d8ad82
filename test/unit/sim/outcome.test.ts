/**
 * `matchOutcome` (packages/provider/src/sim/script.ts) is what a league table and the rolling schedule read instead of
 * a whole script: it must be the script's own final state, score and end, for league matches (its cheap path)
 * and cup ties (scripted).
 */
import { describe, expect, it } from 'vitest'
import { ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import { matchOutcome, scriptMatch } from '../../../packages/provider/src/sim/script.ts'
import { fixtures, row, viewAt } from './helpers.ts'

describe('matchOutcome', () => {
  it('is the final state, CURRENT score and end of the script, for 400 league matches and cup ties', () => {
    for (const input of fixtures(400, 80_000_000)) {
      const script = scriptMatch(input, 11)
      const end = viewAt(script, script.endAt + 1)
      const current = row(end.scores, ScoreType.CURRENT) ?? { home: 0, away: 0 }
      expect(matchOutcome(input, 11), `${input.id} (${input.kind})`).toEqual({ state_id: end.state_id, home: current.home, away: current.away, endAt: script.endAt })
    }
  })

  it('leaves the statistics out when asked, and nothing else', () => {
    for (const input of fixtures(50, 81_000_000)) {
      const full = scriptMatch(input, 4)
      expect(scriptMatch(input, 4, { stats: false })).toEqual({ ...full, stats: [] })
    }
  })
})
