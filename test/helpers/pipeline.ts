/**
 * A live pipeline over real parts: the embedded provider on a real port, the undici upstream client, a
 * budget ledger, a store (memory or Redis, unique prefix) and the poller. The provider's clock can be frozen
 * so the test can compare the store with the provider's truth at one instant.
 */
import { pino } from 'pino'
import { Pool, type Dispatcher } from 'undici'
import { createMemoryLedger, createRedisLedger, type BudgetLedger } from '../../src/budget/index.ts'
import { createMetrics, type Metrics } from '../../src/metrics.ts'
import { createPoller, type Poller, type PollerOptions } from '../../src/poller/poller.ts'
import { startProvider, type ProviderOptions, type RunningProvider } from '../../packages/provider/src/index.ts'
import { createStore, type LiveStore } from '../../src/store/index.ts'
import { createUpstreamClient, type UpstreamClient } from '../../src/upstream/index.ts'
import { openTestRedis } from './redis.ts'

export interface Pipeline {
  provider: RunningProvider
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  poller: Poller
  metrics: Metrics
  /** Stops the provider's clock at its current time (matches stop moving). */
  freeze: () => number
  /** Moves the (frozen) provider clock forward. */
  advance: (ms: number) => number
  close: () => Promise<void>
}

export async function startPipeline (engine: 'memory' | 'redis', redisUrl: string, opts: { provider?: ProviderOptions, poller?: PollerOptions, wrapStore?: (s: LiveStore) => LiveStore } = {}): Promise<Pipeline> {
  let frozen: number | undefined
  const now = (): number => frozen ?? Date.now()
  const provider = await startProvider({ port: 0, now, ...opts.provider })
  const log = pino({ level: 'silent' })
  const metrics = createMetrics({ defaults: false })
  const shared = engine === 'redis' ? openTestRedis(redisUrl) : undefined
  const store = shared === undefined ? createStore({ kind: 'memory' }) : createStore({ kind: 'redis', redis: shared.redis, prefix: shared.prefix })
  const ledger = shared === undefined ? createMemoryLedger() : createRedisLedger({ redis: shared.redis, prefix: shared.prefix })
  const upstream = createUpstreamClient({
    baseUrl: provider.baseUrl,
    token: 'demo-enterprise',
    ledger,
    logger: log,
    timeoutMs: 2000,
    retryBaseMs: 50,
    onCall: (c) => metrics.upstreamCalls.inc({ entity: c.entity ?? 'unknown', status: String(c.status), source: 'test' })
  })
  const poller = createPoller({ upstream, ledger, store: opts.wrapStore?.(store) ?? store, log, metrics, changedAt: provider.changedAt }, { floorMs: 100, reconcileIntervalMs: 2000, maxBackoffMs: 1000, ...opts.poller })
  return {
    provider,
    upstream,
    ledger,
    store,
    poller,
    metrics,
    freeze: () => (frozen = Date.now()),
    advance: (ms) => (frozen = (frozen ?? Date.now()) + ms),
    async close () {
      await poller.stop()
      await upstream.close()
      await store.close()
      await ledger.close()
      await provider.close()
      await shared?.close()
    }
  }
}

/** Counter value of a prom-client metric with the given labels (0 when absent). */
export async function counterValue (metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)?.get()
  const match = metric?.values.filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val))
  return (match ?? []).reduce((sum, v) => sum + v.value, 0)
}

/** A ledger that counts the reservations it grants, to check that no upstream call went out unreserved. */
export function countingLedger (inner: BudgetLedger): { ledger: BudgetLedger, granted: () => number } {
  let granted = 0
  const ledger: BudgetLedger = {
    ...inner,
    reserve: async (entity, n, floor) => {
      const ok = await inner.reserve(entity, n, floor)
      if (ok) granted += n ?? 1
      return ok
    }
  }
  return { ledger, granted: () => granted }
}

/**
 * A dispatcher for the upstream client that counts the requests it sends, hedges included. The client's
 * onCall hook does not report a hedge aborted because the call it doubled answered first (hedge.ts), though
 * it went out with its reservation: counted here, every request sent must have been reserved.
 */
export function countingDispatcher (baseUrl: string): { dispatcher: Dispatcher, sent: () => number } {
  let sent = 0
  class Counting extends Pool {
    override dispatch (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      sent++
      return super.dispatch(options, handler)
    }
  }
  return { dispatcher: new Counting(new URL(baseUrl).origin, { connections: 8 }), sent: () => sent }
}
