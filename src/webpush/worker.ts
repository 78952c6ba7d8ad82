/**
 * One shard's sender (docs/push.md, "How alerts are made and sent"): it reads the event log after the
 * shard's cursor, turns each change record into alerts (alerts.ts), sends each to the shard's devices that
 * follow it (match.ts), and stores the cursor once every alert before it was handled: sent, refused for
 * good, dropped by the cap, or queued to be sent again. Over Redis it runs only while its instance holds the
 * shard's lease (index.ts), and the cursor write is fenced by that lease.
 *
 * Exactly once: each (device, alert id) is claimed in the ledger before its request goes out (ledger.ts),
 * so a record read again (a restart, a new holder, a SIGKILL before the cursor was stored) sends nothing
 * twice; an alert whose request was in flight when its sender died stays claimed (a push service may have
 * it), and one known not delivered (429, 5xx, no connection) is queued and sent again by whoever holds the
 * shard. Stopping lets the requests in flight finish (each within its timeout), so none is cut in the middle.
 */
import type { Logger } from 'pino'
import type { Agent } from 'undici'
import { backoffDelay } from '@touchline/core'
import type { KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import { inLiveSet } from '../protocol/filter.ts'
import { changeRecords, type LiveStore } from '../store/types.ts'
import { alertsOf, ceilingOf, payloadOf, type Alert } from './alerts.ts'
import type { AlertLedger, RetryEntry } from './ledger.ts'
import type { Limiter } from './limiter.ts'
import { ShardIndex } from './match.ts'
import { BATCH, type Encryptor } from './encrypt.ts'
import { giveUpReason, type FailureReport } from './failures.ts'
import { pushHeaders, sendPush, type SendResult, type Vapid } from './send.ts'
import type { StoredDevice, DeviceStore } from './devices.ts'
import { WakeableLoop } from '../util/wakeable-loop.ts'

export interface SenderDeps {
  store: LiveStore
  subscriptions: DeviceStore
  ledger: AlertLedger
  keys: KeyRing
  metrics: Metrics
  log: Logger
  dispatcher: Agent
  limiter: Limiter
  encryptor: Encryptor
  holderId: string
  /** Counts and logs failed requests and alerts given up (one per instance: its log budgets are shared). */
  failures: FailureReport
  vapid: Vapid
  hourlyCap: number
  timeoutMs: number
  /** @default 1000 */
  retryBaseMs?: number
  /** @default 60_000 */
  retryMaxMs?: number
  now?: () => number
}

/** Records read per page of the log. */
const PAGE = 50
/** With nothing to send, how often the log and the retry queue are read anyway (a missed wake-up). */
const IDLE_READ_MS = 1000
/** The signal of every push request: see `deliver`. */
const UNCUT = new AbortController().signal

export class ShardSender extends WakeableLoop {
  private index: ShardIndex | undefined
  /** The last cursor known, kept across stop and start. */
  private known: string | undefined
  private readonly now: () => number

  constructor (private readonly deps: SenderDeps, readonly shard: number) {
    super()
    this.now = deps.now ?? Date.now
  }

  protected failed (err: unknown): void {
    this.deps.log.error({ err, shard: this.shard }, 'push sender failed')
  }

  protected readFailed (err: unknown): void {
    this.deps.log.warn({ err, shard: this.shard }, 'push sender cannot read the store; retrying')
  }

  protected async run (signal: AbortSignal): Promise<void> {
    const { store, ledger, holderId } = this.deps
    let cursor = await this.retrying(signal, async () => await ledger.cursor(this.shard)) ?? this.known
    if (signal.aborted) return
    if (cursor === undefined) {
      cursor = await this.retrying(signal, async () => await store.head())
      if (cursor === undefined || !await this.retrying(signal, async () => await ledger.saveCursor(this.shard, holderId, cursor as string))) return
    }
    this.known = cursor
    while (!signal.aborted) {
      await this.sendDue(signal)
      this.woken = false
      const from: string = cursor
      const page = await this.retrying(signal, async () => await store.readSince(from, { limit: PAGE }))
      const index = await this.retrying(signal, async () => await this.loadIndex())
      if (page === undefined || index === undefined || signal.aborted) return
      if (!page.recovered) this.deps.log.warn({ shard: this.shard, cursor }, 'push: the log was lost or outrun; alerts of the changes it held are not sent')
      else {
        // The live set's records only, as for everyone following leagues or teams: a fixture of a day outside
        // it (read before kick-off, or corrected after its end) makes no alert.
        for (const record of changeRecords(page.records).filter(inLiveSet)) {
          await Promise.all(alertsOf(record).map(async (alert) => { await this.deliverAll(index.match(alert, this.deps.keys.all()), alert, 0, this.now()) }))
          // A stop in the middle of a page: the cursor stays before it; the next holder reads it again and
          // the claims keep what was sent from going twice.
          if (signal.aborted) return
        }
      }
      if (page.cursor !== cursor) {
        const saved = await this.retrying(signal, async () => await ledger.saveCursor(this.shard, holderId, page.cursor))
        if (saved !== true) return
        cursor = this.known = page.cursor
      }
      if (!page.more) await this.wait(IDLE_READ_MS, signal)
    }
  }

  /** The shard's subscriptions, read again when their version moved. */
  private async loadIndex (): Promise<ShardIndex> {
    const version = await this.deps.subscriptions.version(this.shard)
    if (this.index?.version === version) return this.index
    const { version: v, subscriptions } = await this.deps.subscriptions.shard(this.shard)
    this.index = new ShardIndex(v, subscriptions)
    return this.index
  }

  /**
   * Delivers one alert to each of `subs`, a batch of devices at a time: each batch is encrypted (in the worker
   * threads) while the one before it is sent, and no further ahead, so a goal to thousands of devices holds
   * two batches of bodies at once, not all of them, and each payload's `sent_at` is its batch's time.
   */
  private async deliverAll (subs: StoredDevice[], alert: Alert, attempt: number, firstAt: number): Promise<void> {
    const batches: StoredDevice[][] = []
    for (let i = 0; i < subs.length; i += BATCH) batches.push(subs.slice(i, i + BATCH))
    const encrypt = async (batch: StoredDevice[]): Promise<Array<Buffer | null>> =>
      await this.deps.encryptor.encrypt(payloadOf(alert, new Date(this.now()).toISOString()), batch.map((s) => s.keys))
    let encrypting = batches.length > 0 ? encrypt(batches[0] as StoredDevice[]) : undefined
    let sending: Promise<unknown> = Promise.resolve()
    for (let i = 0; i < batches.length; i++) {
      const batch = batches[i] as StoredDevice[]
      const bodies = await (encrypting as Promise<Array<Buffer | null>>)
      await sending
      encrypting = i + 1 < batches.length ? encrypt(batches[i + 1] as StoredDevice[]) : undefined
      sending = Promise.all(batch.map(async (sub, j) => { await this.deliver(sub, alert, bodies[j] ?? null, attempt, firstAt) }))
    }
    await sending
  }

  /**
   * Claims, sends and records one alert for one device, its body encrypted (null: its keys cannot be used).
   * `attempt`: attempts made before this one.
   */
  private async deliver (sub: StoredDevice, alert: Alert, body: Buffer | null, attempt: number, firstAt: number): Promise<void> {
    const { ledger, metrics, log } = this.deps
    // In a slot, with the body encrypted and the headers signed beforehand, so that the claim is followed by
    // the request's write at once: a sender killed between the two loses the alert for that device, and this
    // keeps that window short.
    const result = await this.deps.limiter.run(async (): Promise<SendResult | 'done' | 'capped'> => {
      const headers = pushHeaders(sub.endpoint, alert, this.deps.vapid)
      const claim = await ledger.claim(sub.endpoint, alert.id, ceilingOf(alert.importance, this.deps.hourlyCap), this.now())
      if (claim !== 'send') return claim
      if (body === null) return { outcome: 'rejected', status: null, failure: 'keys', error: 'the subscription\'s keys could not be used to encrypt' }
      // Never aborted from outside: a request once started is let finish (or time out), so a stop or a lost
      // lease never cuts one in the middle, where the push service may or may not have taken it.
      return await sendPush({ endpoint: sub.endpoint, headers, body }, { dispatcher: this.deps.dispatcher, timeoutMs: this.deps.timeoutMs, signal: UNCUT })
    })
    if (result === 'done') return
    if (result === 'capped') {
      metrics.pushSent.inc({ outcome: 'capped' })
      return
    }
    await this.record(sub, alert, result, { endpoint: sub.endpoint, alert, attempt: attempt + 1, firstAt })
      .catch((err: unknown) => log.warn({ err, shard: this.shard, alert: alert.id }, 'push: outcome not recorded'))
  }

  private async record (sub: StoredDevice, alert: Alert, result: SendResult, entry: RetryEntry): Promise<void> {
    const { ledger, metrics, log, failures } = this.deps
    if (result.outcome === 'retry') {
      const wait = result.retryAfterMs ?? backoffDelay(entry.attempt, { baseMs: this.deps.retryBaseMs ?? 1000, capMs: this.deps.retryMaxMs ?? 60_000 })
      const dueAt = this.now() + wait
      const reason = giveUpReason(entry, dueAt, alert.ttl)
      if (reason !== undefined) {
        await ledger.mark(sub.endpoint, alert.id, 'x')
        failures.givenUp(this.shard, entry, result, reason)
        return
      }
      await ledger.mark(sub.endpoint, alert.id, 'r')
      await ledger.schedule(this.shard, entry, dueAt)
      failures.retried(this.shard, entry, result, wait)
      return
    }
    metrics.pushSent.inc({ outcome: result.outcome })
    if (result.outcome === 'rejected') failures.refused(result)
    await ledger.mark(sub.endpoint, alert.id, result.outcome === 'sent' ? 'd' : 'x')
    if (result.outcome === 'gone') {
      // The browser unsubscribed or the subscription expired: it will never take an alert again.
      await this.deps.subscriptions.remove(sub.endpoint)
      log.info({ shard: this.shard, status: result.status }, 'push: subscription gone; deleted')
    }
    if (result.outcome === 'rejected') log.warn({ shard: this.shard, alert: alert.id, status: result.status, error: result.error }, 'push: request refused; not retried')
  }

  /** Sends the queued alerts that are due. */
  private async sendDue (signal: AbortSignal): Promise<void> {
    const { ledger } = this.deps
    const due = await ledger.due(this.shard, this.now(), PAGE).catch(() => [])
    if (due.length === 0 || signal.aborted) return
    const index = await this.loadIndex().catch(() => undefined)
    if (index === undefined) return
    await Promise.all(due.map(async (entry) => {
      const sub = index.get(entry.endpoint)
      await ledger.unschedule(this.shard, entry)
      if (sub === undefined) return
      await this.deliverAll([sub], entry.alert, entry.attempt, entry.firstAt)
    }).map(async (p) => { await p.catch((err: unknown) => this.deps.log.warn({ err, shard: this.shard }, 'push: retry failed')) }))
  }
}
