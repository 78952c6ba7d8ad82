/**
 * Line-ups and formations (packages/provider/src/matchday.ts, derived.ts) are placed as the real API places them, and
 * the simulator plays the same players: a substitution brings on a player of the bench and takes off one on
 * the pitch.
 */
import { describe, expect, it } from 'vitest'
import { EventType } from '../../../packages/upstream-contract/src/types.ts'
import { startOfTodayUtc } from '../../../packages/provider/src/dataset/dates.ts'
import { generateDataset } from '../../../packages/provider/src/dataset/generate.ts'
import { formations, lineups } from '../../../packages/provider/src/derived.ts'
import { createLiveSource } from '../../../packages/provider/src/simulation.ts'
import { formationOf, formationRows, matchdaySquad, Position } from '../../../packages/provider/src/matchday.ts'
import type { Rec } from '../../../packages/provider/src/records.ts'
import { World } from '../../../packages/provider/src/world.ts'

const NOW = Date.parse('2026-11-26T14:00:00Z')
const DS = generateDataset({ seed: 1, anchor: startOfTodayUtc(NOW) })
const LIVE = createLiveSource(DS, { seed: 1, speed: 60, startMs: NOW, liveTarget: 6 })
const WORLD = new World(DS, LIVE, () => NOW)

describe('matchday squads', () => {
  it('place the eleven in the formation: keeper 1:1, then rows of defenders, midfielders and attackers', () => {
    for (const team of DS.teams) {
      const { formation, starters, bench } = matchdaySquad(DS, team.id)
      expect(formation).toBe(formationOf(team.id))
      expect(starters.map((p) => p.formation_position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      const expected = [{ field: '1:1', position: Position.GOALKEEPER }, ...formationRows(formation).flatMap((row, r) =>
        Array.from({ length: row.count }, (_, c) => ({ field: `${r + 2}:${c + 1}`, position: row.position_id })))]
      expect(starters.map((p) => ({ field: p.formation_field, position: p.position_id }))).toEqual(expected)
      // The squads have players enough of each position: every starter plays his own.
      for (const p of starters) expect(DS.byId.player.get(p.player_id)?.position_id).toBe(p.position_id)
      expect(bench.length).toBeGreaterThanOrEqual(9)
      expect(bench.length).toBeLessThanOrEqual(12)
      expect(bench.filter((p) => p.position_id === Position.GOALKEEPER).length).toBe(1)
      expect(bench.every((p) => p.formation_field === null && p.formation_position === null)).toBe(true)
      const ids = [...starters, ...bench].map((p) => p.player_id)
      expect(new Set(ids).size).toBe(ids.length)
      for (const id of ids) expect(DS.squads.get(team.id)).toContain(id)
    }
    expect(formationRows('4-2-3-1')).toEqual([{ count: 4, position_id: 25 }, { count: 2, position_id: 26 }, { count: 3, position_id: 26 }, { count: 1, position_id: 27 }])
  })

  it('are what the lineups and formations includes show, from an hour before kick-off', () => {
    const fixture = DS.fixtures.find((f) => LIVE.kickoff(f, NOW) * 1000 > NOW + 7200_000) as unknown as Rec
    const kickoff = WORLD.kickoff(fixture, NOW)
    expect(lineups(WORLD, fixture, (kickoff - 3601) * 1000)).toEqual([])
    const rows = lineups(WORLD, fixture, (kickoff - 3600) * 1000)
    const home = matchdaySquad(DS, Number(fixture.home_team_id))
    const homeRows = rows.filter((r) => r.team_id === fixture.home_team_id)
    expect(homeRows.filter((r) => r.type_id === 11).map((r) => [r.player_id, r.position_id, r.formation_field, r.formation_position]))
      .toEqual(home.starters.map((p) => [p.player_id, p.position_id, p.formation_field, p.formation_position]))
    expect(homeRows.filter((r) => r.type_id === 12).map((r) => r.player_id)).toEqual(home.bench.map((p) => p.player_id))
    expect(formations(WORLD, fixture, (kickoff - 3600) * 1000).map((f) => f.formation)).toEqual([home.formation, formationOf(Number(fixture.away_team_id))])
  })
})

describe('line-ups and schedule changes', () => {
  it('stay out after a move announced once they were published, and follow a move announced before', () => {
    const later = DS.fixtures.filter((f) => LIVE.kickoff(f, NOW) * 1000 > NOW + 3 * 3600_000 && LIVE.sim.changes(f.id).length === 0)
    const [a, b] = later as unknown as [Rec, Rec]
    const ka = WORLD.kickoff(a, NOW)
    // Published an hour before, then moved two hours later: they stay out.
    LIVE.sim.reschedule({ fixtureId: a.id, kind: 'move', atMs: (ka - 1800) * 1000, to: ka + 7200 })
    expect(lineups(WORLD, a, (ka - 1801) * 1000).length).toBeGreaterThan(0)
    expect(lineups(WORLD, a, (ka - 1800) * 1000).length).toBeGreaterThan(0)
    expect(WORLD.lineupsFrom(a, (ka - 1800) * 1000)).toBe(ka - 3600)
    // Moved two hours later before they came out: they come out an hour before the new kick-off.
    const kb = WORLD.kickoff(b, NOW)
    LIVE.sim.reschedule({ fixtureId: b.id, kind: 'move', atMs: (kb - 5 * 3600) * 1000, to: kb + 7200 })
    expect(lineups(WORLD, b, (kb - 3600) * 1000)).toEqual([])
    expect(lineups(WORLD, b, (kb + 3600) * 1000).length).toBeGreaterThan(0)
    expect(WORLD.lineupsFrom(b, (kb + 3600) * 1000)).toBe(kb + 3600)
  })
})

describe('substitutions', () => {
  it('bring on a player of the bench (not a keeper) for one on the pitch, each at most once, in 300 matches', () => {
    let subs = 0
    for (const f of DS.fixtures.slice(0, 300)) {
      const script = LIVE.sim.script(f.id)
      if (script === undefined) continue
      const fixture = f as unknown as Rec
      const rows = lineups(WORLD, fixture, Infinity)
      const onPitch = new Set(rows.filter((r) => r.type_id === 11).map((r) => `${r.team_id}:${r.player_id}`))
      const bench = new Set(rows.filter((r) => r.type_id === 12).map((r) => `${r.team_id}:${r.player_id}`))
      const keepers = new Set(rows.filter((r) => r.position_id === Position.GOALKEEPER).map((r) => r.player_id))
      for (const { event: e } of script.happenings) {
        const on = `${e.participant_id}:${e.player_id}`
        const off = `${e.participant_id}:${e.related_player_id}`
        if (e.type_id === EventType.SUBSTITUTION) {
          subs++
          expect(bench.has(on), `${f.id}: ${e.player_name} comes on from the bench`).toBe(true)
          expect(onPitch.has(off), `${f.id}: ${e.related_player_name} goes off from the pitch`).toBe(true)
          expect(keepers.has(Number(e.player_id))).toBe(false)
          bench.delete(on)
          onPitch.delete(off)
          onPitch.add(on)
        } else if (e.player_id !== null && [EventType.GOAL, EventType.PENALTY, EventType.YELLOWCARD, EventType.REDCARD].includes(e.type_id as never)) {
          expect(onPitch.has(on), `${f.id}: ${e.player_name} is on the pitch`).toBe(true)
          if (e.type_id === EventType.REDCARD) onPitch.delete(on)
        }
      }
    }
    expect(subs).toBeGreaterThan(300 * 2 * 2)
  })
})
