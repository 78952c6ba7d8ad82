/**
 * Rebuilds the intermediate upstream snapshots of a recorded (finished) fixture, as a poller would have
 * seen them: the state walks through the given ids, events appear one at a time in match order, the
 * score rows are recomputed from the events seen so far, and the current period ticks.
 * The last snapshot is built by the same code, so comparing it with the recording checks the rebuild.
 */
import { STATE_BY_ID, State } from '../../../packages/upstream-contract/src/states.ts'
import { EventType, ScoreType } from '../../../packages/upstream-contract/src/types.ts'
import type { EventInput, FixtureInput, PeriodInput, ScoreInput } from '../../../src/diff/input.ts'

type Bucket = '1h' | '2h' | 'et1' | 'et2' | 'shootout'

/** What each state contributes: its ticking period and the events (by bucket) that happen in it. */
const PHASES: Readonly<Record<number, { period?: PeriodInput & { counts_from: number }, bucket?: Bucket }>> = {
  [State.INPLAY_1ST_HALF]: { period: { type_id: 1, description: '1st-half', ticking: true, counts_from: 0 }, bucket: '1h' },
  [State.INPLAY_2ND_HALF]: { period: { type_id: 2, description: '2nd-half', ticking: true, counts_from: 45 }, bucket: '2h' },
  // The recording has the legacy single extra-time period (type 3) for both ET halves.
  [State.INPLAY_ET]: { period: { type_id: 3, description: 'extra-time', ticking: true, counts_from: 90 }, bucket: 'et1' },
  [State.INPLAY_ET_2ND_HALF]: { period: { type_id: 3, description: 'extra-time', ticking: true, counts_from: 105 }, bucket: 'et2' },
  [State.INPLAY_PENALTIES]: { period: { type_id: 5, description: 'penalties', ticking: true, counts_from: 120 }, bucket: 'shootout' }
}

const SHOOTOUT = new Set<number>([EventType.PENALTY_SHOOTOUT_GOAL, EventType.PENALTY_SHOOTOUT_MISS])
/** Own goals would need the conceding side; the recordings have none, and the test asserts it. */
export const SCORING = new Set<number>([EventType.GOAL, EventType.PENALTY])

function bucketOf (e: EventInput): Bucket {
  if (SHOOTOUT.has(e.type_id)) return 'shootout'
  const minute = e.minute ?? 0
  if (minute <= 45) return '1h'
  if (minute <= 90) return '2h'
  return minute <= 105 ? 'et1' : 'et2'
}

/** Score types, the buckets they add up, and the state from which upstream shows them. */
const SCORE_TYPES: ReadonlyArray<{ type: number, buckets: Bucket[], from: number }> = [
  { type: ScoreType.CURRENT, buckets: ['1h', '2h', 'et1', 'et2'], from: State.INPLAY_1ST_HALF },
  { type: ScoreType.FIRST_HALF, buckets: ['1h'], from: State.INPLAY_1ST_HALF },
  { type: ScoreType.SECOND_HALF, buckets: ['1h', '2h'], from: State.INPLAY_2ND_HALF },
  { type: ScoreType.SECOND_HALF_ONLY, buckets: ['2h'], from: State.INPLAY_2ND_HALF },
  { type: ScoreType.ET, buckets: ['et1', 'et2'], from: State.INPLAY_ET },
  { type: ScoreType.ET_1ST_HALF, buckets: ['et1'], from: State.INPLAY_ET },
  { type: ScoreType.ET_2ND_HALF, buckets: ['et2'], from: State.INPLAY_ET_2ND_HALF },
  { type: ScoreType.PENALTY_SHOOTOUT, buckets: ['shootout'], from: State.INPLAY_PENALTIES }
]

/** The recording's score rows (same ids and teams) with goals recomputed from `seen`. */
function recomputeScores (rows: readonly ScoreInput[], seen: readonly EventInput[], reached: ReadonlySet<number>): ScoreInput[] {
  const goals = (side: unknown, buckets: Bucket[]): number => seen.filter((e) => {
    const scores = SCORING.has(e.type_id) || e.type_id === EventType.PENALTY_SHOOTOUT_GOAL
    const team = rows.find((r) => r.participant_id === e.participant_id)?.score.participant
    return scores && team === side && buckets.includes(bucketOf(e))
  }).length
  return rows.flatMap((row) => {
    const def = SCORE_TYPES.find((t) => t.type === row.type_id)
    if (def === undefined || !reached.has(def.from)) return []
    return [{ ...row, score: { ...row.score, goals: goals(row.score.participant, def.buckets) } }]
  })
}

/** Match order: shoot-out kicks last, then minute, stoppage minute, id. */
function chronological (a: EventInput, b: EventInput): number {
  return Number(SHOOTOUT.has(a.type_id)) - Number(SHOOTOUT.has(b.type_id)) ||
    (a.minute ?? 0) - (b.minute ?? 0) || (a.extra_minute ?? 0) - (b.extra_minute ?? 0) || a.id - b.id
}

/**
 * Snapshots of `recording` along `walk` (state ids, the last one being the recording's final state).
 * Each in-play state gives one snapshot when it starts and one per event in it.
 */
export function replaySnapshots (recording: FixtureInput, walk: readonly number[]): FixtureInput[] {
  const events = (recording.events ?? []).filter((e) => (e.section ?? 'event') === 'event').sort(chronological)
  const rows = recording.scores ?? []
  const { events: _e, scores: _s, periods: _p, currentperiod: _c, state: _st, ...base } = recording
  const seen: EventInput[] = []
  const reached = new Set<number>()
  const snapshots: FixtureInput[] = []
  walk.forEach((stateId, i) => {
    reached.add(stateId)
    const last = i === walk.length - 1
    const phase = PHASES[stateId] ?? {}
    const snap = (minutes: number | null): FixtureInput => {
      const def = STATE_BY_ID.get(stateId)!
      return {
        ...base,
        state_id: stateId,
        // At the end, the recording's own state include (translated for PSG) and periods.
        state: last ? recording.state : { id: def.id, state: def.state, name: def.name, developer_name: def.developer_name },
        result_info: last ? recording.result_info : null,
        scores: recomputeScores(rows, seen, reached),
        events: [...seen],
        ...(last && recording.periods ? { periods: recording.periods } : {}),
        currentperiod: phase.period ? { ...phase.period, minutes } : null
      }
    }
    const shootout = phase.bucket === 'shootout'
    snapshots.push(snap(phase.period && !shootout ? phase.period.counts_from + 1 : null))
    for (const e of events.filter((ev) => bucketOf(ev) === phase.bucket)) {
      seen.push(e)
      snapshots.push(snap(shootout ? null : (e.minute ?? 0) + (e.extra_minute ?? 0)))
    }
  })
  return snapshots
}
