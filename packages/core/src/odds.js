/** A market's identity as one string, for maps. */
export const marketKey = (m) => `${m.bookmaker_id}:${m.market_id}:${m.line ?? ''}`;
const sameMarket = (m, c) => m.bookmaker_id === c.bookmaker_id && m.market_id === c.market_id && m.line === c.line;
const sameSelection = (s, k) => s.label === k.label && s.total === k.total && s.handicap === k.handicap;
/** Lines in order: numerically where both are numbers ("2" before "10"), else as text; no line first. */
function byLine(a, b) {
    if (a === b)
        return 0;
    if (a === null || b === null)
        return a === null ? -1 : 1;
    const x = Number(a);
    const y = Number(b);
    return Number.isFinite(x) && Number.isFinite(y) && x !== y ? x - y : a < b ? -1 : a > b ? 1 : 0;
}
/** The order of a fixture's markets: by bookmaker id, then market id, then line. */
export const byMarket = (a, b) => a.bookmaker_id - b.bookmaker_id || a.market_id - b.market_id || byLine(a.line, b.line);
/** The market with `update` applied, when the change is about it. */
function onMarket(markets, c, update) {
    return markets.map((m) => sameMarket(m, c) ? update(m) : m);
}
function applyOne(markets, c) {
    switch (c.kind) {
        case 'market_removed': return markets.filter((m) => !sameMarket(m, c));
        case 'market_added': return [...markets.filter((m) => !sameMarket(m, c.market)), c.market].sort(byMarket);
        case 'market_suspended': return onMarket(markets, c, (m) => ({ ...m, status: 'suspended' }));
        case 'market_reopened': return onMarket(markets, c, (m) => ({ ...m, status: 'open' }));
        case 'odds_changed':
            return onMarket(markets, c, (m) => ({
                ...m,
                selections: m.selections.map((s) => sameSelection(s, c.selection) ? { ...s, price: c.price, decimal: c.decimal } : s)
            }));
        case 'market_settled':
            return onMarket(markets, c, (m) => ({
                ...m,
                status: 'stopped',
                selections: m.selections.map((s) => ({ ...s, winning: c.winning.some((w) => sameSelection(s, w)) }))
            }));
        default: return markets; // odds_stale: on the image itself
    }
}
/** The image after a delta frame; `odds` must be at `frame.version - 1` (a conflated frame's `from_version`). Returns a new object. */
export function applyOddsChanges(odds, frame) {
    let markets = odds.markets;
    let stale = odds.stale;
    for (const c of frame.changes) {
        if (c.kind === 'odds_stale')
            stale = c.stale;
        else
            markets = applyOne(markets, c);
    }
    return { ...odds, markets, stale, version: frame.version, updated_at: frame.at };
}
//# sourceMappingURL=odds.js.map