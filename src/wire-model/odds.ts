/**
 * The odds part of the wire model (docs/protocol.md, "Odds"): a fixture's in-play odds as one image (every
 * bookmaker's markets and their selections, with prices as the upstream writes them), the typed odds changes
 * the odds differ finds between two images, and the `odds` frames that carry them. Declared here, beside
 * model.ts, as zod schemas that the documents and the client's declarations are generated from.
 *
 * The image has a version of its own, separate from the fixture's: odds move far more often than the match,
 * and a client that takes no odds keeps an unbroken version chain of the fixture (a `delta` subscriber).
 */
import { z } from 'zod'

const Id = z.number().int().positive()
const Timestamp = z.iso.datetime({ offset: true })

/** What tells one selection of a market from another: its label, and its line where the market has lines. */
export const SelectionKeySchema = z.strictObject({
  label: z.string().describe('The selection as the upstream labels it: "1", "X", "2", "Over", "Under", "Yes", "No", ...'),
  total: z.string().nullable().describe('The line of an over/under market ("2.5"), as the upstream writes it; else null.'),
  handicap: z.string().nullable().describe('The handicap of a handicap market, as the upstream writes it; else null.')
}).meta({ id: 'SelectionKey' })
export type SelectionKey = z.infer<typeof SelectionKeySchema>

export const OddsSelectionSchema = z.strictObject({
  ...SelectionKeySchema.shape,
  name: z.string().nullable().describe('A name for people, when the upstream gives one.'),
  price: z.string().describe('The decimal price exactly as the upstream sent it ("2.10"): never rounded.'),
  decimal: z.number().positive().describe('`price` as a number, for arithmetic and sorting; `price` is the exact value.'),
  winning: z.boolean().nullable().describe('Whether the selection won, once its market is settled; null before.')
}).meta({ id: 'OddsSelection' })
export type OddsSelection = z.infer<typeof OddsSelectionSchema>

export const MARKET_STATUSES = ['open', 'suspended', 'stopped'] as const
export const OddsMarketSchema = z.strictObject({
  bookmaker_id: Id,
  bookmaker: z.string().nullable().describe('The bookmaker\'s name, when known.'),
  market_id: Id,
  market: z.string().nullable().describe('The market\'s name ("Fulltime Result", "Over/Under", ...), when known.'),
  line: z.string().nullable().describe('What tells apart the markets a bookmaker offers under one market id: the upstream\'s `total` of their rows (over/under "2.5" and "3.5"; the goal a next-goal market is about, "2"); null when the market has one.'),
  status: z.enum(MARKET_STATUSES).describe('`suspended`: no bets for now (a goal, a penalty, a VAR review); `stopped`: closed for good.'),
  selections: z.array(OddsSelectionSchema).describe('In the upstream\'s order.')
}).meta({ id: 'OddsMarket' })
export type OddsMarket = z.infer<typeof OddsMarketSchema>

export const FixtureOddsSchema = z.strictObject({
  fixture_id: Id,
  league_id: Id,
  home_id: z.number().int().nullable().describe('The home team, for subscriptions by team.'),
  away_id: z.number().int().nullable().describe('The away team, for subscriptions by team.'),
  markets: z.array(OddsMarketSchema).describe('By bookmaker id, then market id, then line (numerically where lines are numbers).'),
  stale: z.boolean().describe('True when the upstream has not confirmed these odds for 30 s although the match goes on: do not trust the prices.'),
  updated_at: Timestamp.describe('When the odds last changed in touchline.'),
  version: z.number().int().nonnegative().describe('Monotonic per fixture\'s odds, +1 per odds change set; apart from the fixture\'s own version.')
}).meta({ id: 'FixtureOdds', description: 'A fixture\'s in-play odds as one image: every bookmaker\'s markets followed.' })
export type FixtureOdds = z.infer<typeof FixtureOddsSchema>

// ---- odds changes -----------------------------------------------------------------------------------------

const MarketRef = { bookmaker_id: Id, market_id: Id, line: z.string().nullable() }

export const OddsChangedSchema = z.strictObject({
  kind: z.literal('odds_changed'),
  ...MarketRef,
  selection: SelectionKeySchema,
  price: z.string().describe('The new price, as the upstream sent it.'),
  decimal: z.number().positive(),
  previous: z.strictObject({ price: z.string(), decimal: z.number().positive() }).nullable().describe('The price before; null for a selection new to the market.'),
  direction: z.enum(['up', 'down']).nullable().describe('Whether the price went up (longer odds) or down; null for a new selection.')
}).meta({ id: 'OddsChanged', description: 'One selection\'s price moved.' })

export const MarketAddedSchema = z.strictObject({ kind: z.literal('market_added'), market: OddsMarketSchema })
  .meta({ id: 'MarketAdded', description: 'A market new to the fixture, or one whose selections changed, whole (it replaces the one held).' })
export const MarketRemovedSchema = z.strictObject({ kind: z.literal('market_removed'), ...MarketRef })
  .meta({ id: 'MarketRemoved', description: 'A market the upstream no longer offers for the fixture.' })
export const MarketSuspendedSchema = z.strictObject({ kind: z.literal('market_suspended'), ...MarketRef })
  .meta({ id: 'MarketSuspended', description: 'Every selection of the market suspended at once (a goal, a penalty, a VAR review): show it greyed, not gone.' })
export const MarketReopenedSchema = z.strictObject({ kind: z.literal('market_reopened'), ...MarketRef })
  .meta({ id: 'MarketReopened', description: 'The market open again; its new prices come as `odds_changed` in the same frame.' })
export const MarketSettledSchema = z.strictObject({
  kind: z.literal('market_settled'),
  ...MarketRef,
  winning: z.array(SelectionKeySchema).describe('The winning selections; empty while the market is stopped and its result is not known.')
}).meta({ id: 'MarketSettled', description: 'The market stopped for good (full time), with its winners when known.' })
export const OddsStaleSchema = z.strictObject({
  kind: z.literal('odds_stale'),
  stale: z.boolean(),
  confirmed_at: Timestamp.nullable().describe('When the upstream last confirmed the odds (listed them, changed or not).')
}).meta({ id: 'OddsStale', description: 'The odds went stale (not confirmed for 30 s while the match goes on), or were confirmed again.' })

export const OddsChangeSchema = z.discriminatedUnion('kind', [
  MarketRemovedSchema, MarketAddedSchema, MarketSuspendedSchema, MarketReopenedSchema, OddsChangedSchema, MarketSettledSchema, OddsStaleSchema
]).meta({ id: 'OddsChange', description: 'One typed change of a fixture\'s odds; `kind` tells which. The same in both formats.' })
export type OddsChange = z.infer<typeof OddsChangeSchema>

/** Every kind of odds change (docs/protocol.md, "Odds", gives their order within one change set). */
export const ODDS_KINDS = ['market_removed', 'market_added', 'market_suspended', 'market_reopened', 'odds_changed', 'market_settled', 'odds_stale'] as const
export type OddsKind = typeof ODDS_KINDS[number]

// ---- records and frames ------------------------------------------------------------------------------------

const RecordHead = {
  cursor: z.string(),
  fixture_id: Id,
  league_id: Id,
  at: Timestamp.describe('When touchline detected the change.')
}

/** One entry of the event log: every odds change of one fixture found in one poll, with the image after them. */
const OddsRecordSchema = z.strictObject({
  ...RecordHead,
  changes: z.array(OddsChangeSchema).min(1),
  odds: FixtureOddsSchema
})
export type OddsRecord = z.infer<typeof OddsRecordSchema>

const FullOddsFrameSchema = z.strictObject({ type: z.literal('odds'), ...OddsRecordSchema.shape })
  .meta({ id: 'FullOddsFrame', description: 'Odds changes in `full` format: with the fixture\'s odds image after them.' })

const DeltaOddsFrameSchema = z.strictObject({
  type: z.literal('odds'),
  ...RecordHead,
  version: z.number().int().positive().describe('The odds image\'s version after the change: apply to the image held at `version - 1` (or `from_version`); any other jump means a lost frame.'),
  from_version: z.number().int().nonnegative().optional().describe('Present on a frame that conflates several change sets (`conflate_ms`): the version its changes apply to, instead of `version - 1`.'),
  changes: z.array(OddsChangeSchema).min(1)
}).meta({ id: 'DeltaOddsFrame', description: 'Odds changes in `delta` format: no image; applying `changes` in order to the image at `version - 1` gives the stored image (`updated_at` becomes `at`).' })
export type DeltaOddsFrame = z.infer<typeof DeltaOddsFrameSchema>

export const OddsFrameSchema = z.union([FullOddsFrameSchema, DeltaOddsFrameSchema]).meta({
  id: 'OddsFrame',
  description: 'The odds changes of one fixture, for subscriptions that take odds, in the connection\'s format.'
})
