/**
 * The parameters of the gateway's own HTTP endpoints (`/v1/...`), each once, as zod: the routes parse
 * requests with these schemas (src/http/feeds.ts, src/http/webpush.ts), and the OpenAPI document's
 * parameters are made from the same schemas (`parametersOf`, used by openapi.ts), so what the document
 * says a route takes and what the route takes cannot drift apart.
 *
 * A schema's input side is what the document shows (`io: 'input'`): the string a query carries, its
 * pattern and bounds. What only parsing can check (at most 1000 ids, kinds by name, `format=delta` with
 * `kinds`) is said in the descriptions.
 */
import { z } from 'zod'
import { CHANGE_KINDS, DaySchema, FormatSchema, MAX_CONFLATE_MS, MAX_DAYS, ODDS_KINDS, STANDINGS_KINDS, TimeZoneSchema } from './model.ts'
import { COMPONENTS, tidy, type JsonSchema } from './json-schema.ts'

/** Longest span of `/v1/fixtures?from=&to=`, in days. */
export const MAX_DAY_SPAN = 7
/** Most ids in one list parameter. */
export const MAX_IDS = 1000

const ID = '[1-9]\\d{0,15}'
const ids = (s: string): number[] => [...new Set(s.split(',').map(Number))]
const Ids = z.array(z.number().int().positive()).max(MAX_IDS)

/** `fixtures=19146701,19146702` (or the parameter repeated, see `queryOf`): positive integer ids. */
const idList = (what: string, description: string): z.ZodType<number[]> =>
  z.string().regex(new RegExp(`^${ID}(,${ID})*$`), 'expected comma-separated positive integer ids')
    .transform(ids).pipe(Ids)
    .meta({ description: `Comma-separated ${what} ids (or the parameter repeated), at most ${MAX_IDS}. ${description}`.trim() })

/** `leagues=271,501`, or `leagues=*`: every league the key may see. */
const LeagueList = z.string().regex(new RegExp(`^(\\*|${ID}(,${ID})*)$`), 'expected * or comma-separated positive integer ids')
  .transform((s) => s === '*' ? '*' as const : ids(s))
  .pipe(z.union([z.literal('*'), Ids]))
  .meta({ description: 'League ids, comma-separated (or the parameter repeated), or `*`: every league the key may see. Without leagues, fixtures and teams: every league the key may see.' })

/** `kinds=score_changed,odds_changed`: change kinds of the live protocol, the match's, the odds' and the standings' (docs/protocol.md). */
const KindList = z.string().regex(/^[a-z_]+(,[a-z_]+)*$/, 'expected comma-separated change kinds')
  .transform((s) => [...new Set(s.split(','))])
  .pipe(z.array(z.enum([...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS])))
  .meta({ description: 'Comma-separated change kinds (see SubscribedKind): only those changes are delivered; a change left with none is skipped. Naming an odds kind takes odds.' })

const TRUE = ['true', '1', 'yes', 'on'] as const
const FALSE = ['false', '0', 'no', 'off'] as const
/** `odds=true`: a yes or no, in one of a few spellings (lower case). */
const flag = (description: string): z.ZodType<boolean | undefined> =>
  z.enum([...TRUE, ...FALSE]).transform((v) => (TRUE as readonly string[]).includes(v)).optional()
    .meta({ description: `\`true\` or \`false\` (\`1\`/\`0\`, \`yes\`/\`no\`, \`on\`/\`off\` too). ${description}` })

/**
 * An integer written as one (`limit=100`; not `1e2`, ` 100` or `100.0`), within bounds. Documented as the
 * integer it stands for.
 */
const integer = (min: number, max: number): z.ZodType<number, string> =>
  z.string().regex(/^(0|-?[1-9]\d{0,15})$/, 'expected an integer').transform(Number).pipe(z.number().int().min(min).max(max))
    .meta({ type: 'integer', minimum: min, ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}) })

const Since = z.string().max(128).optional().meta({ description: 'Resume after this cursor.' })
const Format = FormatSchema.default('full').meta({ description: '`full` (default) or `delta`: compact change frames (ChangeFrame). `delta` together with `kinds` is refused (400 `invalid_request`): a delta needs every change of its fixture.' })
const Conflate = integer(0, MAX_CONFLATE_MS).optional().meta({ description: 'At most one odds frame per fixture per this many ms (takes effect with odds): on a stream per interval of time, on a page of `/v1/changes` per interval of the records\' `at`. Out of range: 400 `invalid_request`.' })

// Unknown parameters are ignored rather than refused: browsers and proxies add cache busters.
/** What a feed follows and takes: `/v1/fixtures/live`, and the base of `/v1/changes` and `/v1/sse`. */
export const FilterQuery = z.object({
  leagues: LeagueList.optional(),
  fixtures: idList('fixture', '').optional(),
  teams: idList('team', 'A change or fixture matches when either participant is listed. A key limited to some leagues gets 403 for a team that plays (in the live fixtures) only outside them; other teams are delivered from its leagues only.').optional(),
  kinds: KindList.optional(),
  odds: flag('Take the fixtures\' in-play odds too: odds frames in the feed, odds images in the snapshot. Needs a key with the odds feature (else 403). Implied by `bookmakers`, `markets` or a kinds list naming an odds kind.'),
  bookmakers: idList('bookmaker', 'Only these bookmakers\' odds (takes odds). Refused with `format=delta`.').optional(),
  markets: idList('market', 'Only these markets\' odds (takes odds). Refused with `format=delta`.').optional(),
  standings: flag('Take the live tables of the leagues followed (by id or `*`) too: `standings` frames in the feed. Implied by a kinds list naming `standings_changed`.')
})
export type Filter = z.infer<typeof FilterQuery>

/**
 * `GET /v1/changes`: the filter, a cursor, a page size. The route refuses `format=delta` with a narrowing
 * take on top (DELTA_WITH_KINDS), a rule of the protocol's filter (src/protocol/filter.ts).
 */
export const ChangesQuery = FilterQuery.extend({
  since: Since,
  format: Format,
  limit: integer(1, 1000).default(100).meta({ description: 'Page size: 100 by default, 1000 at most (the same cap as a WebSocket replay).' }),
  conflate_ms: Conflate
})

/** `dates=2026-11-28,2026-11-29` (or the parameter repeated): days, at most MAX_DAYS. */
const DayList = z.string().regex(/^\d{4}-\d{2}-\d{2}(,\d{4}-\d{2}-\d{2})*$/, 'expected comma-separated days, YYYY-MM-DD')
  .transform((s) => [...new Set(s.split(','))])
  .pipe(z.array(DaySchema).min(1).max(MAX_DAYS))
  .meta({ description: `Days followed too, comma-separated (at most ${MAX_DAYS}): every fixture whose kick-off falls in one of them, in \`tz\`, from its scheduling to its end.` })

/** `GET /v1/sse`: the filter, days, a cursor (or Last-Event-ID); `format=delta` refused as for ChangesQuery. */
export const SseQuery = FilterQuery.extend({
  dates: DayList.optional(),
  tz: TimeZoneSchema.optional().meta({ description: 'The time zone of `dates`; UTC by default.' }),
  since: Since,
  format: Format,
  conflate_ms: Conflate
})

const DAY_MS = 86_400_000

/** `GET /v1/fixtures`: `date=`, or `from=` and `to=` (at most MAX_DAY_SPAN days), in `tz`; parsed to the list of days. */
export const DaysQuery = z.object({
  date: DaySchema.optional().meta({ description: 'One day, `YYYY-MM-DD`, in `tz`.' }),
  from: DaySchema.optional().meta({ description: `The first of several days (with \`to\`, at most ${MAX_DAY_SPAN}).` }),
  to: DaySchema.optional().meta({ description: 'The last of several days.' }),
  tz: TimeZoneSchema.default('UTC').meta({ description: 'The time zone the days run in (midnight to midnight there); UTC by default.' }),
  leagues: LeagueList.optional(),
  fixtures: idList('fixture', '').optional(),
  teams: idList('team', 'A fixture matches when either participant is listed.').optional()
}).transform((q, ctx) => {
  const from = q.date ?? q.from
  const to = q.date ?? q.to ?? q.from
  if (from === undefined || to === undefined || (q.date !== undefined && (q.from !== undefined || q.to !== undefined))) {
    ctx.addIssue({ code: 'custom', path: ['date'], message: `give date=YYYY-MM-DD, or from= and to= (at most ${MAX_DAY_SPAN} days)` })
    return z.NEVER
  }
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1
  if (span < 1 || span > MAX_DAY_SPAN) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `from must not be after to, and they must span at most ${MAX_DAY_SPAN} days` })
    return z.NEVER
  }
  const dates = Array.from({ length: span }, (_, i) => new Date(Date.parse(from) + i * DAY_MS).toISOString().slice(0, 10))
  return { ...q, dates }
})

/** `GET /v1/standings/{league}`. */
export const StandingsParams = z.object({
  league: integer(1, Number.MAX_SAFE_INTEGER).meta({ description: 'A league id.' })
})

/** `GET` and `DELETE /v1/push/subscriptions?endpoint=`. */
export const PushEndpointQuery = z.object({
  endpoint: z.string().min(1).max(2048).meta({ description: 'The subscription\'s endpoint URL, url-encoded (once): its identity.' })
})

/** `POST /v1/webhooks/{id}/resume`. */
export const WebhookParams = z.object({
  id: z.string().min(1).meta({ description: 'The webhook endpoint\'s id in the keys file.' })
})

/** Parameters that are lists: repeated, they are read as one comma-separated list (`leagues=1&leagues=2`). */
const LISTS = new Set(['leagues', 'fixtures', 'teams', 'kinds', 'bookmakers', 'markets', 'dates', 'odds', 'standings'])

/** A request's query (or path parameters) as the schemas read it: a repeated list parameter joined with commas. */
export function queryOf (query: unknown): Record<string, unknown> {
  if (typeof query !== 'object' || query === null) return {}
  return Object.fromEntries(Object.entries(query).map(([name, v]) => [name, Array.isArray(v) && LISTS.has(name) ? v.join(',') : v]))
}

/** An OpenAPI parameter object. */
export interface Parameter { name: string, in: 'query' | 'path', required: boolean, description?: string, schema: JsonSchema }

/**
 * The OpenAPI parameters of one of the schemas above: each field's input schema (what the query carries),
 * described by its `meta`. A field with a model id (Day, TimeZone, Format) refers to its component schema.
 */
export function parametersOf (schema: z.ZodType, where: 'query' | 'path'): Parameter[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', override: (ctx) => tidy(ctx.jsonSchema as JsonSchema) }) as JsonSchema
  // A schema of the model (a `meta({ id })`) is one of the document's components, not a local definition.
  const properties = JSON.parse(JSON.stringify(json.properties ?? {}).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as Record<string, JsonSchema>
  const required = new Set((json.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => {
    // An integer's pattern is the parser's: the type says it.
    const { description, pattern, ...rest } = property
    if (rest.type !== 'integer' && pattern !== undefined) rest.pattern = pattern
    const withDefault = rest.default !== undefined
    return {
      name,
      in: where,
      required: where === 'path' || (required.has(name) && !withDefault),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest
    }
  })
}
