/**
 * A recording played back: each fixture shows, at every instant, what the last response before the
 * corresponding instant of the recording showed, so it ends in exactly its last recorded state. Recorded time
 * runs on the simulator clock: `speed` recorded seconds per real second, the first observation at `startMs`
 * (at speed 1 the recording plays in real time). Kick-off and period times are moved with it.
 *
 * - A fixture is in the livescores feed from its first observation in a livescores response until the next
 *   whole feed recorded without it (for ever if none was); afterwards (when the gateway takes its final look
 *   by id) it is served by id only, as the upstream does.
 * - `latest` holds the fixtures whose observed view changed in the last 10 real seconds (the real window),
 *   the running clock aside, as for simulated matches.
 * - A response may omit includes an earlier one had (a `latest` without events): each observation is laid
 *   over the previous one, so what was known stays known.
 */
import type { FixtureEvent, Period } from '@touchline/upstream-contract/football'
import { LIVE_STATE_IDS, State } from '@touchline/upstream-contract/states'
import { LATEST_WINDOW_MS } from './engine.ts'
import type { FixtureLive, ParticipantMeta } from './model.ts'
import { eventFields } from './replay-parse.ts'
import type { FixtureRecord, Observation } from './replay-input.ts'

export interface PlaybackOptions {
  /** Real time (epoch ms) at which the recording's first response plays. */
  startMs: number
  /** Recorded seconds per real second. */
  speed: number
  /** When the recording received the whole livescores feed, epoch ms (replay-input.ts). */
  feedLists?: readonly number[]
}

export interface Playback {
  readonly ids: readonly number[]
  has: (fixtureId: number) => boolean
  /** The last observation of the fixture, whole (base fields and includes), start times moved to the replay. */
  last: (fixtureId: number) => FixtureRecord | undefined
  /** Kick-off on the replay's clock, unix seconds. */
  kickoff: (fixtureId: number) => number
  view: (fixtureId: number, nowMs: number) => FixtureLive | undefined
  livescores: (nowMs: number) => number[]
  inplay: (nowMs: number) => number[]
  /** Fixtures whose view (`all`) or tracked base fields (`base`) changed in (nowMs - 10 s, nowMs]. */
  latest: (nowMs: number, tracks: 'all' | 'base') => number[]
  /** Real ms of the latest change at or before `nowMs`; 0 if none. */
  lastChangedAt: (fixtureId: number, nowMs: number) => number
  /** Every view the fixture shows, from the real ms it shows it (in time order). */
  frames: (fixtureId: number) => readonly Frame[]
  /** Real ms at which recorded epoch ms `recordedMs` plays. */
  realMs: (recordedMs: number) => number
}

export interface Frame {
  atMs: number
  live: FixtureLive
}

interface Timeline {
  frames: Frame[]
  /** Real ms at which the view changes / a tracked base field changes, ascending. */
  changes: number[]
  baseChanges: number[]
  feed?: { from: number, to: number }
  last: FixtureRecord
  kickoff: number
}

type Rec = Record<string, unknown>

const list = (value: unknown): Rec[] => Array.isArray(value) ? value.filter((v): v is Rec => v !== null && typeof v === 'object') : []

/** Index of the last time at or before `t` in ascending `times`, or -1 (binary search). */
function lastIndexAtOrBefore (times: readonly number[], t: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((times[mid] as number) <= t) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

function participantsMeta (record: Rec): FixtureLive['participantsMeta'] {
  const meta = (side: 'home' | 'away'): ParticipantMeta => {
    const m = list(record.participants).map((p) => p.meta as Rec | undefined).find((x) => x?.location === side)
    return { winner: typeof m?.winner === 'boolean' ? m.winner : null, position: typeof m?.position === 'number' ? m.position : null }
  }
  return { home: meta('home'), away: meta('away') }
}

/** A view without its running clock: a period's `minutes` and `seconds` ticking is no change (as in engine.ts). */
function changeKey (live: FixtureLive): string {
  const still = (p: Period | null): unknown => p === null ? null : { ...p, minutes: undefined, seconds: undefined }
  return JSON.stringify({ ...live, periods: live.periods.map(still), detailedperiods: live.detailedperiods.map(still), currentperiod: still(live.currentperiod) })
}

export function createPlayback (observations: readonly Observation[], opts: PlaybackOptions): Playback {
  const lists = [...(opts.feedLists ?? [])].sort((a, b) => a - b)
  const t0 = Math.min(observations.reduce((min, o) => Math.min(min, o.atMs), Infinity), lists[0] ?? Infinity)
  const realMs = (recordedMs: number): number => opts.startMs + Math.ceil((recordedMs - t0) / opts.speed)
  const realS = (unixS: unknown): unknown => typeof unixS === 'number' ? Math.floor(realMs(unixS * 1000) / 1000) : unixS
  const retime = (periods: unknown): Period[] => list(periods).map((p) => ({ ...p, started: realS(p.started), ended: realS(p.ended) }) as unknown as Period)

  function liveOf (record: Rec): FixtureLive {
    const periods = retime(record.periods)
    const current = 'currentperiod' in record ? record.currentperiod : periods.find((p) => p.ticking)
    return {
      state_id: typeof record.state_id === 'number' ? record.state_id : State.NS,
      result_info: typeof record.result_info === 'string' ? record.result_info : null,
      length: typeof record.length === 'number' ? record.length : 90,
      scores: list(record.scores) as unknown as FixtureLive['scores'],
      events: list(record.events).map((e): FixtureEvent => eventFields(e)),
      periods,
      detailedperiods: 'detailedperiods' in record ? retime(record.detailedperiods) : periods,
      currentperiod: current === null || current === undefined ? null : retime([current])[0] ?? null,
      statistics: list(record.statistics) as unknown as FixtureLive['statistics'],
      participantsMeta: participantsMeta(record)
    }
  }

  const byFixture = new Map<number, Observation[]>()
  for (const o of [...observations].sort((a, b) => a.atMs - b.atMs)) {
    const seen = byFixture.get(o.fixture.id) ?? []
    seen.push(o)
    byFixture.set(o.fixture.id, seen)
  }

  const timelines = new Map<number, Timeline>()
  for (const [id, seen] of byFixture) {
    const frames: Frame[] = []
    const changes: number[] = []
    const baseChanges: number[] = []
    let merged: FixtureRecord = seen[0]?.fixture ?? { id }
    let shown = ''
    let changed = ''
    for (const o of seen) {
      merged = { ...merged, ...o.fixture }
      const live = liveOf(merged)
      const key = JSON.stringify(live)
      // An observation that shows nothing new is no frame: a long recording keeps only its changes.
      if (key === shown) continue
      const atMs = realMs(o.atMs)
      const previous = frames.at(-1)?.live
      const change = changeKey(live)
      if (previous !== undefined && change !== changed) changes.push(atMs)
      if (previous !== undefined && (previous.state_id !== live.state_id || previous.result_info !== live.result_info || previous.length !== live.length)) baseChanges.push(atMs)
      shown = key
      changed = change
      frames.push({ atMs, live })
    }
    const fed = seen.filter((o) => o.inFeed).map((o) => o.atMs)
    const kickoff = realS(merged.starting_at_timestamp)
    const timeline: Timeline = {
      frames,
      changes,
      baseChanges,
      last: { ...merged, periods: retime(merged.periods) },
      kickoff: typeof kickoff === 'number' ? kickoff : Math.floor(opts.startMs / 1000)
    }
    // `seen` is in time order; the fixture left the feed by the next whole feed after its last sighting.
    const left = lists[lastIndexAtOrBefore(lists, fed[fed.length - 1] ?? Infinity) + 1]
    if (fed.length > 0) timeline.feed = { from: realMs(fed[0] as number), to: left === undefined ? Infinity : realMs(left) - 1 }
    timelines.set(id, timeline)
  }

  const ids = [...timelines.keys()].sort((a, b) => a - b)
  const frameTimes = new Map([...timelines].map(([id, t]) => [id, t.frames.map((f) => f.atMs)]))

  function view (id: number, nowMs: number): FixtureLive | undefined {
    const t = timelines.get(id)
    if (t === undefined) return undefined
    // Before its first observation a fixture shows that observation: the earliest state known of it.
    const i = Math.max(0, lastIndexAtOrBefore(frameTimes.get(id) ?? [], nowMs))
    return t.frames[i]?.live
  }

  function lastChangedAt (id: number, nowMs: number, tracks: 'all' | 'base' = 'all'): number {
    const t = timelines.get(id)
    const times = tracks === 'all' ? t?.changes : t?.baseChanges
    if (times === undefined) return 0
    return times[lastIndexAtOrBefore(times, nowMs)] ?? 0
  }

  return {
    ids,
    has: (id) => timelines.has(id),
    last: (id) => timelines.get(id)?.last,
    kickoff: (id) => timelines.get(id)?.kickoff ?? Math.floor(opts.startMs / 1000),
    view,
    livescores: (nowMs) => ids.filter((id) => {
      const feed = timelines.get(id)?.feed
      return feed !== undefined && nowMs >= feed.from && nowMs <= feed.to
    }),
    inplay: (nowMs) => ids.filter((id) => LIVE_STATE_IDS.has(view(id, nowMs)?.state_id ?? State.NS)),
    latest: (nowMs, tracks) => ids.filter((id) => lastChangedAt(id, nowMs, tracks) > nowMs - LATEST_WINDOW_MS),
    lastChangedAt: (id, nowMs) => lastChangedAt(id, nowMs),
    frames: (id) => timelines.get(id)?.frames ?? [],
    realMs
  }
}
