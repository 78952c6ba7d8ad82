/**
 * Compact change frames (`format: "delta"`, DESIGN §4): the typed changes of a record with the new values
 * they set, and no fixture. Building one needs the fixture as the client holds it, the record's previous
 * version; applying one is `applyDelta`. Pure: no IO, no clock.
 *
 * How a delta stays exact: `deltaChanges` takes the record's changes (state, score, events, period, clock
 * carry their new values already), applies them to the previous version with `applyDelta` itself, and puts
 * every top-level field that still differs from the record's fixture into a trailing `fixture_updated` with
 * its whole new value (team details, score types other than the current one, an event list whose order
 * moved, `updated_at` when it is not the record's `at`). So a client that applies every delta in version
 * order holds exactly the stored fixture; `src/ui/public/lib/delta.js` is the same function for browsers
 * (test/unit/live/delta.test.ts checks they agree).
 */
import { sameValue } from '../diff/diff.ts'
import type { Change, ChangeRecord, LiveFixture } from './types.ts'

/**
 * A change as a delta frame carries it. `fixture_updated` holds whole new values, without `previous`; the
 * other kinds are the record's own changes, unchanged.
 */
export type DeltaChange =
  | Exclude<Change, { kind: 'fixture_updated' }>
  | { kind: 'fixture_updated', fields: Record<string, { value: unknown }> }

/** The change frame in `delta` format. */
export interface DeltaFrame {
  type: 'change'
  cursor: string
  fixture_id: number
  league_id: number
  /** The fixture's version after this change: one more than the version the delta applies to. */
  version: number
  at: string
  changes: DeltaChange[]
}

/**
 * The fixture after one delta. `fixture` must be at `frame.version - 1` (the caller checks: a jump means a
 * lost frame). Returns a new object; `fixture` is not modified.
 */
export function applyDelta (fixture: LiveFixture, frame: Pick<DeltaFrame, 'version' | 'at' | 'changes'>): LiveFixture {
  const next: LiveFixture = { ...fixture, version: frame.version, updated_at: frame.at }
  const fields = next as unknown as Record<string, unknown>
  for (const c of frame.changes) {
    switch (c.kind) {
      case 'state_changed': next.state = c.state; break
      case 'period_changed': next.period = c.period; break
      case 'clock':
        next.minute = c.minute
        if (c.clock !== undefined) next.clock = c.clock
        break
      case 'score_changed':
        if (c.score_type !== undefined) {
          next.scores = { ...next.scores, [c.score_type]: { home: c.home ?? 0, away: c.away ?? 0 } }
        } else {
          next.home = { ...next.home, score: c.home }
          next.away = { ...next.away, score: c.away }
          if (next.scores.current !== undefined && c.home !== null && c.away !== null) next.scores = { ...next.scores, current: { home: c.home, away: c.away } }
        }
        break
      case 'event_removed': next.events = next.events.filter((e) => e.id !== c.event.id); break
      case 'event_updated': next.events = next.events.map((e) => e.id === c.event.id ? c.event : e); break
      case 'event_added': next.events = [...next.events, c.event]; break
      case 'fixture_updated':
        for (const [key, { value }] of Object.entries(c.fields)) fields[key] = value
        break
      default: break // fixture_added, fixture_removed: nothing to set
    }
  }
  return next
}

/**
 * The delta for `record` given `prev`, the fixture at the version before it; undefined when `prev` is not
 * that version (the frame must then carry the whole fixture).
 */
export function deltaChanges (prev: LiveFixture | undefined, record: ChangeRecord): DeltaChange[] | undefined {
  const next = record.fixture
  if (prev === undefined || prev.id !== next.id || prev.version !== next.version - 1) return undefined
  const changes: DeltaChange[] = record.changes.filter((c) => c.kind !== 'fixture_updated' && c.kind !== 'fixture_added') as DeltaChange[]
  const applied = applyDelta(prev, { version: next.version, at: record.at, changes }) as unknown as Record<string, unknown>
  const target = next as unknown as Record<string, unknown>
  const fields: Record<string, { value: unknown }> = {}
  for (const key of new Set([...Object.keys(target), ...Object.keys(applied)])) {
    if (!sameValue(applied[key], target[key])) fields[key] = { value: target[key] ?? null }
  }
  if (Object.keys(fields).length > 0) changes.push({ kind: 'fixture_updated', fields })
  return changes
}

/** The delta frame's JSON (one serialization per record, shared by every delta subscriber). */
export function deltaFrameJson (record: ChangeRecord, changes: DeltaChange[]): string {
  const frame: DeltaFrame = {
    type: 'change',
    cursor: record.cursor,
    fixture_id: record.fixture_id,
    league_id: record.league_id,
    version: record.fixture.version,
    at: record.at,
    changes
  }
  return JSON.stringify(frame)
}
