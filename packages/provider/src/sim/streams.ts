/**
 * The simulator's random streams: one per concern of a match, each seeded from the provider's seed and the
 * fixture, so that changing how cards are drawn does not move the goals.
 */
import { hashSeed, Rng } from '../rng.ts'

export type Stream = 'frame' | 'goals' | 'cards' | 'subs' | 'players' | 'stats' | 'pens' | 'schedule'
const STREAM_INDEX: Record<Stream, number> = { frame: 1, goals: 2, cards: 3, subs: 4, players: 5, stats: 6, pens: 7, schedule: 8 }

export function streamRng (seed: number, fixtureId: number, stream: Stream): Rng {
  return new Rng(hashSeed(seed, fixtureId, STREAM_INDEX[stream]))
}
