/**
 * The upstream's standing rows (docs/upstream.md, "Live standings"): one row per team of a table, with its
 * position, points and the movement against the table before (`result`), and with `include=participant;
 * details` the team and the figures behind the row (played, won, drawn, lost, goals for and against, by
 * type id). Parsed tolerantly: a row that cannot be read (no team id, no position) is dropped alone.
 */
import { z } from 'zod'
import { parseDataRows } from './schemas.ts'

const int = z.number().int()

const StandingRowSchema = z.looseObject({
  participant_id: int.positive(),
  league_id: int.nullish(),
  season_id: int.nullish(),
  stage_id: int.nullish(),
  group_id: int.nullish(),
  position: int.positive(),
  points: int.nullish(),
  result: z.string().nullish(),
  participant: z.looseObject({
    name: z.string().nullish(),
    short_code: z.string().nullish(),
    image_path: z.string().nullish()
  }).nullish(),
  details: z.array(z.looseObject({ type_id: int, value: z.unknown() })).nullish()
})

export type StandingRow = z.infer<typeof StandingRowSchema>

/**
 * The rows of a standings response. `data` may be an array, a single object or absent (a league with no
 * table, a cup): [] then.
 * @throws z.ZodError when the envelope itself is malformed.
 */
export function parseStandings (json: unknown): StandingRow[] {
  return parseDataRows(json, StandingRowSchema)
}
