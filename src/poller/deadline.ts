/**
 * How long one poller call may take before it is taken for hung and abandoned.
 *
 * A fixed deadline is wrong on one side or the other: 10 s lets a hung call silence every change for 10 s
 * (and more with retries), while 2.5 s would fail every reconcile of an upstream whose full `livescores`
 * normally takes 3 s. So the deadline follows the upstream: `factor` times the slowest of the last
 * `window` successful calls, never below `floorMs` (a fast upstream: a hung call costs little more than the
 * floor) nor above `ceilingMs`. Before any call has succeeded it is the fallback's, else twice the floor.
 */
export interface CallDeadlineOptions {
  floorMs: number
  /** @default 10_000 */
  ceilingMs?: number
  /** @default 4 */
  factor?: number
  /** Successful calls remembered. @default 20 */
  window?: number
  /** @default 500 */
  hedgeFloorMs?: number
  /**
   * Followed until a call of this kind has succeeded: `latest` polls take the reconciles' pace at start (a
   * full `livescores` is no faster than `latest`), rather than twice the floor or a guess that may be too short.
   */
  fallback?: CallDeadline
}

export interface CallDeadline {
  /** The deadline for the next call, ms. */
  current: () => number
  /**
   * When to send a hedge beside a call still unanswered (hedge.ts): four times the slowest recent call, at
   * least `hedgeFloorMs`, at most half the deadline.
   */
  hedgeAfter: () => number
  /** Records how long a successful call took. */
  succeeded: (durationMs: number) => void
}

export function createCallDeadline (opts: CallDeadlineOptions): CallDeadline {
  const ceiling = opts.ceilingMs ?? 10_000
  const factor = opts.factor ?? 4
  const size = opts.window ?? 20
  const hedgeFloor = opts.hedgeFloorMs ?? 500
  const recent: number[] = []
  const slowest = (): number | undefined => recent.length === 0 ? undefined : Math.max(...recent)
  const fallback = opts.fallback
  const current = (): number => {
    const s = slowest()
    if (s === undefined && fallback !== undefined) return fallback.current()
    return Math.min(ceiling, s === undefined ? 2 * opts.floorMs : Math.max(opts.floorMs, factor * s))
  }
  return {
    current,
    hedgeAfter () {
      const s = slowest()
      if (s === undefined && fallback !== undefined) return fallback.hedgeAfter()
      return Math.min(current() / 2, Math.max(hedgeFloor, s === undefined ? current() / 2 : factor * s))
    },
    succeeded (durationMs) {
      recent.push(durationMs)
      if (recent.length > size) recent.shift()
    }
  }
}

/** How one call is spread over its deadline (hedgePlan). */
export interface HedgePlan {
  /** The call's deadline: every request still unanswered then is abandoned, ms from the first. */
  callMs: number
  /** A hedge is sent every `afterMs` while the call is unanswered. */
  afterMs: number
  /** Hedges at most. */
  hedges: number
}

/** Hedges a call gets at least, when its deadline is too short for them (a slow upstream): the deadline stretches. */
const MIN_HEDGES = 2

/**
 * Hedges spread over the call's deadline rather than each request getting a deadline of its own: the
 * request, then a hedge every `afterMs` (CallDeadline.hedgeAfter, four times the slowest recent answer)
 * while the hedge still has `afterMs` to answer before the deadline, up to `maxHedges`; each request is
 * given what is left of the call's deadline. Against an upstream that hangs a share of its calls, a call is
 * lost only when all of them hang (0.3^5 with four hedges, against 0.3^3 with two), and a lost call ends at
 * its deadline (2.5 s) instead of a deadline after its last hedge (3.5 s with two hedges 0.5 s apart). The
 * deadline stretches to `MIN_HEDGES + 1` intervals when the interval is long, so a call always has room for
 * MIN_HEDGES hedges (fewer when `maxHedges` says so).
 */
export function hedgePlan (deadlineMs: number, afterMs: number, maxHedges: number): HedgePlan {
  const callMs = Math.max(deadlineMs, (MIN_HEDGES + 1) * afterMs)
  return { callMs, afterMs, hedges: Math.max(0, Math.min(maxHedges, Math.floor(callMs / afterMs) - 1)) }
}
