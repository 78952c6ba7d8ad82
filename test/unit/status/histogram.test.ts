/**
 * Quantiles of a histogram between two readings of its buckets (status/histogram.ts), as the status page's
 * detection latency p50 and p95 are computed: the bucket of the observation of rank q × count, interpolated
 * linearly inside it, as Prometheus' histogram_quantile does.
 */
import { Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { bucketsOf, observedBetween, quantileFromBuckets, type Buckets } from '../../../src/status/histogram.ts'

/** Cumulative buckets from the count in each bucket, bounds 0.5, 1, 2, +Inf. */
const cumulative = (...counts: number[]): Buckets => {
  let sum = 0
  return [0.5, 1, 2, Infinity].map((le, i) => {
    sum += counts[i] ?? 0
    return [le, sum] as const
  })
}

describe('quantileFromBuckets', () => {
  const before = cumulative(10, 10, 10, 0)

  it('takes the observations made between the readings only, and interpolates inside the bucket', () => {
    // Since `before`: 10 in (0, 0.5], 10 in (0.5, 1], 0 above.
    const after = cumulative(20, 20, 10, 0)
    expect(quantileFromBuckets(before, after, 0.5)).toBe(0.5)
    // Rank 19 of 20: 9 of the 10 observations of (0.5, 1].
    expect(quantileFromBuckets(before, after, 0.95)).toBe(0.95)
    expect(quantileFromBuckets(before, after, 0.25)).toBe(0.25)
    // q 0 is the lower bound of the first bucket holding an observation; q 1 the upper bound of the last.
    expect(quantileFromBuckets(before, cumulative(10, 14, 10, 0), 0)).toBe(0.5)
    expect(quantileFromBuckets(before, after, 1)).toBe(1)
  })

  it('reads from the start of the histogram when there is no reading before', () => {
    // 1 in (0, 0.5], 2 in (0.5, 1], 1 in (1, 2]: the median (rank 2) halfway through (0.5, 1].
    expect(quantileFromBuckets([], cumulative(1, 2, 1, 0), 0.5)).toBe(0.75)
    expect(quantileFromBuckets([], cumulative(1, 2, 1, 0), 0.95)).toBe(1.8)
  })

  it('reports observations above the last finite bound as that bound, and none as null', () => {
    expect(quantileFromBuckets(before, cumulative(10, 10, 10, 5), 0.5)).toBe(2)
    expect(quantileFromBuckets(before, cumulative(11, 10, 10, 5), 0.95)).toBe(2)
    expect(quantileFromBuckets(before, before, 0.5)).toBeNull()
    expect(quantileFromBuckets([], [], 0.95)).toBeNull()
  })

  it('refuses a quantile outside 0 to 1', () => {
    expect(() => quantileFromBuckets(before, before, 1.5)).toThrow(RangeError)
    expect(() => quantileFromBuckets(before, before, Number.NaN)).toThrow(RangeError)
  })
})

describe('bucketsOf and observedBetween', () => {
  it('reads a prom-client histogram\'s buckets by bound, +Inf last, and counts what was observed in between', async () => {
    const histogram = new Histogram({ name: 'h_seconds', help: 'h', buckets: [0.5, 1, 2], registers: [new Registry()] })
    const empty = bucketsOf(await histogram.get())
    expect(empty).toEqual([[0.5, 0], [1, 0], [2, 0], [Infinity, 0]])
    for (const s of [0.2, 0.7, 0.8, 3]) histogram.observe(s)
    const after = bucketsOf(await histogram.get())
    expect(after).toEqual(cumulative(1, 2, 0, 1))
    expect(observedBetween(empty, after)).toBe(4)
    expect(observedBetween([], after)).toBe(4)
    expect(observedBetween(after, after)).toBe(0)
    expect(quantileFromBuckets(empty, after, 0.5)).toBe(0.75)
  })
})
