/**
 * `GET /v1/status`: what the status page (`/status`) draws. Budget per upstream entity, the poller's state,
 * connections, and an hour of 10 s samples (poll interval, detection latency, messages/s, cache hit ratio).
 *
 * No key is required, on purpose: the endpoint shows the same operational numbers as `/metrics` (which is
 * open too) and nothing a client could use against the gateway: no key, token, origin or client address.
 * Deployments that hide `/metrics` from the internet should hide `/v1/status` and `/status` the same way.
 */
import cluster from 'node:cluster'
import type { FastifyPluginAsync } from 'fastify'
import type { BudgetLedger, LimitSource } from '../budget/index.ts'
import type { Metrics } from '../metrics.ts'
import type { OddsPoller } from '../poller/odds.ts'
import type { Poller } from '../poller/poller.ts'
import { createStatusHistory, type StatusSample } from '../status/history.ts'
import type { LiveStore } from '../store/types.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import type { Webhooks, WebhooksSummary } from '../webhooks/index.ts'
import type { Push, PushSummary } from '../push/index.ts'

export interface StatusRouteDeps {
  ledger: BudgetLedger
  metrics: Metrics
  /** The poller when this instance runs one (over Redis only the leader polls). */
  poller: () => Poller | undefined
  /** The odds poller, running where the poller runs. */
  oddsPoller?: () => OddsPoller | undefined
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
  /** The process that answered: under `--workers` each worker answers for itself. */
  process: { pid: number, worker: number | null }
  budget: Array<{
    entity: string
    remaining: number
    limit: number | null
    /** Where the limit comes from: TOUCHLINE_UPSTREAM_HOURLY_LIMIT, the upstream's report, or learned. */
    limit_source: LimitSource | null
    resets_at: string
    resets_in_s: number
    expired: boolean
  }>
  poller: {
    running: boolean
    interval_ms: number
    last_poll_at: string | null
    last_reconcile_at: string | null
    last_error: string | null
    consecutive_failures: number
    tracked: number
    pending_final: number
  } | null
  odds_poller: { running: boolean, enabled: boolean, tracked: number, last_error: string | null } | null
  connections: { ws: number, sse: number, total: number }
  subscriptions: number
  live_fixtures: number
  /** `down` while the store (Redis) cannot be read: `cursor` is then null and `budget` may be empty. */
  store: { status: 'up' | 'down' }
  cursor: string | null
  messages_per_s: number | null
  cache_hit_ratio: number | null
  history: { interval_s: number, samples: StatusSample[] }
  /** Webhook endpoints by state; null without webhooks or while the store cannot be read. */
  webhooks: WebhooksSummary | null
  /** Web Push alerts; null without VAPID keys or while the store cannot be read. */
  push: (PushSummary & { sent: Record<string, number> }) | null
}

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
  return { ...summary, sent }
}

async function single (gauge: Metrics['liveFixtures']): Promise<number> {
  return (await gauge.get()).values.reduce((sum, v) => sum + v.value, 0)
}

export function statusRoutes (deps: StatusRouteDeps): FastifyPluginAsync {
  return async (app) => {
    const history = createStatusHistory({ metrics: deps.metrics, poller: deps.poller, intervalMs: deps.sampleIntervalMs })
    history.start()
    app.addHook('onClose', async () => { history.stop() })

    app.get('/v1/status', async (_req, reply): Promise<StatusBody> => {
      const now = Date.now()
      // A store outage is what this page must show, not a reason to fail: read it as "down".
      const [buckets, connections, subscriptions, liveFixtures, cursor, webhooks, push] = await Promise.all([
        deps.ledger.all().catch(() => []),
        byLabel(deps.metrics.connections, 'transport'),
        single(deps.metrics.subscriptions),
        single(deps.metrics.liveFixtures),
        deps.store.head().catch((err: unknown) => { if (isStoreUnavailable(err)) return null; throw err }),
        deps.webhooks?.summary().catch(() => null) ?? null,
        pushStatus(deps.push, deps.metrics)
      ])
      const p = deps.poller()?.status()
      const odds = p?.running === true ? deps.oddsPoller?.()?.status() : undefined
      const latest = history.latest()
      reply.header('cache-control', 'no-store')
      return {
        now: new Date(now).toISOString(),
        process: { pid: process.pid, worker: cluster.worker?.id ?? null },
        budget: buckets.map((b) => ({
          entity: b.entity,
          remaining: b.remaining,
          limit: b.limit ?? null,
          limit_source: b.limitSource ?? null,
          resets_at: new Date(b.resetsAt).toISOString(),
          resets_in_s: Math.max(0, Math.round((b.resetsAt - now) / 1000)),
          expired: b.expired
        })),
        poller: p === undefined
          ? null
          : {
              running: p.running,
              interval_ms: p.intervalMs,
              last_poll_at: iso(p.lastPollAt),
              last_reconcile_at: iso(p.lastReconcileAt),
              last_error: p.lastError,
              consecutive_failures: p.consecutiveFailures,
              tracked: p.tracked,
              pending_final: p.pendingFinal
            },
        odds_poller: odds === undefined ? null : { running: odds.running, enabled: odds.enabled, tracked: odds.tracked, last_error: odds.lastError },
        connections: { ws: connections.ws ?? 0, sse: connections.sse ?? 0, total: Object.values(connections).reduce((a, b) => a + b, 0) },
        subscriptions,
        live_fixtures: liveFixtures,
        store: { status: cursor === null ? 'down' : 'up' },
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
