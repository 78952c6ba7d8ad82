/**
 * Odds conflation: change sets merged into one that puts the image in the same place (changes/conflate.ts),
 * and a connection's interval: the first frame at once, the rest within the interval together at its end
 * (fanout/conflation.ts, on fake timers).
 */
import { applyOddsChanges } from '@touchline/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { conflateChanges, conflateOdds } from '../../../src/protocol/conflate.ts'
import { OddsConflation } from '../../../src/fanout/conflation.ts'
import { fixtureIdOf } from '../../../src/store/types.ts'
import { Outgoing } from '../../../src/fanout/outgoing.ts'
import { diffOdds } from '../../../src/odds/diff.ts'
import { marketsOf } from '../../../src/odds/normalize.ts'
import type { OddRow } from '../../../src/upstream/odds-schemas.ts'
import type { FixtureOdds, OddsChange, OddsRecord } from '../../../src/wire-model/model.ts'

let nextId = 1
const row = (bookmaker: number, market: number, label: string, value: string, extra: Partial<OddRow> = {}): OddRow =>
  ({ id: nextId++, fixture_id: 7, bookmaker_id: bookmaker, market_id: market, label, value, total: null, handicap: null, ...extra })
const result = (home: string, draw: string, away: string, extra: Partial<OddRow> = {}): OddRow[] =>
  [row(2, 1, '1', home, extra), row(2, 1, 'X', draw, extra), row(2, 1, '2', away, extra)]
const image = (rows: OddRow[], version: number, stale = false): FixtureOdds =>
  ({ fixture_id: 7, league_id: 271, home_id: 70, away_id: 71, markets: marketsOf(rows), stale, updated_at: `2026-11-21T20:00:${String(version % 60).padStart(2, '0')}.000Z`, version })

/** Successive images and the records between them, as the odds poller writes them. */
function records (images: FixtureOdds[]): OddsRecord[] {
  return images.slice(1).map((next, i) => ({
    cursor: `e-${i + 1}`, fixture_id: 7, league_id: 271, at: next.updated_at, odds: next, changes: diffOdds(images[i], next, null)
  }))
}

const kinds = (changes: readonly OddsChange[]): string[] => changes.map((c) => c.kind === 'odds_changed' ? `${c.kind} ${c.selection.label} ${c.previous?.price}->${c.price} ${c.direction}` : c.kind)

describe('conflateChanges', () => {
  it('keeps a selection\'s last move with the price before its first, and its direction over the whole interval', () => {
    const images = [image(result('2.00', '3.00', '4.00'), 1), image(result('1.90', '3.00', '4.20'), 2), image(result('2.10', '3.00', '4.00'), 3)]
    const merged = conflateOdds(records(images)) as OddsRecord
    // 1: 2.00 -> 1.90 -> 2.10 (up over all); 2: 4.00 -> 4.20 -> 4.00 (back where it was: nothing to say).
    expect(kinds(merged.changes)).toEqual(['odds_changed 1 2.00->2.10 up'])
    expect(merged.cursor).toBe('e-2')
    expect(merged.odds).toBe(images[2])
  })

  it('never conflates away a suspension, a reopening, a settlement or staleness, and keeps them in order', () => {
    const images = [
      image(result('2.00', '3.00', '4.00'), 1),
      image(result('2.00', '3.00', '4.00', { suspended: true }), 2),
      image(result('1.40', '4.50', '7.00'), 3),
      image(result('1.40', '4.50', '7.00'), 4, true),
      image(result('1.35', '4.50', '7.00', { stopped: true }), 5, true)
    ]
    const merged = conflateOdds(records(images)) as OddsRecord
    expect(kinds(merged.changes)).toEqual([
      'market_suspended', 'market_reopened', 'odds_changed X 3.00->4.50 up', 'odds_changed 2 4.00->7.00 up', 'odds_stale', 'odds_changed 1 2.00->1.35 down', 'market_settled'
    ])
    expect(applyOddsChanges(images[0] as FixtureOdds, { version: 5, at: merged.at, changes: merged.changes })).toEqual(images[4])
  })

  it('starts a selection\'s chain again after its market was replaced whole', () => {
    const images = [
      image(result('2.00', '3.00', '4.00'), 1),
      image(result('2.20', '3.00', '4.00'), 2),
      image([row(2, 1, '1', '2.50'), row(2, 1, '2', '4.00')], 3),
      image([row(2, 1, '1', '2.60'), row(2, 1, '2', '4.00')], 4)
    ]
    const merged = conflateChanges(records(images).flatMap((r) => r.changes))
    expect(kinds(merged)).toEqual(['market_added', 'odds_changed 1 2.50->2.60 up'])
    expect(applyOddsChanges(images[0] as FixtureOdds, { version: 4, at: images[3]?.updated_at as string, changes: merged })).toEqual(images[3])
  })

  it('gives the same image as the change sets one by one, over a random walk cut at random', () => {
    let seed = 11
    const random = (): number => { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
    const images: FixtureOdds[] = []
    for (let v = 1; v <= 400; v++) {
      const status = random() < 0.1 ? { suspended: true } : random() < 0.02 ? { stopped: true, winning: random() < 0.5 } : {}
      const rows = ['1', 'X', '2'].map((label) => row(2, 1, label, (1 + Math.round(random() * 30) / 10).toFixed(2), status))
      if (random() < 0.8) rows.push(row(34, 80, 'Over', (1 + random()).toFixed(2), { total: random() < 0.9 ? '2.5' : '3.5' }))
      images.push(image(rows, v, random() < 0.05))
    }
    const all = records(images)
    let held = images[0] as FixtureOdds
    let sent = 0
    for (let i = 0; i < all.length;) {
      const n = 1 + Math.floor(random() * 6)
      const merged = conflateOdds(all.slice(i, i + n))
      i += n
      const target = images[Math.min(i, all.length)] as FixtureOdds
      if (merged === undefined) {
        // Nothing left to say: the prices came back where they were.
        expect(target.markets).toEqual(held.markets)
        expect(target.stale).toBe(held.stale)
        held = { ...held, version: target.version, updated_at: target.updated_at }
        continue
      }
      sent++
      held = applyOddsChanges(held, { version: merged.odds.version, at: merged.at, changes: merged.changes })
      expect(held).toEqual(target)
    }
    expect(sent).toBeGreaterThan(60)
  })
})

describe('OddsConflation', () => {
  beforeEach(() => { vi.useFakeTimers({ now: 0 }) })
  afterEach(() => { vi.useRealTimers() })

  const outs = (fixture: number, n: number): Outgoing[] => {
    const images = Array.from({ length: n + 1 }, (_, v) => image(result((2 + v / 10).toFixed(2), '3.00', '4.00'), v + 1))
    const mine = images.map((o) => ({ ...o, fixture_id: fixture }))
    return records(images).map((r, i) => {
      const rec = { ...r, fixture_id: fixture, odds: mine[i + 1] as FixtureOdds }
      // As the hub routes it: with the image before, so its delta frame can be built.
      return Outgoing.of(rec, JSON.stringify(rec), mine[i])
    })
  }

  it('sends a fixture\'s first odds frame at once and the ones within the interval after it together at its end', () => {
    const sent: Outgoing[] = []
    const c = new OddsConflation(1000, (out) => sent.push(out))
    const a = outs(7, 4)
    expect(c.hold(a[0] as Outgoing)).toBe(false)
    vi.advanceTimersByTime(200)
    expect(c.hold(a[1] as Outgoing)).toBe(true)
    vi.advanceTimersByTime(300)
    expect(c.hold(a[2] as Outgoing)).toBe(true)
    expect(c.heldCount).toBe(2)
    vi.advanceTimersByTime(499)
    expect(sent).toEqual([])
    vi.advanceTimersByTime(1)
    expect(sent).toHaveLength(1)
    const merged = JSON.parse(sent[0]?.frameJson('delta') ?? '')
    // Versions 3 and 4 as one, applying to version 2 (the frame sent at once): the frame says so.
    expect(merged).toMatchObject({ type: 'odds', version: 4, from_version: 2, cursor: 'e-3' })
    expect(merged.odds).toBeUndefined()
    expect(merged.changes).toEqual([expect.objectContaining({ kind: 'odds_changed', price: '2.30', previous: { price: '2.10', decimal: 2.1 } })])
    // The next interval started with that frame: another move within it waits for its end.
    expect(c.hold(a[3] as Outgoing)).toBe(true)
    vi.advanceTimersByTime(1000)
    expect(sent).toHaveLength(2)
    // After a quiet interval, the next frame goes at once again.
    vi.advanceTimersByTime(1000)
    expect(c.hold(outs(7, 1)[0] as Outgoing)).toBe(false)
  })

  it('keeps each fixture\'s interval apart, and drops what it holds when cleared', () => {
    const sent: Outgoing[] = []
    const c = new OddsConflation(500, (out) => sent.push(out))
    const [a1, a2] = outs(7, 2) as [Outgoing, Outgoing]
    const [b1, b2] = outs(8, 2) as [Outgoing, Outgoing]
    expect(c.hold(a1)).toBe(false)
    vi.advanceTimersByTime(300)
    expect(c.hold(b1)).toBe(false)
    expect(c.hold(a2)).toBe(true)
    expect(c.hold(b2)).toBe(true)
    vi.advanceTimersByTime(200)
    expect(sent.map((o) => fixtureIdOf(o.record))).toEqual([7])
    vi.advanceTimersByTime(300)
    expect(sent.map((o) => fixtureIdOf(o.record))).toEqual([7, 8])
    c.hold(outs(7, 1)[0] as Outgoing)
    c.hold(outs(7, 2)[1] as Outgoing)
    c.clear()
    vi.advanceTimersByTime(5000)
    expect(sent).toHaveLength(2)
  })
})
