/**
 * Wires the simulator to the dataset: every fixture gets a deterministic match script; the fixtures still to
 * be played are moved onto a rolling schedule from the provider's start, so that about `liveTarget` of
 * them are always in play; recorded replays are played alongside.
 */
import type { Dataset, DatasetFixture } from './dataset/types.ts'
import { createSimulator, type Simulator } from './sim/engine.ts'
import type { FixtureLive, MatchScript, SimFixtureInput, SimTeam } from './sim/model.ts'
import { lineOfScript, type MatchLine } from './odds/line.ts'
import type { Replay } from './sim/replay.ts'
import { planSchedule } from './sim/schedule.ts'
import { clockAt } from './sim/clock.ts'
import { timelineAt } from './sim/timeline-rows.ts'
import { State } from '../contract/states.ts'
import type { LiveSource } from './world.ts'

export interface LiveSourceOptions {
  seed: number
  speed: number
  startMs: number
  liveTarget: number
  /** Recorded replays (see replays.ts), played alongside the generated fixtures. */
  replays?: readonly Replay[]
  /**
   * What `latest` reports: `all` changes (base fields and includes), or only the `base` fields the real API
   * tracks (state, result_info, length...; docs/upstream.md, "Livescores"), so that a goal alone does not
   * show up there. @default 'all'
   */
  latestTracks?: 'all' | 'base'
}

export interface ProviderLive extends LiveSource {
  sim: Simulator
  replays: readonly Replay[]
}

function simTeams (ds: Dataset): Map<number, SimTeam> {
  const teams = new Map<number, SimTeam>()
  for (const team of ds.teams) {
    const players = (ds.squads.get(team.id) ?? []).flatMap((id) => {
      const p = ds.byId.player.get(id)
      return p === undefined ? [] : [{ id: p.id, name: p.display_name }]
    })
    teams.set(team.id, { id: team.id, name: team.name, short_code: team.short_code, players })
  }
  return teams
}

function simInput (ds: Dataset, f: DatasetFixture, teams: ReadonlyMap<number, SimTeam>): SimFixtureInput | undefined {
  const home = teams.get(f.home_team_id)
  const away = teams.get(f.away_team_id)
  if (home === undefined || away === undefined) return undefined
  const winnerId = ds.tieWinners.get(f.id)
  return { id: f.id, league_id: f.league_id, kind: f.kind, kickoff: f.starting_at_timestamp, home, away, ...(winnerId !== undefined ? { winnerId } : {}) }
}

export function createLiveSource (ds: Dataset, opts: LiveSourceOptions): ProviderLive {
  const teams = simTeams(ds)
  const replays = opts.replays ?? []
  const inputs = ds.fixtures.map((f) => simInput(ds, f, teams)).filter((x): x is SimFixtureInput => x !== undefined)
  // Only fixtures still to be played join the rolling schedule: past results keep their dates.
  const startS = opts.startMs / 1000
  const candidates = inputs.filter((f) => f.kickoff >= startS && ds.byId.fixture.get(f.id)?.state_id === State.NS)
  const planned = planSchedule({ candidates, startMs: opts.startMs, speed: opts.speed, liveTarget: opts.liveTarget, seed: opts.seed })
  const replayed = new Set(replays.map((r) => r.input.id))
  const fixtures = inputs.filter((f) => !replayed.has(f.id)).map((f) => ({ ...f, kickoff: planned.get(f.id) ?? f.kickoff }))
  const sim = createSimulator({ fixtures, seed: opts.seed, speed: opts.speed, startMs: opts.startMs, replays: replays.map((r) => ({ input: r.input, script: r.script })) })
  const kickoffs = new Map(fixtures.map((f) => [f.id, f.kickoff]))
  for (const r of replays) kickoffs.set(r.input.id, r.input.kickoff)

  return {
    sim,
    replays,
    kickoff: (f) => kickoffs.get(f.id) ?? f.starting_at_timestamp,
    view: (f, nowMs) => sim.view(f.id, nowMs) ?? notSimulated(f),
    timeline: (f, nowMs) => {
      const script = sim.script(f.id)
      const kickoff = kickoffs.get(f.id)
      return script === undefined || kickoff === undefined ? [] : timelineAt(script, clockAt(kickoff, opts.speed, nowMs).seconds)
    },
    stateAt: (f, nowMs) => sim.fixture(f.id) === undefined ? f.state_id : sim.stateAt(f.id, nowMs),
    livescores: (nowMs) => sim.livescores(nowMs),
    inplay: (nowMs) => sim.inplay(nowMs),
    latest: opts.latestTracks === 'base' ? (nowMs) => sim.latestBase(nowMs) : (nowMs) => sim.latest(nowMs),
    speed: opts.speed,
    oddsLine: (f) => {
      const script = sim.script(f.id)
      const kickoff = kickoffs.get(f.id)
      return script === undefined || kickoff === undefined ? undefined : { line: cachedLine(script), kickoff, speed: opts.speed }
    }
  }
}

/** One line per script: the simulator keeps its scripts in a bounded cache, the lines follow them. */
const lines = new WeakMap<MatchScript, MatchLine>()
function cachedLine (script: MatchScript): MatchLine {
  let line = lines.get(script)
  if (line === undefined) {
    line = lineOfScript(script)
    lines.set(script, line)
  }
  return line
}

/** A fixture the simulator cannot play (a team missing): shown as scheduled, with no live data. */
function notSimulated (f: DatasetFixture): FixtureLive {
  const meta = { winner: null, position: null }
  return { state_id: f.state_id, result_info: f.result_info, length: f.length ?? 90, scores: [], events: [], periods: [], detailedperiods: [], currentperiod: null, statistics: [], participantsMeta: { home: meta, away: meta } }
}
