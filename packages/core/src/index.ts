/**
 * @touchline/core: what the gateway, the client library, the terminal client, Web Push and the pages share:
 * the wire model's types, delta and odds application, the match clock, the goal and minute rules, and the
 * backoff of every retry loop. Pure: no IO, free of Node and browser APIs.
 */
export { backoffDelay, type BackoffOptions } from './backoff.ts'
export { observeServerTime, runningMinute, serverNow } from './clock.ts'
export { applyDelta, fullEvent, EVENT_DETAILS } from './delta.ts'
export { GOAL_TYPES, isGoalType, minuteText, scoringSide } from './goals.ts'
export { applyOddsChanges, byMarket, marketKey, type MarketRef } from './odds.ts'
export { SUBSCRIBED_KINDS } from './wire.ts'
export type * from './wire.ts'
