/**
 * The edge of recorded replays: a fixture payload as saved from the real API (bare, or inside the response
 * envelope under `data`), checked with zod. Only the parts a replay needs are described; the rest passes.
 */
import { z } from 'zod'
import type { FixtureBase, FixtureEvent } from '@touchline/upstream-contract/football'

const side = z.enum(['home', 'away'])

const RecordedPeriod = z.object({
  id: z.number(),
  type_id: z.number(),
  started: z.number().nullable(),
  ended: z.number().nullable(),
  time_added: z.number().nullable(),
  has_timer: z.boolean().optional()
})

const RecordedEvent = z.looseObject({
  id: z.number(),
  participant_id: z.number(),
  type_id: z.number(),
  minute: z.number(),
  extra_minute: z.number().nullable(),
  player_id: z.number().nullable(),
  player_name: z.string().nullable(),
  related_player_id: z.number().nullable(),
  related_player_name: z.string().nullable(),
  period: RecordedPeriod.nullish()
})

const RecordedFixture = z.looseObject({
  id: z.number(),
  sport_id: z.number(),
  league_id: z.number(),
  season_id: z.number(),
  stage_id: z.number(),
  group_id: z.number().nullable(),
  aggregate_id: z.number().nullable(),
  round_id: z.number().nullable(),
  state_id: z.number(),
  venue_id: z.number().nullable(),
  name: z.string().nullable(),
  starting_at: z.string().nullable(),
  result_info: z.string().nullable(),
  leg: z.string(),
  details: z.string().nullable(),
  length: z.number().nullable(),
  placeholder: z.boolean(),
  has_odds: z.boolean(),
  // Recordings of the real API from early 2023 do not have it yet.
  has_premium_odds: z.boolean().default(false),
  starting_at_timestamp: z.number(),
  participants: z.array(z.object({
    id: z.number(),
    name: z.string(),
    short_code: z.string().nullable(),
    meta: z.object({ location: side, winner: z.boolean().nullable(), position: z.number().nullable().optional() })
  })),
  events: z.array(RecordedEvent).default([]),
  scores: z.array(z.object({
    id: z.number(),
    type_id: z.number(),
    participant_id: z.number(),
    score: z.object({ goals: z.number(), participant: side })
  })).default([]),
  periods: z.array(RecordedPeriod).optional(),
  statistics: z.array(z.object({
    type_id: z.number(),
    participant_id: z.number(),
    data: z.object({ value: z.number().nullable().optional() })
  })).default([])
})

export type Recording = z.infer<typeof RecordedFixture>
export type RecordedPeriodT = z.infer<typeof RecordedPeriod>

export const BASE_FIELDS = [
  'id', 'sport_id', 'league_id', 'season_id', 'stage_id', 'group_id', 'aggregate_id', 'round_id', 'state_id',
  'venue_id', 'name', 'starting_at', 'result_info', 'leg', 'details', 'length', 'placeholder', 'has_odds',
  'has_premium_odds', 'starting_at_timestamp'
] as const satisfies ReadonlyArray<keyof FixtureBase>

/** Nested includes of an event (`player`, `type`, `period`...) that are not event fields. */
const EVENT_INCLUDES: ReadonlySet<string> = new Set(['player', 'relatedplayer', 'type', 'subtype', 'period', 'detailedperiod', 'coach', 'participant', 'fixture'])

/** An event's own fields: nested includes dropped, including those that came back null (`player: null`). */
export function eventFields (event: Record<string, unknown>): FixtureEvent {
  const fields = Object.entries(event).filter(([key, value]) => !EVENT_INCLUDES.has(key) && (value === null || typeof value !== 'object'))
  return Object.fromEntries(fields) as unknown as FixtureEvent
}

/** The fixture of a recording, bare or enveloped. */
export function parseRecording (recording: unknown): Recording {
  const enveloped = typeof recording === 'object' && recording !== null && 'data' in recording &&
    typeof recording.data === 'object' && recording.data !== null && !Array.isArray(recording.data)
  const parsed = RecordedFixture.safeParse(enveloped ? (recording as { data: unknown }).data : recording)
  if (!parsed.success) throw new Error(`invalid fixture recording:\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the upstream `starting_at` format. */
export function formatStartingAt (unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
}
