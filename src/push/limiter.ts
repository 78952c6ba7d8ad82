/** At most `max` tasks at once (TOUCHLINE_PUSH_CONCURRENCY: push requests in flight per instance), first come first served. */
export interface Limiter {
  run: <T>(task: () => Promise<T>) => Promise<T>
  /** Tasks running and waiting. */
  readonly pending: number
}

export function createLimiter (max: number): Limiter {
  let running = 0
  const waiting: Array<() => void> = []
  return {
    get pending () { return running + waiting.length },
    async run (task) {
      // A finished task hands its slot to the next waiter directly, so a newcomer cannot take it between.
      if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve))
      else running++
      try {
        return await task()
      } finally {
        const next = waiting.shift()
        if (next !== undefined) next()
        else running--
      }
    }
  }
}
