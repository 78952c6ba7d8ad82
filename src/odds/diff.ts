/**
 * The odds differ: two successive odds images of a fixture -> the typed odds changes between them
 * (docs/protocol.md, "Odds"). Pure. Order within one change set, fixed so that clients apply them as they come:
 *   1. market_removed, 2. market_added (a new market, or one whose selections changed: whole; one already
 *      stopped is also settled in 7),
 *   3. odds_changed of the markets this change set suspends (the prices they stopped at: a poll may see a
 *      move and the stop after it together), 4. market_suspended, 5. market_reopened, 6. every other
 *      odds_changed (the new prices, a reopened market's included), 7. market_settled, 8. odds_stale.
 * So no price moves between a market's `market_suspended` and its `market_reopened`.
 * Applying them in order to the first image gives the second (the client library's applyOddsChanges).
 */
import { applyOddsChanges, marketKey, type MarketRef } from '@touchline/core'
import type { FixtureOdds, OddsChange, OddsMarket, OddsSelection, SelectionKey } from '../wire-model/model.ts'
import { sameValue } from '../util/same-value.ts'
import { selectionKey } from './normalize.ts'

const keyOf = (s: OddsSelection): SelectionKey => ({ label: s.label, total: s.total, handicap: s.handicap })
const ref = (m: OddsMarket): MarketRef => ({ bookmaker_id: m.bookmaker_id, market_id: m.market_id, line: m.line })
const winners = (m: OddsMarket): SelectionKey[] => m.selections.filter((s) => s.winning === true).map(keyOf)

/** The changes of a change set by place in its order (see above); `stopped_at`: the moves of markets it suspends. */
type Buckets = Record<OddsChange['kind'] | 'stopped_at', OddsChange[]>

/** Whether two markets hold the same selections (by key, in order) with the same names: else it is sent whole. */
function sameShape (a: OddsMarket, b: OddsMarket): boolean {
  return a.bookmaker === b.bookmaker && a.market === b.market && a.selections.length === b.selections.length &&
    a.selections.every((s, i) => {
      const t = b.selections[i] as OddsSelection
      return selectionKey(s) === selectionKey(t) && s.name === t.name
    })
}

/** The changes of one market whose shape held: status, prices, winners. */
function marketChanges (prev: OddsMarket, next: OddsMarket, out: Buckets): void {
  const suspends = prev.status !== 'suspended' && next.status === 'suspended'
  if (suspends) out.market_suspended.push({ kind: 'market_suspended', ...ref(next) })
  if (prev.status === 'suspended' && next.status === 'open') out.market_reopened.push({ kind: 'market_reopened', ...ref(next) })
  next.selections.forEach((s, i) => {
    const before = prev.selections[i] as OddsSelection
    if (before.price === s.price) return
    ;(suspends ? out.stopped_at : out.odds_changed).push({
      kind: 'odds_changed',
      ...ref(next),
      selection: keyOf(s),
      price: s.price,
      decimal: s.decimal,
      previous: { price: before.price, decimal: before.decimal },
      direction: s.decimal > before.decimal ? 'up' : s.decimal < before.decimal ? 'down' : null
    })
  })
  const settled = next.status === 'stopped' && (prev.status !== 'stopped' || !sameValue(winners(prev), winners(next)) ||
    !sameValue(prev.selections.map((s) => s.winning), next.selections.map((s) => s.winning)))
  if (settled) out.market_settled.push({ kind: 'market_settled', ...ref(next), winning: winners(next) })
}

/**
 * Changes from `prev` (undefined: no image yet) to `next`, in the order above; [] when nothing changed.
 * `confirmedAt`: when the upstream last listed the fixture's odds, for an `odds_stale` change.
 */
export function diffOdds (prev: FixtureOdds | undefined, next: FixtureOdds, confirmedAt?: string | null): OddsChange[] {
  const changes = typedChanges(prev, next, confirmedAt, new Set())
  if (prev === undefined) return changes
  // What the changes cannot say (a winner flag on a market still open, say) goes as the whole market.
  const applied = applyOddsChanges(prev, { version: next.version, at: next.updated_at, changes })
  const held = new Map(applied.markets.map((m) => [marketKey(m), m]))
  const whole = new Set(next.markets.filter((m) => !sameValue(held.get(marketKey(m)), m)).map(marketKey))
  return whole.size === 0 ? changes : typedChanges(prev, next, confirmedAt, whole)
}

/**
 * Whether a market sent whole is also settled: it is stopped with every selection's result known (so the
 * settlement applied after it changes nothing), and was not so before. A next-goal market can open and be
 * decided between two polls: first seen stopped, it still gets its `market_settled`, as every market does.
 */
function settledWhole (held: OddsMarket | undefined, m: OddsMarket): boolean {
  if (m.status !== 'stopped' || m.selections.some((s) => s.winning === null)) return false
  // Held stopped with a result not known yet (null): not settled, whatever its winners so far.
  return held === undefined || held.status !== 'stopped' || held.selections.some((s) => s.winning === null) || !sameValue(winners(held), winners(m))
}

/**
 * The changes of the order above; the markets in `whole` go as `market_added`, with no change of their own
 * but a settlement (settledWhole).
 */
function typedChanges (prev: FixtureOdds | undefined, next: FixtureOdds, confirmedAt: string | null | undefined, whole: ReadonlySet<string>): OddsChange[] {
  const out: Buckets = {
    market_removed: [], market_added: [], stopped_at: [], market_suspended: [], market_reopened: [], odds_changed: [], market_settled: [], odds_stale: []
  }
  const before = new Map((prev?.markets ?? []).map((m) => [marketKey(m), m]))
  const after = new Set(next.markets.map(marketKey))
  for (const m of prev?.markets ?? []) if (!after.has(marketKey(m))) out.market_removed.push({ kind: 'market_removed', ...ref(m) })
  for (const m of next.markets) {
    const held = before.get(marketKey(m))
    if (held === undefined || whole.has(marketKey(m)) || !sameShape(held, m)) {
      out.market_added.push({ kind: 'market_added', market: m })
      if (prev !== undefined && settledWhole(held, m)) out.market_settled.push({ kind: 'market_settled', ...ref(m), winning: winners(m) })
    } else marketChanges(held, m, out)
  }
  if (prev !== undefined && prev.stale !== next.stale) out.odds_stale.push({ kind: 'odds_stale', stale: next.stale, confirmed_at: confirmedAt ?? null })
  return [...out.market_removed, ...out.market_added, ...out.stopped_at, ...out.market_suspended, ...out.market_reopened, ...out.odds_changed, ...out.market_settled, ...out.odds_stale]
}
