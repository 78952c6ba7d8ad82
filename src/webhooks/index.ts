/**
 * Webhooks (docs/webhooks.md): every endpoint of every key in the keys file gets a worker (worker.ts)
 * that POSTs its changes in log order and stores its acknowledged cursor (state.ts). Without Redis every
 * worker runs here. With Redis each endpoint has a lease (leadership over a lease, store/leadership.ts, one per
 * endpoint): exactly one instance delivers to it, and when that instance dies another takes the lease
 * within its ttl and resumes from the stored cursor. The store's tail wakes the workers when records are
 * appended; a lost log (new epoch) wakes them too, and their next read answers with a `resync`.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Agent } from 'undici'
import type { Config } from '../config.ts'
import type { ClientKey, KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import { startLeadership, type Leader } from '../store/leadership.ts'
import { createSingleFlight } from '../util/singleflight.ts'
import { parseCursor, type Lease, type LiveStore, type ReadSinceResult } from '../store/index.ts'
import type { WebhookConfig } from '../webhook-settings.ts'
import { createWebhookAgent, type SelfAddress } from './post.ts'
import type { EndpointState, EndpointStatus, EndpointStore, StoredEndpoint } from './state.ts'
import { EndpointWorker, type WebhookSettings } from './worker.ts'

export type { WebhookSettings } from './worker.ts'

export interface WebhooksDeps {
  store: LiveStore
  keys: KeyRing
  metrics: Metrics
  log: Logger
  settings: WebhookSettings
  /** Each endpoint's cursor and state (engines.ts: in memory, or in Redis for every instance). */
  endpoints: EndpointStore
  /** Over Redis, the leases that make one instance deliver to each endpoint; undefined: all deliver here. */
  lease: Lease | undefined
  /** Lease of an endpoint over Redis, ms. @default 10_000 */
  leaseTtlMs?: number
}

/** One endpoint as `GET /v1/webhooks` shows it: never its secret, nor its URL's query or credentials. */
interface EndpointView {
  id: string
  url: string
  format: string
  state: EndpointState
  /** Last acknowledged cursor. */
  cursor: string | null
  /** Log entries appended after `cursor` (matching or not); null when the cursor is from a lost log. */
  lag: number | null
  last_status: number | null
  last_error: string | null
  last_attempt_at: string | null
  last_ack_at: string | null
  failing_since: string | null
}

export interface WebhooksSummary {
  endpoints: number
  by_state: Record<EndpointState, number>
  /** Endpoints this instance delivers to (over Redis, those whose lease it holds). */
  delivering_here: number
}

export interface Webhooks {
  /** Starts delivering; `self` is where the gateway listens (a URL reaching it is refused). */
  start: (self: SelfAddress) => Promise<void>
  /** Applies the keys ring's current records: new, changed and removed endpoints; paused ones resume. */
  reload: () => Promise<void>
  list: (key: ClientKey) => Promise<EndpointView[]>
  /** Resumes a paused endpoint of the key; undefined when the key has no such endpoint. */
  resume: (key: ClientKey, id: string) => Promise<EndpointView | undefined>
  summary: () => Promise<WebhooksSummary>
  close: () => Promise<void>
}

interface Entry {
  fingerprint: string
  worker: EndpointWorker
  leader: Leader | undefined
  /** The endpoint's own connection (post.ts createWebhookAgent). */
  dispatcher: Agent
}

const entryId = (keyName: string, id: string): string => `${keyName}\n${id}`
/** What restarts a worker: its settings or its key's scope. */
const fingerprint = (key: ClientKey, hook: WebhookConfig): string => JSON.stringify([key.leagues, hook])

export function createWebhooks (deps: WebhooksDeps): Webhooks {
  const { endpoints, lease } = deps
  const holderId = randomUUID()
  const log = deps.log
  const entries = new Map<string, Entry>()
  // Workers that are caught up wake together on each record and read the log after the same cursor: with
  // the same filter, their reads are one (100 endpoints of one filter cost one store read, not 100). Only
  // concurrent reads are shared, so each worker still sees the log as of its own call.
  const reads = createSingleFlight<ReadSinceResult>()
  const store: LiveStore = {
    ...deps.store,
    readSince: async (cursor, opts) => (await reads.run(JSON.stringify([cursor, opts]), async () => await deps.store.readSince(cursor, opts))).value
  }
  let self: SelfAddress | undefined
  let stopTail: (() => Promise<void>) | undefined
  let closing: Promise<void> | undefined

  /** `origin`: where the endpoint starts from on this instance (EndpointWorker.known). */
  function launch (key: ClientKey, hook: WebhookConfig, origin: string | undefined): Entry {
    const dispatcher = createWebhookAgent(() => self)
    const worker = new EndpointWorker({ store, endpoints, metrics: deps.metrics, log, dispatcher, holderId, self: self as SelfAddress, settings: deps.settings }, key, hook, origin)
    if (lease === undefined) {
      worker.start()
      return { fingerprint: fingerprint(key, hook), worker, leader: undefined, dispatcher }
    }
    const leader = startLeadership({
      lease,
      name: endpoints.leaseName(key.name, hook.id),
      holderId,
      ttlMs: deps.leaseTtlMs ?? 10_000,
      log: log.child({ component: 'webhook-lease', webhook: worker.name }, { level: 'error' }),
      onElected: () => worker.start(),
      onDeposed: async () => { await worker.stop() }
    })
    return { fingerprint: fingerprint(key, hook), worker, leader, dispatcher }
  }

  async function retire (entry: Entry): Promise<void> {
    await (entry.leader?.stop() ?? entry.worker.stop())
    await entry.dispatcher.destroy()
  }

  function configured (): Map<string, { key: ClientKey, hook: WebhookConfig }> {
    const out = new Map<string, { key: ClientKey, hook: WebhookConfig }>()
    for (const key of deps.keys.all()) for (const hook of key.webhooks ?? []) out.set(entryId(key.name, hook.id), { key, hook })
    return out
  }

  async function apply (resumePaused: boolean): Promise<void> {
    const wanted = configured()
    const gone = [...entries].filter(([id, e]) => {
      const w = wanted.get(id)
      return w === undefined || e.fingerprint !== fingerprint(w.key, w.hook)
    })
    // What each restarted endpoint's worker knew, for its successor (a lost store is then still told apart).
    const knew = new Map<string, string | undefined>()
    for (const [id, e] of gone) {
      entries.delete(id)
      await retire(e)
      knew.set(id, e.worker.known)
    }
    // Where new endpoints start on this instance: the head now, whichever instance delivers to them. An
    // instance that takes an endpoint over after Redis lost its data then starts from a cursor of the lost
    // log, and resyncs the receiver, instead of taking it for new (EndpointWorker.known).
    const fresh = [...wanted.keys()].some((id) => !entries.has(id) && knew.get(id) === undefined)
    const head = fresh ? await deps.store.head().catch(() => undefined) : undefined
    for (const [id, { key, hook }] of wanted) {
      if (resumePaused) await endpoints.resume(key.name, hook.id).catch((err: unknown) => log.warn({ err, webhook: `${key.name}/${hook.id}` }, 'webhook not resumed'))
      const entry = entries.get(id)
      if (entry === undefined) entries.set(id, launch(key, hook, knew.get(id) ?? head))
      else entry.worker.wake()
    }
  }

  async function view (key: ClientKey, hook: WebhookConfig, head: string | undefined): Promise<EndpointView> {
    const stored = await endpoints.read(key.name, hook.id)
    return endpointView(hook, stored, entries.get(entryId(key.name, hook.id))?.worker, head)
  }

  const wakeAll = (): void => { for (const e of entries.values()) e.worker.wake() }

  return {
    async start (where) {
      self = where
      stopTail = await deps.store.subscribe(wakeAll, (err) => log.warn({ err }, 'webhooks: store tail error'), wakeAll)
      await apply(false)
    },
    async reload () {
      if (self !== undefined) await apply(true)
    },
    async list (key) {
      const head = await deps.store.head().catch(() => undefined)
      return await Promise.all((key.webhooks ?? []).map(async (hook) => await view(key, hook, head)))
    },
    async resume (key, id) {
      const hook = key.webhooks?.find((h) => h.id === id)
      if (hook === undefined) return undefined
      await endpoints.resume(key.name, id)
      entries.get(entryId(key.name, id))?.worker.wake()
      return await view(key, hook, await deps.store.head().catch(() => undefined))
    },
    async summary () {
      const by: Record<EndpointState, number> = { pending: 0, active: 0, retrying: 0, paused: 0, refused: 0 }
      const views = (await Promise.all(deps.keys.all().map(async (key) => await this.list(key)))).flat()
      for (const v of views) by[v.state]++
      return { endpoints: views.length, by_state: by, delivering_here: [...entries.values()].filter((e) => e.worker.running).length }
    },
    async close () {
      closing ??= (async () => {
        self = undefined
        await stopTail?.()
        await Promise.all([...entries.values()].map(retire))
        entries.clear()
      })()
      await closing
    }
  }
}

/** Settings from the TOUCHLINE_WEBHOOK_* variables. */
export function webhookSettings (cfg: Pick<Config, 'TOUCHLINE_WEBHOOK_TIMEOUT_MS' | 'TOUCHLINE_WEBHOOK_BATCH' |
'TOUCHLINE_WEBHOOK_RETRY_BASE_MS' | 'TOUCHLINE_WEBHOOK_RETRY_MAX_MS' | 'TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS'>): WebhookSettings {
  return {
    timeoutMs: cfg.TOUCHLINE_WEBHOOK_TIMEOUT_MS,
    batch: cfg.TOUCHLINE_WEBHOOK_BATCH,
    retryBaseMs: cfg.TOUCHLINE_WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: cfg.TOUCHLINE_WEBHOOK_RETRY_MAX_MS,
    pauseAfterMs: cfg.TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS
  }
}

/**
 * An endpoint as `GET /v1/webhooks` shows it, from its stored state and, when this instance delivers to it,
 * its worker's own state (the freshest; elsewhere the stored one, written by the instance that delivers).
 * `head` is the log's head cursor, for the lag.
 */
function endpointView (hook: WebhookConfig, stored: StoredEndpoint, local: EndpointWorker | undefined, head: string | undefined): EndpointView {
  const status: EndpointStatus = local?.running === true ? local.status : stored.status
  const at = stored.cursor === undefined ? undefined : parseCursor(stored.cursor)
  const top = head === undefined ? undefined : parseCursor(head)
  const u = new URL(hook.url)
  return {
    id: hook.id,
    url: `${u.protocol}//${u.host}${u.pathname}`,
    format: hook.format,
    state: stored.paused ? 'paused' : status.state === 'paused' ? 'active' : status.state,
    cursor: stored.cursor ?? null,
    lag: at !== undefined && top !== undefined && at.epoch === top.epoch ? Math.max(0, top.offset - at.offset) : null,
    last_status: status.last_status,
    last_error: status.last_error,
    last_attempt_at: status.last_attempt_at,
    last_ack_at: status.last_ack_at,
    failing_since: status.failing_since
  }
}
