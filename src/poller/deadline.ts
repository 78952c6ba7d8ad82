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
