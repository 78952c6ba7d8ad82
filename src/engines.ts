/**
 * The one place that picks where the gateway keeps its state: in this process without TOUCHLINE_REDIS_URL,
 * in Redis with it, so that several instances share the live store, the budget, the passthrough's cache
 * and quotas, the webhook cursors and the leases that make one instance poll and one deliver to each
 * endpoint (docs/architecture.md, "Scale-out"). Every other module takes its parts from here.
 */
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { createMemoryLedger, createRedisLedger, type BudgetLedger, type LedgerOptions } from './budget/index.ts'
import { ConfigError, type Config } from './config.ts'
import { createFallbackCache, createFallbackQuota } from './passthrough/fallback.ts'
import { createMemoryCache, createMemoryQuota, createRedisCache, createRedisQuota, type QuotaStore, type ResponseCache } from './passthrough/index.ts'
import { createLease, createStatusBoard, createStore, type Lease, type LiveStore, type StatusBoard } from './store/index.ts'
import { watchFailovers, type FailoverWatch } from './util/redis-failover.ts'
import { parseRedisUrl, redactRedisUrl, redisOptions } from './util/redis-url.ts'
import { createEndpointStore, type EndpointStore } from './webhooks/state.ts'
import { createDeviceStore, type DeviceStore } from './webpush/devices.ts'
import { createAlertLedger, type AlertLedger } from './webpush/ledger.ts'

export interface Engines {
  store: LiveStore
  ledger: BudgetLedger
  /** The passthrough's response cache; over Redis with a local fallback for when it is down. */
  cache: ResponseCache
  /** The passthrough's per-key quotas; over Redis with a local fallback for when it is down. */
  quota: QuotaStore
  /** Each webhook endpoint's cursor and state. */
  endpoints: EndpointStore
  /** Push subscriptions, by shard (TOUCHLINE_PUSH_SHARDS). */
  subscriptions: DeviceStore
  /** What the push senders remember: each device's alerts, each shard's cursor and retry queue. */
  alerts: AlertLedger
  /** Leases over Redis; undefined in memory, where this instance is the only one and leads alone. */
  lease: Lease | undefined
  /** Short-lived notices between instances: the poller's state, published by the one that polls. */
  board: StatusBoard
  /**
   * At the start of a shutdown: when Redis does not answer a PING within `ms` (down, frozen, its link hung),
   * drops the connection, so that every command still waiting on it and every later one fails at once,
   * instead of each step of the shutdown waiting out the command timeout in turn (five of them would be the
   * whole grace). Resolves to whether it was dropped; always false in memory.
   */
  dropIfUnresponsive: (ms: number) => Promise<boolean>
}

export interface EnginesOptions {
  /** Length of the event log (tests: a short log that a stopped webhook receiver falls behind). */
  storeMaxLength?: number
  /** Registers a cleanup step, run in reverse order of registration at shutdown. */
  defer: (step: () => Promise<unknown>) => void
  /** The budget ledger's clock (tests move it). @default Date.now */
  ledgerNow?: () => number
}

/**
 * Longest a Redis command may go unanswered before it fails: a healthy Redis answers in milliseconds, and a
 * frozen link must fail the gateway's calls (503, `unavailable`) rather than hang them. Well under the
 * lease ttl, so a hung renewal is retried before the leader's local deadline. Every connection made from
 * this one (`duplicate()`, the store's tails) inherits it.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 2000

/** Connects to Redis when TOUCHLINE_REDIS_URL is set and builds every part on it; else every part in memory. */
export async function createEngines (cfg: Config, log: Logger, opts: EnginesOptions): Promise<Engines> {
  const redis = await connectRedis(cfg, log, opts.defer)
  const maxLength = opts.storeMaxLength === undefined ? {} : { maxLength: opts.storeMaxLength }
  /** The ledger's limit (the operator's) and clock. */
  const ledger: LedgerOptions = { ...(cfg.TOUCHLINE_UPSTREAM_HOURLY_LIMIT === undefined ? {} : { limit: cfg.TOUCHLINE_UPSTREAM_HOURLY_LIMIT }), ...(opts.ledgerNow === undefined ? {} : { now: opts.ledgerNow }) }
  const engines: Engines = redis === undefined
    ? { ...memoryEngines(maxLength, ledger), subscriptions: createDeviceStore({ kind: 'memory', shards: cfg.TOUCHLINE_PUSH_SHARDS }), alerts: createAlertLedger({ kind: 'memory' }), dropIfUnresponsive: async () => false }
    : { ...redisEngines(redis, cfg.TOUCHLINE_REDIS_PREFIX, log, maxLength, ledger), subscriptions: createDeviceStore({ kind: 'redis', redis, prefix: cfg.TOUCHLINE_REDIS_PREFIX, shards: cfg.TOUCHLINE_PUSH_SHARDS }), alerts: createAlertLedger({ kind: 'redis', redis, prefix: cfg.TOUCHLINE_REDIS_PREFIX }), dropIfUnresponsive: async (ms) => await dropIfUnresponsive(redis, log, ms) }
  opts.defer(async () => { await engines.store.close() })
  opts.defer(async () => { await engines.ledger.close() })
  return engines
}

function memoryEngines (maxLength: { maxLength?: number }, ledger: LedgerOptions): Omit<Engines, 'dropIfUnresponsive' | 'subscriptions' | 'alerts'> {
  return {
    store: createStore({ kind: 'memory', ...maxLength }),
    ledger: createMemoryLedger(ledger),
    cache: createMemoryCache(),
    quota: createMemoryQuota(),
    endpoints: createEndpointStore({ kind: 'memory' }),
    lease: undefined,
    board: createStatusBoard({ kind: 'memory' })
  }
}

function redisEngines (redis: Redis, prefix: string, log: Logger, maxLength: { maxLength?: number }, ledger: LedgerOptions): Omit<Engines, 'dropIfUnresponsive' | 'subscriptions' | 'alerts'> {
  return {
    store: createStore({ kind: 'redis', redis, prefix, ...maxLength }),
    ledger: createRedisLedger({ redis, prefix, ...ledger }),
    // Local fallbacks answer while Redis is down (passthrough/fallback.ts).
    cache: createFallbackCache(createRedisCache({ redis, prefix }), log),
    quota: createFallbackQuota(createRedisQuota({ redis, prefix }), log),
    endpoints: createEndpointStore({ kind: 'redis', redis, prefix }),
    lease: createLease({ kind: 'redis', redis, prefix }),
    board: createStatusBoard({ kind: 'redis', redis, prefix })
  }
}

async function connectRedis (cfg: Config, log: Logger, defer: EnginesOptions['defer']): Promise<Redis | undefined> {
  if (cfg.TOUCHLINE_REDIS_URL === undefined) return undefined
  const { redis, watch } = newRedis(cfg.TOUCHLINE_REDIS_URL, readCa(cfg.TOUCHLINE_REDIS_CA), log)
  // ioredis reconnects by itself; without a listener each failed attempt is printed as an unhandled error.
  // Before the first connection an error is the start's failure, reported once as the ConfigError below
  // (one line naming the setting), not logged with its stack as a lost connection.
  let connected = false
  let lastError: Error | undefined
  let down = false
  redis.on('error', (err: Error) => {
    if (!connected) {
      lastError = err
      return
    }
    if (!down) log.warn({ err }, 'redis connection lost; reconnecting')
    down = true
  })
  redis.on('ready', () => {
    if (down) log.info('redis connection back')
    down = false
  })
  try {
    await connectWithin(redis, REDIS_START_DEADLINE_MS)
    connected = true
  } catch (err) {
    redis.disconnect()
    watch?.close()
    // The socket's own error (ECONNREFUSED...) says more than the rejection's "Connection is closed."
    const reason = startFailure(lastError ?? err as Error, cfg.TOUCHLINE_REDIS_URL)
    const late = err instanceof StartDeadline ? ` within ${REDIS_START_DEADLINE_MS / 1000} s` : ''
    throw new ConfigError(`TOUCHLINE_REDIS_URL: cannot connect to ${redactRedisUrl(cfg.TOUCHLINE_REDIS_URL)}${late} (${reason})`, ['TOUCHLINE_REDIS_URL'])
  }
  defer(async () => { await goodbye(redis) })
  if (watch !== undefined) defer(async () => { watch.close() })
  return redis
}

/**
 * How long the start waits for its first Redis connection. A plain Redis that refuses fails at once, but
 * through Sentinel ioredis asks the sentinels again and again and never gives up: a master name they do not
 * know, or no sentinel answering, would hang the start for good. A Redis that answers does in milliseconds,
 * a Sentinel group in a failover within a few seconds; past this the start stops (exit 2) naming the setting.
 */
const REDIS_START_DEADLINE_MS = 4000

class StartDeadline extends Error {}

/** `redis.connect()`, given up (rejecting with StartDeadline) after `ms`. */
async function connectWithin (redis: Redis, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new StartDeadline()), ms) })
  try {
    await Promise.race([redis.connect(), deadline])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Why the first connection failed, in words: ioredis's Sentinel errors say "All sentinels are unreachable.
 * Retrying from scratch after 10ms. Last error: ..." whether the sentinels did not answer or answered that
 * they know no such master.
 */
function startFailure (err: Error, redisUrl: string): string {
  const last = /^All sentinels are unreachable\..*Last error: (.*)$/s.exec(err.message)?.[1]
  if (last === undefined) return err.message
  const target = parseRedisUrl(redisUrl)
  const sentinels = target.kind === 'sentinel' ? target.sentinels.map((s) => `${s.host}:${s.port}`).join(', ') : ''
  if (/no such master/i.test(last)) return `the sentinels (${sentinels}) monitor no master named "${target.kind === 'sentinel' ? target.name : ''}": ${last}`
  if (/connection is closed/i.test(last)) return `no sentinel answers at ${sentinels}`
  return `no sentinel at ${sentinels} gives the primary: ${last}`
}

/**
 * The command connection, not connected yet: to one Redis, or through Sentinel to the current primary
 * (util/redis-url.ts). Every other connection is a `duplicate()` of it, with the same target and options.
 */
function newRedis (redisUrl: string, ca: string | undefined, log: Logger): { redis: Redis, watch?: FailoverWatch } {
  // No offline queue: while the connection is down, a command fails at once (503, `unavailable`, the
  // passthrough's local fallbacks) instead of waiting out the command timeout in a queue.
  // A closing connection (a tail stopped, the one dropped at shutdown) waits DISCONNECT_WAIT_MS at most for
  // Redis to close its side before the socket is destroyed; commands still pending on it fail only then.
  // ioredis waits 2 s by default, which a frozen Redis always takes, once per connection closed.
  // A write refused with READONLY went to a primary that was demoted to a replica (a failover it missed,
  // or one that came back from a hang): the connection is dropped and made again to the current primary.
  const base = {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    disconnectTimeout: DISCONNECT_WAIT_MS,
    reconnectOnError: (err: Error) => err.message.startsWith('READONLY') ? 1 as const : false
  }
  const target = parseRedisUrl(redisUrl)
  const { url, options } = redisOptions(target, base, ca)
  if (url !== undefined || target.kind !== 'sentinel') return { redis: new Redis(url ?? '', options) }
  const redis = new Redis(options)
  const watch = watchFailovers(target, options.sentinelTLS, (message) => log.warn({ message }, 'redis failover announced by Sentinel: reconnecting to the new primary'))
  watch.track(redis)
  return { redis, watch }
}

/** The PEM file of TOUCHLINE_REDIS_CA, read once at start. */
function readCa (path: string | undefined): string | undefined {
  if (path === undefined) return undefined
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(`TOUCHLINE_REDIS_CA: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, ['TOUCHLINE_REDIS_CA'])
  }
}

/** How long a connection being closed waits for Redis to close its side (a healthy one does at once). */
const DISCONNECT_WAIT_MS = 200
/** How long the last step of a shutdown waits for Redis to acknowledge QUIT before the socket is closed. */
const QUIT_WAIT_MS = 300

/**
 * Ends the connection: QUIT when Redis answers (it then closes the connection after every earlier reply),
 * else closes the socket. A QUIT to a frozen Redis would wait for an answer that never comes.
 */
async function goodbye (redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    const quit = redis.quit().then(() => true, () => false)
    if (await Promise.race([quit, sleep(QUIT_WAIT_MS).then(() => false)])) return
  }
  redis.disconnect()
}

async function dropIfUnresponsive (redis: Redis, log: Logger, ms: number): Promise<boolean> {
  const answered = redis.status === 'ready' && await Promise.race([
    redis.ping().then(() => true, () => false),
    sleep(ms).then(() => false)
  ])
  if (answered) return false
  log.warn({ waitedMs: ms }, 'shutting down: Redis does not answer; its connection is dropped so that nothing waits on it')
  redis.disconnect()
  return true
}
