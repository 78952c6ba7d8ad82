/**
 * Odds conflation (docs/protocol.md, "Odds"): several odds records of one fixture, in log order, as one
 * record that a client applies in their place. Pure.
 *
 * Every change is kept in order except price moves: a selection's `odds_changed` is kept only at its last
 * move, with the price it had before the first (so its arrow says where it went over the whole interval), and
 * dropped when the price came back where it started. Suspensions, reopenings, settlements, markets added or
 * removed and staleness are never conflated away. A market added or removed starts its selections' chains
 * again: a move before it applied to the market it replaced.
 */
import type { OddsChange, OddsRecord } from '../wire-model/model.ts'

type OddsChanged = Extract<OddsChange, { kind: 'odds_changed' }>
type Previous = OddsChanged['previous']

const marketOf = (c: { bookmaker_id: number, market_id: number, line: string | null }): string => `${c.bookmaker_id}:${c.market_id}:${c.line ?? ''}`
const selectionOf = (c: OddsChanged): string =>
  `${marketOf(c)}\u0000${c.selection.label}\u0000${c.selection.total ?? ''}\u0000${c.selection.handicap ?? ''}`

/** Where a price went from `previous`: null when it is new to the market. */
function directionOf (previous: Previous, decimal: number): OddsChanged['direction'] {
  if (previous === null) return null
  return decimal > previous.decimal ? 'up' : decimal < previous.decimal ? 'down' : null
}

/** The changes of several change sets as one, in order (see above). */
export function conflateChanges (changes: readonly OddsChange[]): OddsChange[] {
  const lastMove = new Map<string, number>()
  changes.forEach((c, i) => { if (c.kind === 'odds_changed') lastMove.set(selectionOf(c), i) })
  /** Per selection: the price before the first move of its current chain. */
  const before = new Map<string, Previous>()
  const out: OddsChange[] = []
  changes.forEach((c, i) => {
    if (c.kind === 'market_added' || c.kind === 'market_removed') {
      const market = marketOf(c.kind === 'market_added' ? c.market : c)
      for (const key of before.keys()) if (key.startsWith(`${market}\u0000`)) before.delete(key)
    }
    if (c.kind !== 'odds_changed') {
      out.push(c)
      return
    }
    const key = selectionOf(c)
    if (!before.has(key)) before.set(key, c.previous)
    if (lastMove.get(key) !== i) return
    const previous = before.get(key) ?? null
    if (previous !== null && previous.price === c.price) return
    out.push({ ...c, previous, direction: directionOf(previous, c.decimal) })
  })
  return out
}

/**
 * Odds records of one fixture, oldest first, as one: the last record's position, time and image, with the
 * changes of all of them conflated. Undefined when nothing is left (every price came back where it was).
 */
export function conflateOdds (records: readonly OddsRecord[]): OddsRecord | undefined {
  const last = records.at(-1)
  if (last === undefined) return undefined
  if (records.length === 1) return last
  const changes = conflateChanges(records.flatMap((r) => r.changes))
  return changes.length === 0 ? undefined : { ...last, changes }
}

/**
 * A page of the log (the `/v1/changes` feed) with each fixture's odds records conflated as a stream conflates
 * them (docs/protocol.md, "Conflation"): a fixture's first odds record opens an interval of `ms` by its `at`,
 * the ones within it are merged into one, which takes the place (and the cursor) of the last of them, and the
 * next record after the interval opens the next. Other records keep their place and their JSON. `ms` 0 leaves
 * the page as it is.
 */
export function conflatePage<R extends { at: string }> (
  records: readonly R[], json: readonly string[] | undefined, ms: number, isOdds: (r: R) => r is R & OddsRecord
): { records: R[], json: Array<string | undefined> } {
  if (ms <= 0) return { records: [...records], json: records.map((_, i) => json?.[i]) }
  /** Per fixture: the indexes of its open interval's records, and when the interval started. */
  const open = new Map<number, { from: number, at: number[] }>()
  /** At the index of an interval's last record: every record of the interval. */
  const closing = new Map<number, number[]>()
  const close = (id: number): void => {
    const group = open.get(id)
    if (group !== undefined) closing.set(group.at.at(-1) as number, group.at)
    open.delete(id)
  }
  records.forEach((r, i) => {
    if (!isOdds(r)) return
    const at = Date.parse(r.at)
    const group = open.get(r.fixture_id)
    if (group !== undefined && at - group.from < ms) group.at.push(i)
    else {
      close(r.fixture_id)
      open.set(r.fixture_id, { from: at, at: [i] })
    }
  })
  for (const id of [...open.keys()]) close(id)
  const out: { records: R[], json: Array<string | undefined> } = { records: [], json: [] }
  records.forEach((r, i) => {
    if (!isOdds(r)) {
      out.records.push(r)
      out.json.push(json?.[i])
      return
    }
    const group = closing.get(i)
    if (group === undefined) return
    if (group.length === 1) {
      out.records.push(r)
      out.json.push(json?.[i])
      return
    }
    const merged = conflateOdds(group.map((j) => records[j] as R & OddsRecord))
    if (merged === undefined) return
    out.records.push(merged as unknown as R)
    out.json.push(undefined)
  })
  return out
}
