/**
 * Upstream odds rows -> the markets of a fixture's odds image (docs/protocol.md, "Odds"). Pure. A full answer
 * (`/inplay/fixtures/{id}`) gives every market the upstream offers for the fixture; a `latest` answer gives only
 * the rows that changed in its window, merged into the markets held.
 */
import { byMarket, marketKey, type MarketRef } from '@touchline/core'
import type { OddsMarket, OddsSelection } from '../wire-model/model.ts'
import type { OddRow } from '../upstream/odds-schemas.ts'

/**
 * A row's market: bookmaker, market id and line. The upstream lists several markets under one market id, told
 * apart by their rows' `total` (over/under 2.5 and 3.5, the next goal's number); a handicap market's
 * selections carry opposite handicaps, so `handicap` tells selections apart, not markets.
 */
const rowMarket = (row: OddRow): MarketRef => ({ bookmaker_id: row.bookmaker_id, market_id: row.market_id, line: row.total })

/** A selection's identity within its market: label and line. */
export const selectionKey = (s: { label: string, total: string | null, handicap: string | null }): string =>
  `${s.label}\u0000${s.total ?? ''}\u0000${s.handicap ?? ''}`

function selectionOf (row: OddRow): OddsSelection {
  return {
    label: row.label,
    total: row.total,
    handicap: row.handicap,
    name: row.name ?? null,
    price: row.value,
    decimal: Number(row.value),
    // A stopped market's selections either won or did not; an open one's are undecided (null).
    winning: row.stopped === true ? row.winning === true : row.winning ?? null
  }
}

/** The market's status from its rows: stopped for good, suspended, or open. */
function statusOf (rows: readonly OddRow[]): OddsMarket['status'] {
  if (rows.some((r) => r.stopped === true)) return 'stopped'
  if (rows.some((r) => r.suspended === true)) return 'suspended'
  return 'open'
}

/** Rows grouped by market, in the upstream's order within each (sort_order, then id). */
function grouped (rows: readonly OddRow[]): Map<string, OddRow[]> {
  const groups = new Map<string, OddRow[]>()
  for (const row of rows) {
    const key = marketKey(rowMarket(row))
    let group = groups.get(key)
    if (group === undefined) groups.set(key, group = [])
    group.push(row)
  }
  for (const group of groups.values()) group.sort((a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0) || a.id - b.id)
  return groups
}

function marketOf (rows: readonly OddRow[], held: OddsMarket | undefined): OddsMarket {
  const first = rows[0] as OddRow
  // A selection listed twice (the same label and line) keeps its last row, as the upstream's id order has it.
  const selections = new Map<string, OddsSelection>()
  for (const row of rows) selections.set(selectionKey(row), selectionOf(row))
  return {
    bookmaker_id: first.bookmaker_id,
    bookmaker: first.bookmaker?.name ?? held?.bookmaker ?? null,
    market_id: first.market_id,
    market: first.market?.name ?? first.market_description ?? held?.market ?? null,
    line: first.total,
    status: statusOf(rows),
    selections: [...selections.values()]
  }
}

/** Every market of a full answer (one fixture's rows), ordered by bookmaker, then market. */
export function marketsOf (rows: readonly OddRow[], held: readonly OddsMarket[] = []): OddsMarket[] {
  const known = new Map(held.map((m) => [marketKey(m), m]))
  return [...grouped(rows).entries()].map(([key, group]) => marketOf(group, known.get(key))).sort(byMarket)
}

/**
 * The markets held with a `latest` answer's rows merged in: a row replaces its selection (or adds it), the
 * rows of a market give its status; markets without rows stay as they were.
 */
export function mergeMarkets (held: readonly OddsMarket[], rows: readonly OddRow[]): OddsMarket[] {
  const markets = new Map(held.map((m) => [marketKey(m), m]))
  for (const [key, group] of grouped(rows)) {
    const prev = markets.get(key)
    const update = marketOf(group, prev)
    if (prev === undefined) {
      markets.set(key, update)
      continue
    }
    const selections = new Map(prev.selections.map((s) => [selectionKey(s), s]))
    for (const s of update.selections) selections.set(selectionKey(s), s)
    markets.set(key, { ...update, selections: [...selections.values()] })
  }
  return [...markets.values()].sort(byMarket)
}
