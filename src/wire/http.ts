/**
 * The bodies of the gateway's own HTTP endpoints (`/v1/...`, `/healthz`, `/readyz`), as zod schemas beside
 * the wire model they carry: the source of the OpenAPI document's response schemas (src/wire/documents.ts).
 * The REST passthrough (`/v3/...`) answers in the upstream's shapes and is not described here.
 */
import { z } from 'zod'
import { ChangeFrameSchema, CursorSchema, FixtureOddsSchema, FormatSchema, LiveFixtureSchema, OddsFrameSchema } from './model.ts'

/** Codes of the gateway's own HTTP errors (the `/v1` endpoints and the WebSocket upgrade). */
const HTTP_ERROR_CODES = [
  'invalid_request', 'unauthorized', 'forbidden', 'not_found', 'limit_exceeded', 'too_many_connections', 'rate_limited', 'shutting_down', 'unavailable'
] as const
export type HttpErrorCode = typeof HTTP_ERROR_CODES[number]

export const ErrorBody = z.strictObject({
  error: z.string().meta({ examples: ['Bad Request'] }),
  code: z.enum(HTTP_ERROR_CODES),
  message: z.string()
}).meta({ id: 'Error', description: 'Every error of the `/v1` endpoints.' })

const isoOrNull = z.iso.datetime({ offset: true }).nullable()

export const ChangesPage = z.strictObject({
  data: z.array(z.union([ChangeFrameSchema, OddsFrameSchema])).describe('Change frames, and with odds asked for, odds frames, in log order.'),
  cursor: CursorSchema.describe('The last log entry examined: pass it as `since` for the next page. Moves past changes filtered out by teams or kinds.'),
  recovered: z.boolean().describe('False when `since` was unknown, expired or from another epoch: `data` is empty and `cursor` is the head.'),
  more: z.boolean().describe('Entries exist after `cursor` (a page filtered by teams or kinds may hold fewer than `limit`, or none, while more is true).')
}).meta({ id: 'ChangesPage' })

export const LiveFixtures = z.strictObject({
  data: z.array(LiveFixtureSchema),
  odds: z.array(FixtureOddsSchema).optional().describe('With `odds` asked for: the odds image of each listed fixture that has one.')
}).meta({ id: 'LiveFixtures' })

const BudgetRow = z.strictObject({
  entity: z.string(),
  remaining: z.number().int(),
  limit: z.number().int().nullable(),
  limit_source: z.enum(['configured', 'reported', 'learned']).nullable(),
  resets_at: z.iso.datetime({ offset: true }),
  resets_in_s: z.number().int().nonnegative(),
  expired: z.boolean()
})

const PollerStatus = z.strictObject({
  running: z.boolean(),
  interval_ms: z.number(),
  last_poll_at: isoOrNull,
  last_reconcile_at: isoOrNull,
  last_error: z.string().nullable(),
  consecutive_failures: z.number().int(),
  tracked: z.number().int(),
  pending_final: z.number().int()
})

const OddsPollerStatus = z.strictObject({
  running: z.boolean(),
  enabled: z.boolean().describe('False while the upstream plan answers the in-play odds with a 403: asked again every 10 minutes.'),
  tracked: z.number().int().describe('Fixtures whose odds are followed.'),
  last_error: z.string().nullable()
})

const Sample = z.strictObject({
  t: z.number().int(),
  poll_interval_s: z.number().nullable(),
  detection_p50_s: z.number().nullable(),
  messages_per_s: z.number(),
  cache_hit_ratio: z.number().nullable()
})

const WebhookState = z.enum(['pending', 'active', 'retrying', 'paused', 'refused']).meta({ id: 'WebhookState' })

export const Status = z.strictObject({
  now: z.iso.datetime({ offset: true }),
  process: z.strictObject({
    pid: z.number().int(),
    worker: z.number().int().nullable().describe('Under `touchline serve --workers`, the id of the worker that answered (1, 2... in the order the primary started them; a worker started again gets the next id); null for a gateway of one process.')
  }).describe('The process that answered: under `--workers` each worker answers for itself (its poller, connections and history), so this tells them apart.'),
  budget: z.array(BudgetRow),
  poller: PollerStatus.nullable().describe('Null when this instance runs no poller (over Redis only the leader polls).'),
  odds_poller: OddsPollerStatus.nullable().describe('The in-play odds poller beside the poller, on the same instance; null when this instance runs none.'),
  connections: z.strictObject({ ws: z.number().int(), sse: z.number().int(), total: z.number().int() }),
  subscriptions: z.number().int(),
  live_fixtures: z.number().int(),
  store: z.strictObject({ status: z.enum(['up', 'down']) }).describe('`down` while the store (Redis) cannot be read: `cursor` is then null.'),
  cursor: z.string().nullable(),
  messages_per_s: z.number().nullable(),
  cache_hit_ratio: z.number().nullable(),
  history: z.strictObject({ interval_s: z.number(), samples: z.array(Sample) }),
  webhooks: z.strictObject({
    endpoints: z.number().int(),
    by_state: z.record(z.string(), z.number().int()),
    delivering_here: z.number().int()
  }).nullable().describe('Webhook endpoints by state; null without webhooks or while the store cannot be read.'),
  push: z.strictObject({
    subscriptions: z.number().int().describe('Push subscriptions stored (every instance).'),
    queued: z.number().int().describe('Alerts waiting to be sent again after a 429 or 5xx (every shard).'),
    in_flight: z.number().int().describe('Push requests in flight or waiting for a slot on this instance.'),
    shards: z.number().int(),
    sending_here: z.number().int().describe('Shards this instance sends (over Redis, those whose lease it holds).'),
    sent: z.record(z.string(), z.number()).describe('This instance\'s push requests by outcome since it started (touchline_push_sent_total).')
  }).nullable().describe('Web Push alerts; null without VAPID keys or while the store cannot be read.')
}).meta({ id: 'Status' })

const Webhook = z.strictObject({
  id: z.string(),
  url: z.string().describe('Scheme, host and path only: never the query, credentials or the secret.'),
  format: FormatSchema,
  state: WebhookState,
  cursor: z.string().nullable().describe('Last acknowledged cursor.'),
  lag: z.number().int().nullable().describe('Log entries after `cursor` (matching or not); null when the cursor is from a lost log.'),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: isoOrNull,
  last_ack_at: isoOrNull,
  failing_since: isoOrNull
}).meta({ id: 'Webhook' })

export const Webhooks = z.strictObject({ data: z.array(Webhook) }).meta({ id: 'Webhooks' })
export const WebhookResumed = z.strictObject({ data: Webhook }).meta({ id: 'WebhookResumed' })
export const Health = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' })
export const Readiness = z.strictObject({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), z.boolean()) }).meta({ id: 'Readiness' })
