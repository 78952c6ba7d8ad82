/**
 * `touchline provider --replay FILE...`: recorded responses played as live matches. Single fixture
 * responses and the fixtures of livescores lists are re-scripted (sim/replay.ts); the recordings of
 * `touchline serve` (TOUCHLINE_RECORD_DIR) are played back observation by observation (sim/replay-playback.ts).
 * Their fixtures and teams join the dataset, so every endpoint (fixtures by id, livescores, includes) serves them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Dataset, DatasetFixture, Team } from './dataset/types.ts'
import { indexDataset } from './dataset/indexes.ts'
import { scoreOfView, type ProviderLive } from './simulation.ts'
import { scriptFromRecording, type Replay } from './sim/replay.ts'
import { replayInput, type FixtureRecord, type Observation, type OddsObservation } from './sim/replay-input.ts'
import type { MatchLine } from './odds/line.ts'
import { lineOfPlayback } from './odds/playback-line.ts'
import { createRecordedOdds } from './odds/recorded.ts'
import { BASE_FIELDS, formatStartingAt } from './sim/replay-parse.ts'
import { createPlayback, type Playback } from './sim/replay-playback.ts'

/** Seconds before the first replay's kick-off and between two replays, so a watcher sees each from its start. */
export const REPLAY_GAP_S = 5

export interface ReplayFile {
  file: string
  /** The file's JSON value; for an NDJSON recording, the list of its parsed lines. */
  json: unknown
}

export interface ReplayPlan {
  /** Re-scripted fixtures, kicking off REPLAY_GAP_S apart. */
  scripted: Replay[]
  /** The recordings' observations, played back from REPLAY_GAP_S on. */
  playback?: Playback
  /** Teams of the replayed fixtures (their `participants`). */
  teams: Team[]
  /** In-play odds the recordings carried (odds/recorded.ts). */
  odds: OddsObservation[]
}

const errorIn = (file: string, err: unknown): Error => new Error(`cannot replay ${file}: ${(err as Error).message}`, { cause: err })

function teamsOf (fixture: unknown): Team[] {
  const root = (fixture !== null && typeof fixture === 'object' && 'data' in fixture ? (fixture as { data: unknown }).data : fixture) as { participants?: unknown }
  const participants = Array.isArray(root?.participants) ? root.participants as Array<Record<string, unknown>> : []
  return participants.map(({ meta: _meta, ...team }) => team as unknown as Team)
}

/** The replays of `files`, placed on the clock of a provider started at `startMs` running at `speed`. */
export function planReplays (files: readonly ReplayFile[], startMs: number, speed = 1): ReplayPlan {
  // A fixture in several lists or files is replayed once, as the last one shows it.
  const toScript = new Map<unknown, { file: string, fixture: unknown }>()
  const observations: Observation[] = []
  const feedLists: number[] = []
  const odds: OddsObservation[] = []
  for (const f of files) {
    try {
      const input = replayInput(f.json)
      // Appended one by one: a day's recording is too long to spread into arguments.
      for (const o of input.observations) observations.push(o)
      for (const at of input.feedLists) feedLists.push(at)
      for (const o of input.odds) odds.push(o)
      input.fixtures.forEach((fixture, i) => toScript.set(fixtureId(fixture) ?? `${f.file}#${i}`, { file: f.file, fixture }))
    } catch (err) {
      throw errorIn(f.file, err)
    }
  }
  const startS = Math.floor(startMs / 1000)
  const scripted = [...toScript.values()].map(({ file, fixture }, i) => {
    try {
      return scriptFromRecording(fixture, startS + REPLAY_GAP_S * (i + 1))
    } catch (err) {
      throw errorIn(`${file}${fixtureId(fixture) === undefined ? '' : ` (fixture ${String(fixtureId(fixture))})`}`, err)
    }
  })
  const plan: ReplayPlan = { scripted, teams: [...toScript.values()].flatMap((s) => teamsOf(s.fixture)), odds }
  if (observations.length > 0) {
    const playback = createPlayback(observations, { startMs: startMs + REPLAY_GAP_S * 1000, speed, feedLists })
    plan.playback = playback
    plan.teams.push(...playback.ids.flatMap((id) => teamsOf(playback.last(id))))
  }
  return plan
}

function fixtureId (fixture: unknown): number | undefined {
  const root = fixture !== null && typeof fixture === 'object' && 'data' in fixture ? (fixture as { data: unknown }).data : fixture
  const id = root !== null && typeof root === 'object' ? (root as { id?: unknown }).id : undefined
  return typeof id === 'number' ? id : undefined
}

/** A played-back fixture as a dataset entry: its last observation's base fields, kicking off on the replay's clock. */
function playedFixture (record: FixtureRecord, kickoff: number): DatasetFixture {
  const base = Object.fromEntries(BASE_FIELDS.filter((k) => k in record).map((k) => [k, record[k]]))
  const participants = Array.isArray(record.participants) ? record.participants as Array<{ id?: number, meta?: { location?: string } }> : []
  const team = (side: string): number => participants.find((p) => p.meta?.location === side)?.id ?? 0
  return {
    ...base,
    id: record.id,
    starting_at_timestamp: kickoff,
    starting_at: formatStartingAt(kickoff),
    home_team_id: team('home'),
    away_team_id: team('away'),
    referee_id: null,
    kind: 'league'
  } as unknown as DatasetFixture
}

/** The dataset with the replayed fixtures (and their teams, when the dataset lacks them) added and re-indexed. */
export function withReplays (ds: Dataset, plan: ReplayPlan): Dataset {
  const { scripted, playback } = plan
  if (scripted.length === 0 && playback === undefined) return ds
  const teams = new Map(ds.teams.map((t) => [t.id, t]))
  for (const t of plan.teams) if (!teams.has(t.id)) teams.set(t.id, t)
  const fixtures: DatasetFixture[] = scripted.map((r) => ({
    ...r.base,
    home_team_id: r.input.home.id,
    away_team_id: r.input.away.id,
    referee_id: null,
    kind: r.input.kind
  }))
  for (const id of playback?.ids ?? []) {
    const last = playback?.last(id)
    if (last !== undefined) fixtures.push(playedFixture(last, playback?.kickoff(id) ?? 0))
  }
  const replayed = new Set(fixtures.map((f) => f.id))
  const records = {
    ...ds,
    teams: [...teams.values()].sort((a, b) => a.id - b.id),
    fixtures: [...ds.fixtures.filter((f) => !replayed.has(f.id)), ...fixtures.filter((f, i) => fixtures.findLastIndex((x) => x.id === f.id) === i)].sort((a, b) => a.id - b.id)
  }
  return { ...records, ...indexDataset(records) }
}

/** A played-back fixture's teams, from the `participants` of its last observation. */
function sidesOf (record: FixtureRecord | undefined): Record<'home' | 'away', { id: number, name: string }> {
  const participants = Array.isArray(record?.participants) ? record.participants as Array<{ id?: unknown, name?: unknown, meta?: { location?: unknown } }> : []
  const side = (location: string): { id: number, name: string } => {
    const p = participants.find((x) => x.meta?.location === location)
    return { id: typeof p?.id === 'number' ? p.id : 0, name: typeof p?.name === 'string' ? p.name : location }
  }
  return { home: side('home'), away: side('away') }
}

/**
 * The odds of played-back fixtures: those the recording carried, else priced from the recorded views
 * (odds/playback-line.ts), one line per fixture, built on first use.
 */
function playbackOdds (playback: Playback, recorded: readonly OddsObservation[], speed: number): Pick<ProviderLive, 'oddsLine' | 'recordedOdds'> {
  const carried = createRecordedOdds(recorded, playback.realMs)
  const lines = new Map<number, MatchLine>()
  const lineOf = (id: number): MatchLine => {
    let line = lines.get(id)
    if (line === undefined) {
      line = lineOfPlayback({ fixtureId: id, frames: playback.frames(id), kickoff: playback.kickoff(id), speed, ...sidesOf(playback.last(id)) })
      lines.set(id, line)
    }
    return line
  }
  return {
    oddsLine: (f) => playback.has(f.id) ? { line: lineOf(f.id), kickoff: playback.kickoff(f.id), speed } : undefined,
    recordedOdds: (f, nowMs) => carried.has(f.id) ? carried.at(f.id, nowMs) : undefined
  }
}

/** The live source with the played-back fixtures answered from the recording, and their change times. */
export function withPlayback (live: ProviderLive, plan: Pick<ReplayPlan, 'playback' | 'odds'>, tracks: 'all' | 'base'): ProviderLive & { changedAt: (fixtureId: number, nowMs: number) => number } {
  const { playback } = plan
  const changedAt = (id: number, nowMs: number): number => live.sim.lastChangedAt(id, nowMs)
  if (playback === undefined) return { ...live, changedAt }
  const others = (ids: readonly number[]): number[] => ids.filter((id) => !playback.has(id))
  const odds = playbackOdds(playback, plan.odds, live.speed)
  return {
    ...live,
    oddsLine: (f) => playback.has(f.id) ? odds.oddsLine(f) : live.oddsLine(f),
    recordedOdds: (f, nowMs) => playback.has(f.id) ? odds.recordedOdds?.(f, nowMs) : undefined,
    kickoff: (f, nowMs) => playback.has(f.id) ? playback.kickoff(f.id) : live.kickoff(f, nowMs),
    view: (f, nowMs) => playback.view(f.id, nowMs) ?? live.view(f, nowMs),
    scoreAt: (f, nowMs) => {
      const view = playback.view(f.id, nowMs)
      return view === undefined ? live.scoreAt(f, nowMs) : scoreOfView(view)
    },
    stateAt: (f, nowMs) => playback.view(f.id, nowMs)?.state_id ?? live.stateAt(f, nowMs),
    livescores: (nowMs) => [...others(live.livescores(nowMs)), ...playback.livescores(nowMs)],
    inplay: (nowMs) => [...others(live.inplay(nowMs)), ...playback.inplay(nowMs)],
    latest: (nowMs) => [...others(live.latest(nowMs)), ...playback.latest(nowMs, tracks)],
    fixturesLatest: (nowMs) => [...others(live.fixturesLatest(nowMs)), ...playback.latest(nowMs, 'base')],
    changedAt: (id, nowMs) => playback.has(id) ? playback.lastChangedAt(id, nowMs) : changedAt(id, nowMs)
  }
}

/** `*`, `?` and `[...]` of one path segment, as a regular expression. */
function segmentPattern (glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')
  return new RegExp(`^${source}$`)
}

/** The files a `--replay` argument names: itself, or the matches of a wildcard in its last segment, sorted. */
function expand (arg: string): string[] {
  const name = basename(arg)
  if (!/[*?[]/.test(name)) return [arg]
  const dir = dirname(arg)
  const pattern = segmentPattern(name)
  const matches = readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => join(dir, f))
  if (matches.length === 0) throw new Error(`no file matches ${arg}`)
  return matches
}

/** The last record of each fixture read, as text and as parsed, shared across the files of one `--replay`. */
type LastRecords = Map<number, { text: string, record: unknown }>

/**
 * A recorded line, with every fixture record that repeats the previous record of the same fixture replaced by
 * that record itself: a day's recording sees each fixture every 30 s, mostly unchanged, and keeps it once.
 */
function shareRepeats (line: unknown, last: LastRecords): unknown {
  const body = (line as { body?: { data?: unknown } } | null)?.body
  const data = body?.data
  if (body === undefined || data === null || typeof data !== 'object') return line
  const share = (record: unknown): unknown => {
    const id = (record as { id?: unknown } | null)?.id
    if (typeof id !== 'number') return record
    const text = JSON.stringify(record)
    const seen = last.get(id)
    if (seen?.text === text) return seen.record
    last.set(id, { text, record })
    return record
  }
  body.data = Array.isArray(data) ? data.map(share) : share(data)
  return line
}

/** A file's content: one JSON value, or the lines of an NDJSON recording. */
function parseReplayText (file: string, text: string, last: LastRecords): unknown {
  if (!file.endsWith('.ndjson')) {
    try {
      return JSON.parse(text) as unknown
    } catch (err) {
      // Several JSON values, one a line: a recording, whatever its name.
      if (!text.trimStart().startsWith('{') || !text.includes('\n')) throw err
    }
  }
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return []
    try {
      return [shareRepeats(JSON.parse(line) as unknown, last)]
    } catch (err) {
      throw new Error(`line ${i + 1} is not JSON: ${(err as Error).message}`, { cause: err })
    }
  })
}

/** Reads the files of `--replay` arguments (paths or wildcards), each parsed for `planReplays`. */
export function readReplayFiles (args: readonly string[]): ReplayFile[] {
  const files = args.flatMap((arg) => {
    try {
      return expand(arg)
    } catch (err) {
      throw errorIn(arg, err)
    }
  })
  const last: LastRecords = new Map()
  return files.map((file) => {
    try {
      return { file, json: parseReplayText(file, readFileSync(file, 'utf8'), last) }
    } catch (err) {
      throw errorIn(file, err)
    }
  })
}
