/**
 * The upstream's in-play odds rows (docs/upstream.md, "Odds"), parsed tolerantly: one row per selection of a
 * market of a bookmaker, prices as decimal strings. A row that cannot be read (no ids, a price that is not a
 * decimal) is dropped alone; the others stand.
 */
import { z } from 'zod'
import { parseDataRows } from './schemas.ts'

const int = z.number().int()
/** Lines and handicaps come as strings on the real API, sometimes as numbers elsewhere: kept as the text sent. */
const line = z.union([z.string(), z.number()]).nullish().transform((v) => v === undefined || v === null || v === '' ? null : String(v))
/** A decimal price: the text as sent, when it reads as a price (at least 1). */
const price = z.union([z.string(), z.number()]).transform((v) => String(v)).refine((v) => /^\d+(\.\d+)?$/.test(v) && Number(v) >= 1, 'not a decimal price')
const named = z.looseObject({ name: z.string().nullish() }).nullish()

const OddRowSchema = z.looseObject({
  id: int,
  fixture_id: int,
  market_id: int,
  bookmaker_id: int,
  label: z.string(),
  value: price,
  name: z.string().nullish(),
  total: line,
  handicap: line,
  sort_order: int.nullish(),
  winning: z.boolean().nullish(),
  stopped: z.boolean().nullish(),
  suspended: z.boolean().nullish(),
  market_description: z.string().nullish(),
  market: named,
  bookmaker: named
})

export type OddRow = z.infer<typeof OddRowSchema>

/**
 * The odds rows of an odds response. `data` may be an array, a single object or absent ("No result(s)
 * found", which `latest` answers whenever nothing changed in its window): [] then.
 * @throws z.ZodError when the envelope itself is malformed.
 */
export function parseOdds (json: unknown): OddRow[] {
  return parseDataRows(json, OddRowSchema)
}
