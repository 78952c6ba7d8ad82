/**
 * The standings part of the wire model (docs/protocol.md, "Standings"): a league's live table (every table of
 * its current season: one for a league, one per group of a tournament) with the matches in play counted at
 * their score, the `standings_changed` change that names the rows that moved, and the `standings` frame that
 * carries them. Declared here, beside model.ts, as zod schemas that the documents and the client's
 * declarations are generated from.
 *
 * The image has a version of its own, per league. A frame always carries the whole image after the change (in
 * both formats): it comes about once per goal of the league, a few kilobytes.
 */
import { z } from 'zod'

const Id = z.number().int().positive()
const Timestamp = z.iso.datetime({ offset: true })
const Figure = z.number().int().nullable()

export const StandingsTeamSchema = z.strictObject({
  id: Id,
  name: z.string().nullable(),
  short_code: z.string().nullable(),
  image_path: z.string().nullable()
}).meta({ id: 'StandingsTeam' })

export const STANDINGS_RESULTS = ['up', 'down', 'equal'] as const
export const StandingsRowSchema = z.strictObject({
  team: StandingsTeamSchema,
  position: z.number().int().positive(),
  points: z.number().int(),
  played: Figure,
  won: Figure,
  drawn: Figure,
  lost: Figure,
  goals_for: Figure,
  goals_against: Figure,
  goal_difference: Figure,
  result: z.enum(STANDINGS_RESULTS).nullable().describe('How the team moved, as the upstream says: in a live table, against its place without the matches in play.')
}).meta({ id: 'StandingsRow', description: 'A team\'s row of a table. A figure the upstream did not give is null.' })
export type StandingsRow = z.infer<typeof StandingsRowSchema>

export const StandingsTableSchema = z.strictObject({
  stage_id: Id.nullable(),
  group_id: Id.nullable().describe('The group of a tournament\'s group stage; null for a league\'s one table.'),
  rows: z.array(StandingsRowSchema).describe('By position.')
}).meta({ id: 'StandingsTable' })
export type StandingsTable = z.infer<typeof StandingsTableSchema>

export const LeagueStandingsSchema = z.strictObject({
  league_id: Id,
  season_id: Id.nullable(),
  tables: z.array(StandingsTableSchema).describe('By stage, then group.'),
  updated_at: Timestamp.describe('When the table last changed in touchline.'),
  version: z.number().int().nonnegative().describe('Monotonic per league, +1 per change of its table.')
}).meta({ id: 'LeagueStandings', description: 'A league\'s live table: its current season, with the matches in play counted at their score.' })
export type LeagueStandings = z.infer<typeof LeagueStandingsSchema>

// ---- changes, records and frames ---------------------------------------------------------------------------

export const StandingsMoveSchema = z.strictObject({
  stage_id: Id.nullable(),
  group_id: Id.nullable(),
  team_id: Id,
  position: z.number().int().positive(),
  points: z.number().int(),
  previous: z.strictObject({ position: z.number().int().positive(), points: z.number().int() }).nullable().describe('Its place and points before; null for a row new to the table.')
}).meta({ id: 'StandingsMove', description: 'A row that changed: its place, its points, or another figure (a goal scored).' })
export type StandingsMove = z.infer<typeof StandingsMoveSchema>

export const StandingsChangedSchema = z.strictObject({
  kind: z.literal('standings_changed'),
  rows: z.array(StandingsMoveSchema).min(1).describe('Every row that changed, by table and position.')
}).meta({ id: 'StandingsChanged', description: 'The league\'s live table changed: a goal in a match in play, a match that started or ended.' })
export type StandingsChanged = z.infer<typeof StandingsChangedSchema>

export const STANDINGS_KINDS = ['standings_changed'] as const
export type StandingsKind = typeof STANDINGS_KINDS[number]

/** One entry of the event log: a league's table changed, with the table after the change. */
const StandingsRecordSchema = z.strictObject({
  cursor: z.string(),
  league_id: Id,
  at: Timestamp.describe('When touchline detected the change.'),
  changes: z.array(StandingsChangedSchema).min(1),
  standings: LeagueStandingsSchema
})
export type StandingsRecord = z.infer<typeof StandingsRecordSchema>

export const StandingsFrameSchema = z.strictObject({ type: z.literal('standings'), ...StandingsRecordSchema.shape }).meta({
  id: 'StandingsFrame',
  description: 'A league\'s live table changed, for subscriptions that take standings: the rows that moved, and the whole table after them (in both formats).'
})
export type StandingsFrame = z.infer<typeof StandingsFrameSchema>
