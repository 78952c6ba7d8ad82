/**
 * The records of one season as it is built: the season itself, and the stages, rounds, groups and fixtures
 * its phases add (phases.ts), then the date and status flags of every record from its fixtures' kick-offs
 * and the anchor (`finalize`). season.ts drives it.
 */
import type { LeagueSpec } from './competitions.ts'
import type { BuildContext } from './context.ts'
import { DAY, ymd, ymdhms } from './dates.ts'
import type { Rng } from '../rng.ts'
import { timeline, type Kickoff, type Slot } from './schedule.ts'
import type { DatasetFixture, FixtureKind, Group, League, Round, Season, Stage } from './types.ts'

export interface SeasonPlan {
  spec: LeagueSpec
  league: League
  /** 0 for the current season, 1 for the one before, ... */
  age: number
  name: string
  /** Direct entrants of each phase; a phase also gets the teams the previous one let through. */
  entrants: number[][]
  /** Venue of neutral fixtures (finals). */
  neutralVenue: (rng: Rng) => number | null
  /** Venues of a tournament hosted by one country (every fixture is played there), or null. */
  hostVenues: readonly number[] | null
  referee: (home: number, away: number, rng: Rng) => number | null
}

export interface FixtureDraft {
  stage: Stage
  /** Index into the season's slots. */
  slot: number
  /** Position within the slot; picks the kick-off. */
  order: number
  kickoffs: readonly Kickoff[]
  home: number
  away: number
  round: Round | null
  group: Group | null
  leg: string
  aggregate: number | null
  kind: FixtureKind
  neutral: boolean
}

/** Any fixed id: the docs do not say what tie-breaker rule ids mean. */
const TIE_BREAKER_RULE = 171
const WEEK_BEFORE = 3 * DAY
const WEEK_AFTER = 4 * DAY

export class SeasonBuild {
  readonly ctx: BuildContext
  readonly plan: SeasonPlan
  readonly rng: Rng
  readonly season: Season
  readonly slots: readonly Slot[]
  readonly #slotDay: number[]
  readonly #fixtures = new Map<object, DatasetFixture[]>()
  readonly #stagePhase = new Map<Stage, number>()
  readonly #roundSlot = new Map<Round, number>()
  #hostCursor = 0

  constructor (ctx: BuildContext, plan: SeasonPlan) {
    this.ctx = ctx
    this.plan = plan
    this.rng = ctx.rng.fork(`season:${plan.spec.id}:${plan.age}`)
    this.slots = timeline(plan.spec)
    const current = this.slots[plan.spec.current]
    if (current === undefined) throw new RangeError(`league ${plan.spec.id}: no slot ${plan.spec.current}`)
    const shift = plan.spec.anchorShift - current.offset - plan.age * plan.spec.seasonDays
    this.#slotDay = this.slots.map((s) => ctx.anchor + (shift + s.offset) * DAY)
    this.season = {
      id: ctx.ids.next('season'),
      sport_id: 1,
      league_id: plan.league.id,
      tie_breaker_rule_id: TIE_BREAKER_RULE,
      name: plan.name,
      finished: false,
      pending: false,
      is_current: plan.age === 0,
      starting_at: '',
      ending_at: '',
      standings_recalculated_at: null,
      games_in_current_week: false
    }
    ctx.out.seasons.push(this.season)
  }

  get isCurrentSeason (): boolean {
    return this.plan.age === 0
  }

  /** The phase being played at the anchor (only meaningful for the current season). */
  get currentPhase (): number {
    return this.slots[this.plan.spec.current]?.phase ?? 0
  }

  newStage (phase: number): Stage {
    const spec = this.plan.spec.phases[phase]
    if (spec === undefined) throw new RangeError(`no phase ${phase}`)
    const stage: Stage = {
      id: this.ctx.ids.next('stage'),
      sport_id: 1,
      league_id: this.plan.league.id,
      season_id: this.season.id,
      type_id: spec.type,
      name: spec.name,
      sort_order: phase + 1,
      finished: false,
      is_current: this.isCurrentSeason && phase === this.currentPhase,
      starting_at: '',
      ending_at: '',
      games_in_current_week: false,
      tie_breaker_rule_id: spec.kind === 'table' ? TIE_BREAKER_RULE : null
    }
    this.ctx.out.stages.push(stage)
    this.#stagePhase.set(stage, phase)
    return stage
  }

  newRound (stage: Stage, name: string, slot: number): Round {
    const round: Round = {
      id: this.ctx.ids.next('round'),
      sport_id: 1,
      league_id: stage.league_id,
      season_id: stage.season_id,
      stage_id: stage.id,
      name,
      finished: false,
      is_current: this.isCurrentSeason && slot === this.plan.spec.current,
      starting_at: '',
      ending_at: '',
      games_in_current_week: false
    }
    this.ctx.out.rounds.push(round)
    this.#roundSlot.set(round, slot)
    return round
  }

  newGroup (stage: Stage, name: string): Group {
    const group: Group = {
      id: this.ctx.ids.next('group'),
      sport_id: 1,
      league_id: stage.league_id,
      season_id: stage.season_id,
      stage_id: stage.id,
      name,
      starting_at: '',
      ending_at: '',
      games_in_current_week: false,
      is_current: stage.is_current,
      finished: false,
      pending: false
    }
    this.ctx.out.groups.push(group)
    return group
  }

  addFixture (d: FixtureDraft): DatasetFixture {
    const { ctx, plan, rng } = this
    const kick = d.kickoffs[d.order % d.kickoffs.length] ?? { day: 0, time: 15 * 3600 }
    const ts = (this.#slotDay[d.slot] ?? ctx.anchor) + kick.day * DAY + kick.time
    const home = ctx.teams.get(d.home)
    const away = ctx.teams.get(d.away)
    if (home === undefined || away === undefined) throw new Error(`unknown team ${d.home} or ${d.away}`)
    const phase = this.#stagePhase.get(d.stage) ?? 0
    const fixture: DatasetFixture = {
      id: ctx.ids.next('fixture'),
      sport_id: 1,
      league_id: plan.league.id,
      season_id: this.season.id,
      stage_id: d.stage.id,
      group_id: d.group?.id ?? null,
      aggregate_id: d.aggregate,
      round_id: d.round?.id ?? null,
      state_id: ts < ctx.anchor ? finishedState(rng, d.kind) : 1,
      venue_id: this.#venue(d, home.venue_id),
      name: `${home.name} vs ${away.name}`,
      starting_at: ymdhms(ts),
      result_info: null,
      leg: d.leg,
      details: null,
      length: 90,
      placeholder: this.isCurrentSeason && phase > this.currentPhase,
      has_odds: true,
      has_premium_odds: plan.spec.premiumOdds,
      starting_at_timestamp: ts,
      home_team_id: home.id,
      away_team_id: away.id,
      referee_id: plan.referee(home.id, away.id, rng),
      kind: d.kind
    }
    ctx.out.fixtures.push(fixture)
    for (const owner of [this.season, d.stage, d.round, d.group]) {
      if (owner === null) continue
      const list = this.#fixtures.get(owner)
      if (list === undefined) this.#fixtures.set(owner, [fixture])
      else list.push(fixture)
    }
    return fixture
  }

  /** True when every fixture of the round was scheduled before the anchor. */
  isFinished (round: Round): boolean {
    return (this.#fixtures.get(round) ?? []).every((f) => f.starting_at_timestamp < this.ctx.anchor)
  }

  #venue (d: FixtureDraft, homeVenue: number | null): number | null {
    const host = this.plan.hostVenues
    if (host !== null && host.length > 0) return host[this.#hostCursor++ % host.length] ?? null
    if (d.neutral) return this.plan.neutralVenue(this.rng) ?? homeVenue
    return homeVenue
  }

  /** Dates and flags of the season's records, from their fixtures; once every phase has been played. */
  finalize (): void {
    const anchor = this.ctx.anchor
    const apply = (record: Stage | Round | Group | Season): void => {
      const list = this.#fixtures.get(record) ?? []
      let first = Infinity
      let last = -Infinity
      for (const f of list) {
        first = Math.min(first, f.starting_at_timestamp)
        last = Math.max(last, f.starting_at_timestamp)
      }
      if (list.length === 0) first = last = anchor
      record.starting_at = ymd(first)
      record.ending_at = ymd(last)
      record.finished = last < anchor
      record.games_in_current_week = list.some((f) => f.starting_at_timestamp >= anchor - WEEK_BEFORE && f.starting_at_timestamp < anchor + WEEK_AFTER)
    }
    const mine = (r: { season_id: number }): boolean => r.season_id === this.season.id
    this.ctx.out.stages.filter(mine).forEach(apply)
    this.ctx.out.rounds.filter(mine).forEach(apply)
    this.ctx.out.groups.filter(mine).forEach(apply)
    apply(this.season)
    const hasTable = this.plan.spec.phases.some((p) => p.kind === 'table')
    const played = (this.#fixtures.get(this.season) ?? []).filter((f) => f.starting_at_timestamp < anchor)
    if (hasTable && played.length > 0) {
      const lastKickoff = Math.max(...played.map((f) => f.starting_at_timestamp))
      this.season.standings_recalculated_at = ymdhms(lastKickoff + 2 * 3600)
    }
  }
}

/** Past fixtures: FT, or for a deciding cup fixture sometimes after extra time (7) or penalties (8). */
function finishedState (rng: Rng, kind: FixtureKind): number {
  if (kind !== 'cup') return 5
  const roll = rng.next()
  return roll < 0.7 ? 5 : roll < 0.88 ? 7 : 8
}
