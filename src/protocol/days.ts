/**
 * Days as consumers follow them (docs/protocol.md, "Days"): a calendar day in a time zone is the range of
 * kick-off times from its midnight to the next one there, and a change belongs to a day when its fixture
 * kicks off in it, or kicked off in it before the change (a kick-off moved to another day reaches those
 * following the day it left, who drop it). Pure.
 */
import type { ChangeRecord } from '../wire-model/model.ts'
import { kickoffMs } from '../store/types.ts'

/** Kick-offs from `from` (included) to `to` (excluded), epoch ms. */
export interface DayRange {
  from: number
  to: number
}

const DAY_MS = 86_400_000

/** What the wall clock of `timeZone` reads at `ms`, as if it were UTC, minus `ms`: the zone's offset then. */
function offsetAt (ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit'
  }).formatToParts(new Date(ms))
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value)
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(ms / 1000) * 1000
}

/** The instant the wall clock of `timeZone` reads midnight of `date` (`YYYY-MM-DD`). */
function midnight (date: string, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`)
  // Twice: the offset at the first guess may differ from the one at midnight itself across a DST change.
  const guess = wall - offsetAt(wall, timeZone)
  return wall - offsetAt(guess, timeZone)
}

/** The kick-offs of `date` in `timeZone` (UTC by default). */
export function dayRange (date: string, timeZone = 'UTC'): DayRange {
  if (timeZone === 'UTC') {
    const from = Date.parse(`${date}T00:00:00Z`)
    return { from, to: from + DAY_MS }
  }
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
  return { from: midnight(date, timeZone), to: midnight(next, timeZone) }
}

/** The date (`YYYY-MM-DD`) that `ms` falls on in `timeZone`. */
export function dateAt (ms: number, timeZone = 'UTC'): string {
  return new Date(ms + (timeZone === 'UTC' ? 0 : offsetAt(ms, timeZone))).toISOString().slice(0, 10)
}

export const inRange = (range: DayRange, ms: number): boolean => ms >= range.from && ms < range.to

/**
 * The kick-offs a change record belongs to: its fixture's, and the one before the change when the change
 * moved it (`fixture_updated` of `starting_at`).
 */
export function recordKickoffs (record: ChangeRecord): number[] {
  const now = kickoffMs(record.fixture)
  const out = now === undefined ? [] : [now]
  for (const c of record.changes) {
    if (c.kind !== 'fixture_updated' || !('starting_at' in c.fields)) continue
    const previous = c.fields.starting_at?.previous
    const ms = typeof previous === 'string' ? Date.parse(previous) : NaN
    if (Number.isFinite(ms) && ms !== now) out.push(ms)
  }
  return out
}
