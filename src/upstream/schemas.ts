/**
 * zod schemas for upstream payloads (the envelope, fixtures with their includes, error bodies: see
 * docs/upstream.md), and the tolerant fixture parser the poller uses.
 *
 * The real API is not always what its docs say: null where they show a number, extra fields, missing
 * includes, legacy fields of early-2023 bodies, `data` as an object or an array or absent. So:
 * - the envelope is loose and its blocks optional; a malformed block (say `rate_limit`) is dropped, not fatal;
 * - each fixture of a list is parsed on its own: only one without a numeric `id` is skipped;
 * - inside a fixture, each include row is parsed on its own, and every field the normalizer reads has a
 *   fallback (null, or 0 for the ids the gateway keys on) used when the value does not fit the documented
 *   type. A row is dropped only when a field it cannot exist without is unusable (a score row's goals, an
 *   event's id or type). Each fallback is an anomaly reported to the caller's sink (anomalies.ts), which
 *   counts it and logs it once per fixture and field.
 * Fields nobody reads are not validated: they pass through untouched.
 */
import { z } from 'zod'
import { STATE_BY_ID } from '@touchline/upstream-contract/states'
import { PeriodType } from '@touchline/upstream-contract/types'
import type { FixtureInput, PeriodInput, StateInput } from '../diff/input.ts'
import type { AnomalySink } from './anomalies.ts'

const int = z.number().int()

const RateLimitSchema = z.looseObject({
  resets_in_seconds: z.number(),
  remaining: z.number(),
  requested_entity: z.string(),
  /** Only on 429 bodies of the embedded provider; the real API has none. */
  total: z.number().optional()
})

const PaginationSchema = z.looseObject({
  count: int,
  per_page: int,
  current_page: int,
  next_page: z.string().nullable().optional(),
  /** Cursor pagination since 2026-06-05: a full URL or a bare token. */
  next_cursor: z.string().nullable().optional(),
  has_more: z.boolean()
})

const SubscriptionSchema = z.looseObject({
  // `[]` on the free plan, an object on paid plans (docs/upstream.md, "Known quirks").
  meta: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  plans: z.array(z.unknown()).optional(),
  add_ons: z.array(z.unknown()).optional(),
  widgets: z.array(z.unknown()).optional()
})

/**
 * The response envelope. `data` is an object, an array, or absent: `/livescores/latest` answers an empty
 * window with HTTP 200, a `message` ("No result(s) found matching your request...") and no `data`.
 * The other blocks are informative: one that does not have its documented shape is dropped (`undefined`)
 * rather than failing the response.
 */
const EnvelopeSchema = z.looseObject({
  data: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullable().optional(),
  message: z.string().optional().catch(undefined),
  pagination: PaginationSchema.optional().catch(undefined),
  subscription: z.array(SubscriptionSchema).optional().catch(undefined),
  rate_limit: RateLimitSchema.optional().catch(undefined),
  timezone: z.string().optional().catch(undefined)
})
export type Envelope = z.infer<typeof EnvelopeSchema>

/**
 * Parses the envelope of any endpoint.
 * @throws z.ZodError when the body is not an envelope (not an object, or `data` neither object nor array).
 */
export function parseEnvelope (json: unknown): Envelope {
  return EnvelopeSchema.parse(json)
}

/**
 * The rows of a response, each parsed alone with `schema`: a row that cannot be read is dropped, the others
 * stand. `data` may be an array, a single object or absent ("No result(s) found"): [] then.
 * @throws z.ZodError when the envelope itself is malformed.
 */
export function parseDataRows<T> (json: unknown, schema: z.ZodType<T>): T[] {
  const { data } = parseEnvelope(json)
  if (data === undefined || data === null) return []
  return (Array.isArray(data) ? data : [data]).flatMap((item) => {
    const row = schema.safeParse(item)
    return row.success ? [row.data] : []
  })
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures, field by field

type Row = Record<string, unknown>
/** The value a field takes when its own does not fit the schema, computed from the whole row. */
type Fallback = (row: Row) => unknown

/** An entity as the docs describe it (only the fields the normalizer reads), and its fields' fallbacks. */
interface RowSpec {
  shape: Readonly<Record<string, z.ZodType>>
  /** Fields that may fall back. A field that does not fit and is not listed here drops the row. */
  fallbacks: Readonly<Record<string, Fallback>>
}

/** The shape as one loose object schema, and a list of them: what fits (nearly all) is parsed in one call. */
const compiled = new WeakMap<RowSpec, { row: z.ZodType<Row>, list: z.ZodType<Row[]> }>()
function schemasOf (spec: RowSpec): { row: z.ZodType<Row>, list: z.ZodType<Row[]> } {
  let schemas = compiled.get(spec)
  if (schemas === undefined) {
    const row = z.looseObject(spec.shape)
    compiled.set(spec, schemas = { row, list: z.array(row) })
  }
  return schemas
}

const toNull: Fallback = () => null
const toAbsent: Fallback = () => undefined
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional()
const nInt = nullable(int)
const nStr = nullable(z.string())

function fallbacksFor (shape: Record<string, z.ZodType>, to: Fallback = toNull, except: readonly string[] = []): Record<string, Fallback> {
  return Object.fromEntries(Object.keys(shape).filter((k) => !except.includes(k)).map((k) => [k, to]))
}

const SCORE_SHAPE = {
  id: int.optional(),
  type_id: int,
  participant_id: nInt,
  // `participant` is "home" | "away"; anything else is left to the team id (the normalizer checks).
  score: z.looseObject({ goals: int, participant: nStr }),
  description: nStr
}
const SCORE: RowSpec = { shape: SCORE_SHAPE, fallbacks: { id: toAbsent, participant_id: toNull, description: toNull } }

const PERIOD_SHAPE = {
  type_id: int,
  description: z.string().optional(),
  ticking: z.boolean().optional(),
  sort_order: int.optional(),
  counts_from: int.optional(),
  // Null on a shoot-out row in the upstream documentation's own example, with `started`, `time_added`.
  started: nInt,
  ended: nInt,
  time_added: nInt,
  period_length: nInt,
  minutes: nInt,
  seconds: nInt
}
/** Every period field may fall back: a period row is never dropped, it only loses what it got wrong. */
const PERIOD: RowSpec = { shape: PERIOD_SHAPE, fallbacks: fallbacksFor(PERIOD_SHAPE) }
const KNOWN_PERIOD_TYPES: ReadonlySet<number> = new Set(Object.values(PeriodType))

/** A nested type include (`events.type`, `state.type`); only `developer_name` is read. */
const NestedType = z.looseObject({ developer_name: nStr }).nullable().optional()

const EVENT_SHAPE = {
  id: int,
  type_id: int,
  // Null on some rows per the older schemas' experience; the event then has no side.
  participant_id: nInt,
  // Rows of the `timeline` include say "timeline"; a missing section means a plain event.
  section: z.string().optional(),
  player_id: nInt,
  related_player_id: nInt,
  player_name: nStr,
  related_player_name: nStr,
  result: nStr,
  info: nStr,
  addition: nStr,
  minute: int,
  extra_minute: nInt,
  sort_order: nInt,
  type: NestedType
}
// The id and type are the event: without them the row is dropped.
const EVENT: RowSpec = { shape: EVENT_SHAPE, fallbacks: fallbacksFor(EVENT_SHAPE, toNull, ['id', 'type_id']) }

const PARTICIPANT_SHAPE = {
  id: int,
  name: z.string(),
  short_code: nStr,
  image_path: nStr,
  // The pivot; the normalizer falls back to the score rows and to the "Home vs Away" name to place teams.
  meta: z.looseObject({ location: nStr }).nullable().optional()
}
const PARTICIPANT: RowSpec = { shape: PARTICIPANT_SHAPE, fallbacks: fallbacksFor(PARTICIPANT_SHAPE, toNull, ['id']) }

const STATE_SHAPE = {
  id: int,
  state: nStr,
  // Translated when `locale` is set ("Después de penales"): never compared on.
  name: nStr,
  short_name: nStr,
  developer_name: nStr,
  type: NestedType
}
const STATE: RowSpec = { shape: STATE_SHAPE, fallbacks: fallbacksFor(STATE_SHAPE, toNull, ['id']) }

const STATISTIC_SHAPE = {
  type_id: int,
  participant_id: nInt,
  location: nStr,
  data: z.looseObject({ value: z.unknown() }).nullable().optional()
}
const STATISTIC: RowSpec = { shape: STATISTIC_SHAPE, fallbacks: fallbacksFor(STATISTIC_SHAPE, toNull, ['type_id']) }

const LINEUP_SHAPE = {
  player_id: nInt,
  team_id: nInt,
  position_id: nInt,
  type_id: nInt,
  formation_position: nInt,
  formation_field: nStr,
  player_name: nStr,
  jersey_number: nInt
}
const LINEUP: RowSpec = { shape: LINEUP_SHAPE, fallbacks: fallbacksFor(LINEUP_SHAPE) }

const FORMATION_SHAPE = { participant_id: nInt, formation: nStr, location: nStr }
const FORMATION: RowSpec = { shape: FORMATION_SHAPE, fallbacks: fallbacksFor(FORMATION_SHAPE) }

const includeList = z.array(z.unknown()).optional()
const INCLUDE_LISTS = ['participants', 'scores', 'events', 'periods', 'detailedperiods', 'statistics', 'lineups', 'formations'] as const
const FIXTURE_SHAPE = {
  id: int,
  league_id: int,
  season_id: int,
  stage_id: int,
  round_id: nInt,
  state_id: int,
  name: nStr,
  starting_at: nStr,
  starting_at_timestamp: nInt,
  result_info: nStr,
  length: nInt,
  // Legacy (early 2023, removed 2023-04-18): the score before the `scores` include existed.
  home_score: nInt,
  away_score: nInt,
  participants: includeList,
  scores: includeList,
  events: includeList,
  periods: includeList,
  detailedperiods: includeList,
  statistics: includeList,
  lineups: includeList,
  formations: includeList,
  // `currentperiod` is null before kick-off, at half-time and after the end (docs/upstream.md, "Includes").
  currentperiod: z.unknown().optional(),
  state: z.unknown().optional()
}
/** The state id from the `state` include when the base field is unusable. */
const stateIdFallback: Fallback = (row) => {
  const id = (row.state as Row | null | undefined)?.id
  return Number.isInteger(id) ? id : 0
}
const FIXTURE: RowSpec = {
  shape: FIXTURE_SHAPE,
  fallbacks: {
    ...fallbacksFor(FIXTURE_SHAPE, toNull, ['id', ...INCLUDE_LISTS]),
    // Ids the gateway keys on fall back to 0, which no upstream record has; the others to null.
    league_id: () => 0,
    state_id: stateIdFallback,
    // An include that is not a list is treated as not sent.
    ...Object.fromEntries(INCLUDE_LISTS.map((k) => [k, toAbsent]))
  }
}

/**
 * The includes a fixture is asked for with, so that it carries every part of the live model (the normalizer's
 * input below): teams, scores, events, periods and state, and the match centre: statistics, line-ups and
 * formations (includes cost no extra call). The poller's calls and the passthrough's live mirror both use it.
 */
export const LIVE_INCLUDES = 'participants;scores;events;periods;state;statistics;lineups;formations'

/**
 * A validated upstream fixture: the normalizer's input, plus every field the schemas do not model,
 * untouched. Values that did not fit are already replaced by their fallbacks.
 */
export type UpstreamFixture = FixtureInput & Row

/** Where a row is: its field path in the fixture (for the metric) and how to report. */
interface Place {
  path: string
  fixtureId: number | null
  report: AnomalySink
  source?: string
}

const isRow = (value: unknown): value is Row => value !== null && typeof value === 'object' && !Array.isArray(value)
const join = (path: string, key: string): string => path === '' ? key : `${path}.${key}`

function report (at: Place, path: string, issue: string): void {
  at.report({ path: path === '' ? 'fixture' : path, fixtureId: at.fixtureId, issue, ...(at.source !== undefined ? { source: at.source } : {}) })
}

/**
 * One row, field by field: each modelled field as documented, or its fallback (reported) when it does not
 * fit; the other fields untouched. Undefined, also reported, when the row is not an object or a field
 * without a fallback does not fit.
 */
function parseRow (spec: RowSpec, raw: unknown, at: Place): Row | undefined {
  if (!isRow(raw)) {
    report(at, at.path, `not an object (${raw === null ? 'null' : typeof raw})`)
    return undefined
  }
  const fits = schemasOf(spec).row.safeParse(raw)
  if (fits.success) return fits.data
  const row: Row = { ...raw }
  for (const [key, field] of Object.entries(spec.shape)) {
    const parsed = field.safeParse(raw[key])
    if (parsed.success) {
      if (parsed.data !== undefined || key in raw) row[key] = parsed.data
      continue
    }
    const fallback = spec.fallbacks[key]
    const issue = parsed.error.issues[0]?.message ?? 'invalid'
    report(at, join(at.path, key), fallback === undefined ? `${issue}; row dropped` : issue)
    if (fallback === undefined) return undefined
    row[key] = fallback(raw)
  }
  return row
}

function parseRows (spec: RowSpec, rows: unknown[], at: Place): Row[] {
  const fits = schemasOf(spec).list.safeParse(rows)
  if (fits.success) return fits.data
  return rows.flatMap<Row>((row) => parseRow(spec, row, at) ?? [])
}

/** The list includes and the schema of their rows. */
const LIST_SPECS: ReadonlyArray<readonly [typeof INCLUDE_LISTS[number], RowSpec]> = [
  ['participants', PARTICIPANT], ['scores', SCORE], ['events', EVENT], ['periods', PERIOD], ['detailedperiods', PERIOD],
  ['statistics', STATISTIC], ['lineups', LINEUP], ['formations', FORMATION]
]

/** camelCase includes the real API answers with lower-cased keys (docs/upstream.md, "Known quirks"). */
const CAMEL_INCLUDES: Readonly<Record<string, string>> = {
  currentPeriod: 'currentperiod',
  detailedPeriods: 'detailedperiods'
}

/** Copies camelCase include keys to their lower-cased form, so both spellings reach the same field. */
function lowerIncludeKeys (value: Row): Row {
  const out: Row = { ...value }
  for (const [camel, lower] of Object.entries(CAMEL_INCLUDES)) {
    if (camel in out) {
      if (out[lower] === undefined) out[lower] = out[camel]
      delete out[camel]
    }
  }
  return out
}

/** Odd but parseable: values the normalizer handles with a fallback of its own. Reported, nothing changed. */
function checkFallbacks (fixture: UpstreamFixture, at: Place): void {
  if (fixture.state_id !== 0 && !STATE_BY_ID.has(fixture.state_id)) report(at, 'state_id', `unknown state id ${fixture.state_id}`)
  if (fixture.participants === undefined || fixture.participants === null) report(at, 'participants', 'missing: teams from the fixture name')
  else if (fixture.participants.length < 2) report(at, 'participants', `${fixture.participants.length} participant(s): teams from the fixture name`)
  if (fixture.scores === undefined || fixture.scores === null) report(at, 'scores', 'missing: score from legacy fields or null')
  for (const list of ['periods', 'detailedperiods'] as const) {
    for (const period of fixture[list] ?? []) {
      if (typeof period.type_id === 'number' && !KNOWN_PERIOD_TYPES.has(period.type_id)) report(at, `${list}.type_id`, `unknown period type ${period.type_id}`)
    }
  }
}

export interface ParseFixturesOptions {
  /** Receives every fallback and every skipped fixture. @default none (fallbacks still apply) */
  anomalies?: AnomalySink
  /** The request path, for the anomalies' log lines. */
  source?: string
}

/**
 * One fixture, include rows one by one with per-field fallbacks. Undefined (and reported at `id`) only when
 * it has no integer id: without one it can be neither stored nor diffed.
 */
export function parseFixture (raw: unknown, opts: ParseFixturesOptions = {}): UpstreamFixture | undefined {
  const sink = opts.anomalies ?? (() => {})
  const id = isRow(raw) && Number.isInteger(raw.id) ? raw.id as number : null
  const at: Place = { path: '', fixtureId: id, report: sink, ...(opts.source !== undefined ? { source: opts.source } : {}) }
  if (id === null || !isRow(raw)) {
    report(at, 'id', 'fixture without an integer id; skipped')
    return undefined
  }
  const base = parseRow(FIXTURE, lowerIncludeKeys(raw), at)
  if (base === undefined) return undefined
  const within = (path: string): Place => ({ ...at, path })
  for (const [key, spec] of LIST_SPECS) {
    const rows = base[key] as unknown[] | undefined
    if (rows !== undefined) base[key] = parseRows(spec, rows, within(key))
  }
  const fixture = base as UpstreamFixture
  if (base.currentperiod !== undefined && base.currentperiod !== null) {
    fixture.currentperiod = parseRow(PERIOD, base.currentperiod, within('currentperiod')) as PeriodInput | undefined ?? null
  }
  if (base.state !== undefined && base.state !== null) {
    const state = parseRow(STATE, base.state, within('state')) as StateInput | undefined
    if (state === undefined) delete fixture.state
    else fixture.state = state
  }
  checkFallbacks(fixture, at)
  return fixture
}

/**
 * Fixtures of a fixtures or livescores response. `data` may be an array (the real `latest`), a single
 * object (the docs' example, single-fixture endpoints) or absent ("No result(s) found...", gives []).
 * One malformed fixture never drops the others, one odd field never drops its fixture (see parseFixture).
 * @throws z.ZodError when the envelope itself is malformed.
 */
export function parseFixtures (json: unknown, opts: ParseFixturesOptions = {}): UpstreamFixture[] {
  const { data } = parseEnvelope(json)
  if (data === undefined || data === null) return []
  const items = Array.isArray(data) ? data : [data]
  return items.flatMap((item) => parseFixture(item, opts) ?? [])
}

// Error bodies (docs/upstream.md, "Errors"). The real API sends only `{ message, code?, link? }` (e.g.
// `{"message":"Unauthenticated."}`); the embedded provider adds fields per status (resource, plan_required,
// retry_after, ...). So everything but `message` is optional.
const ErrorBase = z.looseObject({
  message: z.string(),
  error: z.string().optional(),
  /** Internal code (5001 include not found, 5005 rate limit, ...), "when available". */
  code: int.optional(),
  link: z.string().optional()
})

const BadRequestBodySchema = ErrorBase.extend({
  errors: z.record(z.string(), z.array(z.string())).optional()
})
const UnauthorizedBodySchema = ErrorBase
const ForbiddenBodySchema = ErrorBase.extend({
  resource: z.string().optional(),
  plan_required: z.string().optional()
})
const NotFoundBodySchema = ErrorBase.extend({
  resource_type: z.string().optional(),
  resource_id: z.union([z.string(), int]).optional()
})
export const TooManyRequestsBodySchema = ErrorBase.extend({
  retry_after: z.number().optional(),
  rate_limit: RateLimitSchema.partial().optional()
})
const InternalErrorBodySchema = ErrorBase.extend({
  error_id: z.string().optional()
})

export const ERROR_BODY_SCHEMAS = {
  400: BadRequestBodySchema,
  401: UnauthorizedBodySchema,
  403: ForbiddenBodySchema,
  404: NotFoundBodySchema,
  429: TooManyRequestsBodySchema,
  500: InternalErrorBodySchema
} as const

export type ErrorBody = z.infer<typeof ErrorBase>

/**
 * Validates an error body for an HTTP status. Unknown statuses (422, 502, ...) use the common shape.
 * Returns null when the body does not even carry a `message` (an HTML error page from a proxy, say).
 */
export function parseErrorBody (status: number, json: unknown): ErrorBody | null {
  const schema = (ERROR_BODY_SCHEMAS as Record<number, typeof ErrorBase | undefined>)[status] ?? ErrorBase
  const parsed = schema.safeParse(json)
  return parsed.success ? parsed.data : null
}
