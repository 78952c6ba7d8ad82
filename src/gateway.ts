/**
 * startGateway: everything `touchline serve` runs, assembled from the settings. With no upstream URL it
 * starts the embedded provider first and points the upstream client at it; with a Redis URL the store,
 * the budget ledger and leadership live in Redis, so several instances can share the work (docs/architecture.md, "Scale-out").
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { buildApp } from './app.ts'
import { createHub, type Hub, type KeysApplied } from './fanout/hub.ts'
import type { HubLimits } from './fanout/limits.ts'
import type { BudgetLedger } from './budget/index.ts'
import { ConfigError, type Config } from './config.ts'
import { createKeyRing, demoKeys, loadKeysFile, type KeyRing } from './client-keys.ts'
import { checkLabels, renarrow, verifyToken } from './tokens.ts'
import { createEngines, REDIS_COMMAND_TIMEOUT_MS, type Engines } from './engines.ts'
import { FEED_LEAD_MS } from '@touchline/upstream-contract/livescores'
import { createMetrics, type Metrics } from './metrics.ts'
import { createLiveMirror, createPassthrough, type LiveMirror, type PassthroughOptions } from './passthrough/index.ts'
import { startLeadership, type Leader } from './store/leadership.ts'
import { createOddsPoller, type OddsPoller } from './poller/odds.ts'
import { createStandingsPoller, type StandingsPoller } from './poller/standings.ts'
import { createPoller, type Poller } from './poller/poller.ts'
import { createRecorder } from './record/recorder.ts'
import { createDetectionWindow } from './status/detection.ts'
import { createPollerView } from './status/poller-view.ts'
import { DEMO_TOKENS, startProvider, type RunningProvider } from '@touchline/provider'
import type { Lease, LiveStore } from './store/index.ts'
import { createUpstreamClient, type UpstreamClient } from './upstream/index.ts'
import { probeUpstream } from './upstream/probe.ts'
import { createWebhooks, webhookSettings, type Webhooks } from './webhooks/index.ts'
import { createPush, pushSettings, type Push } from './webpush/index.ts'

export interface Gateway {
  app: FastifyInstance
  /** The gateway's own base URL, e.g. http://127.0.0.1:8080 */
  url: string
  provider?: RunningProvider
  store: LiveStore
  ledger: BudgetLedger
  upstream: UpstreamClient
  keys: KeyRing
  metrics: Metrics
  poller: Poller
  /** The live tables' poller, beside the poller on the same leadership. */
  standings: StandingsPoller
  hub: Hub
  webhooks: Webhooks
  /** Web Push alerts; undefined without VAPID keys. */
  push: Push | undefined
  isLeader: () => boolean
  /**
   * Re-reads TOUCHLINE_KEYS_FILE (on SIGHUP): new and changed keys apply to new requests at once and to open
   * connections (removed key or origin 4001, narrowed leagues dropped, over `max_connections` 4029; see
   * fanout/rescope.ts). Throws KeysFileError and keeps the old keys when the file is invalid. Resolves to
   * the names of the removed keys and what was done to open connections.
   */
  reloadKeys: () => Promise<KeysReloaded>
  close: () => Promise<void>
}

type KeysReloaded = KeysApplied & { removed: string[] }

export interface GatewayOverrides {
  /** Options for the embedded provider (tests: speed, faults, clock...). */
  provider?: Parameters<typeof startProvider>[0]
  /** Skip the poller (tests that drive the store by hand). */
  poll?: boolean
  /** The hub's limits (tests: a short wait for a first-frame `auth`). */
  hubLimits?: Partial<HubLimits>
  /** Leadership lease timing, ms. */
  leaseTtlMs?: number
  /** REST passthrough options (tests: a movable clock for quota windows and cache expiry, TTLs, timeouts). */
  passthrough?: PassthroughOptions
  /** Length of the event log (tests: a short log that a stopped webhook receiver falls behind). */
  storeMaxLength?: number
  /** What `/metrics` answers instead of this gateway's registry (a worker of `--workers`: every worker's, aggregated). */
  metricsText?: () => Promise<string>
  /**
   * Asks the upstream once before listening (upstream/probe.ts): a token it refuses or a URL whose paths do
   * not exist stops the start (ConfigError), an upstream that does not answer is one warning. `touchline
   * serve` does (once for all its workers: src/cluster.ts); a gateway built in a test does not unless asked,
   * so that its upstream sees only the calls the test expects.
   * @default false
   */
  probeUpstream?: boolean
  /**
   * The clock of the budget: the ledger, what the upstream clients record in it, the passthrough's
   * reservations (tests: an hour of budget on a clock they move, the pollers stepped on it by hand).
   * @default Date.now
   */
  budgetNow?: () => number
}

/** The lease of the one instance that polls. */
const POLLER_LEASE = 'poller'

/** How long passthrough calls in flight at shutdown may still wait on the upstream, from the signal. */
const PASSTHROUGH_DRAIN_MS = 5000
/**
 * How long Redis has to answer a PING when a shutdown starts before it is taken for unresponsive and let go:
 * it answers in a millisecond when healthy, even loaded; the steps after would each wait 2 s on it.
 */
const SHUTDOWN_REDIS_PING_MS = 500

/** Things to undo on shutdown, in reverse order of creation. */
class Scope {
  readonly #steps: Array<() => Promise<unknown>> = []
  constructor (private readonly log: Logger) {}
  defer (step: () => Promise<unknown>): void { this.#steps.push(step) }
  async close (): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) await step().catch((err: unknown) => this.log.warn({ err }, 'cleanup step failed'))
  }
}

export async function startGateway (cfg: Config, log: Logger, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const scope = new Scope(log)
  try {
    return await assemble(cfg, log, overrides, scope)
  } catch (err) {
    await scope.close()
    throw err
  }
}

/** The upstream: the configured one, or the embedded provider started here. */
async function upstreamOf (cfg: Config, log: Logger, overrides: GatewayOverrides, scope: Scope): Promise<{ baseUrl: string, token: string, provider?: RunningProvider }> {
  const token = cfg.TOUCHLINE_UPSTREAM_TOKEN ?? DEMO_TOKENS.enterprise
  if (cfg.TOUCHLINE_UPSTREAM_URL !== undefined) return { baseUrl: cfg.TOUCHLINE_UPSTREAM_URL, token }
  const provider = await startEmbeddedProvider(cfg, log, overrides.provider)
  scope.defer(async () => { await provider.close() })
  return { baseUrl: provider.baseUrl, token, provider }
}

/**
 * The embedded provider as `touchline serve` runs it (TOUCHLINE_UPSTREAM_URL unset): in this process, or once
 * in the primary of `--workers` with every worker pointed at it (src/cluster.ts). A port it cannot listen on is
 * a ConfigError naming TOUCHLINE_PROVIDER_PORT.
 */
export async function startEmbeddedProvider (cfg: Config, log: Logger, options: GatewayOverrides['provider'] = {}): Promise<RunningProvider> {
  return await startProvider({
    port: cfg.TOUCHLINE_PROVIDER_PORT,
    // Where the gateway listens: in a container (compose) the published port must reach it too.
    host: cfg.TOUCHLINE_HOST,
    seed: cfg.TOUCHLINE_SEED,
    simSpeed: cfg.TOUCHLINE_SIM_SPEED,
    logger: log.child({ component: 'provider' }, { level: 'warn' }),
    ...options
  }).catch((err: unknown) => { throw listenError(err, cfg.TOUCHLINE_HOST, 'TOUCHLINE_PROVIDER_PORT', cfg.TOUCHLINE_PROVIDER_PORT) })
}

/** Listens on TOUCHLINE_HOST and TOUCHLINE_PORT; resolves to the port (the one chosen, for port 0). */
async function listen (app: FastifyInstance, cfg: Config): Promise<number> {
  try {
    await app.listen({ host: cfg.TOUCHLINE_HOST, port: cfg.TOUCHLINE_PORT })
  } catch (err) {
    throw listenError(err, cfg.TOUCHLINE_HOST, 'TOUCHLINE_PORT', cfg.TOUCHLINE_PORT)
  }
  const address = app.server.address()
  return typeof address === 'object' && address !== null ? address.port : cfg.TOUCHLINE_PORT
}

/**
 * A failed listen that a setting explains, as the error naming it: an address that does not resolve or is
 * not this machine's (TOUCHLINE_HOST), a port taken or not allowed (`portVar`). Any other error as it was.
 */
function listenError (err: unknown, host: string, portVar: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code === 'EADDRINUSE' || code === 'EACCES') return new ConfigError(`${portVar}: cannot listen on port ${port} (${code})`, [portVar])
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL') return new ConfigError(`TOUCHLINE_HOST: cannot listen on ${host} (${code})`, ['TOUCHLINE_HOST'])
  return err
}

/**
 * Poller timing for an upstream whose match clock runs `rate` times real time: the embedded provider's at
 * its simulator speed, another at TOUCHLINE_UPSTREAM_CLOCK_RATE (1 for the real API). A fixture enters the
 * feed 15 match minutes before kick-off, and clients run the clock at that rate.
 */
function clockTiming (rate: number): { feedLeadMs: number, clockRate: number } {
  return { feedLeadMs: Math.floor(FEED_LEAD_MS / rate), clockRate: rate }
}

/**
 * Polls alone without Redis; over Redis only while holding the leadership lease (store/leadership.ts). The
 * odds poller runs beside the livescore poller, on the same lease.
 */
function startPolling (poller: Poller, beside: ReadonlyArray<OddsPoller | StandingsPoller>, lease: Lease | undefined, holderId: string, log: Logger, overrides: GatewayOverrides): Leader | undefined {
  if (overrides.poll === false) return undefined
  if (lease === undefined) {
    poller.start()
    for (const p of beside) p.start()
    return undefined
  }
  const ttlMs = overrides.leaseTtlMs ?? 10_000
  return startLeadership({
    lease,
    name: POLLER_LEASE,
    holderId,
    ttlMs,
    // Stop early enough that a store write the poller has in flight fails (command timeout) before the lease
    // can pass to another instance; at most half the ttl, so short test leases still renew in time.
    marginMs: Math.min(REDIS_COMMAND_TIMEOUT_MS + 500, Math.floor(ttlMs / 2)),
    log: log.child({ component: 'leader' }),
    onElected: () => { poller.start(); for (const p of beside) p.start() },
    onDeposed: async () => { await Promise.all([poller.stop(), ...beside.map(async (p) => { await p.stop() })]) },
    // The lease went with Redis's data, the live log with it: fill the new log now, not at the next interval
    // (the tables too: the standings poller forgets the versions it wrote).
    onRetaken: () => {
      poller.forceReconcile({ days: true })
      for (const p of beside) if ('forget' in p) p.forget()
    }
  })
}

/** What the parts of one gateway are built from. */
interface Assembly {
  cfg: Config
  log: Logger
  overrides: GatewayOverrides
  scope: Scope
  keys: KeyRing
  metrics: Metrics
  engines: Engines
  baseUrl: string
  token: string
  provider: RunningProvider | undefined
}

async function assemble (cfg: Config, log: Logger, overrides: GatewayOverrides, scope: Scope): Promise<Gateway> {
  const keys = createKeyRing(cfg.TOUCHLINE_KEYS_FILE === undefined ? demoKeys() : loadKeysFile(cfg.TOUCHLINE_KEYS_FILE))
  const ledgerRef: { current?: BudgetLedger } = {}
  const pushRef: { current?: Push } = {}
  const metrics = createMetrics({ budget: async () => await ledgerRef.current?.all() ?? [], push: async () => await pushRef.current?.summary() })
  // Redis first: an unreachable one stops the start (ConfigError) before the embedded provider takes its time.
  const engines = await createEngines(cfg, log, {
    defer: (step) => scope.defer(step),
    ...(overrides.storeMaxLength === undefined ? {} : { storeMaxLength: overrides.storeMaxLength }),
    ...(overrides.budgetNow === undefined ? {} : { ledgerNow: overrides.budgetNow })
  })
  const { baseUrl, token, provider } = await upstreamOf(cfg, log, overrides, scope)
  ledgerRef.current = engines.ledger
  const a: Assembly = { cfg, log, overrides, scope, keys, metrics, engines, baseUrl, token, provider }
  // Two clients, each with its own connection pool: the poller's calls never queue behind passthrough
  // requests, which clients choose (eight to an upstream path that hangs would hold every socket of one pool).
  const upstream = upstreamClient(a, 'poller')
  if (overrides.probeUpstream === true) await checkUpstream(a, upstream)
  const passthroughUpstream = upstreamClient(a, 'passthrough')
  // The passthrough answers livescores from the poller's own last payloads (src/passthrough/mirror.ts).
  const live = createLiveMirror(overrides.passthrough?.now !== undefined ? { now: overrides.passthrough.now } : {})
  const { poller, odds, standings, leader, stopPolling } = startPoller(a, live, upstream)
  // What /v1/status says of the pollers, the same on every process: the one that polls publishes, the rest read.
  // The detection latency with them: measured where the poller runs.
  const detection = createDetectionWindow({ metrics })
  const pollerView = createPollerView({ board: engines.board, poller: () => poller, odds: () => odds, detection, log: log.child({ component: 'status' }) })
  pollerView.start()
  scope.defer(async () => { await pollerView.stop() })

  const passthrough = createPassthrough({
    upstream: passthroughUpstream,
    ledger: engines.ledger,
    keys,
    metrics,
    live,
    cache: engines.cache,
    quota: engines.quota,
    log: log.child({ component: 'passthrough' }),
    secrets: [token],
    upstreamOrigin: new URL(baseUrl).origin
  }, { ...(overrides.budgetNow === undefined ? {} : { ledgerNow: overrides.budgetNow }), ...overrides.passthrough })
  // A lost log (a failover included) may have taken the last stored states with it, the days' fixtures and the
  // leagues' tables too: reconcile now, not at the next interval, read the days and the tables again (a no-op
  // on an instance that does not poll).
  const hub = createHub({
    store: engines.store,
    metrics,
    log: log.child({ component: 'hub' }),
    authenticate: async (token) => {
      try {
        const grant = await verifyToken(token, keys)
        metrics.tokenChecks.inc(checkLabels(grant))
        return grant
      } catch (err) {
        metrics.tokenChecks.inc(checkLabels(err))
        throw err
      }
    },
    ...(overrides.hubLimits === undefined ? {} : { limits: overrides.hubLimits }),
    onLogLost: () => {
      poller.forceReconcile({ days: true })
      standings.forget()
    }
  })
  await hub.start()
  scope.defer(async () => { await hub.close() })

  // Started once the listener's port is known: a webhook URL that reaches the gateway itself is refused.
  const webhooks = createWebhooks({
    store: engines.store,
    keys,
    metrics,
    log: log.child({ component: 'webhooks' }),
    settings: webhookSettings(cfg),
    leaseTtlMs: cfg.TOUCHLINE_WEBHOOK_LEASE_TTL_MS,
    endpoints: engines.endpoints,
    lease: engines.lease
  })
  const push = pushRef.current = createPushAlerts(a)

  // Links name TOUCHLINE_PUBLIC_URL, else the listener's URL once it is known (requests only come after).
  const listening = { url: '', draining: false }
  const app = await buildApp({
    log,
    hub,
    webhooks,
    ...(push !== undefined ? { push } : {}),
    passthrough,
    publicUrl: () => cfg.TOUCHLINE_PUBLIC_URL ?? listening.url,
    store: engines.store,
    ledger: engines.ledger,
    upstream,
    keys,
    metrics,
    ...(cfg.TOUCHLINE_TRUST_PROXY !== undefined ? { trustProxy: cfg.TOUCHLINE_TRUST_PROXY } : {}),
    leaguePriority: cfg.TOUCHLINE_LEAGUE_PRIORITY,
    ...(overrides.metricsText !== undefined ? { metricsText: overrides.metricsText } : {}),
    poller: () => poller,
    oddsPoller: () => odds,
    pollerView,
    draining: () => listening.draining,
    checks: {
      store: async () => { await engines.store.head(); return true },
      // A follower does not call the upstream; the leader is ready while its polls succeed.
      upstream: async () => !poller.status().running || poller.status().consecutiveFailures < 3
    }
  })
  scope.defer(async () => { await app.close() })
  // Shutdown runs last-in first-out: polling stops first, then sockets close with 1001, then the rest.
  scope.defer(stopPolling)
  const port = await listen(app, cfg)
  listening.url = `http://${cfg.TOUCHLINE_HOST === '0.0.0.0' || cfg.TOUCHLINE_HOST === '::' ? '127.0.0.1' : cfg.TOUCHLINE_HOST}:${port}`
  await webhooks.start({ host: cfg.TOUCHLINE_HOST, port, publicUrl: cfg.TOUCHLINE_PUBLIC_URL })
  // Before the app closes: deliveries in flight end (their leases are released) while Redis is still up.
  scope.defer(async () => { await webhooks.close() })
  if (push !== undefined) {
    await push.start()
    scope.defer(async () => { await push.close() })
  }
  // The first steps of a shutdown. Passthrough calls still waiting on the upstream get a few seconds from
  // the signal to be answered, then are cut (their clients get the 504), so an upstream that hangs cannot
  // hold the shutdown past its 10 s deadline. And a Redis that does not answer is let go of at once, so no
  // step waits on it (engines.ts dropIfUnresponsive).
  scope.defer(async () => { await engines.dropIfUnresponsive(SHUTDOWN_REDIS_PING_MS) })
  scope.defer(async () => { setTimeout(() => { passthroughUpstream.close().catch(() => {}) }, PASSTHROUGH_DRAIN_MS).unref() })
  // The very first step: the drain (TOUCHLINE_DRAIN_DELAY_MS). /readyz fails at once and everything else
  // goes on serving, so a load balancer's health checks take this instance out of rotation before the
  // steps above close its listener and its sockets (1001), and its clients reconnect to the others.
  scope.defer(async () => { await drain(listening, cfg.TOUCHLINE_DRAIN_DELAY_MS, log) })

  return {
    app,
    url: listening.url,
    ...(provider !== undefined ? { provider } : {}),
    store: engines.store,
    ledger: engines.ledger,
    upstream,
    keys,
    metrics,
    poller,
    standings,
    hub,
    webhooks,
    push,
    isLeader: () => leader?.isLeader() ?? overrides.poll !== false,
    reloadKeys: async () => await reloadKeys(cfg, keys, webhooks, hub),
    close: async () => { await scope.close() }
  }
}

/** Web Push alerts when VAPID keys are set (docs/push.md), closed at shutdown before Redis goes. */
function createPushAlerts (a: Assembly): Push | undefined {
  const settings = pushSettings(a.cfg)
  if (settings === undefined) return undefined
  const push = createPush({
    settings,
    subscriptions: a.engines.subscriptions,
    ledger: a.engines.alerts,
    store: a.engines.store,
    keys: a.keys,
    metrics: a.metrics,
    log: a.log.child({ component: 'push' }),
    lease: a.engines.lease
  })
  a.scope.defer(async () => { await push.close() })
  return push
}

/** Marks the gateway draining (/readyz 503) and waits `delayMs` before the shutdown goes on. */
async function drain (state: { draining: boolean }, delayMs: number, log: Logger): Promise<void> {
  state.draining = true
  if (delayMs <= 0) return
  log.info({ delayMs }, 'draining: /readyz answers 503 until the sockets close')
  await new Promise((resolve) => setTimeout(resolve, delayMs))
}

/**
 * The start-up check of the upstream (upstream/probe.ts), before anything polls or listens: a setting the
 * upstream refuses stops the start, naming it; no answer is one warning naming TOUCHLINE_UPSTREAM_URL and
 * the host, and the start goes on (the poller retries, the store serves what it holds).
 */
async function checkUpstream (a: Assembly, upstream: UpstreamClient): Promise<void> {
  const result = await probeUpstream({ upstream, ledger: a.engines.ledger, baseUrl: a.baseUrl })
  if (result.outcome === 'refused') throw new ConfigError(`${result.variable}: ${result.message}`, [result.variable])
  if (result.outcome === 'unreachable') {
    a.log.warn({ setting: 'TOUCHLINE_UPSTREAM_URL', host: result.host, code: result.code }, 'the upstream does not answer; starting anyway, polling until it does')
  } else if (result.outcome === 'skipped') {
    a.log.info({ reason: result.reason }, 'the upstream was not checked at start')
  }
}

/** One upstream client with its own connection pool, closed at shutdown. */
function upstreamClient (a: Assembly, user: 'poller' | 'passthrough'): UpstreamClient {
  const client = createUpstreamClient({
    baseUrl: a.baseUrl,
    token: a.token,
    ledger: a.engines.ledger,
    ...(a.overrides.budgetNow === undefined ? {} : { now: a.overrides.budgetNow }),
    logger: a.log.child({ component: 'upstream', client: user }),
    onCall: (c) => a.metrics.upstreamCalls.inc({ entity: c.entity ?? 'unknown', status: String(c.status), source: 'gateway' })
  })
  a.scope.defer(async () => { await client.close() })
  return client
}

/**
 * The poller and the odds poller, started alone without Redis or under the poller lease over Redis; the
 * poller's upstream is observed by the passthrough's live mirror. Their stop is deferred at once, so that a
 * failure further on still stops the loops.
 */
function startPoller (a: Assembly, live: LiveMirror, upstream: UpstreamClient): { poller: Poller, odds: OddsPoller, standings: StandingsPoller, leader: Leader | undefined, stopPolling: () => Promise<void> } {
  const { cfg, log, overrides, scope, provider, engines } = a
  // TOUCHLINE_RECORD_DIR: the poller's responses saved for `touchline provider --replay` (src/record). Closed after polling stops.
  const recorder = cfg.TOUCHLINE_RECORD_DIR === undefined ? undefined : createRecorder({ dir: cfg.TOUCHLINE_RECORD_DIR, log: log.child({ component: 'recorder' }), secrets: [a.token] })
  if (recorder !== undefined) scope.defer(async () => { await recorder.close() })
  // Over Redis the poller writes only while this instance holds the poller lease (a stalled ex-leader's
  // writes are refused by the store: ApplyFence).
  const pollerHolder = randomUUID()
  const fence = engines.lease !== undefined && overrides.poll !== false ? { fence: { lease: POLLER_LEASE, holder: pollerHolder } } : {}
  const poller = createPoller({
    upstream: live.observe(recorder?.wrap(upstream) ?? upstream),
    ledger: engines.ledger,
    store: engines.store,
    metrics: a.metrics,
    log: log.child({ component: 'poller' }),
    ...fence,
    ...(provider !== undefined ? { changedAt: provider.changedAt } : {})
  }, {
    reserve: cfg.TOUCHLINE_POLL_RESERVE,
    floorMs: cfg.TOUCHLINE_POLL_FLOOR_MS,
    reconcileIntervalMs: cfg.TOUCHLINE_RECONCILE_INTERVAL_MS,
    daysBack: cfg.TOUCHLINE_DAYS_BACK,
    daysAhead: cfg.TOUCHLINE_DAYS_AHEAD,
    ...clockTiming(provider !== undefined ? overrides.provider?.simSpeed ?? cfg.TOUCHLINE_SIM_SPEED : cfg.TOUCHLINE_UPSTREAM_CLOCK_RATE)
  })
  // The odds poller: beside the poller, on its lease and fence, inside the InplayOdd budget.
  const odds = createOddsPoller({ upstream, ledger: engines.ledger, store: engines.store, log: log.child({ component: 'odds-poller' }), ...fence }, {
    reserve: cfg.TOUCHLINE_POLL_RESERVE,
    floorMs: cfg.TOUCHLINE_POLL_FLOOR_MS
  })
  // The standings poller: the live tables of the leagues in play, on the same lease and fence, inside the Standing budget.
  const standings = createStandingsPoller({ upstream, ledger: engines.ledger, store: engines.store, metrics: a.metrics, log: log.child({ component: 'standings-poller' }), ...fence }, {
    reserve: cfg.TOUCHLINE_POLL_RESERVE
  })
  const leader = startPolling(poller, [odds, standings], engines.lease, pollerHolder, log, overrides)
  const stopPolling = async (): Promise<void> => { await (leader?.stop() ?? Promise.all([poller.stop(), odds.stop(), standings.stop()])) }
  scope.defer(stopPolling)
  return { poller, odds, standings, leader, stopPolling }
}

/** Re-reads TOUCHLINE_KEYS_FILE and applies it to webhooks and open connections (Gateway.reloadKeys). */
async function reloadKeys (cfg: Config, keys: KeyRing, webhooks: Webhooks, hub: Hub): Promise<KeysReloaded> {
  if (cfg.TOUCHLINE_KEYS_FILE === undefined) return { removed: [], revoked: 0, narrowed: 0, ended: 0, overLimit: 0 }
  const removed = keys.replace(loadKeysFile(cfg.TOUCHLINE_KEYS_FILE))
  // New, changed and removed webhook endpoints; paused ones resume.
  await webhooks.reload()
  // A connection's record is found again by its key, so a renamed key keeps its connections.
  // A token's connection keeps its token's narrowing (or ends, when the key no longer allows it).
  return { removed, ...await hub.applyKeys((old) => { const fresh = keys.find(old.key); return fresh === undefined ? undefined : renarrow(fresh, old) }) }
}
