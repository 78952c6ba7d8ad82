/**
 * Goal alerts by Web Push (docs/push.md). Devices subscribe through `/v1/push/subscriptions` (manage.ts,
 * kept in devices.ts); one sender per shard of subscriptions (worker.ts) reads the event log, turns
 * each change into alerts (alerts.ts) and sends each to the shard's devices that follow it (send.ts).
 *
 * Without Redis every shard's sender runs here. With Redis each shard has a lease, as each webhook endpoint
 * has (leadership over a lease, store/leadership.ts): exactly one instance sends a shard's alerts, and when
 * it dies another takes the lease within its ttl and resumes from the shard's stored cursor. The store's
 * tail wakes the senders when records are appended.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import { startLeadership, type Leader } from '../store/leadership.ts'
import type { Lease, LiveStore, ReadSinceResult } from '../store/index.ts'
import { createSingleFlight } from '../util/singleflight.ts'
import { createEncryptor, defaultThreads, type Encryptor } from './encrypt.ts'
import { createFailureReport } from './failures.ts'
import type { AlertLedger } from './ledger.ts'
import { createLimiter } from './limiter.ts'
import type { ManageOptions } from './manage.ts'
import { createPushAgent } from './send.ts'
import type { DeviceStore } from './devices.ts'
import { ShardSender } from './worker.ts'

export interface PushSettings {
  vapid: { publicKey: string, privateKey: string, subject: string }
  allowLocal: boolean
  maxPerKey: number
  concurrency: number
  /** Worker threads encrypting payloads (encrypt.ts); 0: the event loop. */
  threads: number
  hourlyCap: number
  timeoutMs: number
  leaseTtlMs: number
  /** First retry delay after a 429 or 5xx without Retry-After; doubled per attempt. @default 1000 */
  retryBaseMs?: number
  /** @default 60_000 */
  retryMaxMs?: number
}

export interface PushDeps {
  settings: PushSettings
  subscriptions: DeviceStore
  ledger: AlertLedger
  store: LiveStore
  keys: KeyRing
  metrics: Metrics
  log: Logger
  /** Over Redis, the leases that make one instance send each shard; undefined: every shard sends here. */
  lease: Lease | undefined
}

export interface PushSummary {
  subscriptions: number
  /** Alerts waiting to be sent again (429, 5xx), over every shard. */
  queued: number
  /** Requests in flight or waiting for a slot on this instance. */
  in_flight: number
  shards: number
  /** Shards this instance sends (over Redis, those whose lease it holds). */
  sending_here: number
}

export interface Push {
  readonly publicKey: string
  readonly manage: ManageOptions
  start: () => Promise<void>
  summary: () => Promise<PushSummary>
  close: () => Promise<void>
}

/** The settings from TOUCHLINE_VAPID_* and TOUCHLINE_PUSH_*; undefined without VAPID keys (no push). */
export function pushSettings (cfg: Config): PushSettings | undefined {
  const { TOUCHLINE_VAPID_PUBLIC_KEY: publicKey, TOUCHLINE_VAPID_PRIVATE_KEY: privateKey, TOUCHLINE_VAPID_SUBJECT: subject } = cfg
  if (publicKey === undefined || privateKey === undefined || subject === undefined) return undefined
  return {
    vapid: { publicKey, privateKey, subject },
    allowLocal: cfg.TOUCHLINE_PUSH_ALLOW_LOCAL,
    maxPerKey: cfg.TOUCHLINE_PUSH_MAX_PER_KEY,
    concurrency: cfg.TOUCHLINE_PUSH_CONCURRENCY,
    threads: cfg.TOUCHLINE_PUSH_THREADS ?? defaultThreads(),
    hourlyCap: cfg.TOUCHLINE_PUSH_HOURLY_CAP,
    timeoutMs: cfg.TOUCHLINE_PUSH_TIMEOUT_MS,
    leaseTtlMs: cfg.TOUCHLINE_PUSH_LEASE_TTL_MS
  }
}

interface Shard { sender: ShardSender, leader: Leader | undefined, resting?: NodeJS.Timeout }

/**
 * Over Redis the first instance up would take every shard's lease and keep it. So each instance says it is
 * alive every `leaseTtlMs`, and one that sends more than its share (the shards over the instances alive,
 * rounded up) lets one shard go per beat: it releases the lease and does not ask for it again for
 * REST_MS, time for an instance with fewer to take it (a follower asks every second).
 */
async function balance (shards: Shard[], ledger: AlertLedger, holderId: string, ttlMs: number, relaunch: (s: Shard) => void): Promise<void> {
  const alive = await ledger.heartbeat(holderId, Date.now(), ttlMs * 3)
  const mine = shards.filter((s) => s.sender.running)
  if (mine.length <= Math.ceil(shards.length / alive)) return
  const shard = mine[mine.length - 1] as Shard
  await shard.leader?.stop()
  shard.leader = undefined
  shard.resting = setTimeout(() => { shard.resting = undefined; relaunch(shard) }, REST_MS)
}

/** How long a shard let go of is not asked for again by the instance that let it go. */
const REST_MS = 2500

export function createPush (deps: PushDeps): Push {
  const { settings, lease, log } = deps
  const holderId = randomUUID()
  const dispatcher = createPushAgent(settings.allowLocal, settings.concurrency)
  const limiter = createLimiter(settings.concurrency)
  const failures = createFailureReport({ metrics: deps.metrics, log })
  const shards: Shard[] = []
  // Senders that are caught up wake together on each record and read the log after the same cursor: their
  // concurrent reads are one (eight shards cost one store read, not eight), as the webhook workers' are.
  const reads = createSingleFlight<ReadSinceResult>()
  const store: LiveStore = {
    ...deps.store,
    readSince: async (cursor, opts) => (await reads.run(JSON.stringify([cursor, opts]), async () => await deps.store.readSince(cursor, opts))).value
  }
  let stopTail: (() => Promise<void>) | undefined
  let closing: Promise<void> | undefined
  let balancer: NodeJS.Timeout | undefined
  let balancing: Promise<void> | undefined
  let encryptor: Encryptor | undefined
  const wakeAll = (): void => { for (const s of shards) s.sender.wake() }

  function campaign (sender: ShardSender, l: Lease): Leader {
    return startLeadership({
      lease: l,
      name: deps.ledger.leaseName(sender.shard),
      holderId,
      ttlMs: settings.leaseTtlMs,
      log: log.child({ component: 'push-lease', shard: sender.shard }, { level: 'error' }),
      onElected: () => sender.start(),
      onDeposed: async () => { await sender.stop() }
    })
  }

  function launch (shard: number, encryptor: Encryptor): Shard {
    const sender = new ShardSender({
      store,
      subscriptions: deps.subscriptions,
      ledger: deps.ledger,
      keys: deps.keys,
      metrics: deps.metrics,
      log,
      dispatcher,
      limiter,
      encryptor,
      holderId,
      failures,
      vapid: settings.vapid,
      hourlyCap: settings.hourlyCap,
      timeoutMs: settings.timeoutMs,
      ...(settings.retryBaseMs !== undefined ? { retryBaseMs: settings.retryBaseMs } : {}),
      ...(settings.retryMaxMs !== undefined ? { retryMaxMs: settings.retryMaxMs } : {})
    }, shard)
    if (lease === undefined) {
      sender.start()
      return { sender, leader: undefined }
    }
    return { sender, leader: campaign(sender, lease) }
  }

  return {
    publicKey: settings.vapid.publicKey,
    manage: { store: deps.subscriptions, allowLocal: settings.allowLocal, maxPerKey: settings.maxPerKey },
    async start () {
      encryptor = await createEncryptor(settings.threads, log)
      if (closing !== undefined) {
        await encryptor.close()
        return
      }
      stopTail = await deps.store.subscribe(wakeAll, (err) => log.warn({ err }, 'push: store tail error'), wakeAll)
      for (let s = 0; s < deps.subscriptions.shards; s++) shards.push(launch(s, encryptor))
      if (lease !== undefined) {
        const relaunch = (s: Shard): void => { if (closing === undefined) s.leader = campaign(s.sender, lease) }
        balancer = setInterval(() => {
          balancing ??= balance(shards, deps.ledger, holderId, settings.leaseTtlMs, relaunch)
            .catch((err: unknown) => log.warn({ err }, 'push: shard balance failed'))
            .finally(() => { balancing = undefined })
        }, settings.leaseTtlMs)
      }
    },
    async summary () {
      const [subscriptions, queued] = await Promise.all([deps.subscriptions.count(), deps.ledger.queued(deps.subscriptions.shards)])
      return { subscriptions, queued, in_flight: limiter.pending, shards: deps.subscriptions.shards, sending_here: shards.filter((s) => s.sender.running).length }
    },
    async close () {
      closing ??= (async () => {
        clearInterval(balancer)
        await balancing
        if (lease !== undefined) await deps.ledger.leave(holderId).catch(() => {})
        await stopTail?.()
        await Promise.all(shards.map(async (s) => {
          clearTimeout(s.resting)
          await (s.leader?.stop() ?? s.sender.stop())
        }))
        shards.length = 0
        await dispatcher.close().catch(() => {})
        await encryptor?.close()
      })()
      await closing
    }
  }
}
