/**
 * A background loop that can be started, stopped and woken: the webhook endpoint workers and the push shard
 * senders. `run` reads the log and sends until its signal aborts; between reads it `wait`s, and `wake` (new
 * records, a resume, a stop) ends the wait at once. A subclass clears `woken` when it starts a read, so a
 * wake-up that came during the read is not lost.
 */
export abstract class WakeableLoop {
  protected woken = false
  private abort: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined

  /** The loop itself; it ends when `signal` aborts. */
  protected abstract run (signal: AbortSignal): Promise<void>
  /** A failure that ended the loop while it was not being stopped. */
  protected abstract failed (err: unknown): void

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
}
