/**
 * The running provider's schedule changes, for tests (`provider.schedule`, docs/provider.md "Schedule
 * changes"): the moves and postponements the seed drew, and a way to force more at a given instant of the
 * provider's clock. Times are epoch milliseconds, as the `now` option's; kick-offs are whole seconds
 * (`starting_at_timestamp`), so a forced kick-off is rounded down to its second.
 */
import type { Simulator } from './sim/engine.ts'
import type { ScheduleChange } from './sim/reschedule.ts'

export interface ScheduledChange {
  fixtureId: number
  kind: 'move' | 'postpone'
  /** When the change is announced: from then on every endpoint shows it, and `fixtures/latest` lists the fixture for 10 s. */
  atMs: number
  /** Kick-off shown before the change. */
  fromKickoffMs: number
  /** Kick-off shown from the change on (the same as `fromKickoffMs` for a postponement). */
  kickoffMs: number
  /** Drawn from the seed, or forced through `move`/`postpone`. */
  source: 'generated' | 'forced'
}

export interface ScheduleControl {
  /** Every change, drawn or forced, announced or to come, by announcement time (then fixture id). */
  changes: () => ScheduledChange[]
  /** The changes of one fixture, by announcement time. */
  changesOf: (fixtureId: number) => ScheduledChange[]
  /**
   * Moves the kick-off of `fixtureId` to `kickoffMs`, announced at `atMs`. Throws a RangeError when the fixture
   * is not simulated (or is a replay), has kicked off or is postponed at `atMs`, or `kickoffMs` is not after
   * `atMs`. Changes of the fixture announced at or after `atMs` are dropped.
   */
  move: (fixtureId: number, kickoffMs: number, atMs: number) => ScheduledChange
  /** Postpones `fixtureId` at `atMs`: POSTPONED from then on, never played. Throws as `move` does. */
  postpone: (fixtureId: number, atMs: number) => ScheduledChange
  /** Kick-off (epoch ms) the fixture shows at `atMs`; undefined for a fixture the simulator does not play. */
  kickoffAt: (fixtureId: number, atMs: number) => number | undefined
}

const shown = (c: ScheduleChange): ScheduledChange =>
  ({ fixtureId: c.fixtureId, kind: c.kind, atMs: c.atMs, fromKickoffMs: c.from * 1000, kickoffMs: c.to * 1000, source: c.source })

/** `afterChange` runs after each forced change (the world drops what it memoized). */
export function scheduleControl (sim: Simulator, afterChange: () => void): ScheduleControl {
  const force = (change: ScheduleChange): ScheduledChange => {
    afterChange()
    return shown(change)
  }
  return {
    changes: () => sim.changes().map(shown),
    changesOf: (fixtureId) => sim.changes(fixtureId).map(shown),
    move: (fixtureId, kickoffMs, atMs) => force(sim.reschedule({ fixtureId, kind: 'move', atMs, to: Math.floor(kickoffMs / 1000) })),
    postpone: (fixtureId, atMs) => force(sim.reschedule({ fixtureId, kind: 'postpone', atMs })),
    kickoffAt: (fixtureId, atMs) => {
      const kickoff = sim.kickoffAt(fixtureId, atMs)
      return kickoff === undefined ? undefined : kickoff * 1000
    }
  }
}
