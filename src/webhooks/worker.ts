/**
 * One endpoint's delivery loop: concurrency 1, in log order. It reads the next batch after
 * the acknowledged cursor, POSTs it until a 2xx (the same body and delivery id on every retry, capped
 * exponential backoff with jitter between attempts), stores the batch's cursor, and only then reads the
 * next one: no change is sent before an earlier one is acknowledged. Failing for `pauseAfterMs` without a
 * success pauses the endpoint until `resume()` (the route or a keys reload).
 *
 * Over Redis the worker runs only while its instance holds the endpoint's lease (index.ts); `stop()` aborts
 * the request in flight, and every write is fenced by the lease (state.ts), so a deposed worker neither
 * sends on nor moves the cursor.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { Agent } from 'undici'
import type { ClientKey } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import type { LiveStore } from '../store/types.ts'
import { backoffDelay } from '@touchline/core'
import { BatchReader, type Delivery } from './batch.ts'
import type { WebhookConfig } from '../webhook-settings.ts'
import { postWebhook, selfTarget, type AttemptResult, type SelfAddress } from './post.ts'
import { PENDING, type EndpointFields, type EndpointStatus, type EndpointStore } from './state.ts'
import { WakeableLoop } from '../util/wakeable-loop.ts'

export interface WebhookSettings {
  /** @default 10_000 */
  timeoutMs: number
  /** @default 100 */
  batch: number
  /** @default 1000 */
  retryBaseMs: number
  /** @default 60_000 */
  retryMaxMs: number
  /** @default 3_600_000 */
  pauseAfterMs: number
}

export interface WorkerDeps {
  store: LiveStore
  endpoints: EndpointStore
  metrics: Metrics
  log: Logger
  dispatcher: Agent
  holderId: string
  self: SelfAddress
  settings: WebhookSettings
  now?: () => number
  random?: () => number
}

/**
 * With nothing to send, how often the worker reads the log even without a wake-up from the tail (a tail
 * that reconnects may miss an announcement; the log itself misses nothing).
 */
const IDLE_READ_MS = 2000
/** While paused, how often the stored flag is read (a resume on another instance clears it there). */
const PAUSED_CHECK_MS = 1000
/** How often a write the lease refused is tried again while the leader sorts the lease out. */
const FENCED_RETRY_MS = 500
/** How long a verdict on "is this URL the gateway itself" is kept before resolving the name again. */
const SELF_CHECK_MS = 30_000

const iso = (ms: number): string => new Date(ms).toISOString()

export class EndpointWorker extends WakeableLoop {
  readonly name: string
  status: EndpointStatus = PENDING
  /**
   * The last cursor this worker knew for the endpoint: where it was created (the log's head then), then
   * every cursor it read or stored. Kept across stop and start (a lost lease), so that when Redis loses the
   * endpoint's stored cursor with the log, the worker goes on from this one, of the lost log, and its next
   * read answers with a `resync`, instead of taking the endpoint for a new one and starting at the head of
   * the new log, past the records that reseeded it.
   */
  known: string | undefined
  private readonly now: () => number
  private selfVerdict: { at: number, reason: string | undefined } | undefined

  /** `origin`: the cursor the endpoint started from on this instance, if known (see `known`). */
  constructor (private readonly deps: WorkerDeps, readonly key: ClientKey, readonly hook: WebhookConfig, origin?: string) {
    super()
    this.random = deps.random
    this.name = `${key.name}/${hook.id}`
    this.now = deps.now ?? Date.now
    this.known = origin
  }

  protected failed (err: unknown): void {
    this.deps.log.error({ err, webhook: this.name }, 'webhook worker failed')
  }

  protected readFailed (err: unknown): void {
    this.deps.log.warn({ err, webhook: this.name }, 'webhook worker cannot read the store; retrying')
  }

  /**
   * Writes through the lease, waiting out a store outage; false once the worker stops (the loop then ends).
   * A write the lease refuses waits too: either another instance holds the lease, and this instance's leader
   * hears of it and stops the worker, or Redis lost it with its data, and the leader takes it again.
   */
  private async save (fields: EndpointFields, signal: AbortSignal): Promise<boolean> {
    if (fields.status !== undefined) this.status = fields.status
    const { endpoints, holderId } = this.deps
    for (;;) {
      const saved = await this.retrying(signal, async () => await endpoints.save(this.key.name, this.hook.id, holderId, fields))
      if (saved === true) {
        if (fields.cursor !== undefined) this.known = fields.cursor
        return true
      }
      if (saved === undefined || signal.aborted) return false
      await sleep(FENCED_RETRY_MS, undefined, { signal }).catch(() => {})
    }
  }

  protected async run (signal: AbortSignal): Promise<void> {
    const { store, endpoints, settings, log } = this.deps
    const stored = await this.retrying(signal, async () => await endpoints.read(this.key.name, this.hook.id))
    if (stored === undefined) return
    // Resumed while no worker of it ran (a keys reload that changed it restarts it): its failing time starts
    // again, or its first failure would pause it at once.
    this.status = !stored.paused && stored.status.state === 'paused' ? { ...stored.status, state: 'active', failing_since: null } : stored.status
    let cursor = stored.cursor
    // No stored cursor: a new endpoint, or one whose state Redis lost with the log. A new endpoint receives
    // the changes from its start on (its history is what `GET /v1/changes` is for): from the head when this
    // instance first knew it. A lost one goes on from the cursor this instance knew, whose log is gone too,
    // so the first read answers with a resync.
    if (cursor === undefined) {
      cursor = this.known ?? await this.retrying(signal, async () => await store.head())
      if (cursor === undefined || !await this.save({ cursor, status: { ...PENDING, state: 'active' } }, signal)) return
    }
    this.known = cursor
    const reader = new BatchReader(store, this.key, this.hook, settings.batch)
    let pending: Delivery | undefined
    let attempt = 0
    let paused = stored.paused
    while (!signal.aborted) {
      if (paused) {
        paused = await this.whilePaused(signal)
        if (!paused) attempt = 0
        continue
      }
      if (pending === undefined) {
        this.woken = false
        const from: string = cursor
        const next = await this.retrying(signal, async () => await reader.next(from))
        if (next === undefined) return
        if (next.kind === 'skip') {
          if (next.cursor !== cursor && !await this.save({ cursor: next.cursor }, signal)) return
          cursor = next.cursor
          if (!next.more) await this.wait(IDLE_READ_MS, signal)
          continue
        }
        pending = next.delivery
      }
      const result = await this.attempt(pending, signal)
      if (signal.aborted) return
      this.deps.metrics.webhookDeliveries.inc({ endpoint: this.name, outcome: result.outcome })
      const at = iso(this.now())
      if (result.outcome === 'acked') {
        const status: EndpointStatus = { state: 'active', last_status: result.status, last_error: null, last_attempt_at: at, last_ack_at: at, failing_since: null }
        if (!await this.save({ cursor: pending.cursor, status }, signal)) return
        if (this.status.failing_since !== null || attempt > 0) log.info({ webhook: this.name, attempts: attempt + 1 }, 'webhook delivered after retries')
        cursor = pending.cursor
        pending = undefined
        attempt = 0
        continue
      }
      attempt++
      const failingSince = this.status.failing_since ?? at
      paused = result.outcome !== 'refused' && this.now() - Date.parse(failingSince) >= settings.pauseAfterMs
      const state = result.outcome === 'refused' ? 'refused' : paused ? 'paused' : 'retrying'
      const status: EndpointStatus = { ...this.status, state, last_status: result.status, last_error: result.error, last_attempt_at: at, failing_since: failingSince }
      if (!await this.save(paused ? { status, paused } : { status }, signal)) return
      if (paused) log.warn({ webhook: this.name, failingSince, error: result.error }, 'webhook paused after failing too long')
      else if (attempt === 1) log.warn({ webhook: this.name, error: result.error, outcome: result.outcome }, 'webhook delivery failed; retrying')
      if (!paused) await sleep(backoffDelay(attempt, { baseMs: settings.retryBaseMs, capMs: settings.retryMaxMs, random: this.deps.random }), undefined, { signal }).catch(() => {})
    }
  }

  /** One POST, unless the URL reaches the gateway itself. */
  private async attempt (d: Delivery, signal: AbortSignal): Promise<AttemptResult> {
    const now = this.now()
    if (this.selfVerdict === undefined || now - this.selfVerdict.at > SELF_CHECK_MS) {
      this.selfVerdict = { at: now, reason: await selfTarget(this.hook.url, this.deps.self) }
    }
    if (this.selfVerdict.reason !== undefined) return { outcome: 'refused', status: null, error: `refused: ${this.selfVerdict.reason}` }
    return await postWebhook({
      url: this.hook.url,
      webhookId: this.hook.id,
      deliveryId: d.id,
      secret: this.hook.secret,
      body: d.body,
      timeoutMs: this.deps.settings.timeoutMs,
      signal,
      dispatcher: this.deps.dispatcher,
      now: this.now
    })
  }

  /** Waits for a resume (here or, through the stored flag, on another instance). Resolves to "still paused". */
  private async whilePaused (signal: AbortSignal): Promise<boolean> {
    this.woken = false
    await this.wait(PAUSED_CHECK_MS, signal)
    const stored = await this.deps.endpoints.read(this.key.name, this.hook.id).catch(() => undefined)
    if (stored === undefined || stored.paused || signal.aborted) return true
    const status: EndpointStatus = { ...this.status, state: 'active', failing_since: null }
    this.deps.log.info({ webhook: this.name }, 'webhook resumed')
    return !await this.save({ status }, signal)
  }
}
