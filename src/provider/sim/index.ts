/** The live match simulator of the embedded provider: the public surface for the provider's wiring. */
export { clockAt, DEFAULT_SIM_SPEED, realMsAt, type MatchClock } from './clock.ts'
export { changePoints, createSimulator, LATEST_WINDOW_MS, LIVESCORES_WINDOW_SECONDS, type Simulator, type SimulatorOptions } from './engine.ts'
export { materialize } from './materialize.ts'
export type { FixtureLive, MatchScript, ParticipantMeta, SimFixtureInput, SimPlayer, SimTeam } from './model.ts'
export { scriptFromRecording, type Replay } from './replay.ts'
export { DEFAULT_LIVE_TARGET, planSchedule, type ScheduleOptions } from './schedule.ts'
export { scriptMatch } from './script.ts'
