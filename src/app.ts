/**
 * buildApp: the gateway's HTTP surface, the only file that knows every route module. Everything it serves
 * is handed in (store, hub, ledger, upstream client...), so tests build it around real parts of their choice.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify'
import type { Logger } from 'pino'
import type { BudgetLedger } from './budget/index.ts'
import type { Hub } from './fanout/hub.ts'
import { corsRoutes } from './http/cors.ts'
import { docsRoutes } from './http/docs.ts'
import { feedRoutes } from './http/feeds.ts'
import { healthRoutes, type ReadinessCheck } from './http/health.ts'
import { liveRoutes, tokenHook } from './http/websocket.ts'
import { passthroughRoutes } from './http/passthrough.ts'
import { statusRoutes } from './http/status.ts'
import { uiRoutes } from './http/ui.ts'
import { webhookRoutes } from './http/webhooks.ts'
import { pushRoutes } from './http/webpush.ts'
import type { Push } from './webpush/index.ts'
import type { KeyRing } from './client-keys.ts'
import type { Metrics } from './metrics.ts'
import type { Passthrough } from './passthrough/index.ts'
import type { OddsPoller } from './poller/odds.ts'
import type { Poller } from './poller/poller.ts'
import type { PollerView } from './status/poller-view.ts'
import type { LiveStore } from './store/index.ts'
import type { UpstreamClient } from './upstream/index.ts'
import type { Webhooks } from './webhooks/index.ts'
import { internalErrorBody } from './errors.ts'
import { frameworkErrorBody } from '@touchline/upstream-contract/query'

export interface AppDeps {
  log: Logger
  store: LiveStore
  ledger: BudgetLedger
  upstream: UpstreamClient
  keys: KeyRing
  metrics: Metrics
  /** The poller, when this instance runs one (only the leader polls over Redis). */
  poller?: () => Poller | undefined
  /** The odds poller, beside the poller. */
  oddsPoller?: () => OddsPoller | undefined
  /** The pollers as every process reports them on `/v1/status` (the polling one's state, published); else `poller` and `oddsPoller` while they run here. */
  pollerView?: PollerView
  checks?: Record<string, ReadinessCheck>
  /** True while the gateway drains before its shutdown: `/readyz` answers 503 `draining`. */
  draining?: () => boolean
  /** The REST passthrough (`GET /v3/...`, docs/passthrough.md); absent in tests that build the app without it. */
  passthrough?: Passthrough
  /** Base of the links the passthrough returns (TOUCHLINE_PUBLIC_URL, else the listener's URL); required with `passthrough`. */
  publicUrl?: () => string
  /** The push hub (`/v1/live`, `/v1/changes`, `/v1/sse`, `/v1/fixtures/live`, docs/protocol.md), started by the caller. */
  hub?: Hub
  /**
   * TOUCHLINE_TRUST_PROXY, as fastify's `trustProxy`: with it, `request.ip` (per-IP limits), `protocol` and
   * `host` come from `X-Forwarded-*` set by those proxies; without it the headers are ignored, so a client
   * cannot pick its own address. @default false
   */
  trustProxy?: boolean | number | string[]
  /** Webhook delivery (`/v1/webhooks`); absent in tests that build the app without it. */
  webhooks?: Webhooks
  /** Web Push alerts (`/v1/push/*`); undefined when not configured (the routes answer 404). */
  push?: Push
  /** League ids the scoreboard lists first (TOUCHLINE_LEAGUE_PRIORITY). */
  leaguePriority?: readonly number[]
  /** What `/metrics` answers instead of this process's registry: a worker's, the aggregate of every worker (src/cluster.ts). */
  metricsText?: () => Promise<string>
}

/**
 * fastify's `trustProxy` for the setting. A hop count is given as a function trusting the `n` nearest hops
 * (the Express meaning): fastify 5 ignores a bare number (it trusts no hop then), which would silently
 * leave per-IP limits on the proxy's address.
 */
function trustProxyOption (setting: boolean | number | string[] | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting
  return setting ?? false
}

export async function buildApp (deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    // Per-request lines would drown the interesting ones at this traffic; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // Clients may send `;`, `,` and `:` unencoded in include/filters; keep long param values working.
    routerOptions: { maxParamLength: 2000 },
    bodyLimit: 64 * 1024,
    trustProxy: trustProxyOption(deps.trustProxy),
    frameworkErrors: (_err, _req, reply) => { (reply as unknown as FastifyReply).code(400).send(frameworkErrorBody()) }
  }) as unknown as FastifyInstance

  // Requests that were in flight when the close began are answered with `Connection: close`: fastify only
  // closes the connections idle at that moment, and a keep-alive one freed later would hold the close open.
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status >= 500) {
      const body = internalErrorBody()
      req.log.error({ err, errorId: body.error_id }, 'request failed')
      return reply.code(500).send(body)
    }
    return reply.code(status).send({ error: 'Bad Request', message: err.message })
  })

  // Signed connection tokens (docs/tokens.md) are verified before anything reads a request's key.
  app.addHook('onRequest', tokenHook(deps.keys, deps.metrics))

  // Before the routes it covers: per-key CORS for /v1/fixtures/live, /v1/changes, /v1/sse (fastify-plugin, root scope).
  await app.register(corsRoutes({ keys: deps.keys }))
  await app.register(healthRoutes({
    metrics: deps.metrics,
    ...(deps.metricsText !== undefined ? { metricsText: deps.metricsText } : {}),
    checks: deps.checks ?? {
      store: async () => { await deps.store.head(); return true }
    },
    ...(deps.draining !== undefined ? { draining: deps.draining } : {})
  }))
  if (deps.hub !== undefined) {
    await app.register(liveRoutes({ hub: deps.hub, keys: deps.keys, metrics: deps.metrics, log: deps.log }))
    await app.register(feedRoutes({ store: deps.store, hub: deps.hub, keys: deps.keys, metrics: deps.metrics }))
  }
  if (deps.passthrough !== undefined) {
    const publicUrl = deps.publicUrl ?? (() => { throw new Error('buildApp: a passthrough needs publicUrl') })
    await app.register(passthroughRoutes({ passthrough: deps.passthrough, publicUrl }))
  }
  if (deps.webhooks !== undefined) await app.register(webhookRoutes({ webhooks: deps.webhooks, keys: deps.keys }))
  await app.register(pushRoutes({ push: deps.push, keys: deps.keys, store: deps.store }))
  await app.register(statusRoutes({ ledger: deps.ledger, metrics: deps.metrics, poller: deps.poller ?? (() => undefined), oddsPoller: deps.oddsPoller, pollerView: deps.pollerView, store: deps.store, webhooks: deps.webhooks, push: deps.push }))
  await app.register(docsRoutes())
  // The scoreboard (/), the status page (/status) and the embeddable widget (/widget.js).
  await app.register(uiRoutes({ leaguePriority: deps.leaguePriority, push: deps.push !== undefined }))
  return app
}
