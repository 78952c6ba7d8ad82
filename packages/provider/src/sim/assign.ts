/**
 * Turns drafts into events, in time order, keeping track of who is on the pitch, who is booked, the running
 * score (for `result`) and the per-type counters behind `addition` ("2nd Goal") and `sort_order`.
 */
import type { FixtureEvent, HomeAway } from '@touchline/upstream-contract/football'
import { EventType } from '@touchline/upstream-contract/types'
import { MAX_SUBS, type Draft } from './drafts.ts'
import type { Happening, PeriodPlan, SimPlayer, SimTeam } from './model.ts'
import type { Rng } from '../rng.ts'
import { eventId, MAX_EVENTS, minuteOf, otherSide } from './timeline.ts'

interface Squad {
  team: SimTeam
  onPitch: SimPlayer[]
  bench: SimPlayer[]
  booked: Set<number>
  subs: number
}

export interface MatchState {
  fixtureId: number
  squads: Record<HomeAway, Squad>
  score: Record<HomeAway, number>
  /** Ordinal of the last event id handed out. */
  n: number
  /** Events so far per type, for `addition` ("1st Goal", "2nd Yellowcard"). */
  additions: Map<number, number>
  /** `sort_order` so far per family of types. */
  sortOrders: Map<string, number>
  happenings: Happening[]
  byDraft: Map<Draft, Happening>
}

/** `position_id` of a goalkeeper. */
const KEEPER = 24

const squad = (team: SimTeam): Squad =>
  ({ team, onPitch: team.players.slice(0, 11), bench: team.players.slice(11), booked: new Set(), subs: 0 })

export function startMatch (fixtureId: number, home: SimTeam, away: SimTeam): MatchState {
  return {
    fixtureId,
    squads: { home: squad(home), away: squad(away) },
    score: { home: 0, away: 0 },
    n: 0,
    additions: new Map(),
    sortOrders: new Map(),
    happenings: [],
    byDraft: new Map()
  }
}

function ordinal (n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'
  return `${n}${suffix}`
}

const ADDITION_NOUN: Readonly<Record<number, string>> = {
  14: 'Goal', 15: 'Own Goal', 16: 'Penalty', 17: 'Missed Penalty', 18: 'Substitution', 19: 'Yellowcard', 20: 'Redcard', 21: 'Yellowredcard'
}
/** In the recordings goals and penalties share one sort_order sequence, as do the shoot-out kicks. */
const family = (typeId: number): string =>
  [14, 15, 16].includes(typeId) ? 'goals' : [22, 23].includes(typeId) ? 'shootout' : String(typeId)
const CARD_TYPES: ReadonlySet<number> = new Set([19, 20, 21])

const bump = <K>(map: Map<K, number>, key: K, by: number): number => {
  const value = (map.get(key) ?? 0) + by
  map.set(key, value)
  return value
}

export interface EventSpec {
  type_id: number
  side: HomeAway
  period: PeriodPlan
  at: number
  play: number
  player?: SimPlayer | null
  related?: SimPlayer | null
  info?: string | null
  sub_type_id?: number | null
  result?: string | null
  injured?: boolean | null
  /** Overrides the counted addition ("Scored" in a shoot-out), or null for none. */
  addition?: string | null
  /** Overrides the minute computed from the play time (shoot-out kicks count 1, 2, 3...). */
  minute?: { minute: number, extra_minute: number | null }
  credit?: HomeAway
  cancelledAt?: number
}

/** Appends one event with the real field set and order of the upstream payloads. */
export function pushEvent (state: MatchState, spec: EventSpec): Happening | undefined {
  if (state.n >= MAX_EVENTS) return undefined
  const count = bump(state.additions, spec.type_id, 1)
  const noun = ADDITION_NOUN[spec.type_id]
  const addition = spec.addition !== undefined ? spec.addition : noun === undefined ? null : `${ordinal(count)} ${noun}`
  const { minute, extra_minute: extraMinute } = spec.minute ?? minuteOf(spec.period, spec.play)
  const event: FixtureEvent = {
    id: eventId(state.fixtureId, ++state.n),
    fixture_id: state.fixtureId,
    period_id: spec.period.legacyId,
    participant_id: state.squads[spec.side].team.id,
    type_id: spec.type_id,
    section: 'event',
    player_id: spec.player?.id ?? null,
    related_player_id: spec.related?.id ?? null,
    player_name: spec.player?.name ?? null,
    related_player_name: spec.related?.name ?? null,
    result: spec.result ?? null,
    info: spec.info ?? null,
    addition,
    minute,
    extra_minute: extraMinute,
    injured: spec.injured ?? null,
    on_bench: false,
    coach_id: null,
    sub_type_id: spec.sub_type_id ?? null,
    detailed_period_id: spec.period.id,
    rescinded: CARD_TYPES.has(spec.type_id) ? false : null,
    sort_order: bump(state.sortOrders, family(spec.type_id), 1)
  }
  const happening: Happening = { at: spec.at, bucket: spec.period.key, event }
  if (spec.credit !== undefined) happening.credit = spec.credit
  if (spec.cancelledAt !== undefined) happening.cancelledAt = spec.cancelledAt
  state.happenings.push(happening)
  return happening
}

const outfield = (s: Squad): SimPlayer[] => s.onPitch.filter((p) => p.id !== s.team.players[0]?.id)
const without = (players: SimPlayer[], gone: SimPlayer): SimPlayer[] => players.filter((p) => p.id !== gone.id)
const resultOf = (score: Record<HomeAway, number>): string => `${score.home}-${score.away}`

const SHOTS = [['Right foot shot', 1522, 50], ['Left foot shot', 1521, 30], ['Header', 1694, 20]] as const
const YELLOW_INFO = ['Foul', 'Foul', 'Foul', 'Argument', 'Time wasting', 'Handball', 'Unsportsmanlike conduct']
const RED_INFO = ['Professional foul last man', 'Violent conduct', 'Serious foul play']

export function shotOf (rng: Rng, headers = true): { info: string, sub_type_id: number } {
  const shot = SHOTS[rng.weighted(SHOTS.map((s) => headers || s[1] !== 1694 ? s[2] : 0))] ?? SHOTS[0]
  return { info: shot[0], sub_type_id: shot[1] }
}

function resolveGoal (state: MatchState, rng: Rng, d: Draft): void {
  const team = state.squads[d.side]
  const credit = d.kind === 'owngoal' ? otherSide(d.side) : d.side
  const scorer = rng.pickOrUndefined(d.kind === 'owngoal' ? team.onPitch : outfield(team)) ?? null
  const assist = d.kind === 'goal' && scorer !== null && rng.chance(0.72) ? rng.pickOrUndefined(without(outfield(team), scorer)) ?? null : null
  state.score[credit]++
  const type = d.kind === 'goal' ? EventType.GOAL : d.kind === 'penalty' ? EventType.PENALTY : EventType.OWNGOAL
  const shot = d.kind === 'owngoal' ? { info: null, sub_type_id: null } : shotOf(rng, d.kind === 'goal')
  const spec: EventSpec = { ...shot, type_id: type, side: d.side, period: d.period, at: d.at, play: d.play, player: scorer, related: assist, result: resultOf(state.score), credit }
  if (d.cancelledAt !== undefined) spec.cancelledAt = d.cancelledAt
  const happening = pushEvent(state, spec)
  if (happening !== undefined) state.byDraft.set(d, happening)
}

/** VAR takes the goal back: the score, and the counters its addition and sort_order used, go back too. */
function resolveDisallow (state: MatchState, d: Draft): void {
  const goal = d.target === undefined ? undefined : state.byDraft.get(d.target)
  if (goal === undefined || goal.credit === undefined) return
  state.score[goal.credit]--
  bump(state.additions, goal.event.type_id, -1)
  bump(state.sortOrders, family(goal.event.type_id), -1)
  if (d.logVar !== true) return
  const scorer = goal.event.player_id === null ? null : { id: goal.event.player_id, name: goal.event.player_name ?? '' }
  pushEvent(state, { type_id: EventType.VAR, side: d.side, period: d.period, at: d.at, play: d.play, player: scorer, info: 'Goal Disallowed', addition: null })
}

function resolveCard (state: MatchState, rng: Rng, d: Draft): void {
  const team = state.squads[d.side]
  const base = { side: d.side, period: d.period, at: d.at, play: d.play }
  const booked = team.onPitch.filter((p) => team.booked.has(p.id))
  let type: number = EventType.YELLOWCARD
  let player: SimPlayer | undefined
  if (d.kind === 'red') {
    type = EventType.REDCARD
    player = rng.pickOrUndefined(team.onPitch)
  } else if (booked.length > 0 && rng.chance(0.07)) {
    type = EventType.YELLOWREDCARD
    player = rng.pick(booked)
  } else {
    player = rng.pickOrUndefined(team.onPitch.filter((p) => !team.booked.has(p.id)))
  }
  if (player === undefined) return
  if (type === EventType.YELLOWCARD) team.booked.add(player.id)
  else team.onPitch = without(team.onPitch, player)
  const info = type === EventType.REDCARD ? rng.pick(RED_INFO) : rng.pick(YELLOW_INFO)
  pushEvent(state, { ...base, type_id: type, player, info })
}

function resolveSub (state: MatchState, rng: Rng, d: Draft): void {
  const team = state.squads[d.side]
  const off = rng.pickOrUndefined(outfield(team))
  // An outfield player comes on for an outfield player: a keeper on the bench stays there.
  const on = rng.pickOrUndefined(team.bench.filter((p) => p.position_id !== KEEPER))
  if (team.subs >= MAX_SUBS || off === undefined || on === undefined) return
  team.subs++
  team.onPitch = [...without(team.onPitch, off), on]
  team.bench = without(team.bench, on)
  const injured = d.injured === true || rng.chance(0.06) ? true : null
  // The real payload names the player coming on as `player`, the one going off as `related_player`.
  pushEvent(state, { type_id: EventType.SUBSTITUTION, side: d.side, period: d.period, at: d.at, play: d.play, player: on, related: off, injured })
}

/** Resolves drafts in time order (they must be sorted). */
export function resolveDrafts (state: MatchState, rng: Rng, drafts: readonly Draft[]): void {
  for (const d of drafts) {
    switch (d.kind) {
      case 'goal': case 'penalty': case 'owngoal': resolveGoal(state, rng, d); break
      case 'disallow': resolveDisallow(state, d); break
      case 'missedpen': {
        const player = rng.pickOrUndefined(outfield(state.squads[d.side])) ?? null
        pushEvent(state, { type_id: EventType.MISSED_PENALTY, side: d.side, period: d.period, at: d.at, play: d.play, player })
        break
      }
      case 'card': case 'red': resolveCard(state, rng, d); break
      case 'sub': resolveSub(state, rng, d); break
    }
  }
}
