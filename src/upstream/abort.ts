/** Abort plumbing for the client: one signal per attempt (deadline, close, caller) and interruptible waits. */

/** One abort signal for an attempt: the deadline, the client's close and the caller's signal. */
export function linkSignals (timeoutMs: number, signals: Array<AbortSignal | undefined>) {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => { timedOut = true; controller.abort(new Error('upstream attempt timed out')) }, timeoutMs)
  const onAbort = (): void => { controller.abort(new Error('upstream call aborted')) }
  for (const s of signals) {
    if (s?.aborted === true) onAbort()
    else s?.addEventListener('abort', onAbort, { once: true })
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer)
      for (const s of signals) s?.removeEventListener('abort', onAbort)
    }
  }
}

/** Waits `ms`; resolves false early when any signal aborts. */
export async function sleep (ms: number, signals: Array<AbortSignal | undefined>): Promise<boolean> {
  const linked = linkSignals(ms, signals)
  if (linked.signal.aborted) {
    linked.done()
    return false
  }
  return await new Promise((resolve) => {
    linked.signal.addEventListener('abort', () => { linked.done(); resolve(linked.timedOut()) }, { once: true })
  })
}
