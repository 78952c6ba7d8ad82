/** Types of frames.js (touchline/client's change-frame logic; client.d.ts has the public ones). */
import type { GoalEvent, LiveFixture, StateEvent } from './client.js'

export { nextFixture } from './client.js'

type Emitted = Array<['state', StateEvent] | ['goal', GoalEvent]>
type Frame = { changes: ReadonlyArray<{ kind: string, [field: string]: any }> }

/** The `state` and `goal` events of an applied change. */
export declare function eventsOf (frame: Frame, fixture: LiveFixture, previous: LiveFixture | undefined, replayed: boolean): Emitted
