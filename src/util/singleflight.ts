/**
 * In-process request coalescing: concurrent calls with one key share the first caller's promise, so 1,000
 * identical cache misses make one upstream call. Kept in-process even over Redis: a cross-instance lock
 * would add a round trip to every miss to save at most one call per instance per TTL.
 */
interface Flight<T> {
  value: T
  /** True for the callers that joined a flight another caller started. */
  shared: boolean
}

export interface SingleFlight<T> {
  run: (key: string, fn: () => Promise<T>) => Promise<Flight<T>>
  /** Flights in the air (metrics, tests). */
  size: () => number
}

export function createSingleFlight<T> (): SingleFlight<T> {
  const flights = new Map<string, Promise<T>>()
  return {
    async run (key, fn) {
      const inFlight = flights.get(key)
      if (inFlight !== undefined) return { value: await inFlight, shared: true }
      const flight = fn().finally(() => { flights.delete(key) })
      flights.set(key, flight)
      return { value: await flight, shared: false }
    },
    size: () => flights.size
  }
}
