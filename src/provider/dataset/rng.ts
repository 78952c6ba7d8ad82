/**
 * A small seeded PRNG (mulberry32) with the helpers the generator needs. Each part of the dataset draws
 * from its own stream (`fork(label)`), so that adding draws to one part never reshuffles the others.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

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
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
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

  pick<T> (items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
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

export function createRng (seed: number): Rng {
  return new Rng(seed)
}
