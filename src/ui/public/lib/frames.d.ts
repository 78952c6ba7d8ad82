/** Types of frames.js (touchline/client's change-frame logic; client.d.ts has the public ones). */
import type { GoalEvent, LiveFixture, StateEvent } from './client.js'

export { nextFixture } from './client.js'

/** The `state` and `goal` events of an applied change. */
export declare function eventsOf (frame: { changes: ReadonlyArray<{ kind: string, [field: string]: any }> }, fixture: LiveFixture, previous: LiveFixture | undefined, replayed: boolean):
  Array<['state', StateEvent] | ['goal', GoalEvent]>
