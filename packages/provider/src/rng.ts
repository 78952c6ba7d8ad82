/**
 * The provider's one source of randomness: a seeded PRNG (mulberry32) and the hashes that derive seeds.
 * `Math.random` is never used: the same seed must give the same dataset and the same matches on every run
 * and every node. The dataset and the simulator each split their draws into independent streams (a fork
 * per part of the dataset, a stream per concern of a match), so that adding draws to one part never
 * reshuffles the others.
 */

/** 32-bit FNV-1a hash of a string (seeds named by a label). */
export function hashString (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** 32-bit hash of a list of numbers (a murmur3-style mix), for seeds made of ids and times. */
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

/**
 * A 32-bit hash of one number (murmur3's finalizer), for values that need no stream of their own: the same
 * record always gets the same weather or transfer fee, whatever else was drawn.
 */
export function hashInt (n: number): number {
  let x = (n ^ 0x9e3779b9) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0
  return (x ^ (x >>> 16)) >>> 0
}

/** mulberry32: tiny, fast and good enough for generated data and game-like randomness. */
export class Rng {
  readonly seed: number
  #state: number

  constructor (seed: number) {
    this.seed = seed >>> 0
    this.#state = this.seed
  }

  /** A float in [0, 1). */
  next (): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000
  }

  /** An integer in [min, max], both included. */
  int (min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** A float in [min, max). */
  float (min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance (probability: number): boolean {
    return this.next() < probability
  }

  /** One of `items`, which must not be empty. */
  pick<T> (items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** One of `items`, or undefined (without drawing) when there are none. */
  pickOrUndefined<T> (items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : this.pick(items)
  }

  /** Poisson-distributed count with mean `lambda` (Knuth's method; lambda stays small here). */
  poisson (lambda: number): number {
    const limit = Math.exp(-lambda)
    let k = 0
    let p = this.next()
    while (p > limit) {
      k++
      p *= this.next()
    }
    return k
  }

  /** An index drawn with the given relative weights. */
  weighted (weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0)
    let r = this.next() * total
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0
      if (r < 0) return i
    }
    return weights.length - 1
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T> (items: readonly T[]): T[] {
    const out = items.slice()
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      const tmp = out[i] as T
      out[i] = out[j] as T
      out[j] = tmp
    }
    return out
  }

  /** `count` distinct items in random order (all of them when there are fewer). */
  sample<T> (items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count)
  }

  /** An independent stream derived from this one's seed and a label. */
  fork (label: string): Rng {
    return new Rng(Math.imul(this.seed ^ 0x9e3779b9, 0x85ebca6b) ^ hashString(label))
  }
}
