/**
 * Recorded replays: a real fixture payload turned into a script that, played to the end, shows exactly the
 * recorded final state, result_info, scores and events. Events appear at their recorded minute (ties in a
 * minute keep their id order); periods come from the `periods` include, else from the events' nested
 * `period`, else standard timings. A recorded single extra-time period (type 3) is split into its halves.
 */
import type { FixtureBase, FixtureEvent, HomeAway } from '../../contract/football.ts'
import { State } from '../../contract/states.ts'
import { EventType, PeriodType } from '../../contract/types.ts'
import { kickAt, makePeriod, PEN_BREAK, shootoutSeconds } from './frame.ts'
import type { Happening, MatchScript, PeriodKey, PeriodPlan, ScoreRowPlan, SimFixtureInput, SimTeam } from './model.ts'
import { BASE_FIELDS, eventFields, formatStartingAt, parseRecording, type RecordedPeriodT, type Recording } from './replay-parse.ts'
import { replayStats } from './replay-stats.ts'
import { buildStates, matchSecondOf, otherSide, PERIOD_DEFS, periodId, periodKeyOfMinute, scoreRowPeriod } from './timeline.ts'

export interface Replay {
  /** The fixture as the simulator's input, kicking off at the given time. */
  input: SimFixtureInput
  script: MatchScript
  /** Recorded base fields as scheduled at `kickoff`: NS, no result_info (the live view supplies those). */
  base: FixtureBase
}

const SHOOTOUT_TYPES: ReadonlySet<number> = new Set([EventType.PENALTY_SHOOTOUT_GOAL, EventType.PENALTY_SHOOTOUT_MISS])
const SECOND_HALF_STATES: ReadonlySet<number> = new Set([State.INPLAY_2ND_HALF, State.FT])
const HALF_TIME = 900
const ET_BREAK = 300
/** Extra-time halves of a split legacy period: at least 15 minutes, plus a minute of stoppage for the first. */
const ET1_DEFAULT = 960

interface Placed {
  event: FixtureEvent
  key: PeriodKey
}

function keyOf (event: FixtureEvent, keys: ReadonlySet<PeriodKey>): PeriodKey {
  if (SHOOTOUT_TYPES.has(event.type_id)) return 'pens'
  const key = periodKeyOfMinute(event.minute)
  if (keys.has(key)) return key
  return (['et2', 'et1', 'second', 'first'] as const).find((k) => keys.has(k)) ?? 'first'
}

/** Seconds of play of an event in its period; `rank` orders events within the same minute. */
function playOf (key: PeriodKey, event: FixtureEvent, rank: number): number {
  const def = PERIOD_DEFS[key]
  const extra = event.extra_minute ?? 0
  const minuteStart = extra > 0 ? (def.period_length + extra - 1) * 60 : (event.minute - def.counts_from - 1) * 60
  return Math.max(0, minuteStart) + Math.min(55, 10 + rank * 5)
}

/** Which periods were played: recorded ones, or those the events, the scores or the final state imply. */
function playedKeys (fx: Recording, events: readonly FixtureEvent[], recorded: readonly RecordedPeriodT[]): Set<PeriodKey> {
  const types = new Set([...recorded.map((p) => p.type_id), ...fx.scores.map((s) => s.type_id)])
  const minutes = events.filter((e) => !SHOOTOUT_TYPES.has(e.type_id)).map((e) => e.minute)
  const maxMinute = Math.max(0, ...minutes)
  const pens = fx.state_id === State.FT_PEN || types.has(PeriodType.PENALTIES) || events.some((e) => SHOOTOUT_TYPES.has(e.type_id))
  const et = pens || fx.state_id === State.AET || maxMinute > 90 || [3, 5314, 39].some((t) => types.has(t))
  const second = et || maxMinute > 45 || types.has(2) || SECOND_HALF_STATES.has(fx.state_id)
  const keys = new Set<PeriodKey>(['first'])
  if (second) keys.add('second')
  if (et) keys.add('et1').add('et2')
  if (pens) keys.add('pens')
  return keys
}

/** Recorded periods: the include, else the events' nested `period` objects. */
function recordedPeriods (fx: Recording): RecordedPeriodT[] {
  if (fx.periods !== undefined) return fx.periods
  const byId = new Map<number, RecordedPeriodT>()
  for (const e of fx.events) if (e.period != null) byId.set(e.period.id, e.period)
  return [...byId.values()]
}

/** Id of a period: recorded, else taken from its events, else derived from the fixture id. */
function idFor (fx: Recording, placed: readonly Placed[], key: PeriodKey, recorded?: RecordedPeriodT): number {
  const isEt = key === 'et1' || key === 'et2'
  if (recorded !== undefined && !isEt) return recorded.id
  // An ET half takes its events' detailed period id, unless that is the legacy period's own id.
  const own = placed.find((p) => p.key === key && p.event.detailed_period_id != null && p.event.detailed_period_id !== recorded?.id)
  return own?.event.detailed_period_id ?? periodId(fx.id, { first: 1, second: 2, et1: 4, et2: 5, pens: 6 }[key])
}

function replayPeriods (fx: Recording, placed: readonly Placed[], keys: ReadonlySet<PeriodKey>, recorded: readonly RecordedPeriodT[]): PeriodPlan[] {
  const sat = fx.starting_at_timestamp
  const find = (typeId: number): RecordedPeriodT | undefined => recorded.find((p) => p.type_id === typeId)
  const plans: PeriodPlan[] = []
  const add = (key: PeriodKey, start: number, played: number, timeAdded: number | null, rec?: RecordedPeriodT, legacyId?: number): PeriodPlan => {
    const id = idFor(fx, placed, key, rec)
    const plan = { ...makePeriod(fx.id, { key, start, played, timeAdded, hasTimer: rec?.has_timer ?? false }), id, legacyId: legacyId ?? id }
    plans.push(plan)
    return plan
  }
  let end = 0
  for (const key of ['first', 'second'] as const) {
    if (!keys.has(key)) continue
    const rec = find(PERIOD_DEFS[key].type_id)
    const start = Math.max(end + (key === 'second' ? 60 : 0), rec?.started == null ? end + (key === 'second' ? HALF_TIME : 0) : rec.started - sat)
    const timeAdded = rec?.time_added ?? 3
    const recorded = rec?.started != null && rec.ended != null ? rec.ended - rec.started : 2700 + timeAdded * 60 + 30
    end = add(key, start, Math.max(recorded, lastPlay(placed, key) + 30), timeAdded, rec).end
  }
  if (keys.has('et1')) {
    const legacy = find(PeriodType.EXTRA_TIME)
    const start = Math.max(end + 60, legacy?.started == null ? end + ET_BREAK : legacy.started - sat)
    const total = legacy?.started != null && legacy.ended != null ? legacy.ended - legacy.started : 0
    const et2Played = Math.max(900 + (legacy?.time_added ?? 1) * 60, lastPlay(placed, 'et2') + 30)
    const et1 = add('et1', start, Math.max(ET1_DEFAULT, lastPlay(placed, 'et1') + 30), null, legacy, legacy?.id)
    const breakLength = Math.max(60, total - (et1.end - et1.start) - et2Played)
    end = add('et2', et1.end + breakLength, et2Played, legacy?.time_added ?? 1, legacy, legacy?.id).end
  }
  if (keys.has('pens')) {
    const rec = find(PeriodType.PENALTIES)
    const start = end + PEN_BREAK
    const recordedEnd = rec?.ended == null ? 0 : rec.ended - sat
    add('pens', start, Math.max(shootoutSeconds(placed.filter((p) => p.key === 'pens').length), recordedEnd - start), null, rec)
  }
  return plans
}

function lastPlay (placed: readonly Placed[], key: PeriodKey): number {
  return Math.max(0, ...placed.filter((p) => p.key === key).map((p) => playOf(key, p.event, 0)))
}

function replayHappenings (placed: readonly Placed[], periods: readonly PeriodPlan[], homeId: number): Happening[] {
  const sideOf = (e: FixtureEvent): HomeAway => e.participant_id === homeId ? 'home' : 'away'
  const ranks = new Map<string, number>()
  const kicks = placed.filter((p) => p.key === 'pens').sort((a, b) => a.event.minute - b.event.minute || a.event.id - b.event.id)
  const happenings = placed.flatMap(({ event, key }): Happening[] => {
    const period = periods.find((p) => p.key === key)
    if (period === undefined) return []
    let at: number
    if (key === 'pens') {
      at = kickAt(period, kicks.findIndex((k) => k.event === event) + 1, kicks.length)
    } else {
      const slot = `${key}:${event.minute}:${event.extra_minute ?? 0}`
      const rank = ranks.get(slot) ?? 0
      ranks.set(slot, rank + 1)
      at = matchSecondOf(period, playOf(key, event, rank))
    }
    const h: Happening = { at, bucket: key, event }
    const t = event.type_id
    if (t === EventType.GOAL || t === EventType.PENALTY || t === EventType.PENALTY_SHOOTOUT_GOAL) h.credit = sideOf(event)
    if (t === EventType.OWNGOAL) h.credit = otherSide(sideOf(event))
    return [h]
  })
  return happenings.sort((a, b) => a.at - b.at || a.event.id - b.event.id)
}

function teamsOf (fx: Recording, events: readonly FixtureEvent[]): Record<HomeAway, SimTeam> {
  const team = (side: HomeAway): SimTeam => {
    const p = fx.participants.find((x) => x.meta.location === side)
    if (p === undefined) throw new Error(`invalid fixture recording: no ${side} participant`)
    const players = new Map<number, string>()
    for (const e of events.filter((x) => x.participant_id === p.id)) {
      if (e.player_id !== null) players.set(e.player_id, e.player_name ?? '')
      if (e.related_player_id !== null) players.set(e.related_player_id, e.related_player_name ?? '')
    }
    const squad = [...players].map(([id, name]) => ({ id, name }))
    return { id: p.id, name: p.name, short_code: p.short_code, players: squad, position: p.meta.position ?? null }
  }
  return { home: team('home'), away: team('away') }
}

export function scriptFromRecording (recording: unknown, kickoff: number): Replay {
  const fx = parseRecording(recording)
  const events = fx.events.map((e) => eventFields(e)).sort((a, b) => a.id - b.id)
  const teams = teamsOf(fx, events)
  const recorded = recordedPeriods(fx)
  const keys = playedKeys(fx, events, recorded)
  const placed = events.map((event) => ({ event, key: keyOf(event, keys) }))
  const periods = replayPeriods(fx, placed, keys, recorded)
  const happenings = replayHappenings(placed, periods, teams.home.id)
  const states = buildStates(periods, { delayed: false, finalState: fx.state_id })
  const endAt = states[states.length - 1]?.at ?? 0
  const startOf = (key: PeriodKey | undefined): number => periods.find((p) => p.key === key)?.start ?? periods[0]?.start ?? 0
  const scoreRows: ScoreRowPlan[] = fx.scores.map((s) => ({ id: s.id, type_id: s.type_id, side: s.score.participant, participant_id: s.participant_id, appearsAt: startOf(scoreRowPeriod(s.type_id)) }))
  const meta = (side: HomeAway) => fx.participants.find((p) => p.meta.location === side)?.meta.winner ?? null
  const winner: HomeAway | null = meta('home') === true ? 'home' : meta('away') === true ? 'away' : null
  const ref = (side: HomeAway) => ({ id: teams[side].id, name: teams[side].name, position: teams[side].position ?? null })
  const script: MatchScript = {
    fixtureId: fx.id,
    leagueId: fx.league_id,
    kind: keys.has('et1') ? 'cup' : 'league',
    home: ref('home'),
    away: ref('away'),
    states,
    periods,
    happenings,
    stats: replayStats(fx, periods, happenings, teams.home.id),
    scoreRows: scoreRows.sort((a, b) => a.appearsAt - b.appearsAt),
    lengths: [{ at: -Infinity, value: fx.length ?? 90 }],
    result: { at: endAt, result_info: fx.result_info, winner, decided: meta('home') !== null || fx.result_info !== null },
    endAt
  }
  const base = Object.fromEntries(BASE_FIELDS.map((k) => [k, fx[k]])) as unknown as FixtureBase
  Object.assign(base, { state_id: State.NS, result_info: null, starting_at_timestamp: kickoff, starting_at: formatStartingAt(kickoff) })
  const input: SimFixtureInput = { id: fx.id, league_id: fx.league_id, kind: script.kind, kickoff, home: teams.home, away: teams.away }
  return { input, script, base }
}
