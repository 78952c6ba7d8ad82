/**
 * Bringing subscribers back after a loss:
 *
 * - The log was lost (the store's tail reports a new epoch: Redis flushed, or restarted without its data):
 *   every subscribed connection gets `replay` with recovered:false and a fresh snapshot (docs/protocol.md), through
 *   ClientOps.reset, so the reset keeps its place among the client's own operations.
 * - The store could not be read for a subscribe or a reset (Redis down): the client got `unavailable` and
 *   its subscription stays in place. Decided: the client is served by itself once the store answers (a
 *   probe every `retryMs`), with the same replay recovered:false and snapshot, so it need not subscribe again
 *   (subscribing again works too).
 */
import type { BaseLogger } from 'pino'
import type { LiveStore } from '../store/types.ts'
import type { ClientOps } from './client-ops.ts'
import type { Connection } from './connection.ts'
import type { ConnectionRegistry } from './registry.ts'

export interface RecoveryDeps {
  store: LiveStore
  registry: ConnectionRegistry
  ops: ClientOps
  log: BaseLogger
  /** How often the store is probed while some connection waits for it. @default 1000 */
  retryMs?: number
}

export class Recovery {
  private readonly waiting = new Set<Connection>()
  private timer: NodeJS.Timeout | undefined
  private stopped = false

  constructor (private readonly deps: RecoveryDeps) {}

  /** The log was lost: resets every connection (those without a subscription have nothing to reset). */
  logLost (epoch: string): void {
    const conns = this.deps.registry.list()
    this.deps.log.warn({ epoch, connections: conns.length }, 'event log lost: resetting every subscriber')
    this.waiting.clear()
    for (const conn of conns) this.deps.ops.reset(conn)
  }

  /** A read for `conn` failed because the store is down: reset it once the store answers. */
  storeDown (conn: Connection): void {
    if (this.stopped) return
    this.waiting.add(conn)
    this.timer ??= this.later()
  }

  stop (): void {
    this.stopped = true
    clearTimeout(this.timer)
    this.waiting.clear()
  }

  private later (): NodeJS.Timeout {
    const timer = setTimeout(() => { this.probe().catch(() => {}) }, this.deps.retryMs ?? 1000)
    timer.unref()
    return timer
  }

  private async probe (): Promise<void> {
    let up = true
    try {
      await this.deps.store.head()
    } catch {
      up = false
    }
    this.timer = undefined
    if (this.stopped) return
    if (!up) {
      this.timer = this.later()
      return
    }
    const conns = [...this.waiting]
    this.waiting.clear()
    for (const conn of conns) this.deps.ops.reset(conn)
  }
}
