/**
 * zod schemas for upstream payloads (spec/upstream-facts.md §1–§3, §7; football-data-service.md part 2 and 7).
 *
 * Tolerant on purpose: every object is loose (unknown keys pass through, so a new include or field never
 * breaks the poller), fields the real API sends as null are nullable, and fields that are not needed to
 * build a LiveFixture get a default instead of failing the whole fixture (e.g. `has_premium_odds` is
 * missing from early-2023 payloads). Legacy fields removed on 2023-04-18 are never required.
 */
import { z } from 'zod'

const int = z.number().int()
const nullableInt = int.nullable().default(null)
const nullableString = z.string().nullable().default(null)
const homeAway = z.enum(['home', 'away'])

export const RateLimitSchema = z.looseObject({
  resets_in_seconds: z.number(),
  remaining: z.number(),
  requested_entity: z.string(),
  /** Only on 429 bodies of the embedded provider (football-data-service.md §2.4). */
  total: z.number().optional()
})

export const PaginationSchema = z.looseObject({
  count: int,
  per_page: int,
  current_page: int,
  next_page: z.string().nullable().optional(),
  /** Cursor pagination since 2026-06-05: a full URL or a bare token. */
  next_cursor: z.string().nullable().optional(),
  has_more: z.boolean()
})

export const SubscriptionSchema = z.looseObject({
  // `[]` on the free plan, an object on paid plans (upstream-facts §1).
  meta: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  plans: z.array(z.unknown()).optional(),
  add_ons: z.array(z.unknown()).optional(),
  widgets: z.array(z.unknown()).optional()
})

/**
 * The response envelope. `data` is an object, an array, or absent: `/livescores/latest` answers an empty
 * window with HTTP 200, a `message` ("No result(s) found matching your request...") and no `data`.
 */
export const EnvelopeSchema = z.looseObject({
  data: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullable().optional(),
  message: z.string().optional(),
  pagination: PaginationSchema.optional(),
  subscription: z.array(SubscriptionSchema).optional(),
  rate_limit: RateLimitSchema.optional(),
  timezone: z.string().optional()
})
export type Envelope = z.infer<typeof EnvelopeSchema>

export const ScoreSchema = z.looseObject({
  id: int,
  fixture_id: int,
  type_id: int,
  participant_id: int.nullable().default(null),
  score: z.looseObject({ goals: int, participant: homeAway.nullable().optional() }),
  description: z.string().nullable().default(null)
})

export const PeriodSchema = z.looseObject({
  id: int,
  fixture_id: int,
  type_id: int,
  started: nullableInt,
  ended: nullableInt,
  counts_from: int.default(0),
  ticking: z.boolean().default(false),
  sort_order: int.default(0),
  description: z.string().default(''),
  time_added: nullableInt,
  period_length: int.default(0),
  minutes: nullableInt,
  seconds: nullableInt,
  has_timer: z.boolean().default(false)
})

/** A nested type include (`events.type`, `state.type`); the differ only reads `developer_name`. */
const NestedTypeSchema = z.looseObject({ id: int, developer_name: z.string().optional() }).nullable().optional()

export const EventSchema = z.looseObject({
  id: int,
  fixture_id: int,
  period_id: nullableInt,
  detailed_period_id: nullableInt,
  participant_id: nullableInt,
  type_id: int,
  sub_type_id: nullableInt,
  // Rows of the `timeline` include say "timeline"; a missing section means a plain event.
  section: z.string().default('event'),
  player_id: nullableInt,
  related_player_id: nullableInt,
  player_name: nullableString,
  related_player_name: nullableString,
  result: nullableString,
  info: nullableString,
  addition: nullableString,
  minute: int,
  extra_minute: nullableInt,
  injured: z.boolean().nullable().default(null),
  on_bench: z.boolean().default(false),
  coach_id: nullableInt,
  rescinded: z.boolean().nullable().optional(),
  sort_order: int.nullable().optional(),
  type: NestedTypeSchema
})

export const ParticipantSchema = z.looseObject({
  id: int,
  name: z.string(),
  short_code: nullableString,
  image_path: nullableString,
  // The pivot; optional so that a payload without it still parses (the normalizer falls back to the
  // score rows and to the "Home vs Away" name to place the teams).
  meta: z.looseObject({
    location: homeAway.nullable().optional(),
    winner: z.boolean().nullable().optional(),
    position: int.nullable().optional()
  }).nullable().optional()
})

export const StateSchema = z.looseObject({
  id: int,
  state: z.string().default(''),
  // Translated when `locale` is set ("Después de penales"): never compare on it.
  name: z.string().default(''),
  short_name: z.string().default(''),
  developer_name: z.string().default(''),
  type: NestedTypeSchema
})

/** camelCase includes the real API answers with lower-cased keys (upstream-facts §0.8). */
const CAMEL_INCLUDES: Readonly<Record<string, string>> = {
  currentPeriod: 'currentperiod',
  detailedPeriods: 'detailedperiods'
}

/** Copies camelCase include keys to their lower-cased form, so both spellings reach the same field. */
function lowerIncludeKeys (value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const [camel, lower] of Object.entries(CAMEL_INCLUDES)) {
    if (camel in out) {
      if (out[lower] === undefined) out[lower] = out[camel]
      delete out[camel]
    }
  }
  return out
}

export const FixtureSchema = z.preprocess(lowerIncludeKeys, z.looseObject({
  id: int,
  sport_id: int.default(1),
  league_id: int,
  season_id: int,
  stage_id: int,
  group_id: nullableInt,
  aggregate_id: nullableInt,
  round_id: nullableInt,
  state_id: int,
  venue_id: nullableInt,
  name: nullableString,
  starting_at: nullableString,
  result_info: nullableString,
  leg: z.string().default('1/1'),
  details: nullableString,
  length: nullableInt,
  placeholder: z.boolean().default(false),
  has_odds: z.boolean().default(false),
  has_premium_odds: z.boolean().default(false),
  starting_at_timestamp: nullableInt,
  participants: z.array(ParticipantSchema).optional(),
  scores: z.array(ScoreSchema).optional(),
  events: z.array(EventSchema).optional(),
  periods: z.array(PeriodSchema).optional(),
  detailedperiods: z.array(PeriodSchema).optional(),
  // `currentPeriod` is null before kick-off, at half-time and after the end (upstream-facts §3.4).
  currentperiod: PeriodSchema.nullable().optional(),
  state: StateSchema.optional()
}))

/**
 * A validated upstream fixture. It has the fields of the contract's `FixtureWithIncludes`, but is more
 * tolerant: participant `meta`, event `participant_id` and a few base fields may be null or absent.
 * `normalizeFixture` accepts both.
 */
export type UpstreamFixture = z.output<typeof FixtureSchema>

/**
 * Parses the envelope of any endpoint.
 * @throws z.ZodError when the body is not an envelope (not an object, or `data` neither object nor array).
 */
export function parseEnvelope (json: unknown): Envelope {
  return EnvelopeSchema.parse(json)
}

/** A fixture of a fixture list that failed validation and was skipped. */
export interface InvalidFixture {
  index: number
  /** The fixture id when the item had a numeric one. */
  id: number | null
  error: z.ZodError
}

export interface ParseFixturesOptions {
  /** Called once per fixture that fails validation. Invalid fixtures are skipped, the others kept. */
  onInvalid?: (invalid: InvalidFixture) => void
}

/**
 * Fixtures of a fixtures or livescores response. `data` may be an array (the real `latest`), a single
 * object (the docs' example, single-fixture endpoints) or absent ("No result(s) found...", gives []).
 * One malformed fixture does not drop the others from a poll: it is skipped and reported to `onInvalid`.
 * @throws z.ZodError when the envelope itself is malformed.
 */
export function parseFixtures (json: unknown, opts: ParseFixturesOptions = {}): UpstreamFixture[] {
  const { data } = parseEnvelope(json)
  if (data === undefined || data === null) return []
  const items = Array.isArray(data) ? data : [data]
  const fixtures: UpstreamFixture[] = []
  items.forEach((item, index) => {
    const parsed = FixtureSchema.safeParse(item)
    if (parsed.success) {
      fixtures.push(parsed.data)
      return
    }
    const id = (item as { id?: unknown } | null)?.id
    opts.onInvalid?.({ index, id: typeof id === 'number' ? id : null, error: parsed.error })
  })
  return fixtures
}

// Error bodies (football-data-service.md part 7, upstream-facts §7). The real API sends only
// `{ message, code?, link? }` (e.g. `{"message":"Unauthenticated."}`); the embedded provider adds the
// fields of part 7. So everything but `message` is optional.
const ErrorBase = z.looseObject({
  message: z.string(),
  error: z.string().optional(),
  /** Internal code (5001 include not found, 5005 rate limit, ...), "when available". */
  code: int.optional(),
  link: z.string().optional()
})

export const BadRequestBodySchema = ErrorBase.extend({
  errors: z.record(z.string(), z.array(z.string())).optional()
})
export const UnauthorizedBodySchema = ErrorBase
export const ForbiddenBodySchema = ErrorBase.extend({
  resource: z.string().optional(),
  plan_required: z.string().optional()
})
export const NotFoundBodySchema = ErrorBase.extend({
  resource_type: z.string().optional(),
  resource_id: z.union([z.string(), int]).optional()
})
export const TooManyRequestsBodySchema = ErrorBase.extend({
  retry_after: z.number().optional(),
  rate_limit: RateLimitSchema.partial().optional()
})
export const InternalErrorBodySchema = ErrorBase.extend({
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
