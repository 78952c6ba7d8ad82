/**
 * The odds' view of a played-back recording (sim/replay-playback.ts), for the fixtures whose recording
 * carried no odds of their own: the same MatchLine a script gives (line.ts), read off the recorded views.
 * An event counts from the first view that shows it; a goal that a later view no longer shows was taken back
 * then (VAR). The clock is each view's regular-time period, running from its `minutes` and `seconds`.
 */
import type { FixtureEvent, HomeAway, Period } from '@touchline/upstream-contract/football'
import { LIVE_STATE_IDS, State } from '@touchline/upstream-contract/states'
import { EventType, PeriodType } from '@touchline/upstream-contract/types'
import type { FixtureLive } from '../sim/model.ts'
import { alarmsOf, endOf, type ClockPoint, type LineGoal, type MatchLine } from './line.ts'

export interface PlaybackInput {
  fixtureId: number
  frames: ReadonlyArray<{ atMs: number, live: FixtureLive }>
  /** Kick-off on the replay's clock (unix s) and recorded seconds per real second. */
  kickoff: number
  speed: number
  home: { id: number, name: string }
  away: { id: number, name: string }
}

const GOALS: ReadonlySet<number> = new Set([EventType.GOAL, EventType.OWNGOAL, EventType.PENALTY])
const REDS: ReadonlySet<number> = new Set([EventType.REDCARD, EventType.YELLOWREDCARD])
const ALARMS: ReadonlySet<number> = new Set([EventType.PENALTY, EventType.MISSED_PENALTY, EventType.VAR, EventType.VAR_CARD])
/** States once regular time is over (or never will be): FT, the breaks and halves of extra time, the shoot-out. */
const AFTER_REGULAR: ReadonlySet<number> = new Set([State.FT, State.BREAK, State.INPLAY_ET, State.EXTRA_TIME_BREAK, State.INPLAY_ET_2ND_HALF, State.AET, State.PEN_BREAK, State.INPLAY_PENALTIES, State.FT_PEN])
const CALLED_OFF: ReadonlySet<number> = new Set([State.ABANDONED, State.CANCELLED, State.POSTPONED, State.DELETED, State.WO, State.AWARDED])

/** Extra time starts at minute 91: later events are not regular time's. */
const isRegular = (e: FixtureEvent): boolean => e.minute <= 90

/** The clock a view shows: the regular-time period played last, or none before kick-off. */
function clockPoint (at: number, periods: readonly Period[], sec: (unixS: number) => number): ClockPoint | undefined {
  const first = periods.find((p) => p.type_id === PeriodType.FIRST_HALF)
  const second = periods.find((p) => p.type_id === PeriodType.SECOND_HALF)
  // Without a recorded clock, the time since the period started (to its end, once it ended).
  const played = (p: Period): number => p.minutes === null
    ? Math.max(0, (p.ended === null ? at : sec(p.ended)) - (p.started === null ? at : sec(p.started)))
    : (p.minutes - p.counts_from) * 60 + (p.seconds ?? 0)
  if (second !== undefined && second.started !== null) return { at, half: 2, inHalf: played(second), ticking: second.ticking && second.ended === null }
  if (first === undefined || first.started === null) return undefined
  if (first.ended !== null) return { at, half: 2, inHalf: 0, ticking: false }
  return { at, half: 1, inHalf: played(first), ticking: first.ticking }
}

export function lineOfPlayback (input: PlaybackInput): MatchLine {
  const sec = (ms: number): number => (ms - input.kickoff * 1000) * input.speed / 1000
  const sideOf = (e: FixtureEvent): HomeAway => {
    const side: HomeAway = e.participant_id === input.home.id ? 'home' : 'away'
    return e.type_id === EventType.OWNGOAL ? (side === 'home' ? 'away' : 'home') : side
  }
  const goals = new Map<number, LineGoal>()
  const reds: Array<{ at: number, side: HomeAway }> = []
  const events: Array<{ at: number, type_id: number }> = []
  const seen = new Set<number>()
  const clock: ClockPoint[] = []
  let [start, regularEnd, calledOff] = [undefined as number | undefined, undefined as number | undefined, undefined as number | undefined]
  for (const frame of input.frames) {
    const at = sec(frame.atMs)
    const { live } = frame
    const point = clockPoint(at, live.periods, (s) => sec(s * 1000))
    if (point !== undefined) clock.push(point)
    start ??= point !== undefined || LIVE_STATE_IDS.has(live.state_id) ? at : undefined
    if (regularEnd === undefined && AFTER_REGULAR.has(live.state_id)) regularEnd = at
    if (calledOff === undefined && CALLED_OFF.has(live.state_id)) calledOff = at
    const shown = new Set(live.events.map((e) => e.id))
    for (const e of live.events.filter((x) => !seen.has(x.id) && isRegular(x))) {
      seen.add(e.id)
      if (GOALS.has(e.type_id)) goals.set(e.id, { at, side: sideOf(e) })
      if (REDS.has(e.type_id)) reds.push({ at, side: sideOf(e) })
      if (ALARMS.has(e.type_id)) events.push({ at, type_id: e.type_id })
    }
    for (const [id, goal] of goals) {
      if (!shown.has(id) && goal.cancelledAt === undefined) goal.cancelledAt = at
      if (shown.has(id) && goal.cancelledAt !== undefined) delete goal.cancelledAt
    }
  }
  const last = input.frames[input.frames.length - 1]
  const finalState = last?.live.state_id ?? State.NS
  const lastAt = last === undefined ? 0 : sec(last.atMs)
  const goalList = [...goals.values()].sort((a, b) => a.at - b.at)
  return {
    fixtureId: input.fixtureId,
    home: input.home,
    away: input.away,
    ...(start !== undefined ? { start } : {}),
    ...endOf(finalState, calledOff ?? lastAt, regularEnd),
    goals: goalList,
    reds,
    alarms: alarmsOf(goalList, events),
    clock
  }
}
