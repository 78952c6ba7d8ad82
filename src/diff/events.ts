/**
 * Event normalization (docs/upstream.md, "Event types"): upstream event rows → LiveEvent, in a stable order.
 */
import { EventType } from '@touchline/upstream-contract/types'
import type { LiveEvent, Side } from '../wire-model/model.ts'
import type { EventInput } from './input.ts'

const EVENT_TYPE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(EventType).map(([name, id]) => [id, name])
)

/** Shoot-out kicks carry the kick number (1, 2, 3...) as `minute`, not a match minute. */
const SHOOTOUT_TYPES: ReadonlySet<number> = new Set([EventType.PENALTY_SHOOTOUT_GOAL, EventType.PENALTY_SHOOTOUT_MISS])

/**
 * Developer name of an event type: our table first (stable, never translated), then the nested
 * `events.type` include, then a synthetic `TYPE_<id>` so that an unknown type is still a string.
 */
function eventTypeName (typeId: number, nested?: { developer_name?: string | null } | null): string {
  return EVENT_TYPE_NAMES.get(typeId) ?? (nested?.developer_name || `TYPE_${typeId}`)
}

function person (id: number | null | undefined, name: string | null | undefined): LiveEvent['player'] {
  if ((id ?? null) === null && (name ?? null) === null) return null
  return { id: id ?? null, name: name ?? null }
}

function normalizeEvent (row: EventInput, sideOf: (participantId: number | null) => Side | null): LiveEvent {
  const teamId = row.participant_id ?? null
  return {
    id: row.id,
    type_id: row.type_id,
    type: eventTypeName(row.type_id, row.type),
    minute: row.minute ?? null,
    extra_minute: row.extra_minute ?? null,
    side: sideOf(teamId),
    team_id: teamId,
    player: person(row.player_id, row.player_name),
    related_player: person(row.related_player_id, row.related_player_name),
    result: row.result ?? null,
    info: row.info ?? null,
    addition: row.addition ?? null,
    sort_order: row.sort_order ?? null
  }
}

/**
 * Order: match events by minute, extra_minute, type_id, sort_order (which is per type upstream), id;
 * shoot-out kicks after all of them, by kick number. Without the shoot-out rule the kicks (minutes 1..10)
 * would land before the first-half events. An event without a minute goes after the others of its kind.
 */
function compareEvents (a: LiveEvent, b: LiveEvent): number {
  const shootout = Number(SHOOTOUT_TYPES.has(a.type_id)) - Number(SHOOTOUT_TYPES.has(b.type_id))
  const unknownMinute = Number(a.minute === null) - Number(b.minute === null)
  return shootout ||
    unknownMinute ||
    (a.minute ?? 0) - (b.minute ?? 0) ||
    (a.extra_minute ?? 0) - (b.extra_minute ?? 0) ||
    a.type_id - b.type_id ||
    (a.sort_order ?? 0) - (b.sort_order ?? 0) ||
    a.id - b.id
}

/**
 * Normalizes the `events` include. Only `section: "event"` rows count (a missing section is treated as
 * "event"); `timeline` rows (corners, shots, hydration breaks) are not match events. Duplicated ids keep
 * the last row, since the id is the dedupe key upstream.
 */
export function normalizeEvents (rows: readonly EventInput[], sideOf: (participantId: number | null) => Side | null): LiveEvent[] {
  const byId = new Map<number, LiveEvent>()
  for (const row of rows) {
    if ((row.section ?? 'event') !== 'event') continue
    byId.set(row.id, normalizeEvent(row, sideOf))
  }
  return [...byId.values()].sort(compareEvents)
}
