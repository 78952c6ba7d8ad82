/**
 * The two kinds of phase a season is made of: a round robin (one table, or groups) and knock-out ties.
 * Each returns the teams it lets through, in the order the next phase pairs them.
 */
import type { FriendlyPhase, KnockoutPhase, TablePhase } from './competitions.ts'
import type { Rng } from '../rng.ts'
import { foldPairs, roundRobin, sequentialPairs, slotsOfPhase, type Kickoff, type Pairing } from './schedule.ts'
import type { SeasonBuild } from './season-build.ts'
import { pointsTable, pushStandings, type TableRow } from './standings.ts'
import type { DatasetFixture, Group, Round, Stage } from './types.ts'

export interface PhaseResult {
  advancers: number[]
  /** `fold`: group winners first, then runners-up (and thirds): first meets last. `sequential`: 1v2, 3v4. */
  pairing: 'fold' | 'sequential'
}

function chunk<T> (items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export function playTable (b: SeasonBuild, stage: Stage, phase: TablePhase, firstSlot: number, teams: number[],
  kickoffs: readonly Kickoff[]): PhaseResult {
  const { ctx, rng } = b
  const expected = Math.max(1, phase.groups) * phase.size
  if (teams.length !== expected) throw new Error(`league ${b.plan.spec.id} ${phase.name}: ${teams.length} teams, expected ${expected}`)
  const buckets = phase.groups === 0 ? [rng.shuffle(teams)] : chunk(rng.shuffle(teams), phase.size)
  const groups: Array<Group | null> = phase.groups === 0
    ? [null]
    : buckets.map((_, g) => b.newGroup(stage, `Group ${String.fromCharCode(65 + g)}`))
  const schedules = buckets.map((bucket) => roundRobin(bucket, phase.legs))
  const rounds: Round[] = []
  for (let r = 0; r < slotsOfPhase(phase); r++) {
    const round = b.newRound(stage, String(r + 1), firstSlot + r)
    rounds.push(round)
    const games: Array<{ pair: Pairing, group: Group | null }> = []
    schedules.forEach((schedule, g) => {
      for (const pair of schedule[r] ?? []) games.push({ pair, group: groups[g] ?? null })
    })
    rng.shuffle(games).forEach((game, i) => {
      b.addFixture({
        stage,
        slot: firstSlot + r,
        order: i,
        kickoffs,
        home: game.pair[0],
        away: game.pair[1],
        round,
        group: game.group,
        leg: '1/1',
        aggregate: null,
        kind: 'league',
        neutral: false
      })
    })
  }
  // Rounds are played in order, so the finished ones are a prefix; every team plays once per round.
  const played = rounds.filter((round) => b.isFinished(round)).length
  const lastPlayed = played > 0 ? rounds[played - 1] : undefined
  const tables = buckets.map((bucket, g) => {
    const rows = pointsTable(rng, bucket, played, ctx.strength)
    pushStandings(ctx, rng, {
      league_id: stage.league_id,
      season_id: stage.season_id,
      stage_id: stage.id,
      group_id: groups[g]?.id ?? null,
      round_id: lastPlayed?.id ?? null,
      played
    }, rows)
    return rows
  })
  return { advancers: advancersOf(tables, phase, ctx.strength), pairing: 'fold' }
}

function advancersOf (tables: readonly TableRow[][], phase: TablePhase, strength: ReadonlyMap<number, number>): number[] {
  const out: number[] = []
  for (let place = 0; place < phase.advance; place++) {
    for (const rows of tables) {
      const row = rows[place]
      if (row !== undefined) out.push(row.team)
    }
  }
  if (phase.bestThirds > 0) {
    const thirds = tables.map((rows) => rows[phase.advance]).filter((row): row is TableRow => row !== undefined)
    thirds.sort((a, b) => b.points - a.points || (strength.get(b.team) ?? 0) - (strength.get(a.team) ?? 0))
    out.push(...thirds.slice(0, phase.bestThirds).map((row) => row.team))
  }
  return out
}

/** The team a tie lets through: stronger teams more often, never certainly. */
function tieWinner (rng: Rng, a: number, b: number, strength: ReadonlyMap<number, number>): number {
  const edge = ((strength.get(a) ?? 0.5) - (strength.get(b) ?? 0.5)) * 0.6
  return rng.next() < 0.5 + edge ? a : b
}

export function playKnockout (b: SeasonBuild, stage: Stage, phase: KnockoutPhase, firstSlot: number, teams: number[],
  kickoffs: readonly Kickoff[], pairing: PhaseResult['pairing'], carried: number): PhaseResult {
  const { ctx, rng } = b
  const pairs = pairing === 'fold' ? foldPairs(teams) : sequentialPairs(carried === 0 ? rng.shuffle(teams) : teams)
  if (pairs.length !== phase.ties) throw new Error(`league ${b.plan.spec.id} ${phase.name}: ${pairs.length} ties, expected ${phase.ties}`)
  const winners = pairs.map(([a, c], i) => {
    const aggregate = phase.legs === 2 ? ctx.ids.next('aggregate') : null
    let decisive: DatasetFixture | undefined
    for (let leg = 0; leg < phase.legs; leg++) {
      decisive = b.addFixture({
        stage,
        slot: firstSlot + leg,
        order: i,
        kickoffs,
        home: leg === 0 ? a : c,
        away: leg === 0 ? c : a,
        round: null,
        group: null,
        leg: phase.legs === 1 ? '1/1' : `${leg + 1}/2`,
        aggregate,
        kind: leg === phase.legs - 1 ? 'cup' : 'league',
        neutral: phase.neutral
      })
    }
    const winner = tieWinner(rng, a, c, ctx.strength)
    if (decisive !== undefined) ctx.out.tieWinners.set(decisive.id, winner)
    return winner
  })
  return { advancers: winners, pairing: 'sequential' }
}

/** Each day the teams are shuffled and paired, one fixture per kick-off; nobody plays twice a day. */
export function playFriendlies (b: SeasonBuild, stage: Stage, phase: FriendlyPhase, firstSlot: number, teams: number[],
  kickoffs: readonly Kickoff[]): PhaseResult {
  for (let day = 0; day < phase.days; day++) {
    const pairs = sequentialPairs(b.rng.shuffle(teams)).slice(0, kickoffs.length)
    pairs.forEach(([home, away], i) => {
      b.addFixture({
        stage,
        slot: firstSlot + day,
        order: i,
        kickoffs,
        home,
        away,
        round: null,
        group: null,
        leg: '1/1',
        aggregate: null,
        kind: 'league',
        neutral: false
      })
    })
  }
  return { advancers: [], pairing: 'sequential' }
}
