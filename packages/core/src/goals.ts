/**
 * The goal and minute rules every reader of the feed shares (the client, the gateway's Web Push alerts and
 * terminal client, the pages): which events are goals, which side a goal counts for, and how an event's
 * minute is written.
 */
import type { LiveEvent, Side } from './wire.ts'

/** Event types that score for a side: the side they name, or the other side's for an own goal. */
export const GOAL_TYPES: ReadonlySet<string> = new Set(['GOAL', 'PENALTY', 'OWNGOAL'])

/** Whether an event type is a goal (a shoot-out kick is not: it scores no goal of the match). */
export const isGoalType = (type: string): boolean => GOAL_TYPES.has(type)

/** The side a goal event scores for: its own side, the other for an own goal; null for no goal or no side. */
export function scoringSide (event: Pick<LiveEvent, 'type' | 'side'>): Side | null {
  if (!GOAL_TYPES.has(event.type) || event.side === null) return null
  return event.type === 'OWNGOAL' ? (event.side === 'home' ? 'away' : 'home') : event.side
}

/** An event's minute as fans write it: `23'`, `90+4'`; '' when the event has none. */
export function minuteText (e: Pick<LiveEvent, 'minute' | 'extra_minute'>): string {
  if (e.minute === null) return ''
  return e.extra_minute !== null && e.extra_minute > 0 ? `${e.minute}+${e.extra_minute}'` : `${e.minute}'`
}
