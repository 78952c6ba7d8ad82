/** Every kind a subscribe may name (`SubscribedKind`): the client refuses any other before sending. */
export const SUBSCRIBED_KINDS = [
    'fixture_scheduled',
    'fixture_added',
    'state_changed',
    'score_changed',
    'event_added',
    'event_updated',
    'event_removed',
    'period_changed',
    'clock',
    'statistics_changed',
    'lineups_changed',
    'fixture_updated',
    'fixture_removed',
    'market_removed',
    'market_added',
    'market_suspended',
    'market_reopened',
    'odds_changed',
    'market_settled',
    'odds_stale',
    'standings_changed'
];
//# sourceMappingURL=wire.js.map