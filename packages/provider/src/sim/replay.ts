/**
 * Recorded replays: a real fixture payload turned into a script that, played to the end, shows exactly the
 * recorded final state, result_info, scores and events. Events appear at their recorded minute (ties in a
 * minute keep their id order); periods come from the `periods` include, else from the events' nested
 * `period`, else standard timings. A recorded single extra-time period (type 3) is split into its halves.
 */
import type { FixtureBase, FixtureEvent, HomeAway } from '@touchline/upstream-contract/football'
import { State } from '@touchline/upstream-contract/states'
import { EventType, PeriodType } from '@touchline/upstream-contract/types'
import { BREAK_BEFORE_ET, HALF_TIME, kickAt, makePeriod, PEN_BREAK, PERIOD_INDEX, shootoutSeconds } from './frame.ts'
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

/** Seconds of play at which the event's minute starts in its period (45+2 starts at 46:00 of play). */
function minuteStart (key: PeriodKey, event: FixtureEvent): number {
  const def = PERIOD_DEFS[key]
  const extra = event.extra_minute ?? 0
  return Math.max(0, extra > 0 ? (def.period_length + extra - 1) * 60 : (event.minute - def.counts_from - 1) * 60)
}

/** Seconds of play of an event; `rank` orders the events of one minute (5 s apart, inside the minute). */
const playOf = (key: PeriodKey, event: FixtureEvent, rank: number): number => minuteStart(key, event) + Math.min(55, 10 + rank * 5)

/** Play a period needs so that all its events' minutes fit in it. */
function neededPlay (placed: readonly Placed[], key: PeriodKey): number {
  return Math.max(0, ...placed.filter((p) => p.key === key).map((p) => minuteStart(key, p.event) + 60))
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
  return own?.event.detailed_period_id ?? periodId(fx.id, PERIOD_INDEX[key])
}

interface PeriodBuilder {
  fx: Recording
  placed: readonly Placed[]
  find: (typeId: number) => RecordedPeriodT | undefined
  add: (key: PeriodKey, start: number, played: number, timeAdded: number | null, rec?: RecordedPeriodT) => PeriodPlan
}

const recordedLength = (rec?: RecordedPeriodT): number | undefined =>
  rec?.started == null || rec.ended == null ? undefined : rec.ended - rec.started

/** A half: at its recorded time (never before the previous period ends), at least as long as its events need. */
function addHalf (b: PeriodBuilder, key: 'first' | 'second', after: number): number {
  const rec = b.find(PERIOD_DEFS[key].type_id)
  const earliest = key === 'first' ? 0 : after + 60
  const start = Math.max(earliest, rec?.started == null ? (key === 'first' ? 0 : after + HALF_TIME) : rec.started - b.fx.starting_at_timestamp)
  const timeAdded = rec?.time_added ?? 3
  const played = Math.max(recordedLength(rec) ?? 2700 + timeAdded * 60 + 30, neededPlay(b.placed, key))
  return b.add(key, start, played, timeAdded, rec).end
}

/** Extra time, recorded as one legacy period: 16 minutes for the first half, the announced time for the second. */
function addExtraTime (b: PeriodBuilder, after: number): number {
  const legacy = b.find(PeriodType.EXTRA_TIME)
  const start = Math.max(after + 60, legacy?.started == null ? after + BREAK_BEFORE_ET : legacy.started - b.fx.starting_at_timestamp)
  const et2Played = Math.max(900 + (legacy?.time_added ?? 1) * 60, neededPlay(b.placed, 'et2'))
  const et1 = b.add('et1', start, Math.max(ET1_DEFAULT, neededPlay(b.placed, 'et1')), null, legacy)
  const breakLength = Math.max(60, (recordedLength(legacy) ?? 0) - (et1.end - et1.start) - et2Played)
  return b.add('et2', et1.end + breakLength, et2Played, legacy?.time_added ?? 1, legacy).end
}

/** The shoot-out, after the usual break, ending when recorded if that leaves its kicks enough time. */
function addPenalties (b: PeriodBuilder, after: number): void {
  const rec = b.find(PeriodType.PENALTIES)
  const start = after + PEN_BREAK
  const recordedEnd = rec?.ended == null ? 0 : rec.ended - b.fx.starting_at_timestamp
  b.add('pens', start, Math.max(shootoutSeconds(b.placed.filter((p) => p.key === 'pens').length), recordedEnd - start), null, rec)
}

function replayPeriods (fx: Recording, placed: readonly Placed[], keys: ReadonlySet<PeriodKey>, recorded: readonly RecordedPeriodT[]): PeriodPlan[] {
  const plans: PeriodPlan[] = []
  const builder: PeriodBuilder = {
    fx,
    placed,
    find: (typeId) => recorded.find((p) => p.type_id === typeId),
    add (key, start, played, timeAdded, rec) {
      const id = idFor(fx, placed, key, rec)
      const isEt = key === 'et1' || key === 'et2'
      // Both ET halves belong to the recorded legacy extra-time period.
      const legacyId = isEt && rec !== undefined ? rec.id : id
      const plan = { ...makePeriod(fx.id, { key, start, played, timeAdded, hasTimer: rec?.has_timer ?? false }), id, legacyId }
      plans.push(plan)
      return plan
    }
  }
  let end = addHalf(builder, 'first', 0)
  if (keys.has('second')) end = addHalf(builder, 'second', end)
  if (keys.has('et1')) end = addExtraTime(builder, end)
  if (keys.has('pens')) addPenalties(builder, end)
  return plans
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
