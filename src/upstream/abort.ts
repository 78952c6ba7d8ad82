/** Interruptible waits for the upstream client (its attempts' signals are util/abort.ts's). */
import { linkSignals } from '../util/abort.ts'

/** Waits `ms`; resolves false early when any signal aborts. */
export async function sleep (ms: number, signals: Array<AbortSignal | undefined>): Promise<boolean> {
  const linked = linkSignals(ms, signals, 'wait')
  if (linked.signal.aborted) {
    linked.done()
    return false
  }
  return await new Promise((resolve) => {
    linked.signal.addEventListener('abort', () => { linked.done(); resolve(linked.timedOut()) }, { once: true })
  })
}
