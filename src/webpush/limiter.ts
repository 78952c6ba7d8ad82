/** At most `max` tasks at once (TOUCHLINE_PUSH_CONCURRENCY: push requests in flight per instance), first come first served. */
import pLimit from 'p-limit'

export interface Limiter {
  run: <T>(task: () => Promise<T>) => Promise<T>
  /** Tasks running and waiting. */
  readonly pending: number
}

export function createLimiter (max: number): Limiter {
  const limit = pLimit(max)
  return {
    get pending () { return limit.activeCount + limit.pendingCount },
    run: async (task) => await limit(task)
  }
}
