/**
 * The bodies of the gateway's own HTTP endpoints (`/v1/...`, `/healthz`, `/readyz`), as zod schemas beside
 * the wire model they carry: the source of the OpenAPI document's response schemas (src/wire-model/asyncapi.ts, openapi.ts).
 * The REST passthrough (`/v3/...`) answers in the upstream's shapes and is not described here.
 */
import { z } from 'zod'
import { ChangeFrameSchema, CursorSchema, FixtureOddsSchema, FormatSchema, LeagueStandingsSchema, LiveFixtureSchema, OddsFrameSchema, StandingsFrameSchema } from './model.ts'

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
  data: z.array(z.union([ChangeFrameSchema, OddsFrameSchema, StandingsFrameSchema])).describe('Change frames, and with odds asked for, odds frames, with standings asked for, standings frames, in log order.'),
  cursor: CursorSchema.describe('The last log entry examined: pass it as `since` for the next page. Moves past changes filtered out by teams or kinds.'),
  recovered: z.boolean().describe('False when `since` was unknown, expired or from another epoch: `data` is empty and `cursor` is the head.'),
  more: z.boolean().describe('Entries exist after `cursor` (a page filtered by teams or kinds may hold fewer than `limit`, or none, while more is true).')
}).meta({ id: 'ChangesPage' })

export const DayFixtures = z.strictObject({
  data: z.array(LiveFixtureSchema).describe('Every fixture of the days as the key may see them, by kick-off: scheduled, live, finished, postponed alike.'),
  cursor: CursorSchema.describe('The log position the answer reflects: subscribe with `dates`, `since` and `snapshot: false` to follow the days from there.'),
  dates: z.array(z.string()).describe('The days answered, in `tz`.'),
  tz: z.string(),
  count: z.number().int().nonnegative()
}).meta({ id: 'DayFixtures' })

export const StandingsAnswer = z.strictObject({
  data: LeagueStandingsSchema
}).meta({ id: 'StandingsAnswer' })

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
  expired: z.boolean(),
  pollers_need: z.number().int().nonnegative().describe('What the pollers\' claims keep of the bucket until the reset (their pace times the time left, plus their lumps): the REST passthrough may spend only what lies above it.'),
  spent: z.strictObject({
    pollers: z.number().int().nonnegative(),
    passthrough: z.number().int().nonnegative()
  }).describe('Calls reserved in this window by the pollers and by the REST passthrough, as this gateway counted them (0 once the window reset).'),
  burn: z.strictObject({
    per_hour: z.number().int().nonnegative().describe('Calls per hour: the calls the pollers and the passthrough reserved over `over_s`, scaled to an hour.'),
    over_s: z.number().int().nonnegative().describe('The stretch of time measured: the last 5 minutes once the answering process has sampled the ledger that long (every 10 s).'),
    of_limit: z.number().nonnegative().nullable().describe('`per_hour` over the hourly `limit` (1 spends the whole limit in an hour); null while the limit is unknown.')
  }).nullable().describe('The rate the bucket is spent at now, deployment-wide (the ledger counts every instance\'s calls); null until the ledger has been sampled twice (10 s after a process starts).')
})

const PollerStatus = z.strictObject({
  entity: z.string().describe('The upstream budget entity its calls are counted in (`Fixture`).'),
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
  entity: z.string().describe('The upstream budget entity its calls are counted in (`InplayOdd`): see its row in `budget`.'),
  running: z.boolean(),
  enabled: z.boolean().describe('False while the upstream plan answers the in-play odds with a 403: asked again every 10 minutes.'),
  tracked: z.number().int().describe('Fixtures whose odds are followed.'),
  last_poll_at: isoOrNull.describe('When `odds/inplay/latest` last answered; null before its first answer (it is not called while no fixture in play is followed).'),
  last_error: z.string().nullable()
})

const DetectionLatency = z.strictObject({
  p50_s: z.number().nullable().describe('Median, seconds; null when no change was detected in the window.'),
  p95_s: z.number().nullable().describe('95th percentile, seconds; null when no change was detected in the window.'),
  changes: z.number().int().nonnegative().describe('Changes whose latency was measured in the window.'),
  window_s: z.number().int().nonnegative().describe('The stretch of time measured: the last 5 minutes once the polling process has run that long.')
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
    host: z.string().describe('The host name of the machine (or container) the process runs on: over Redis it tells instances apart.'),
    pid: z.number().int(),
    worker: z.number().int().nullable().describe('Under `touchline serve --workers`, the id of the worker that answered (1, 2... in the order the primary started them; a worker started again gets the next id); null for a gateway of one process.')
  }).describe('The process that answered: under `--workers` each worker answers for itself (its connections, subscriptions and history), so this tells them apart.'),
  budget: z.array(BudgetRow),
  poller: PollerStatus.nullable().describe('The poller, the same on every process: exactly one polls (over Redis the lease holder), and it publishes its state every second; every other worker or instance reports that state as last published (see `polled_by`). Null when no process polls: none has published in the last 3 s (at start, between a leader\'s death and its successor\'s election, or while the store cannot be read).'),
  polled_by: z.strictObject({
    host: z.string(),
    pid: z.number().int(),
    worker: z.number().int().nullable(),
    here: z.boolean().describe('True on the process that polls (`poller` is its own state, now); false on the others.'),
    published_at: z.iso.datetime({ offset: true }).describe('When the polling process took the state `poller` shows.')
  }).nullable().describe('The process that polls (as `process` names the one that answered); null when none does (`poller` is null).'),
  odds_poller: OddsPollerStatus.nullable().describe('The in-play odds poller beside the poller, on the process that polls, published with it; null when no process polls.'),
  detection_latency: DetectionLatency.nullable().describe('Time from a change at the provider to its append to the event log (touchline_detection_latency_seconds), over the last 5 minutes: quantiles estimated server-side from the histogram\'s buckets, interpolated inside the bucket as Prometheus\' `histogram_quantile` does. Measured on the process that polls and published with `poller`; null when no process polls.'),
  connections: z.strictObject({ ws: z.number().int(), sse: z.number().int(), total: z.number().int() }).describe('This process\'s own connections.'),
  subscriptions: z.number().int().describe('Over this process\'s connections.'),
  live_fixtures: z.number().int().nullable().describe('Fixtures in play in the store\'s live set (phase `live`, `break`, `suspended` or `unknown`), counted as the scoreboard\'s Live tab counts them: the same on every process. Null while the store cannot be read.'),
  live_set: z.strictObject({
    total: z.number().int().nonnegative().describe('Every fixture of the live set: in play, and kick-offs about to come and results just in.'),
    by_phase: z.record(z.string(), z.number().int().nonnegative()).describe('The live set by phase; phases with none are left out.')
  }).nullable().describe('The store\'s live set; null while the store cannot be read.'),
  store: z.strictObject({
    engine: z.enum(['memory', 'redis']).describe('Where the state and the log are kept: this process\'s memory, or Redis (`TOUCHLINE_REDIS_URL`).'),
    status: z.enum(['up', 'down']).describe('`down` while the store (Redis) cannot be read: `cursor` is then null.'),
    log_length: z.number().int().nonnegative().nullable().describe('Records the event log holds now; null while the store cannot be read.'),
    log_max_length: z.number().int().positive().nullable().describe('The most records the log keeps (older ones are trimmed); null while the store cannot be read.')
  }).describe('The store, as it answers now.'),
  cursor: z.string().nullable().describe('The event log\'s head: the cursor of its latest record (`<epoch>:0` while empty); null while the store cannot be read.'),
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
    sent: z.record(z.string(), z.number()).describe('This instance\'s push requests by outcome since it started (touchline_push_sent_total).'),
    deliveries: z.strictObject({
      sent: z.number().int().nonnegative().describe('Accepted by the push service (2xx), by this instance since it started.'),
      retrying: z.number().int().nonnegative().describe('Waiting to be sent again after a 429, a 5xx or no answer, over every shard: `queued`.'),
      failed: z.number().int().nonnegative().describe('Given up by this instance since it started: refused by the push service (`rejected`), its TTL passed (`expired`) or its attempts ran out (`exhausted`).'),
      gone: z.number().int().nonnegative().describe('Not sent: the device\'s subscription was gone (404, 410) and is deleted.'),
      capped: z.number().int().nonnegative().describe('Not sent: over the hourly cap.')
    }).describe('The deliveries in plain words: sent, retrying and failed.')
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
export const Readiness = z.strictObject({ status: z.enum(['ready', 'not_ready', 'draining']), checks: z.record(z.string(), z.boolean()) }).meta({ id: 'Readiness' })
