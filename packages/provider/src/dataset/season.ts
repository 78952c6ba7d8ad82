/**
 * Builds one season of a competition: a stage per phase, each played in turn (phases.ts) with the teams the
 * previous phase let through, then the dates and flags of every record (SeasonBuild.finalize).
 */
import type { BuildContext } from './context.ts'
import { playFriendlies, playKnockout, playTable, type PhaseResult } from './phases.ts'
import { parseKickoffs } from './schedule.ts'
import { SeasonBuild, type SeasonPlan } from './season-build.ts'
import type { Season } from './types.ts'

export function buildSeason (ctx: BuildContext, plan: SeasonPlan): Season {
  const b = new SeasonBuild(ctx, plan)
  let carried: number[] = []
  let pairing: PhaseResult['pairing'] = 'sequential'
  let firstSlot = 0
  plan.spec.phases.forEach((phase, p) => {
    const stage = b.newStage(p)
    const teams = [...carried, ...(plan.entrants[p] ?? [])]
    const kickoffs = parseKickoffs(phase.kickoffs)
    const result = phase.kind === 'table'
      ? playTable(b, stage, phase, firstSlot, teams, kickoffs)
      : phase.kind === 'ko'
        ? playKnockout(b, stage, phase, firstSlot, teams, kickoffs, pairing, carried.length)
        : playFriendlies(b, stage, phase, firstSlot, teams, kickoffs)
    carried = result.advancers
    pairing = result.pairing
    firstSlot += b.slots.filter((s) => s.phase === p).length
  })
  b.finalize()
  return b.season
}
