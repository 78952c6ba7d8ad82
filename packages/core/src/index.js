/**
 * @touchline/core: what the gateway, the client library, the terminal client, Web Push and the pages share:
 * the wire model's types, delta and odds application, the match clock, the goal and minute rules, and the
 * backoff of every retry loop. Pure: no IO, free of Node and browser APIs.
 */
export { backoffDelay } from "./backoff.js";
export { observeServerTime, runningMinute, serverNow } from "./clock.js";
export { applyDelta, fullEvent, EVENT_DETAILS } from "./delta.js";
export { GOAL_TYPES, isGoalType, minuteText, scoringSide } from "./goals.js";
export { applyOddsChanges, byMarket, marketKey } from "./odds.js";
export { SUBSCRIBED_KINDS } from "./wire.js";
//# sourceMappingURL=index.js.map