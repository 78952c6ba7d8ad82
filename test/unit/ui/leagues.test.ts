/**
 * The board's order of leagues (src/ui/public/lib/leagues.js): the operator's priority list, then the
 * best-known competitions, then the upstream's rank, international before league before cup, then country
 * and name; the leagues not known yet last.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error the page's plain JavaScript module (no declarations)
import { leagueOrder, WELL_KNOWN } from '../../../src/ui/public/lib/leagues.js'

type Kind = 'international' | 'league' | 'cup' | 'other'
const league = (id: number, name: string, country: string | null, category: number | null, kind: Kind) => ({ id, name, country, category, kind })

/** As the embedded provider's leagues read (the upstream's ids, categories and sub-types). */
const KNOWN = new Map([
  league(271, 'Superliga', 'Denmark', 2, 'league'),
  league(501, 'Premiership', 'Scotland', 2, 'league'),
  league(8, 'Premier League', 'England', 1, 'league'),
  league(24, 'FA Cup', 'England', 2, 'cup'),
  league(2, 'Champions League', 'Europe', 1, 'international'),
  league(1326, 'European Championship', 'Europe', 1, 'international'),
  league(72, 'Eredivisie', 'Netherlands', 2, 'league'),
  league(9001, 'Cup of Somewhere', 'Andorra', 2, 'cup'),
  league(9002, 'Friendlies', null, 4, 'other'),
  league(9003, 'Continental Shield', 'World', 2, 'international')
].map((l) => [l.id, l]))

const sorted = (ids: number[], priority: number[] = []): number[] => [...ids].sort(leagueOrder(() => KNOWN, priority))

describe('the board\'s league order', () => {
  it('puts the Euros and the Champions League above the Premier League, and the FA Cup above Denmark\'s Superliga', () => {
    expect(sorted([8, 271, 24, 2, 1326, 501])).toEqual([1326, 2, 8, 24, 271, 501])
  })

  it('ranks the rest by the upstream\'s category, then international before league before cup, then country', () => {
    expect(sorted([9002, 9001, 72, 9003, 501, 271])).toEqual([9003, 271, 72, 501, 9001, 9002])
  })

  it('puts the operator\'s priority list before everything, in its order', () => {
    expect(sorted([2, 8, 271, 501, 9001], [501, 271])).toEqual([501, 271, 2, 8, 9001])
  })

  it('leaves the leagues it does not know yet last, by id, and keeps the best-known ones known by id alone', () => {
    expect(sorted([77_777, 9001, 66_666, 564])).toEqual([564, 9001, 66_666, 77_777])
    expect(WELL_KNOWN.slice(0, 3)).toEqual([732, 1326, 2])
  })
})
