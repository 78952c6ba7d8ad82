/**
 * The match centre of a fixture, from the real recorded PSG–Arsenal fixture (its statistics and line-ups as
 * the upstream sent them), through the parser and the normalizer; and what the differ makes of them moving.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { diffFixtures } from '../../../src/diff/diff.ts'
import { normalizeLineups, normalizeStatistics, statisticName } from '../../../src/diff/match-centre.ts'
import { keepUnsent, normalizeFixture } from '../../../src/diff/normalize.ts'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'

const body = JSON.parse(readFileSync(new URL('../../fixtures/upstream/recorded/fixture-19683241-psg-arsenal-penalties.json', import.meta.url), 'utf8')) as { data: Record<string, any> }
const [upstream] = parseFixtures(body)
const raw = body.data

describe('the match centre of a recorded fixture (PSG 1-1 Arsenal, on penalties)', () => {
  if (upstream === undefined) throw new Error('no fixture parsed')
  const f = normalizeFixture(upstream)

  it('names each statistic type, both sides, every row placed', () => {
    const rows = raw.statistics as Array<{ type_id: number, location: 'home' | 'away', participant_id: number, data: { value: number } }>
    expect(Object.keys(f.statistics)).toHaveLength(new Set(rows.map((r) => r.type_id)).size)
    for (const row of rows) expect(f.statistics[statisticName(row.type_id)]?.[row.location], `${row.type_id} ${row.location}`).toBe(row.data.value)
    expect(statisticName(86)).toBe('shots_on_target')
    expect(statisticName(46)).toBe('type_46')
    expect(f.statistics.corners).toEqual({ home: 11, away: 3 })
    const possession = f.statistics.possession
    expect((possession?.home ?? 0) + (possession?.away ?? 0)).toBe(100)
    // Names sorted: two readings of the same rows serialize alike.
    expect(Object.keys(f.statistics)).toEqual([...Object.keys(f.statistics)].sort())
  })

  it('gives both line-ups: the starting eleven by formation position, the bench, positions named', () => {
    expect(f.lineups).not.toBeNull()
    const lineups = f.lineups as NonNullable<LiveFixture['lineups']>
    for (const side of ['home', 'away'] as const) {
      const team = lineups[side]
      expect(team.starting, side).toHaveLength(11)
      expect(team.bench.length, side).toBeGreaterThan(0)
      expect(team.starting.map((p) => p.formation_position)).toEqual([...team.starting.map((p) => p.formation_position)].sort((a, b) => (a ?? 0) - (b ?? 0)))
      expect(team.starting[0]).toMatchObject({ formation_position: 1, position: 'goalkeeper' })
      for (const p of team.bench) expect(p.formation_position).toBeNull()
      // No formations include on this recording.
      expect(team.formation).toBeNull()
    }
    const raya = lineups.away.starting[0]
    expect(raya).toEqual({ player_id: 3130, name: 'David Raya', number: 1, position: 'goalkeeper', formation_position: 1, formation_field: '1:1' })
    const rows = raw.lineups as Array<{ team_id: number }>
    expect(lineups.home.starting.length + lineups.home.bench.length).toBe(rows.filter((r) => r.team_id === f.home.id).length)
  })

  it('has no line-ups before they are published, and keeps what it read when a poll sends neither include', () => {
    expect(normalizeLineups([], [], { home: 1, away: 2 }, () => null)).toBeNull()
    const without = { ...upstream, statistics: undefined, lineups: undefined, formations: undefined }
    const kept = keepUnsent(f, normalizeFixture(without), without)
    expect(kept.statistics).toEqual(f.statistics)
    expect(kept.lineups).toEqual(f.lineups)
  })

  it('reads values sent as text, places rows by team when they have no location, drops rows of neither team', () => {
    const sideOf = (id: number | null): 'home' | 'away' | null => id === 1 ? 'home' : id === 2 ? 'away' : null
    expect(normalizeStatistics([
      { type_id: 45, participant_id: 1, data: { value: '55%' } },
      { type_id: 45, participant_id: 2, location: 'away', data: { value: 45 } },
      { type_id: 5304, participant_id: 1, location: 'home', data: { value: '1.32' } },
      { type_id: 999, participant_id: 3, data: { value: 1 } },
      { type_id: 34, participant_id: 2, data: { value: 'n/a' } }
    ], sideOf)).toEqual({ corners: { home: null, away: null }, expected_goals: { home: 1.32, away: null }, possession: { home: 55, away: 45 } })
  })
})

describe('the differ and the match centre', () => {
  const base = normalizeFixture(upstream as NonNullable<typeof upstream>)
  const prev: LiveFixture = { ...base, version: 4 }

  it('reports the statistics that moved or appeared, with their values before, and nothing for the rest', () => {
    const next: LiveFixture = { ...prev, statistics: { ...prev.statistics, corners: { home: 12, away: 3 }, expected_goals: { home: 1.1, away: 0.4 } } }
    expect(diffFixtures(prev, next)).toEqual([{
      kind: 'statistics_changed',
      statistics: { corners: { home: 12, away: 3 }, expected_goals: { home: 1.1, away: 0.4 } },
      previous: { corners: { home: 11, away: 3 }, expected_goals: { home: null, away: null } }
    }])
    expect(diffFixtures(prev, { ...prev })).toEqual([])
  })

  it('reports a statistic that disappeared as the whole statistics in fixture_updated', () => {
    const { corners: _gone, ...rest } = prev.statistics
    const changes = diffFixtures(prev, { ...prev, statistics: rest })
    expect(changes).toEqual([{ kind: 'fixture_updated', fields: { statistics: { value: rest, previous: prev.statistics } } }])
  })

  it('reports line-ups published and changed, whole', () => {
    const before: LiveFixture = { ...prev, lineups: null }
    expect(diffFixtures(before, prev)).toEqual([{ kind: 'lineups_changed', lineups: prev.lineups, previous: null }])
    const lineups = prev.lineups as NonNullable<LiveFixture['lineups']>
    const changed = { ...lineups, home: { ...lineups.home, formation: '4-3-3' } }
    expect(diffFixtures(prev, { ...prev, lineups: changed })).toEqual([{ kind: 'lineups_changed', lineups: changed, previous: lineups }])
  })
})
