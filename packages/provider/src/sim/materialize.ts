/**
 * `materialize`: what a script shows at one instant of the match clock, in the upstream wire shapes.
 * Everything is recomputed from the script, so a view never depends on earlier calls.
 */
import type { FixtureEvent, FixtureStatistic, HomeAway, Period, Score } from '@touchline/upstream-contract/football'
import { State } from '@touchline/upstream-contract/states'
import { SCORE_DESCRIPTIONS, ScoreType } from '@touchline/upstream-contract/types'
import { unixAt, type MatchClock } from './clock.ts'
import type { FixtureLive, Happening, MatchScript, ParticipantMeta, PeriodKey, PeriodPlan, StatStep } from './model.ts'
import { STAT_TYPES } from './stats.ts'
import { isPausedAt, LEGACY_ET, playedAt, SIDES, statId } from './timeline.ts'

/** Last step at or before `at` (steps are in time order): a binary search. */
function lastAt<T extends { at: number }> (steps: readonly T[], at: number): T | undefined {
  let lo = 0
  let hi = steps.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((steps[mid] as T).at <= at) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? undefined : steps[lo - 1]
}

function isVisible (h: Happening, at: number): boolean {
  return h.at <= at && (h.cancelledAt === undefined || h.cancelledAt > at)
}

/** Which periods each score type adds up. CURRENT leaves the shoot-out out; 2ND_HALF is cumulative. */
const SCORE_PERIODS: Readonly<Record<number, readonly PeriodKey[]>> = {
  [ScoreType.CURRENT]: ['first', 'second', 'et1', 'et2'],
  [ScoreType.FIRST_HALF]: ['first'],
  [ScoreType.SECOND_HALF]: ['first', 'second'],
  [ScoreType.SECOND_HALF_ONLY]: ['second'],
  [ScoreType.ET]: ['et1', 'et2'],
  [ScoreType.ET_1ST_HALF]: ['et1'],
  [ScoreType.ET_2ND_HALF]: ['et2'],
  [ScoreType.PENALTY_SHOOTOUT]: ['pens']
}

function scoresAt (script: MatchScript, visible: readonly Happening[], at: number): Score[] {
  const goals = new Map<string, number>()
  for (const h of visible) {
    if (h.credit !== undefined) goals.set(`${h.bucket}:${h.credit}`, (goals.get(`${h.bucket}:${h.credit}`) ?? 0) + 1)
  }
  const sum = (typeId: number, side: HomeAway): number =>
    (SCORE_PERIODS[typeId] ?? []).reduce((total, key) => total + (goals.get(`${key}:${side}`) ?? 0), 0)
  return script.scoreRows.filter((row) => row.appearsAt <= at).map((row) => ({
    id: row.id,
    fixture_id: script.fixtureId,
    type_id: row.type_id,
    participant_id: row.participant_id,
    score: { goals: sum(row.type_id, row.side), participant: row.side },
    description: SCORE_DESCRIPTIONS[row.type_id] ?? String(row.type_id)
  }))
}

function periodAt (fixtureId: number, p: PeriodPlan, clock: MatchClock): Period {
  const at = clock.seconds
  const ended = at >= p.end
  const play = Math.floor(playedAt(p, at))
  // The shoot-out has no clock: the real payload shows minutes null and seconds 0.
  const pens = p.key === 'pens'
  return {
    id: p.id,
    fixture_id: fixtureId,
    type_id: p.type_id,
    started: unixAt(clock, p.start),
    ended: ended ? unixAt(clock, p.end) : null,
    counts_from: p.counts_from,
    ticking: !ended && !isPausedAt(p, at),
    sort_order: p.sort_order,
    description: p.description,
    time_added: at >= p.announceAt ? p.timeAdded : null,
    period_length: p.period_length,
    minutes: pens ? null : p.counts_from + Math.floor(play / 60),
    seconds: pens ? 0 : play % 60,
    has_timer: p.has_timer
  }
}

/** The `periods` include folds both halves of extra time into one legacy period (type 3, 30 minutes). */
function legacyPeriods (plans: readonly PeriodPlan[], detailed: readonly Period[]): Period[] {
  const out: Period[] = []
  let et: Period | undefined
  detailed.forEach((view, i) => {
    const plan = plans[i]
    if (plan?.key === 'et1') {
      // Still open during the break between the halves: it ends with the second half of extra time.
      et = { ...view, id: plan.legacyId, ...LEGACY_ET, ended: null }
      out.push(et)
    } else if (plan?.key === 'et2' && et !== undefined) {
      Object.assign(et, { ended: view.ended, ticking: view.ticking, time_added: view.time_added, minutes: view.minutes, seconds: view.seconds })
    } else {
      out.push({ ...view })
    }
  })
  return out
}

/** A script's statistic steps by row (type and side), each in time order: built once per script. */
const statIndex = new WeakMap<MatchScript, ReadonlyMap<string, readonly StatStep[]>>()

function stepsByRow (script: MatchScript): ReadonlyMap<string, readonly StatStep[]> {
  let index = statIndex.get(script)
  if (index === undefined) {
    const rows = new Map<string, StatStep[]>()
    for (const step of script.stats) {
      const key = `${step.type_id}:${step.side}`
      const list = rows.get(key)
      if (list === undefined) rows.set(key, [step])
      else list.push(step)
    }
    index = rows
    statIndex.set(script, index)
  }
  return index
}

function statisticsAt (script: MatchScript, at: number): FixtureStatistic[] {
  const index = stepsByRow(script)
  const rows: FixtureStatistic[] = []
  STAT_TYPES.forEach((typeId, k) => {
    SIDES.forEach((side, s) => {
      const value = lastAt(index.get(`${typeId}:${side}`) ?? [], at)?.value
      if (value === undefined) return
      rows.push({ id: statId(script.fixtureId, k * 2 + s), fixture_id: script.fixtureId, type_id: typeId, participant_id: script[side].id, data: { value }, location: side })
    })
  })
  return rows
}

function metaAt (script: MatchScript, side: HomeAway, finished: boolean): ParticipantMeta {
  const { decided, winner } = script.result
  // Null until decided; a finished draw is decided with no winner.
  return { winner: finished && decided ? winner === side : null, position: script[side].position }
}

/** The CURRENT score of a view (the shoot-out aside), 0-0 before kick-off. */
export function currentScore (view: Pick<FixtureLive, 'scores'>): Record<HomeAway, number> {
  const goals = (side: HomeAway): number => view.scores.find((s) => s.type_id === ScoreType.CURRENT && s.score.participant === side)?.score.goals ?? 0
  return { home: goals('home'), away: goals('away') }
}

/** What `script` shows when its match clock reads `clock.seconds` (see clock.ts). Pure. */
export function materialize (script: MatchScript, clock: MatchClock): FixtureLive {
  const at = clock.seconds
  const visible = script.happenings.filter((h) => isVisible(h, at))
  const started = script.periods.filter((p) => p.start <= at)
  const detailed = started.map((p) => periodAt(script.fixtureId, p, clock))
  const periods = legacyPeriods(started, detailed)
  const current = periods.find((p) => p.ticking)
  const finished = at >= script.result.at
  return {
    state_id: lastAt(script.states, at)?.state_id ?? State.NS,
    result_info: finished ? script.result.result_info : null,
    length: lastAt(script.lengths, at)?.value ?? 90,
    scores: scoresAt(script, visible, at),
    events: visible.map((h): FixtureEvent => ({ ...h.event })),
    periods,
    detailedperiods: detailed,
    currentperiod: current === undefined ? null : { ...current },
    statistics: statisticsAt(script, at),
    participantsMeta: { home: metaAt(script, 'home', finished), away: metaAt(script, 'away', finished) }
  }
}
