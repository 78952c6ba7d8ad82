/**
 * Goal alerts by Web Push (docs/push.md). Devices subscribe through `/v1/push/subscriptions` (manage.ts,
 * kept in subscriptions.ts); senders read the event log, turn each change into alerts (alerts.ts) and send
 * each to the devices that follow it (sender.ts).
 */
import type { Config } from '../config.ts'
import type { ManageOptions } from './manage.ts'
import type { SubscriptionStore } from './subscriptions.ts'

export interface PushSettings {
  vapid: { publicKey: string, privateKey: string, subject: string }
  allowLocal: boolean
  maxPerKey: number
  concurrency: number
  hourlyCap: number
  timeoutMs: number
  leaseTtlMs: number
}

export interface PushDeps {
  settings: PushSettings
  subscriptions: SubscriptionStore
}

export interface Push {
  readonly publicKey: string
  readonly manage: ManageOptions
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
    hourlyCap: cfg.TOUCHLINE_PUSH_HOURLY_CAP,
    timeoutMs: cfg.TOUCHLINE_PUSH_TIMEOUT_MS,
    leaseTtlMs: cfg.TOUCHLINE_PUSH_LEASE_TTL_MS
  }
}

export function createPush (deps: PushDeps): Push {
  return {
    publicKey: deps.settings.vapid.publicKey,
    manage: { store: deps.subscriptions, allowLocal: deps.settings.allowLocal, maxPerKey: deps.settings.maxPerKey },
    async close () {}
  }
}
