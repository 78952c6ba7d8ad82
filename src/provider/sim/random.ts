/**
 * Seeded pseudo-random numbers for the simulator. `Math.random` is never used: the same seed must give the
 * same matches on every run and every node.
 */

/** 32-bit integer hash of a list of numbers (a murmur3-style mix), used to derive independent seeds. */
export function hashSeed (...parts: readonly number[]): number {
  let h = 0x9e3779b9
  for (const part of parts) {
    // Fold numbers beyond 32 bits (fixture ids times 1000, unix times) in two halves.
    const lo = part >>> 0
    const hi = Math.floor(part / 0x1_0000_0000) >>> 0
    for (const word of [lo, hi]) {
      h = Math.imul(h ^ word, 0x85ebca6b)
      h = (h << 13) | (h >>> 19)
      h = Math.imul(h, 0xc2b2ae35)
    }
  }
  h ^= h >>> 16
  return h >>> 0
}

export interface Rng {
  /** Uniform in [0, 1). */
  next: () => number
  /** Integer in [min, max], both included. */
  int: (min: number, max: number) => number
  chance: (p: number) => boolean
  pick: <T>(items: readonly T[]) => T | undefined
  /** Poisson-distributed count with mean `lambda` (Knuth's method; lambda stays small here). */
  poisson: (lambda: number) => number
  /** Index drawn with the given relative weights. */
  weighted: (weights: readonly number[]) => number
  shuffle: <T>(items: readonly T[]) => T[]
}

/** mulberry32: tiny, fast and good enough for game-like randomness. */
export function createRng (seed: number): Rng {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000
  }
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1))
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items.length === 0 ? undefined : items[int(0, items.length - 1)],
    poisson: (lambda) => {
      const limit = Math.exp(-lambda)
      let k = 0
      let p = next()
      while (p > limit) {
        k++
        p *= next()
      }
      return k
    },
    weighted: (weights) => {
      const total = weights.reduce((a, b) => a + b, 0)
      let r = next() * total
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i] ?? 0
        if (r < 0) return i
      }
      return weights.length - 1
    },
    shuffle: (items) => {
      const out = [...items]
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i)
        const tmp = out[i] as typeof out[number]
        out[i] = out[j] as typeof out[number]
        out[j] = tmp
      }
      return out
    }
  }
}

/** Independent random streams per concern, so that changing how cards are drawn does not move the goals. */
export type Stream = 'frame' | 'goals' | 'cards' | 'subs' | 'players' | 'stats' | 'pens' | 'schedule'
const STREAM_INDEX: Record<Stream, number> = { frame: 1, goals: 2, cards: 3, subs: 4, players: 5, stats: 6, pens: 7, schedule: 8 }

export function streamRng (seed: number, fixtureId: number, stream: Stream): Rng {
  return createRng(hashSeed(seed, fixtureId, STREAM_INDEX[stream]))
}
