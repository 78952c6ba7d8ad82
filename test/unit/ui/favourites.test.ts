/**
 * Favourites as data (src/ui/public/lib/favourites.js), run in Node with a store in memory: stars toggled
 * and saved, what was saved read leniently, a match the fan's by itself, its team or its league, leagues
 * pinned first in the order pinned, another tab's change heard.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error the page's plain JavaScript module (no declarations)
import { Favourites, parseSaved, pinnedFirst, STORAGE_KEY } from '../../../src/ui/public/lib/favourites.js'

const memory = (initial?: string): { getItem: (k: string) => string | null, setItem: (k: string, v: string) => void, data: Map<string, string> } => {
  const data = new Map<string, string>(initial === undefined ? [] : [[STORAGE_KEY, initial]])
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => { data.set(k, v) }, data }
}

const match = (id: number, league: number, home: number, away: number) => ({ id, league_id: league, home: { id: home }, away: { id: away } })

describe('favourites', () => {
  it('toggles a star and saves it, and a new page reads it back', () => {
    const store = memory()
    const fav = new Favourites(store)
    expect(fav.toggle('matches', 7)).toBe(true)
    expect(fav.toggle('teams', 90)).toBe(true)
    expect(fav.toggle('matches', 7)).toBe(false)
    expect(JSON.parse(store.data.get(STORAGE_KEY) as string)).toEqual({ matches: [], teams: [90], leagues: [], folded: [] })
    expect(new Favourites(store).has('teams', 90)).toBe(true)
  })

  it('reads what another version or a hand edit left leniently: bad ids and bad JSON count as none', () => {
    expect(parseSaved('{"matches":[1,"2",-3,1.5,4,4],"teams":"x","leagues":[8]}')).toEqual({ matches: [1, 4], teams: [], leagues: [8], folded: [] })
    expect(parseSaved('not json')).toEqual({ matches: [], teams: [], leagues: [], folded: [] })
    expect(parseSaved('null')).toEqual({ matches: [], teams: [], leagues: [], folded: [] })
  })

  it('counts a match as the fan\'s when it, one of its teams or its league is starred', () => {
    const fav = new Favourites(memory(JSON.stringify({ matches: [1], teams: [20], leagues: [8] })))
    expect(fav.mine(match(1, 5, 10, 11))).toBe(true)
    expect(fav.mine(match(2, 5, 10, 20))).toBe(true)
    expect(fav.mine(match(3, 8, 10, 11))).toBe(true)
    expect(fav.mine(match(4, 5, 10, 11))).toBe(false)
  })

  it('puts pinned leagues first, in the order pinned, then the given order', () => {
    const pinned = [501, 271]
    const order = pinnedFirst((a: number, b: number) => a - b, () => pinned)
    expect([2, 271, 8, 501, 1101].sort(order)).toEqual([501, 271, 2, 8, 1101])
  })

  it('hears another tab\'s change and tells its listeners; keeps folds apart from stars', () => {
    const fav = new Favourites(memory())
    let told = 0
    fav.onChange(() => { told++ })
    fav.heard({ key: 'another', newValue: '{}' })
    expect(told).toBe(0)
    fav.heard({ key: STORAGE_KEY, newValue: JSON.stringify({ leagues: [2] }) })
    expect([told, fav.pinned]).toEqual([1, [2]])
    expect(fav.toggleFolded(8)).toBe(true)
    expect([fav.folded(8), fav.has('leagues', 8), told]).toEqual([true, false, 2])
  })
})
