/**
 * @touchline/client: live football from a touchline gateway, kept current over one WebSocket.
 *
 * ```ts
 * const client = new TouchlineClient({ url: 'https://scores.example.com', key: 'demo' })
 * client.subscribe({ leagues: [271] }).on('goal', (g) => console.log(g.fixture[g.side].name, 'scores'))
 * await client.connect() // resolves once `client.fixtures` holds the current state
 * ```
 */
export { TouchlineClient, MAX_SUBSCRIPTIONS } from "./client.js";
export { observeServerTime, runningMinute, serverNow, applyDelta, fullEvent, EVENT_DETAILS, applyOddsChanges, scoringSide } from '@touchline/core';
export { REFUSALS } from "./diagnose.js";
export { dateIn, dayRange, localTimeZone, MAX_DAYS } from "./days.js";
export { completeChanges, eventsOf, nextFixture } from "./frames.js";
//# sourceMappingURL=index.js.map