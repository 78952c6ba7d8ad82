import { describe, expect, it } from 'vitest'
import { createLeagueIndex } from '../../../src/passthrough/league-index.ts'

describe('league index', () => {
  it('keeps fixture and season leagues apart', () => {
    const index = createLeagueIndex()
    index.learnFixture(10, 271)
    index.learnSeason(10, 501)
    expect(index.fixture(10)).toBe(271)
    expect(index.season(10)).toBe(501)
    expect(index.fixture(11)).toBeUndefined()
  })

  it('forgets the least recently learned ids past its bound', () => {
    const index = createLeagueIndex({ maxEntries: 2 })
    index.learnFixture(1, 271)
    index.learnFixture(2, 271)
    index.learnFixture(1, 271)
    index.learnFixture(3, 501)
    expect(index.fixture(2), 'the oldest learned').toBeUndefined()
    expect(index.fixture(1)).toBe(271)
    expect(index.fixture(3)).toBe(501)
    expect(index.size()).toBe(2)
  })
})
