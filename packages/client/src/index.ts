/**
 * @touchline/client: live football from a touchline gateway, kept current over one WebSocket.
 *
 * ```ts
 * const client = new TouchlineClient({ url: 'https://scores.example.com', key: 'demo' })
 * client.subscribe({ leagues: [271] }).on('goal', (g) => console.log(g.fixture[g.side].name, 'scores'))
 * await client.connect() // resolves once `client.fixtures` holds the current state
 * ```
 */
export { TouchlineClient, MAX_SUBSCRIPTIONS } from './client.ts'
export { observeServerTime, runningMinute, serverNow, applyDelta, fullEvent, EVENT_DETAILS, applyOddsChanges, scoringSide, type BackoffOptions, type MarketRef } from '@touchline/core'
export { REFUSALS, type Diagnosis } from './diagnose.ts'
export { dateIn, dayRange, localTimeZone, MAX_DAYS } from './days.ts'
export { completeChanges, eventsOf, nextFixture, type NextFixture } from './frames.ts'
export type * from './types.ts'
export type * from '@touchline/core'
