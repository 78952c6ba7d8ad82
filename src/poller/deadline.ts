/**
 * How long one poller call may take before it is taken for hung and abandoned.
 *
 * A fixed deadline is wrong on one side or the other: 10 s lets a hung call silence every change for 10 s
 * (and more with retries), while 2.5 s would fail every reconcile of an upstream whose full `livescores`
 * normally takes 3 s. So the deadline follows the upstream: `factor` times the slowest of the last
 * `window` successful calls, never below `floorMs` (a fast upstream: a hung call costs little more than the
 * floor) nor above `ceilingMs`. Before any call has succeeded it is twice the floor.
 */
export interface CallDeadlineOptions {
  floorMs: number
  /** @default 10_000 */
  ceilingMs?: number
  /** @default 4 */
  factor?: number
  /** Successful calls remembered. @default 20 */
  window?: number
}

export interface CallDeadline {
  /** The deadline for the next call, ms. */
  current: () => number
  /** Records how long a successful call took. */
  succeeded: (durationMs: number) => void
}

export function createCallDeadline (opts: CallDeadlineOptions): CallDeadline {
  const ceiling = opts.ceilingMs ?? 10_000
  const factor = opts.factor ?? 4
  const size = opts.window ?? 20
  const recent: number[] = []
  return {
    current () {
      if (recent.length === 0) return Math.min(ceiling, 2 * opts.floorMs)
      return Math.min(ceiling, Math.max(opts.floorMs, factor * Math.max(...recent)))
    },
    succeeded (durationMs) {
      recent.push(durationMs)
      if (recent.length > size) recent.shift()
    }
  }
}
