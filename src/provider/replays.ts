/**
 * `touchline provider --replay FILE...`: recorded fixture responses played as live matches. Their fixture
 * and teams join the dataset, so every endpoint (fixtures by id, livescores, includes) serves them.
 */
import type { Dataset, DatasetFixture, Team } from './dataset/types.ts'
import { indexDataset } from './dataset/indexes.ts'
import { scriptFromRecording, type Replay } from './sim/replay.ts'

/** Seconds before the first replay's kick-off and between two replays, so a watcher sees each from its start. */
export const REPLAY_GAP_S = 5

export interface ReplayFile {
  file: string
  json: unknown
}

export function planReplays (files: readonly ReplayFile[], startMs: number): Replay[] {
  const startS = Math.floor(startMs / 1000)
  return files.map((f, i) => {
    try {
      return scriptFromRecording(f.json, startS + REPLAY_GAP_S * (i + 1))
    } catch (err) {
      throw new Error(`cannot replay ${f.file}: ${(err as Error).message}`, { cause: err })
    }
  })
}

function recordedTeams (json: unknown): Team[] {
  const root = (json !== null && typeof json === 'object' && 'data' in json ? (json as { data: unknown }).data : json) as { participants?: unknown }
  const participants = Array.isArray(root?.participants) ? root.participants as Array<Record<string, unknown>> : []
  return participants.map(({ meta: _meta, ...team }) => team as unknown as Team)
}

/** The dataset with the replayed fixtures (and their teams, when the dataset lacks them) added and re-indexed. */
export function withReplays (ds: Dataset, replays: readonly Replay[], files: readonly ReplayFile[]): Dataset {
  if (replays.length === 0) return ds
  const teams = new Map(ds.teams.map((t) => [t.id, t]))
  for (const f of files) for (const t of recordedTeams(f.json)) if (!teams.has(t.id)) teams.set(t.id, t)
  const fixtures: DatasetFixture[] = replays.map((r) => ({
    ...r.base,
    home_team_id: r.input.home.id,
    away_team_id: r.input.away.id,
    referee_id: null,
    kind: r.input.kind
  }))
  const replayed = new Set(fixtures.map((f) => f.id))
  const records = {
    ...ds,
    teams: [...teams.values()].sort((a, b) => a.id - b.id),
    fixtures: [...ds.fixtures.filter((f) => !replayed.has(f.id)), ...fixtures].sort((a, b) => a.id - b.id)
  }
  return { ...records, ...indexDataset(records) }
}
