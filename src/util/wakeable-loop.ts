/**
 * A background loop that can be started, stopped and woken: the webhook endpoint workers and the push shard
 * senders. `run` reads the log and sends until its signal aborts; between reads it `wait`s, and `wake` (new
 * records, a resume, a stop) ends the wait at once. A subclass clears `woken` when it starts a read, so a
 * wake-up that came during the read is not lost. Its store reads go through `retrying`, which waits out an
 * outage.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { backoffDelay } from '@touchline/core'

export abstract class WakeableLoop {
  protected woken = false
  private abort: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined

  /** The loop itself; it ends when `signal` aborts. */
  protected abstract run (signal: AbortSignal): Promise<void>
  /** A failure that ended the loop while it was not being stopped. */
  protected abstract failed (err: unknown): void
  /** The first failure of a `retrying` read (said once per read, however long the outage). */
  protected abstract readFailed (err: unknown): void
  /** The random source of the retries' jitter (tests fix it); Math.random when undefined. */
  protected random: (() => number) | undefined

  get running (): boolean {
    return this.loop !== undefined
  }

  start (): void {
    if (this.loop !== undefined) return
    const abort = this.abort = new AbortController()
    this.loop = this.run(abort.signal).catch((err: unknown) => {
      if (!abort.signal.aborted) this.failed(err)
    }).finally(() => { if (this.abort === abort) this.loop = undefined })
  }

  /** Ends the loop and resolves once it has ended. */
  async stop (): Promise<void> {
    this.abort?.abort()
    this.wake()
    await this.loop
    this.loop = undefined
  }

  /** Something to do (new records, a resume, a stop): stop waiting. */
  wake (): void {
    this.woken = true
    this.wakeUp?.()
  }

  /** Waits `ms`, or less: until a wake-up or the signal's abort. Returns at once after a wake-up not yet cleared. */
  protected async wait (ms: number, signal: AbortSignal): Promise<void> {
    if (this.woken || signal.aborted) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done (): void { clearTimeout(timer); signal.removeEventListener('abort', done); resolve() }
      this.wakeUp = done
      signal.addEventListener('abort', done, { once: true })
    })
    this.wakeUp = undefined
  }

  /** Runs `read` until it succeeds (a store outage is waited out) or the signal aborts (undefined). */
  protected async retrying<T> (signal: AbortSignal, read: () => Promise<T>): Promise<T | undefined> {
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        return await read()
      } catch (err) {
        if (attempt === 1) this.readFailed(err)
        const random = this.random
        await sleep(backoffDelay(attempt, { baseMs: 200, capMs: 5000, ...(random !== undefined ? { random } : {}) }), undefined, { signal }).catch(() => {})
      }
    }
    return undefined
  }
}
