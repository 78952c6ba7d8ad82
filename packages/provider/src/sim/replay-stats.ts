/**
 * Statistics of a replay: the recorded final corners, shots on target and possession, reached evenly over the
 * match (the recordings only hold final values), and yellow cards counted from the recorded events.
 */
import type { HomeAway } from '@touchline/upstream-contract/football'
import { EventType } from '@touchline/upstream-contract/types'
import type { Happening, PeriodPlan, StatStep } from './model.ts'
import type { Recording } from './replay-parse.ts'
import { counter, StatType } from './stats.ts'
import { matchSecondOf, playedAt, SIDES } from './timeline.ts'

/** `count` match seconds spread evenly over the time played in `periods`. */
function evenly (periods: readonly PeriodPlan[], count: number): number[] {
  const lengths = periods.map((p) => playedAt(p, p.end))
  const total = lengths.reduce((a, b) => a + b, 0)
  return Array.from({ length: count }, (_, i) => {
    let offset = Math.floor(total * (i + 1) / (count + 1))
    for (const [k, p] of periods.entries()) {
      const length = lengths[k] ?? 0
      if (offset < length) return matchSecondOf(p, offset)
      offset -= length
    }
    return periods[periods.length - 1]?.end ?? 0
  })
}

export function replayStats (fx: Recording, periods: readonly PeriodPlan[], happenings: readonly Happening[], homeId: number): StatStep[] {
  const played = periods.filter((p) => p.key !== 'pens')
  const start = played[0]?.start
  if (start === undefined) return []
  const teamOf = (side: HomeAway): number => side === 'home' ? homeId : (fx.participants.find((p) => p.id !== homeId)?.id ?? 0)
  const recorded = (typeId: number, side: HomeAway): number | undefined =>
    fx.statistics.find((s) => s.type_id === typeId && s.participant_id === teamOf(side))?.data.value ?? undefined
  const steps: StatStep[] = []
  for (const side of SIDES) {
    for (const typeId of [StatType.CORNERS, StatType.SHOTS_ON_TARGET]) {
      const final = recorded(typeId, side)
      if (final !== undefined) steps.push(...counter(typeId, side, start, evenly(played, final)))
    }
    const possession = recorded(StatType.POSSESSION, side)
    if (possession !== undefined) steps.push({ at: start, type_id: StatType.POSSESSION, side, value: possession })
    const yellows = happenings.filter((h) => h.event.type_id === EventType.YELLOWCARD && h.event.participant_id === teamOf(side))
    steps.push(...counter(StatType.YELLOWCARDS, side, start, yellows.map((h) => h.at)))
  }
  return steps.sort((a, b) => a.at - b.at)
}
