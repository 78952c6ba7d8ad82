/**
 * Which league a fixture or a season belongs to, for scoping rows that carry only a `fixture_id` or a
 * `season_id` (xG, odds, predictions, commentaries, player statistics...). Learned from every body the
 * scope reads for a scoped key (a fixture's `league_id`, any record holding both `season_id` and
 * `league_id`), from the live mirror, and from the upstream lookups the scope makes for ids still unknown.
 *
 * Bounded: each map keeps its most recently learned `maxEntries` ids (a fixture's league never changes, so
 * an entry never goes stale; an evicted one is learned again when next needed).
 */

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

function boundedMap (max: number): { get: (id: number) => number | undefined, set: (id: number, league: number) => void, size: () => number } {
  const map = new Map<number, number>()
  return {
    get: (id) => map.get(id),
    set (id, league) {
      map.delete(id)
      map.set(id, league)
      if (map.size > max) map.delete(map.keys().next().value as number)
    },
    size: () => map.size
  }
}

export function createLeagueIndex (opts: { maxEntries?: number } = {}): LeagueIndex {
  const max = opts.maxEntries ?? DEFAULT_MAX_ENTRIES
  const fixtures = boundedMap(max)
  const seasons = boundedMap(max)
  return {
    fixture: fixtures.get,
    season: seasons.get,
    learnFixture: fixtures.set,
    learnSeason: seasons.set,
    size: () => fixtures.size() + seasons.size()
  }
}
