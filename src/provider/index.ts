/**
 * The embedded provider: a full implementation of spec/football-data-service.md over real HTTP.
 * (Interface first; the implementation lands in the following commits.)
 */
import type { PlanName } from './plans.ts'

export interface ProviderOptions {
  /** Listen port; 0 picks a free one. @default 8081 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** Dataset and simulator seed. @default 1 */
  seed?: number
  /** Match seconds per real second. @default 60 */
  simSpeed?: number
  /** Clock in epoch milliseconds, injectable so tests can move time (rate-limit windows, matches). @default Date.now */
  now?: () => number
  /** Override the hourly per-entity limit of some plans (spec 8.1), e.g. for rate-limit tests. */
  hourlyLimits?: Partial<Record<PlanName, number>>
  /** Enterprise burst buffer above the hourly limit (spec 8.2 rule 9). @default 500 */
  burstBuffer?: number
}

export interface RunningProvider {
  /** Base URL including `/v3`, e.g. `http://127.0.0.1:8081/v3`. */
  baseUrl: string
  close: () => Promise<void>
}

export declare function startProvider (opts?: ProviderOptions): Promise<RunningProvider>
