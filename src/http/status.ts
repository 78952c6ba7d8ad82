/**
 * `GET /v1/status`: what the status page (`/status`) draws. Budget per upstream entity (with its burn rate),
 * the pollers' state and the detection latency, the store, connections, webhooks and Web Push deliveries,
 * and an hour of 10 s samples (poll interval, detection latency, messages/s, cache hit ratio).
 *
 * No key is required, on purpose: the endpoint shows the same operational numbers as `/metrics` (which is
 * open too) and nothing a client could use against the gateway: no key, token, origin or client address.
 * Deployments that hide `/metrics` from the internet should hide `/v1/status` and `/status` the same way.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { BudgetLedger, LimitSource } from '../budget/index.ts'
import { IN_PLAY_PHASES } from '@touchline/upstream-contract/states'
import type { Metrics } from '../metrics.ts'
import { ODDS_ENTITY, type OddsPoller } from '../poller/odds.ts'
import { LIVESCORES_ENTITY, type Poller } from '../poller/poller.ts'
import { createStatusHistory, type BurnRate, type StatusSample } from '../status/history.ts'
import { localPollerView, processIdentity, type PollerReport, type PollerView } from '../status/poller-view.ts'
import type { LiveStore, StoreEngine, StoreSummary } from '../store/types.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import type { Phase } from '../wire-model/model.ts'
import type { Webhooks, WebhooksSummary } from '../webhooks/index.ts'
import type { Push, PushSummary } from '../webpush/index.ts'

export interface StatusRouteDeps {
  ledger: BudgetLedger
  metrics: Metrics
  /** The poller when this instance runs one (over Redis only the leader polls). */
  poller: () => Poller | undefined
  /** The odds poller, running where the poller runs. */
  oddsPoller?: () => OddsPoller | undefined
  /**
   * The pollers as every process reports them: this one's while it polls, else the polling process's as
   * published (status/poller-view.ts). Without it, `poller` and `oddsPoller` while they run here.
   */
  pollerView?: PollerView | undefined
  store: LiveStore
  /** Sampling period of the history, ms. @default 10_000 */
  sampleIntervalMs?: number
  /** Webhook delivery, when configured: endpoints counted by state (no URL, key or error text: the page is open). */
  webhooks?: Webhooks | undefined
  /** Web Push alerts, when configured: subscriptions, queues, and this instance's sends by outcome. */
  push?: Push | undefined
}

export interface StatusBody {
  now: string
  /** The process that answered: under `--workers` each worker answers for itself (its connections and history). */
  process: { host: string, pid: number, worker: number | null }
  budget: Array<{
    entity: string
    remaining: number
    limit: number | null
    /** Where the limit comes from: TOUCHLINE_UPSTREAM_HOURLY_LIMIT, the upstream's report, or learned. */
    limit_source: LimitSource | null
    resets_at: string
    resets_in_s: number
    expired: boolean
    /** What the pollers' claims keep until the reset. */
    pollers_need: number
    /** Calls reserved in this window by each side. */
    spent: { pollers: number, passthrough: number }
    /** Calls per hour spent over the last minutes (status/history.ts burnRates); null until read twice. */
    burn: { per_hour: number, over_s: number, of_limit: number | null } | null
  }>
  poller: {
    /** The upstream budget entity its calls are counted in. */
    entity: string
    running: boolean
    interval_ms: number
    last_poll_at: string | null
    last_reconcile_at: string | null
    last_error: string | null
    consecutive_failures: number
    tracked: number
    pending_final: number
  } | null
  /** The process that polls, and when its state above was taken; null when none polls. */
  polled_by: { host: string, pid: number, worker: number | null, here: boolean, published_at: string } | null
  odds_poller: { entity: string, running: boolean, enabled: boolean, tracked: number, last_poll_at: string | null, last_error: string | null } | null
  /** p50 and p95 of the changes detected over the last minutes, measured where the poller runs; null when none polls. */
  detection_latency: { p50_s: number | null, p95_s: number | null, changes: number, window_s: number } | null
  connections: { ws: number, sse: number, total: number }
  subscriptions: number
  /**
   * Fixtures in play in the store's live set (phase live, break, suspended or unknown), counted as the
   * scoreboard's Live tab counts them; the same on every process; null while the store cannot be read.
   */
  live_fixtures: number | null
  /** The whole live set by phase (kick-offs to come and results just in too); null while the store cannot be read. */
  live_set: { total: number, by_phase: Partial<Record<Phase, number>> } | null
  /**
   * The store's engine and whether it answers (`down` while Redis cannot be read: `cursor` is then null and
   * `budget` may be empty), and how many records its log holds (null while it cannot be read).
   */
  store: { engine: StoreEngine, status: 'up' | 'down', log_length: number | null, log_max_length: number | null }
  /** The log's head: the cursor of its latest record. */
  cursor: string | null
  messages_per_s: number | null
  cache_hit_ratio: number | null
  history: { interval_s: number, samples: StatusSample[] }
  /** Webhook endpoints by state; null without webhooks or while the store cannot be read. */
  webhooks: WebhooksSummary | null
  /** Web Push alerts; null without VAPID keys or while the store cannot be read. */
  push: (PushSummary & { sent: Record<string, number>, deliveries: PushDeliveries }) | null
}

/** Web Push deliveries in plain words: sent, waiting to be sent again, given up. */
interface PushDeliveries {
  /** Accepted by the push service (2xx), by this instance since it started. */
  sent: number
  /** Waiting to be sent again after a 429, a 5xx or no answer, over every shard (the `queued` alerts). */
  retrying: number
  /** Given up by this instance since it started: refused by the push service, expired, or out of attempts. */
  failed: number
  /** Not sent: the device's subscription is gone (404, 410) and was deleted. */
  gone: number
  /** Not sent: over the hourly cap. */
  capped: number
}

/** Outcomes of touchline_push_sent_total that give an alert up for a device. */
const GIVEN_UP = ['rejected', 'expired', 'exhausted']

const iso = (ms: number | null): string | null => ms === null ? null : new Date(ms).toISOString()

/** Sum of a gauge's values by one label (e.g. connections by transport). */
async function byLabel (gauge: Metrics['connections'], label: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const v of (await gauge.get()).values) {
    const name = String(v.labels[label as keyof typeof v.labels] ?? '')
    out[name] = (out[name] ?? 0) + v.value
  }
  return out
}

/** The push summary with this instance's sends by outcome (touchline_push_sent_total). */
async function pushStatus (push: Push | undefined, metrics: Metrics): Promise<StatusBody['push']> {
  if (push === undefined) return null
  const summary = await push.summary().catch(() => null)
  if (summary === null) return null
  const sent: Record<string, number> = {}
  for (const v of (await metrics.pushSent.get()).values) sent[String(v.labels.outcome)] = v.value
  const n = (outcome: string): number => sent[outcome] ?? 0
  const deliveries = { sent: n('sent'), retrying: summary.queued, failed: GIVEN_UP.reduce((sum, o) => sum + n(o), 0), gone: n('gone'), capped: n('capped') }
  return { ...summary, sent, deliveries }
}

/** The live set as the body says it: in play (as the Live tab counts), the whole, and by phase. */
function liveFields (summary: StoreSummary | null): Pick<StatusBody, 'live_fixtures' | 'live_set'> {
  if (summary === null) return { live_fixtures: null, live_set: null }
  const counts = Object.entries(summary.liveByPhase) as Array<[Phase, number]>
  return {
    live_fixtures: counts.reduce((sum, [phase, n]) => sum + (IN_PLAY_PHASES.has(phase) ? n : 0), 0),
    live_set: { total: counts.reduce((sum, [, n]) => sum + n, 0), by_phase: Object.fromEntries(counts.sort(([a], [b]) => a.localeCompare(b))) }
  }
}

/** A bucket's burn rate as the body says it, beside its hourly limit. */
function burnField (rate: BurnRate | undefined, limit: number | undefined): StatusBody['budget'][number]['burn'] {
  if (rate === undefined) return null
  return { per_hour: rate.perHour, over_s: Math.round(rate.overMs / 1000), of_limit: limit === undefined || limit <= 0 ? null : Math.round(rate.perHour / limit * 1000) / 1000 }
}

/** The poller, its process, the odds poller beside it and the detection latency, as the body says them. */
function pollerFields (r: PollerReport | undefined): Pick<StatusBody, 'poller' | 'polled_by' | 'odds_poller' | 'detection_latency'> {
  if (r === undefined) return { poller: null, polled_by: null, odds_poller: null, detection_latency: null }
  const p = r.poller
  const o = r.odds
  const d = r.detection
  return {
    poller: {
      entity: LIVESCORES_ENTITY,
      running: p.running,
      interval_ms: p.intervalMs,
      last_poll_at: iso(p.lastPollAt),
      last_reconcile_at: iso(p.lastReconcileAt),
      last_error: p.lastError,
      consecutive_failures: p.consecutiveFailures,
      tracked: p.tracked,
      pending_final: p.pendingFinal
    },
    polled_by: { ...r.by, here: r.here, published_at: new Date(r.at).toISOString() },
    odds_poller: o === null ? null : { entity: ODDS_ENTITY, running: o.running, enabled: o.enabled, tracked: o.tracked, last_poll_at: iso(o.lastPollAt), last_error: o.lastError },
    detection_latency: d === null ? null : { p50_s: d.p50, p95_s: d.p95, changes: d.changes, window_s: Math.round(d.windowMs / 1000) }
  }
}

async function single (gauge: Metrics['subscriptions']): Promise<number> {
  return (await gauge.get()).values.reduce((sum, v) => sum + v.value, 0)
}

export function statusRoutes (deps: StatusRouteDeps): FastifyPluginAsync {
  return async (app) => {
    const view = deps.pollerView ?? localPollerView(deps.poller, deps.oddsPoller)
    // The poll interval of the samples is the polling process's, wherever they are taken.
    const pollInterval = (): { status: () => { intervalMs: number } } | undefined => {
      const r = view.current()
      return r === undefined ? undefined : { status: () => r.poller }
    }
    const history = createStatusHistory({ metrics: deps.metrics, poller: pollInterval, budget: async () => await deps.ledger.all(), intervalMs: deps.sampleIntervalMs })
    history.start()
    app.addHook('onClose', async () => { history.stop() })

    app.get('/v1/status', async (_req, reply): Promise<StatusBody> => {
      const now = Date.now()
      // A store outage is what this page must show, not a reason to fail: read it as "down".
      const [buckets, connections, subscriptions, summary, cursor, webhooks, push] = await Promise.all([
        deps.ledger.all().catch(() => []),
        byLabel(deps.metrics.connections, 'transport'),
        single(deps.metrics.subscriptions),
        // From the store, not this process's gauge (set by the poller, so 0 on every process but the one polling).
        deps.store.summary().catch(() => null),
        deps.store.head().catch((err: unknown) => { if (isStoreUnavailable(err)) return null; throw err }),
        deps.webhooks?.summary().catch(() => null) ?? null,
        pushStatus(deps.push, deps.metrics)
      ])
      const latest = history.latest()
      const burn = history.burn()
      // One figure of a store that does not answer: all of its counts unknown, not some from before.
      const read = cursor === null ? null : summary
      reply.header('cache-control', 'no-store')
      return {
        now: new Date(now).toISOString(),
        process: processIdentity(),
        budget: buckets.map((b) => ({
          entity: b.entity,
          remaining: b.remaining,
          limit: b.limit ?? null,
          limit_source: b.limitSource ?? null,
          resets_at: new Date(b.resetsAt).toISOString(),
          resets_in_s: Math.max(0, Math.round((b.resetsAt - now) / 1000)),
          expired: b.expired,
          pollers_need: b.pollersNeed,
          spent: b.spent,
          burn: burnField(burn.get(b.entity), b.limit)
        })),
        ...pollerFields(view.current()),
        connections: { ws: connections.ws ?? 0, sse: connections.sse ?? 0, total: Object.values(connections).reduce((a, b) => a + b, 0) },
        subscriptions,
        ...liveFields(read),
        store: { engine: deps.store.engine, status: cursor === null ? 'down' : 'up', log_length: read?.logLength ?? null, log_max_length: read?.maxLength ?? null },
        cursor,
        messages_per_s: latest?.messages_per_s ?? null,
        cache_hit_ratio: latest?.cache_hit_ratio ?? null,
        history: { interval_s: history.intervalMs / 1000, samples: history.samples() },
        webhooks,
        push
      }
    })
  }
}
