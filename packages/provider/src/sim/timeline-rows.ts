/**
 * The `timeline` include's rows (the real API marks them `section: "timeline"`: corners, shots on and off
 * target, offsides; docs/upstream.md, "Event types"), read off a script's statistic steps: each rise of one of those counters is a row at
 * the moment of play it happened, for the side it counts for. No player is named: the script does not know
 * who took the corner or the shot.
 */
import type { FixtureEvent } from '@touchline/upstream-contract/football'
import type { MatchScript } from './model.ts'
import { minuteOf, playedAt } from './timeline.ts'

/** Statistic type → timeline type: corners → Corner, shots on/off target, offsides → Offside. */
const TIMELINE_TYPES: ReadonlyMap<number, number> = new Map([[34, 126], [86, 569], [41, 570], [51, 1514]])

/** Timeline ids live apart from the script's own ids (fixture id × 1000 + n, see timeline.ts). */
const timelineId = (fixtureId: number, n: number): number => fixtureId * 100_000 + 10_000 + n

/** The timeline rows of `script` up to match second `at`, in time order. */
export function timelineAt (script: MatchScript, at: number): FixtureEvent[] {
  const last = new Map<string, number>()
  const sortOrder = new Map<number, number>()
  const rows: FixtureEvent[] = []
  for (const step of script.stats) {
    if (step.at > at) break
    const type = TIMELINE_TYPES.get(step.type_id)
    if (type === undefined) continue
    const key = `${step.type_id}:${step.side}`
    const rise = step.value - (last.get(key) ?? 0)
    last.set(key, step.value)
    const period = script.periods.findLast((p) => p.start <= step.at)
    if (period === undefined || period.key === 'pens') continue
    const clock = minuteOf(period, playedAt(period, step.at))
    for (let i = 0; i < rise; i++) {
      const order = (sortOrder.get(type) ?? 0) + 1
      sortOrder.set(type, order)
      rows.push({
        id: timelineId(script.fixtureId, rows.length),
        fixture_id: script.fixtureId,
        period_id: period.legacyId,
        detailed_period_id: period.id,
        participant_id: script[step.side].id,
        type_id: type,
        sub_type_id: null,
        section: 'timeline',
        player_id: null,
        related_player_id: null,
        player_name: null,
        related_player_name: null,
        result: null,
        info: null,
        addition: null,
        minute: clock.minute,
        extra_minute: clock.extra_minute,
        injured: null,
        on_bench: false,
        coach_id: null,
        rescinded: null,
        sort_order: order
      })
    }
  }
  return rows
}
