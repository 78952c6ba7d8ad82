/** Operations endpoints (docs/operations.md): liveness, readiness and Prometheus metrics. */
import type { FastifyPluginAsync } from 'fastify'
import type { Metrics } from '../metrics.ts'

export interface ReadinessCheck {
  /** Resolves to true when the dependency answers. Should be quick; it is bounded by a timeout here. */
  (): Promise<boolean>
}

export interface HealthDeps {
  metrics: Metrics
  checks: Record<string, ReadinessCheck>
  /** The text `/metrics` answers, when not this process's registry (under `--workers`: every worker's, aggregated). */
  metricsText?: () => Promise<string>
}

const CHECK_TIMEOUT_MS = 2000

async function run (check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS) })
  try {
    return await Promise.race([check().catch(() => false), timeout])
  } finally {
    clearTimeout(timer)
  }
}

export function healthRoutes (deps: HealthDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' }))
    app.get('/readyz', async (_req, reply) => {
      const names = Object.keys(deps.checks)
      const results = await Promise.all(names.map(async (n) => [n, await run(deps.checks[n] as ReadinessCheck)] as const))
      const ready = results.every(([, ok]) => ok)
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) })
    })
    const text = deps.metricsText ?? (async () => await deps.metrics.registry.metrics())
    app.get('/metrics', async (_req, reply) => {
      return reply.type(deps.metrics.registry.contentType).send(await text())
    })
  }
}
