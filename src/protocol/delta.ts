/**
 * Compact change frames (`format: "delta"`, docs/protocol.md): the typed changes of a record with the new
 * values they set, and no fixture. Building one needs the fixture as the client holds it, the record's
 * previous version; applying one is the client library's `applyDelta`, the one copy of it, which browsers
 * get from the gateway as a bundle. Pure: no IO, no wall clock.
 *
 * What a delta leaves out, because the client holds it or works it out:
 * - `previous` (the client holds the previous value), except on `score_changed`, where pages use it (a
 *   `statistics_changed` gives the types that moved, a `lineups_changed` the whole new line-ups);
 * - the minute, when the fixture's clock shows it at the frame's `at`: a frame whose changes give no
 *   `minute` sets the minute the clock shows then, so a goal's frame needs no clock change;
 * - whole values where one part moved: other score types go as `score_changed` with `score_type`, not as
 *   the whole `scores`;
 * - an event's details that are null (`EVENT_DETAILS`); applying fills them in;
 * - a goal twice: a `score_changed` whose goals the frame adds as `event_added` names them (`goal_ids`);
 * - the whole event list when an added event lands before others (a goal of the 57th minute listed before a
 *   substitution of the same minute): `event_added` gives its `index` in the list then, and is appended
 *   when it has none.
 *
 * How a delta stays exact: `deltaChanges` applies the changes it built to the previous version with
 * `applyDelta` itself, and puts every top-level field that still differs from the record's fixture into a
 * trailing `fixture_updated` with its whole new value (team details, a removed score type, an event list
 * whose order moved, `updated_at` when it is not the record's `at`); if the minute the clock shows is not
 * the stored one, the minute is given (and always when `fixture_updated` sets the clock). So a client that
 * applies every delta in version order holds exactly the stored fixture.
 */
import { applyDelta } from '@touchline/core'
import { sameValue } from '../util/same-value.ts'
import {
  EVENT_DETAILS, type Change, type ChangeRecord, type DeltaChange, type DeltaChangeFrame, type DeltaEvent, type LiveEvent, type LiveFixture
} from '../wire-model/model.ts'

/**
 * The delta for `record` given `prev`, the fixture at the version before it; undefined when `prev` is not
 * that version, or when the record brings the fixture into a set (`fixture_added`, `fixture_scheduled`): the
 * frame must then carry the whole fixture. A fixture held outside the live set joins it with `fixture_added`
 * at a later version, and those following leagues or teams never had the versions before.
 */
export function deltaChanges (prev: LiveFixture | undefined, record: ChangeRecord): DeltaChange[] | undefined {
  const next = record.fixture
  if (prev === undefined || prev.id !== next.id || prev.version !== next.version - 1) return undefined
  if (record.changes.some((c) => c.kind === 'fixture_added' || c.kind === 'fixture_scheduled')) return undefined
  return withFields(prev, record, typedChanges(prev, record))
}

/** The record's own changes as a delta carries them, the minute given only when the clock does not show it. */
function typedChanges (prev: LiveFixture, record: ChangeRecord): DeltaChange[] {
  const out: DeltaChange[] = []
  let clockChange: Extract<DeltaChange, { kind: 'clock' }> | undefined
  // The events this record adds: a goal among them goes once, as its `event_added`, and `score_changed` names it.
  const added = new Set(record.changes.flatMap((c) => c.kind === 'event_added' ? [c.event.id] : []))
  for (const c of record.changes as Change[]) {
    switch (c.kind) {
      case 'fixture_updated': break
      case 'fixture_added': case 'fixture_scheduled': case 'fixture_removed': out.push({ kind: c.kind }); break
      case 'statistics_changed': out.push({ kind: c.kind, statistics: c.statistics }); break
      case 'lineups_changed': out.push({ kind: c.kind, lineups: c.lineups }); break
      case 'state_changed': out.push({ kind: c.kind, state: c.state }); break
      case 'period_changed': out.push({ kind: c.kind, period: c.period }); break
      case 'event_removed': case 'event_updated': out.push({ kind: c.kind, event: compactEvent(c.event) }); break
      case 'event_added': out.push(placed(prev, record.fixture, c.event, out)); break
      case 'score_changed': {
        const { goals, ...score } = c
        if (goals === undefined) out.push(score)
        else if (goals.every((g) => added.has(g.id))) out.push({ ...score, goal_ids: goals.map((g) => g.id) })
        else out.push({ ...score, goals: goals.map(compactEvent) })
        break
      }
      case 'clock':
        clockChange = c.clock === undefined ? { kind: 'clock' } : { kind: 'clock', clock: c.clock }
        out.push(clockChange)
        break
    }
  }
  const minute = record.fixture.minute
  const shown = applyDelta(prev, { version: record.fixture.version, at: record.at, changes: out }).minute
  if (shown !== minute) {
    if (clockChange === undefined) out.push(clockChange = { kind: 'clock' })
    clockChange.minute = minute
  }
  // A clock change that sets nothing: the frame needs it only to not be empty.
  const kept = out.filter((c) => c.kind !== 'clock' || c.minute !== undefined || c.clock !== undefined)
  return kept.length > 0 ? kept : out
}

/**
 * `event_added` for `event`, with its index in `next.events` when appending would put it elsewhere. The
 * differ lists added events in the fixture's event order after the removed and updated ones, so inserting
 * each at its final index rebuilds the list whenever the other events kept their order (and `withFields`
 * sends the whole list when they did not).
 */
function placed (prev: LiveFixture, next: LiveFixture, event: LiveEvent, before: DeltaChange[]): DeltaChange {
  const removed = before.filter((c) => c.kind === 'event_removed').length
  const added = before.filter((c) => c.kind === 'event_added').length
  const length = prev.events.length - removed + added
  const index = next.events.findIndex((e) => e.id === event.id)
  const change: DeltaChange = { kind: 'event_added', event: compactEvent(event) }
  return index >= 0 && index < length ? { ...change, index } : change
}

/** The event with its null details left out. */
function compactEvent (event: LiveEvent): DeltaEvent {
  const out: Record<string, unknown> = { ...event }
  for (const field of EVENT_DETAILS) if (out[field] === null) delete out[field]
  return out as DeltaEvent
}

/**
 * `changes`, then a `score_changed` per score type that still differs and a `fixture_updated` with every
 * other top-level field that does (whole `scores` when a type was removed).
 */
function withFields (prev: LiveFixture, record: ChangeRecord, changes: DeltaChange[]): DeltaChange[] {
  const next = record.fixture
  const frame = { version: next.version, at: record.at, changes }
  let applied = applyDelta(prev, frame)
  if (!sameValue(applied.scores, next.scores) && Object.keys(applied.scores).every((type) => type in next.scores)) {
    for (const [type, score] of Object.entries(next.scores)) {
      if (!sameValue(applied.scores[type], score)) changes.push({ kind: 'score_changed', home: score.home, away: score.away, score_type: type })
    }
    applied = applyDelta(prev, frame)
  }
  const have = applied as unknown as Record<string, unknown>
  const target = next as unknown as Record<string, unknown>
  const fields: Record<string, { value: unknown }> = {}
  for (const key of new Set([...Object.keys(target), ...Object.keys(have)])) {
    if (!sameValue(have[key], target[key])) fields[key] = { value: target[key] ?? null }
  }
  // A clock set here was not the one the minute was worked out from: give the minute too.
  if ('clock' in fields) fields.minute = { value: next.minute }
  if (Object.keys(fields).length > 0) changes.push({ kind: 'fixture_updated', fields })
  return changes
}

/** The delta frame's JSON (one serialization per record, shared by every delta subscriber). */
export function deltaFrameJson (record: ChangeRecord, changes: DeltaChange[]): string {
  const frame: DeltaChangeFrame = {
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
