/**
 * Prometheus metrics (docs/operations.md), on a registry per gateway instance so tests can run several in one process.
 * Modules receive the `Metrics` object and never import prom-client themselves.
 */
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop). @default true */
  defaults?: boolean
  /** Read at each scrape for the budget gauges: the ledger's buckets. */
  budget?: () => Promise<ReadonlyArray<{ entity: string, remaining: number, limit?: number, limitSource?: string }>>
  /** Read at each scrape for the push gauges: subscriptions, alerts queued to be sent again, requests in flight. */
  push?: () => Promise<{ subscriptions: number, queued: number, in_flight: number } | undefined>
}

export function createMetrics (opts: MetricsOptions = {}) {
  const registry = new Registry()
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'touchline_' })
  const r = [registry]
  return {
    registry,
    upstreamCalls: new Counter({ name: 'touchline_upstream_calls_total', help: 'Upstream requests by entity and status', labelNames: ['entity', 'status', 'source'] as const, registers: r }),
    upstreamAnomalies: new Counter({ name: 'touchline_upstream_anomalies_total', help: 'Upstream values that did not fit the documented shape and fell back, once per fixture and field path', labelNames: ['path'] as const, registers: r }),
    budgetRemaining: new Gauge({
      name: 'touchline_budget_remaining',
      help: 'Requests left in the upstream hourly bucket, by entity',
      labelNames: ['entity'] as const,
      registers: r,
      // Under `--workers` every worker reads the same ledger: the aggregate takes the lowest, not the sum.
      aggregator: 'min',
      async collect () {
        for (const b of await opts.budget?.().catch(() => []) ?? []) this.set({ entity: b.entity }, b.remaining)
      }
    }),
    budgetLimit: new Gauge({
      name: 'touchline_budget_limit',
      help: 'Hourly limit of the upstream bucket, by entity and source (configured, reported by the upstream, or learned)',
      labelNames: ['entity', 'source'] as const,
      registers: r,
      aggregator: 'max',
      async collect () {
        // Reset first: a limit that changes source must not leave its old series behind.
        this.reset()
        for (const b of await opts.budget?.().catch(() => []) ?? []) {
          if (b.limit !== undefined) this.set({ entity: b.entity, source: b.limitSource ?? 'reported' }, b.limit)
        }
      }
    }),
    // Set by the worker that polls (the others hold 0, or what they last had as the poller): the highest.
    pollInterval: new Gauge({ name: 'touchline_poll_interval_seconds', help: 'Time from the start of one poll of livescores/latest to the start of the next (the step and the pause after it)', registers: r, aggregator: 'max' }),
    polls: new Counter({ name: 'touchline_polls_total', help: 'Polls by kind (latest, reconcile, refetch, kickoffs: the upcoming kick-off list) and outcome', labelNames: ['kind', 'outcome'] as const, registers: r }),
    detectionLatency: new Histogram({
      name: 'touchline_detection_latency_seconds',
      help: 'Time from a change at the provider to its append to the event log',
      buckets: [0.25, 0.5, 1, 1.5, 2, 3, 5, 8, 13, 21, 34],
      registers: r
    }),
    changes: new Counter({ name: 'touchline_changes_total', help: 'Changes appended to the event log, by kind', labelNames: ['kind'] as const, registers: r }),
    liveFixtures: new Gauge({ name: 'touchline_live_fixtures', help: 'Fixtures currently tracked as live', registers: r, aggregator: 'max' }),
    connections: new Gauge({ name: 'touchline_connections', help: 'Open client connections by transport', labelNames: ['transport'] as const, registers: r }),
    subscriptions: new Gauge({ name: 'touchline_subscriptions', help: 'Active subscriptions (leagues and fixtures) over all connections', registers: r }),
    messagesSent: new Counter({ name: 'touchline_messages_sent_total', help: 'Messages sent to clients by transport and type', labelNames: ['transport', 'type'] as const, registers: r }),
    bytesSent: new Counter({ name: 'touchline_bytes_sent_total', help: 'Bytes sent to clients by transport', labelNames: ['transport'] as const, registers: r }),
    slowConsumerCloses: new Counter({ name: 'touchline_slow_consumer_closes_total', help: 'Connections closed with 4008 for buffering more than 1 MiB', registers: r }),
    replays: new Counter({ name: 'touchline_replays_total', help: 'Resumes from a cursor, by outcome', labelNames: ['recovered'] as const, registers: r }),
    replaysFromMemory: new Counter({ name: 'touchline_replays_from_memory_total', help: 'Resumes answered from the records the hub holds, without a store read', registers: r }),
    cacheRequests: new Counter({ name: 'touchline_cache_requests_total', help: 'Passthrough requests by cache outcome (hit, miss, coalesced, live)', labelNames: ['outcome'] as const, registers: r }),
    webhookDeliveries: new Counter({
      name: 'touchline_webhook_deliveries_total',
      help: 'Webhook delivery attempts by endpoint (client key name/endpoint id) and outcome (acked, http_error, timeout, network_error, refused)',
      labelNames: ['endpoint', 'outcome'] as const,
      registers: r
    }),
    pushSent: new Counter({
      name: 'touchline_push_sent_total',
      help: 'Web Push alerts by outcome: sent (2xx), gone (404/410: subscription deleted), rejected (413, other 4xx, a redirect, a private address: not retried), retry (429, 5xx, no answer: queued), expired (given up: its TTL would end before the next attempt), exhausted (given up: its attempts ran out), capped (dropped by the hourly cap)',
      labelNames: ['outcome'] as const,
      registers: r
    }),
    pushFailures: new Counter({
      name: 'touchline_push_failures_total',
      help: 'Web Push requests that failed (retried or not), by cause: the push service\'s HTTP status (429, 503, 413...), timeout (no answer in time), network (no connection), address (not a public address), keys (the subscription\'s keys unusable); 404/410 count as gone, not here',
      labelNames: ['cause'] as const,
      registers: r
    }),
    pushSubscriptions: new Gauge({
      name: 'touchline_push_subscriptions',
      help: 'Web Push subscriptions stored (every instance)',
      registers: r,
      async collect () {
        const p = await opts.push?.().catch(() => undefined)
        if (p !== undefined) this.set(p.subscriptions)
      }
    }),
    pushQueue: new Gauge({
      name: 'touchline_push_queue_depth',
      help: 'Web Push alerts waiting: to be sent again after a 429 or 5xx (every shard), and in flight or waiting for a slot (this instance)',
      labelNames: ['queue'] as const,
      registers: r,
      async collect () {
        const p = await opts.push?.().catch(() => undefined)
        if (p === undefined) return
        this.set({ queue: 'retry' }, p.queued)
        this.set({ queue: 'in_flight' }, p.in_flight)
      }
    }),
    passthroughRequests: new Counter({ name: 'touchline_passthrough_requests_total', help: 'Passthrough responses by status', labelNames: ['status'] as const, registers: r }),
    tokenChecks: new Counter({
      name: 'touchline_token_checks_total',
      help: 'Signed connection tokens checked, by key (its name; "-" when the token names no key that takes tokens) and outcome (accepted, or the refusal); never by fan',
      labelNames: ['key', 'outcome'] as const,
      registers: r
    })
  }
}

export type Metrics = ReturnType<typeof createMetrics>

/** One process's metrics as data: what a worker of `--workers` sends its primary (src/cluster.ts). */
export type MetricsSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>

export async function snapshotOf (registry: Registry): Promise<MetricsSnapshot> {
  return await registry.getMetricsAsJSON()
}

/**
 * The exposition of several processes' metrics as one (prom-client's cluster aggregation): counters and
 * histograms summed, and so are the connection gauges; each gauge that every worker reads from the same
 * Redis (budget) or that the poller alone sets takes the lowest or highest instead (the `aggregator` above).
 */
export async function aggregateSnapshots (snapshots: MetricsSnapshot[]): Promise<string> {
  return await AggregatorRegistry.aggregate(snapshots).metrics()
}

/** The primary's own metrics under `--workers`: the workers running and how often one was started again. */
export function createPrimaryMetrics () {
  const registry = new Registry()
  const r = [registry]
  return {
    registry,
    workers: new Gauge({ name: 'touchline_workers', help: 'Worker processes serving (under --workers)', registers: r }),
    workerRestarts: new Counter({ name: 'touchline_worker_restarts_total', help: 'Workers started again after one exited (under --workers), by exit', labelNames: ['exit'] as const, registers: r })
  }
}
