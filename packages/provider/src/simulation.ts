/**
 * Wires the simulator to the dataset: every fixture gets a deterministic match script; the fixtures still to
 * be played are moved onto a rolling schedule from the provider's start, so that about `liveTarget` of
 * them are always in play; recorded replays are played alongside. The schedule changes the seed draws
 * (sim/reschedule.ts) are planned here: those of the rolling schedule's fixtures with it (schedule.ts
 * `planDay`, so that they keep the live target), those of the fixtures beyond it around their own kick-off.
 */
import type { Dataset, DatasetFixture } from './dataset/types.ts'
import { createSimulator, type ScoreAt, type Simulator } from './sim/engine.ts'
import type { FixtureLive, MatchScript, SimFixtureInput, SimTeam } from './sim/model.ts'
import { lineOfScript, type MatchLine } from './odds/line.ts'
import type { Replay } from './sim/replay.ts'
import { changeFrom, drawChange, type ChangeRates, type ScheduleChange } from './sim/reschedule.ts'
import { planDay } from './sim/schedule.ts'
import { clockAt } from './sim/clock.ts'
import { currentScore } from './sim/materialize.ts'
import { timelineAt } from './sim/timeline-rows.ts'
import { State } from '@touchline/upstream-contract/states'
import { matchdaySquad } from './matchday.ts'
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
  /** Shares of the upcoming fixtures moved and postponed before the day, or false for none. @default 3 % and 1 % */
  scheduleChanges?: ChangeRates | false
}

export interface ProviderLive extends LiveSource {
  sim: Simulator
  replays: readonly Replay[]
}

/** Each club as the simulator plays it: its matchday squad (matchday.ts), the starting eleven first. */
function simTeams (ds: Dataset): Map<number, SimTeam> {
  const teams = new Map<number, SimTeam>()
  for (const team of ds.teams) {
    const { starters, bench } = matchdaySquad(ds, team.id)
    const players = [...starters, ...bench].map((p) => ({ id: p.player_id, name: p.name, position_id: p.position_id }))
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

/** Changes the seed draws for upcoming fixtures the rolling schedule does not play: around their own kick-off. */
function ownChanges (fixtures: readonly SimFixtureInput[], upcoming: ReadonlySet<number>, planned: ReadonlyMap<number, number>, opts: LiveSourceOptions): ScheduleChange[] {
  const rates = opts.scheduleChanges ?? {}
  if (rates === false) return []
  return fixtures.flatMap((f) => {
    if (!upcoming.has(f.id) || planned.has(f.id)) return []
    const drawn = drawChange(opts.seed, f.id, rates)
    return drawn === undefined ? [] : [changeFrom(f.id, f.kickoff, drawn, opts.speed)]
  })
}

export function createLiveSource (ds: Dataset, opts: LiveSourceOptions): ProviderLive {
  const teams = simTeams(ds)
  const replays = opts.replays ?? []
  const inputs = ds.fixtures.map((f) => simInput(ds, f, teams)).filter((x): x is SimFixtureInput => x !== undefined)
  // Only fixtures still to be played join the rolling schedule: past results keep their dates.
  const startS = opts.startMs / 1000
  const candidates = inputs.filter((f) => f.kickoff >= startS && ds.byId.fixture.get(f.id)?.state_id === State.NS)
  const day = planDay({ candidates, startMs: opts.startMs, speed: opts.speed, liveTarget: opts.liveTarget, seed: opts.seed, changes: opts.scheduleChanges ?? {} })
  const replayed = new Set(replays.map((r) => r.input.id))
  const fixtures = inputs.filter((f) => !replayed.has(f.id)).map((f) => ({ ...f, kickoff: day.kickoffs.get(f.id) ?? f.kickoff }))
  const changes = [...day.changes, ...ownChanges(fixtures, new Set(candidates.map((c) => c.id)), day.kickoffs, opts)].filter((c) => !replayed.has(c.fixtureId))
  const sim = createSimulator({ fixtures, seed: opts.seed, speed: opts.speed, startMs: opts.startMs, changes, replays: replays.map((r) => ({ input: r.input, script: r.script })) })
  const kickoff = (f: DatasetFixture, nowMs: number): number => sim.kickoffAt(f.id, nowMs) ?? f.starting_at_timestamp

  return {
    sim,
    replays,
    kickoff,
    changes: (f) => sim.changes(f.id),
    view: (f, nowMs) => sim.view(f.id, nowMs) ?? notSimulated(f),
    timeline: (f, nowMs) => {
      const script = sim.scriptAt(f.id, nowMs)
      return script === undefined ? [] : timelineAt(script, clockAt(kickoff(f, nowMs), opts.speed, nowMs).seconds)
    },
    stateAt: (f, nowMs) => sim.fixture(f.id) === undefined ? f.state_id : sim.stateAt(f.id, nowMs),
    scoreAt: (f, nowMs) => sim.scoreAt(f.id, nowMs),
    livescores: (nowMs) => sim.livescores(nowMs),
    inplay: (nowMs) => sim.inplay(nowMs),
    latest: opts.latestTracks === 'base' ? (nowMs) => sim.latestBase(nowMs) : (nowMs) => sim.latest(nowMs),
    fixturesLatest: (nowMs) => sim.latestFixtures(nowMs),
    speed: opts.speed,
    oddsLine: (f, nowMs = Infinity) => {
      const script = sim.scriptAt(f.id, nowMs)
      return script === undefined ? undefined : { line: cachedLine(script), kickoff: kickoff(f, nowMs), speed: opts.speed }
    }
  }
}

/** State and CURRENT score (shoot-out aside) of a view. */
export const scoreOfView = (view: FixtureLive): ScoreAt => ({ state_id: view.state_id, ...currentScore(view) })

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
