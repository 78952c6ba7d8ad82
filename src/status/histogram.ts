/**
 * Quantiles of a Prometheus histogram over a stretch of time, from two readings of its cumulative buckets
 * (the status page's detection latency: touchline_detection_latency_seconds). The buckets are all a
 * histogram keeps, so a quantile is an estimate: found in its bucket and interpolated linearly inside it, as
 * Prometheus' `histogram_quantile` does. Pure functions, no clock.
 */

/** A histogram's buckets as read: upper bound (Infinity last) to cumulative count, by bound. */
export type Buckets = ReadonlyArray<readonly [number, number]>

/** What prom-client's `Histogram.get()` gives, as far as the buckets go. */
interface HistogramValues {
  values: ReadonlyArray<{ metricName?: string, labels: Record<string, string | number | undefined>, value: number }>
}

/** The buckets of one reading of a histogram without labels, sorted by bound. */
export function bucketsOf (reading: HistogramValues): Buckets {
  return reading.values
    .filter((v) => v.metricName?.endsWith('_bucket') === true)
    .map((v) => [v.labels.le === '+Inf' ? Infinity : Number(v.labels.le), v.value] as const)
    .sort((a, b) => a[0] - b[0])
}

const round = (n: number): number => Math.round(n * 1000) / 1000

/** How many observations were made between two readings (an empty `before`: since the histogram began). */
export function observedBetween (before: Buckets, after: Buckets): number {
  const prior = new Map(before)
  const last = after[after.length - 1]
  return last === undefined ? 0 : last[1] - (prior.get(last[0]) ?? 0)
}

/**
 * The `q` quantile (0 to 1) of the observations made between two readings of a cumulative histogram: the
 * bucket holding the observation of rank `q * count`, and the value interpolated linearly inside it from its
 * lower bound (0 for the first bucket). Observations above the last finite bound are reported as that bound.
 * Null when nothing was observed in between. Rounded to the millisecond.
 */
export function quantileFromBuckets (before: Buckets, after: Buckets, q: number): number | null {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile ${q} is not between 0 and 1`)
  const prior = new Map(before)
  const delta = after.map(([le, count]) => [le, count - (prior.get(le) ?? 0)] as const)
  const total = delta[delta.length - 1]?.[1] ?? 0
  if (total <= 0) return null
  const rank = total * q
  let lowerBound = 0
  let lowerCount = 0
  for (const [le, count] of delta) {
    if (count >= rank && count > 0) {
      if (le === Infinity) return lowerBound
      const inBucket = count - lowerCount
      const share = inBucket > 0 ? (rank - lowerCount) / inBucket : 1
      return round(lowerBound + (le - lowerBound) * share)
    }
    lowerBound = le
    lowerCount = count
  }
  return lowerBound
}
