/**
 * Odds rows into images (normalize.ts) and images into typed changes (diff.ts), and the client's
 * applyOddsChanges putting the image back together from those changes, exactly.
 */
import { applyOddsChanges } from '@touchline/client'
import { describe, expect, it } from 'vitest'
import { diffOdds } from '../../../src/odds/diff.ts'
import { marketsOf, mergeMarkets } from '../../../src/odds/normalize.ts'
import { parseOdds, type OddRow } from '../../../src/upstream/odds-schemas.ts'
import type { FixtureOdds, OddsMarket } from '../../../src/wire-model/model.ts'

let nextId = 1
const row = (bookmaker: number, market: number, label: string, value: string, extra: Partial<OddRow> = {}): OddRow =>
  ({ id: nextId++, fixture_id: 7, bookmaker_id: bookmaker, market_id: market, label, value, total: null, handicap: null, ...extra })

const fullTime = (home: string, draw: string, away: string, extra: Partial<OddRow> = {}): OddRow[] =>
  [row(2, 1, '1', home, extra), row(2, 1, 'X', draw, extra), row(2, 1, '2', away, extra)]

const image = (markets: OddsMarket[], version = 1, stale = false): FixtureOdds =>
  ({ fixture_id: 7, league_id: 271, home_id: 70, away_id: 71, markets, stale, updated_at: '2026-11-21T20:00:00.000Z', version })

/** The next image after `prev`, its changes, and a check that applying them to `prev` gives it. */
function step (prev: FixtureOdds | undefined, markets: OddsMarket[], stale = false): { next: FixtureOdds, changes: ReturnType<typeof diffOdds> } {
  const next = image(markets, (prev?.version ?? 0) + 1, stale)
  const changes = diffOdds(prev, next, '2026-11-21T19:59:00.000Z')
  if (prev !== undefined) expect(applyOddsChanges(prev, { version: next.version, at: next.updated_at, changes })).toEqual(next)
  return { next, changes }
}

describe('odds rows', () => {
  it('drop a row that cannot be read alone: no ids, a price that is no decimal', () => {
    const rows = parseOdds({ data: [{ id: 1, fixture_id: 7, bookmaker_id: 2, market_id: 1, label: '1', value: '2.10' }, { id: 2, fixture_id: 7, label: 'X', value: '3.0' }, { id: 3, fixture_id: 7, bookmaker_id: 2, market_id: 1, label: '2', value: 'evens' }] })
    expect(rows.map((r) => r.id)).toEqual([1])
    expect(parseOdds({ message: 'No result(s) found matching your request.' })).toEqual([])
  })

  it('group into markets by bookmaker then market, selections in the upstream order, prices kept as sent', () => {
    const markets = marketsOf([
      row(34, 1, '1', '2.10', { sort_order: 1 }),
      // As the upstream may send them: a price as a number, a line as a number; parsed as the text they read as.
      ...parseOdds({ data: [{ id: 90, fixture_id: 7, bookmaker_id: 2, market_id: 80, label: 'Over', value: 1.91, total: '2.5' }, { id: 91, fixture_id: 7, bookmaker_id: 2, market_id: 80, label: 'Under', value: '1.95', total: 2.5 }] }),
      row(2, 1, '2', '3.60', { sort_order: 3 }), row(2, 1, '1', '2.05', { sort_order: 1, market: { name: 'Fulltime Result' }, bookmaker: { name: 'bet365' } })
    ])
    expect(markets.map((m) => [m.bookmaker_id, m.market_id])).toEqual([[2, 1], [2, 80], [34, 1]])
    expect(markets[0]).toMatchObject({ bookmaker: 'bet365', market: 'Fulltime Result', status: 'open', selections: [{ label: '1', price: '2.05', decimal: 2.05 }, { label: '2', price: '3.60', decimal: 3.6 }] })
    expect(markets[1]?.selections.map((s) => [s.label, s.price, s.total])).toEqual([['Over', '1.91', '2.5'], ['Under', '1.95', '2.5']])
  })

  it('give a market its status: stopped over suspended over open; a stopped one\'s selections won or not', () => {
    expect(marketsOf(fullTime('2.0', '3.0', '4.0', { suspended: true }))[0]?.status).toBe('suspended')
    const settled = marketsOf([row(2, 1, '1', '1.01', { stopped: true, winning: true }), row(2, 1, 'X', '9.0', { stopped: true }), row(2, 1, '2', '9.0', { stopped: true, winning: false })])[0]
    expect(settled?.status).toBe('stopped')
    expect(settled?.selections.map((s) => s.winning)).toEqual([true, false, false])
    expect(marketsOf(fullTime('2.0', '3.0', '4.0'))[0]?.selections.map((s) => s.winning)).toEqual([null, null, null])
  })

  it('merge a `latest` answer into the markets held: its rows replace their selections, the rest stay', () => {
    const held = marketsOf([...fullTime('2.00', '3.00', '4.00'), row(2, 80, 'Over', '1.90', { total: '2.5' }), row(2, 80, 'Under', '1.90', { total: '2.5' })])
    const merged = mergeMarkets(held, [row(2, 1, '1', '1.80'), row(2, 14, 'Yes', '1.70')])
    expect(merged.map((m) => m.market_id)).toEqual([1, 14, 80])
    expect(merged[0]?.selections.map((s) => s.price)).toEqual(['1.80', '3.00', '4.00'])
    expect(merged[2]).toEqual(held[1])
  })
})

describe('diffOdds', () => {
  it('adds every market whole on the first image', () => {
    const { changes } = step(undefined, marketsOf(fullTime('2.00', '3.00', '4.00')))
    expect(changes.map((c) => c.kind)).toEqual(['market_added'])
  })

  it('moves prices with their previous price and direction, and nothing when nothing moved', () => {
    const first = step(undefined, marketsOf(fullTime('2.00', '3.00', '4.00'))).next
    const { next, changes } = step(first, marketsOf(fullTime('1.80', '3.00', '4.50')))
    expect(changes).toEqual([
      { kind: 'odds_changed', bookmaker_id: 2, market_id: 1, line: null, selection: { label: '1', total: null, handicap: null }, price: '1.80', decimal: 1.8, previous: { price: '2.00', decimal: 2 }, direction: 'down' },
      { kind: 'odds_changed', bookmaker_id: 2, market_id: 1, line: null, selection: { label: '2', total: null, handicap: null }, price: '4.50', decimal: 4.5, previous: { price: '4.00', decimal: 4 }, direction: 'up' }
    ])
    expect(step(next, next.markets).changes).toEqual([])
  })

  it('suspends every selection of a market at once around a goal, then reopens it at its new prices in one change set', () => {
    const open = step(undefined, marketsOf(fullTime('2.00', '3.00', '4.00'))).next
    const suspended = step(open, marketsOf(fullTime('2.00', '3.00', '4.00', { suspended: true })))
    expect(suspended.changes.map((c) => c.kind)).toEqual(['market_suspended'])
    const reopened = step(suspended.next, marketsOf(fullTime('1.30', '5.00', '9.00')))
    expect(reopened.changes.map((c) => c.kind)).toEqual(['market_reopened', 'odds_changed', 'odds_changed', 'odds_changed'])
  })

  it('puts a move seen with the stop that follows it before the stop: no price moves while a market is suspended', () => {
    const open = step(undefined, marketsOf(fullTime('2.00', '3.00', '4.00'))).next
    const both = step(open, marketsOf(fullTime('1.90', '3.00', '4.00', { suspended: true })))
    expect(both.changes.map((c) => c.kind)).toEqual(['odds_changed', 'market_suspended'])
  })

  it('settles a stopped market with its winners, and again when the winners are known later', () => {
    const open = step(undefined, marketsOf(fullTime('1.10', '8.00', '20.0'))).next
    const stopped = step(open, marketsOf(fullTime('1.10', '8.00', '20.0', { stopped: true })))
    expect(stopped.changes).toEqual([{ kind: 'market_settled', bookmaker_id: 2, market_id: 1, line: null, winning: [] }])
    const won = step(stopped.next, marketsOf([row(2, 1, '1', '1.10', { stopped: true, winning: true }), row(2, 1, 'X', '8.00', { stopped: true }), row(2, 1, '2', '20.0', { stopped: true })]))
    expect(won.changes).toEqual([{ kind: 'market_settled', bookmaker_id: 2, market_id: 1, line: null, winning: [{ label: '1', total: null, handicap: null }] }])
  })

  it('settles a market first seen already stopped (opened and decided between two polls) after adding it', () => {
    const open = step(undefined, marketsOf(fullTime('1.50', '4.00', '6.00'))).next
    const decided = [row(2, 57, '1', '2.10', { total: '5', stopped: true, winning: true }), row(2, 57, 'No Goal', '9.00', { total: '5', stopped: true }), row(2, 57, '2', '2.40', { total: '5', stopped: true })]
    const seen = step(open, marketsOf([...fullTime('1.50', '4.00', '6.00'), ...decided]))
    expect(seen.changes.map((c) => c.kind)).toEqual(['market_added', 'market_settled'])
    expect(seen.changes[1]).toEqual({ kind: 'market_settled', bookmaker_id: 2, market_id: 57, line: '5', winning: [{ label: '1', total: '5', handicap: null }] })
    // Stopped with one result known (only the winner's row stopped yet), then sent whole (a row fewer) with
    // all of them: settled then.
    const partial = step(open, marketsOf([...fullTime('1.50', '4.00', '6.00'), decided[0] as OddRow, { ...decided[1] as OddRow, stopped: false }, { ...decided[2] as OddRow, stopped: false }]))
    expect(partial.changes.map((c) => c.kind)).toEqual(['market_added'])
    const known = step(partial.next, marketsOf([...fullTime('1.50', '4.00', '6.00'), decided[0] as OddRow, decided[2] as OddRow]))
    expect(known.changes.map((c) => c.kind)).toEqual(['market_added', 'market_settled'])
    // On a fixture's first image nothing is settled: it is the image, not a change of it.
    expect(step(undefined, marketsOf(decided)).changes.map((c) => c.kind)).toEqual(['market_added'])
  })

  it('sends a market whose selections changed whole, removes one no longer offered, and says when the odds go stale and come back', () => {
    const first = step(undefined, marketsOf([...fullTime('2.00', '3.00', '4.00'), row(2, 80, 'Over', '1.9', { total: '2.5' }), row(2, 80, 'Under', '1.9', { total: '2.5' })])).next
    const reshaped = step(first, marketsOf([row(2, 1, '1', '2.00'), row(2, 1, '2', '4.00'), row(2, 80, 'Over', '1.4', { total: '3.5' }), row(2, 80, 'Under', '2.8', { total: '3.5' })]))
    // The result market lost its draw: whole. The over/under line moved: the 2.5 market gone, the 3.5 one new.
    expect(reshaped.changes.map((c) => [c.kind, 'market' in c ? c.market.line : 'line' in c ? c.line : undefined])).toEqual([['market_removed', '2.5'], ['market_added', null], ['market_added', '3.5']])
    const removed = step(reshaped.next, marketsOf(fullTime('2.00', '3.00', '4.00')))
    expect(removed.changes.map((c) => c.kind)).toEqual(['market_removed', 'market_added'])
    expect(removed.changes[0]).toEqual({ kind: 'market_removed', bookmaker_id: 2, market_id: 80, line: '3.5' })
    const stale = step(removed.next, removed.next.markets, true)
    expect(stale.changes).toEqual([{ kind: 'odds_stale', stale: true, confirmed_at: '2026-11-21T19:59:00.000Z' }])
    expect(step(stale.next, stale.next.markets, false).changes.map((c) => c.kind)).toEqual(['odds_stale'])
  })

  it('keeps the markets of one market id apart by line, each with its own status, in numeric order of lines', () => {
    const nextGoal = (goal: string, opts: Partial<OddRow> = {}): OddRow[] => ['1', 'No Goal', '2'].map((label) => row(2, 57, label, '3.00', { total: goal, ...opts }))
    const { next } = step(undefined, marketsOf([...nextGoal('10', {}), ...nextGoal('2', { stopped: true, winning: false }), ...nextGoal('1', { stopped: true })]))
    expect(next.markets.map((m) => [m.line, m.status])).toEqual([['1', 'stopped'], ['2', 'stopped'], ['10', 'open']])
    const suspended = step(next, marketsOf([...nextGoal('10', { suspended: true }), ...nextGoal('2', { stopped: true, winning: false }), ...nextGoal('1', { stopped: true })]))
    expect(suspended.changes).toEqual([{ kind: 'market_suspended', bookmaker_id: 2, market_id: 57, line: '10' }])
  })

  it('rebuilds every image of a random walk of prices, statuses and markets from the changes alone', () => {
    const labels = ['1', 'X', '2']
    let prev: FixtureOdds | undefined
    let seed = 7
    const random = (): number => { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
    for (let i = 0; i < 300; i++) {
      const status = random() < 0.1 ? { suspended: true } : random() < 0.02 ? { stopped: true, winning: random() < 0.5 } : {}
      const rows = labels.map((label) => row(2, 1, label, (1 + Math.round(random() * 900) / 100).toFixed(2), status))
      if (random() < 0.7) rows.push(row(34, 14, 'Yes', (1 + random()).toFixed(2)), row(34, 14, 'No', (1 + random()).toFixed(2)))
      prev = step(prev, marketsOf(rows), random() < 0.05).next
    }
  })
})
