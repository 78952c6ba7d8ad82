/**
 * Which league a fixture or a season belongs to, for scoping rows that carry only a `fixture_id` or a
 * `season_id` (xG, odds, predictions, commentaries, player statistics...). Learned from every body the
 * scope reads for a scoped key (a fixture's `league_id`, any record holding both `season_id` and
 * `league_id`), from the live mirror, and from the upstream lookups the scope makes for ids still unknown.
 *
 * Bounded: each map keeps its most recently learned `maxEntries` ids (a fixture's league never changes, so
 * an entry never goes stale; an evicted one is learned again when next needed).
 */
import { LRUCache } from 'lru-cache'

export interface LeagueIndex {
  fixture: (id: number) => number | undefined
  season: (id: number) => number | undefined
  learnFixture: (id: number, league: number) => void
  learnSeason: (id: number, league: number) => void
  /** Entries held, for tests and metrics. */
  size: () => number
}

/** 200,000 fixtures is several seasons of every league a large plan covers; about 20 MB at most. */
const DEFAULT_MAX_ENTRIES = 200_000

export function createLeagueIndex (opts: { maxEntries?: number } = {}): LeagueIndex {
  const max = opts.maxEntries ?? DEFAULT_MAX_ENTRIES
  // `peek`, not `get`: an id's place is when it was learned, not when it was last asked for.
  const fixtures = new LRUCache<number, number>({ max })
  const seasons = new LRUCache<number, number>({ max })
  return {
    fixture: (id) => fixtures.peek(id),
    season: (id) => seasons.peek(id),
    learnFixture: (id, league) => { fixtures.set(id, league) },
    learnSeason: (id, league) => { seasons.set(id, league) },
    size: () => fixtures.size + seasons.size
  }
}
