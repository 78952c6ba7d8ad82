/**
 * A hedged call ("The Tail at Scale"): when the first request has not answered after `afterMs`, the same
 * request goes out once more beside it (and again after as long, up to `hedges` times), and whichever answers
 * first wins; the others are aborted.
 *
 * Why the poller wants it: a hung upstream request is only known to be hung at its deadline (2.5 s at
 * least, deadline.ts), and every second of that is a second of silence for every subscriber. A second
 * request sent after a fraction of it usually answers at once, so a hang costs `afterMs` instead of the whole
 * deadline. It costs one more call only when the first is already far slower than the upstream's usual pace
 * (the hedge reserves its call in the budget ledger like any other).
 *
 * `worthHedging`: a request that fails with such an error (an error answer the client already retried,
 * not a refusal like a 429) sends the next hedge at once rather than leave the call to the others, or fail
 * it: on a bad night the next request usually answers. At most `failureHedges` of the hedges go out that way
 * (an upstream answering only errors gets no more requests than that), the rest only when due. Without it, a
 * failure only ends the call once no request can still answer.
 */
export async function hedged<T> (run: (signal: AbortSignal) => Promise<T>, afterMs: number, parent: AbortSignal, hedges = 1, worthHedging?: (err: unknown) => boolean, failureHedges = hedges): Promise<T> {
  /** Requests still running. */
  const controllers: AbortController[] = []
  const launch = async (): Promise<T> => {
    const controller = new AbortController()
    controllers.push(controller)
    const forward = (): void => { controller.abort(parent.reason) }
    parent.addEventListener('abort', forward, { once: true })
    try {
      return await run(controller.signal)
    } finally {
      parent.removeEventListener('abort', forward)
      controllers.splice(controllers.indexOf(controller), 1)
    }
  }
  return await new Promise<T>((resolve, reject) => {
    let settled = false
    const finish = (fn: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      fn()
      for (const c of controllers) c.abort()
    }
    const start = (): void => {
      launch().then((value) => { finish(() => { resolve(value) }) }, (err: unknown) => {
        if (worthHedging?.(err) === true && sent < failureHedges && hedge()) return
        // A failure settles once no request can still answer (launch has taken its own out of the list). One that fails before the hedge is due (an
        // error answer, not a hang) settles at once: the client has already retried it.
        if (controllers.length === 0) finish(() => { reject(err) })
      })
    }
    let sent = 0
    let timer: NodeJS.Timeout | undefined
    /** Sends the next hedge now, if one is left; the one after it is due `afterMs` later. */
    const hedge = (): boolean => {
      if (settled || parent.aborted || sent >= hedges) return false
      clearTimeout(timer)
      sent++
      start()
      if (sent < hedges) schedule()
      return true
    }
    const schedule = (): void => {
      timer = setTimeout(hedge, afterMs)
    }
    if (hedges > 0) schedule()
    start()
  })
}
