import { describe, expect, it } from 'vitest'
import { generateDataset } from '../../../packages/provider/src/dataset/generate.ts'
import type { DatasetFixture, Season } from '../../../packages/provider/src/dataset/types.ts'

const ANCHOR = Date.UTC(2026, 10, 21) / 1000
const d = generateDataset({ seed: 1, anchor: ANCHOR })
const TODAY = '2026-11-21'

const domestic = d.leagues.filter((l) => l.sub_type === 'domestic')
const current = (leagueId: number): Season => {
  const season = d.currentSeasonByLeague.get(leagueId)
  if (season === undefined) throw new Error(`league ${leagueId} has no current season`)
  return season
}

describe('dataset competitions', () => {
  it('has the free plan leagues 271 (Denmark) and 501 (Scotland) with 12 teams', () => {
    for (const [id, name, country] of [[271, 'Superliga', 'Denmark'], [501, 'Premiership', 'Scotland']] as const) {
      const league = d.byId.league.get(id)
      expect(league).toMatchObject({ name, type: 'league', sub_type: 'domestic', active: true })
      expect(d.byId.country.get(league?.country_id ?? 0)?.name).toBe(country)
      expect(d.teamsBySeason.get(current(id).id)).toHaveLength(12)
      expect(d.teamsBySeason.get(current(id).id)?.every((t) => t.country_id === league?.country_id)).toBe(true)
    }
  })

  it('has leagues of every type and sub_type, and every stage type', () => {
    expect(new Set(d.leagues.map((l) => l.sub_type)))
      .toEqual(new Set(['domestic', 'domestic_cup', 'international', 'cup_international', 'play-offs', 'friendly']))
    expect(new Set(d.leagues.map((l) => l.type))).toEqual(new Set(['league', 'phase']))
    expect(new Set(d.stages.map((s) => s.type_id))).toEqual(new Set([223, 224, 225]))
    expect(d.byId.league.get(2)?.type).toBe('phase')
    expect(d.stagesBySeason.get(current(2).id)?.map((s) => s.type_id)).toEqual([225, 223, 224, 224, 224, 224])
    expect(d.groupsBySeason.get(current(2).id)).toHaveLength(8)
  })

  it('has 2 or 3 seasons per league, exactly one current and unfinished, the past ones finished', () => {
    for (const league of d.leagues) {
      const seasons = d.seasonsByLeague.get(league.id) ?? []
      expect(seasons.length).toBeGreaterThanOrEqual(2)
      expect(seasons.length).toBeLessThanOrEqual(3)
      expect(seasons.filter((s) => s.is_current)).toHaveLength(1)
      expect(new Set(seasons.map((s) => s.name)).size).toBe(seasons.length)
      for (const s of seasons) expect(s.finished).toBe(!s.is_current)
    }
  })

  it('orders stages by sort_order, with the current one in the current season only', () => {
    for (const season of d.seasons) {
      const stages = d.stagesBySeason.get(season.id) ?? []
      expect(stages.map((s) => s.sort_order)).toEqual(stages.map((_, i) => i + 1))
      expect(stages.filter((s) => s.is_current)).toHaveLength(season.is_current ? 1 : 0)
      for (let i = 1; i < stages.length; i++) {
        expect((stages[i]?.starting_at ?? '') >= (stages[i - 1]?.ending_at ?? '')).toBe(true)
      }
      const currentStage = stages.find((s) => s.is_current)
      for (const s of stages) if (currentStage !== undefined && s.sort_order < currentStage.sort_order) expect(s.finished).toBe(true)
    }
  })

  it('plays a double round robin in every domestic season: each ordered pair once, each team once a round', () => {
    for (const league of domestic) {
      for (const season of d.seasonsByLeague.get(league.id) ?? []) {
        const teams = d.teamsBySeason.get(season.id) ?? []
        const fixtures = d.fixturesBySeason.get(season.id) ?? []
        const pairs = new Set(fixtures.map((f) => `${f.home_team_id}-${f.away_team_id}`))
        expect(fixtures).toHaveLength(teams.length * (teams.length - 1))
        expect(pairs.size).toBe(fixtures.length)
        const rounds = d.roundsBySeason.get(season.id) ?? []
        expect(rounds).toHaveLength(2 * (teams.length - 1))
        for (const round of rounds) {
          const inRound = (d.fixturesByRound.get(round.id) ?? []).flatMap((f) => [f.home_team_id, f.away_team_id])
          expect(new Set(inRound).size).toBe(teams.length)
        }
      }
    }
  })

  it('has one current round per domestic league, played around the anchor day', () => {
    for (const league of domestic) {
      const rounds = d.roundsBySeason.get(current(league.id).id) ?? []
      const now = rounds.filter((r) => r.is_current)
      expect(now, league.name).toHaveLength(1)
      expect([now[0]?.starting_at ?? '', TODAY, now[0]?.ending_at ?? ''].sort()[1]).toBe(TODAY)
      expect(rounds.filter((r) => r.finished).length).toBe(rounds.findIndex((r) => r.is_current))
    }
    const today = new Set(d.fixturesByDate.get(TODAY)?.map((f) => f.league_id))
    expect([...today]).toEqual(expect.arrayContaining([271, 501, 8, 1101]))
  })

  it('schedules past fixtures as finished and future ones as not started, extra time only in cup ties', () => {
    for (const f of d.fixtures) {
      if (f.starting_at_timestamp < ANCHOR) expect(f.kind === 'cup' ? [5, 7, 8] : [5]).toContain(f.state_id)
      else expect(f.state_id).toBe(1)
      expect(f.result_info).toBeNull()
      expect(f.name).toBe(`${d.byId.team.get(f.home_team_id)?.name} vs ${d.byId.team.get(f.away_team_id)?.name}`)
    }
    expect(d.fixtures.some((f) => f.state_id === 7)).toBe(true)
    expect(d.fixtures.some((f) => f.state_id === 8)).toBe(true)
  })

  it('draws each knock-out round from the teams the previous one let through', () => {
    for (const season of d.seasons) {
      const stages = d.stagesBySeason.get(season.id) ?? []
      for (let i = 1; i < stages.length; i++) {
        const prev = d.fixturesByStage.get(stages[i - 1]?.id ?? 0) ?? []
        const next = d.fixturesByStage.get(stages[i]?.id ?? 0) ?? []
        if (stages[i - 1]?.type_id === 223 || stages[i]?.type_id === 223 || next.length === 0) continue
        const through = new Set(prev.filter((f) => f.kind === 'cup').map((f) => d.tieWinners.get(f.id)))
        const playedBefore = new Set(prev.flatMap((f) => [f.home_team_id, f.away_team_id]))
        // Teams that played the previous round must have gone through it; the others enter at this round.
        for (const f of next) {
          for (const id of [f.home_team_id, f.away_team_id]) if (playedBefore.has(id)) expect(through.has(id)).toBe(true)
        }
      }
    }
    for (const [fixtureId, winner] of d.tieWinners) {
      const f = d.byId.fixture.get(fixtureId) as DatasetFixture
      expect(f.kind).toBe('cup')
      expect([f.home_team_id, f.away_team_id]).toContain(winner)
    }
  })

  it('pairs two-legged ties under one aggregate id, home and away swapped', () => {
    const legs = new Map<number, DatasetFixture[]>()
    for (const f of d.fixtures) if (f.aggregate_id !== null) legs.set(f.aggregate_id, [...(legs.get(f.aggregate_id) ?? []), f])
    expect(legs.size).toBeGreaterThan(0)
    for (const [first, second] of legs.values()) {
      expect([first?.leg, second?.leg, first?.kind, second?.kind]).toEqual(['1/2', '2/2', 'league', 'cup'])
      expect([second?.home_team_id, second?.away_team_id]).toEqual([first?.away_team_id, first?.home_team_id])
    }
  })

  it('has standings for every season with a table: positions 1..n, points never increasing', () => {
    for (const season of d.seasons) {
      const rows = d.standingsBySeason.get(season.id) ?? []
      const hasTable = (d.stagesBySeason.get(season.id) ?? []).some((s) => s.type_id === 223) && season.league_id !== 1101
      expect(rows.length > 0, `season ${season.id}`).toBe(hasTable)
      const tables = new Map<string, typeof rows>()
      for (const r of rows) tables.set(`${r.stage_id}:${r.group_id}`, [...(tables.get(`${r.stage_id}:${r.group_id}`) ?? []), r])
      for (const table of tables.values()) {
        expect(table.map((r) => r.position)).toEqual(table.map((_, i) => i + 1))
        expect(table.map((r) => r.points)).toEqual(table.map((r) => r.points).sort((a, b) => b - a))
      }
    }
  })
})
